package alloc

// Greedy places a problem by list scheduling, in a time linear in its
// units times its stages: table parts in program order (dependencies
// point forward), each match at the first stage its dependencies and the
// stages' room allow, each ALU of its actions at the first stage after
// the ALUs it reads. It returns nil when that first-fit placement does
// not fit the target, which does not prove that no placement does.
//
// The exact encodings give a minimal number of stages, but their time
// grows fast with the problem (a few hundred tables take minutes), while
// a greedy placement of a pipeline's tables is usually minimal already:
// the solvers start from it as a bound, and when it meets the lower
// bound (LowerBound) nothing is left to prove.
func Greedy(p *Problem) *Solution {
	m, err := newModel(p)
	if err != nil {
		return nil
	}
	g := newGreedy(m)
	for t := range m.parts {
		for i := range m.parts[t] {
			if !g.placePart(t, i) {
				return nil
			}
		}
	}
	sol := m.solution(g.stage)
	sol.Solver, sol.Mode = "greedy", Feasible
	if Validate(p, sol) != nil {
		return nil // a case the greedy's bookkeeping misjudged: the solvers decide
	}
	return sol
}

// LowerBound is a number of stages no placement can go below: the
// longest dependency chain, and the parts and ALUs at their limits per
// stage.
func LowerBound(p *Problem) int {
	_, chain := longestChain(p)
	m, err := newModel(p)
	if err != nil {
		return chain
	}
	return max(chain, m.lowerBound())
}

// greedy is a placement under way: each unit's stage (-1 until placed)
// and what each stage holds.
type greedy struct {
	m                           *model
	stage                       []int
	tables, stateful, stateless []int // per stage
}

func newGreedy(m *model) *greedy {
	g := &greedy{m: m, stage: make([]int, len(m.units)), tables: make([]int, m.ns), stateful: make([]int, m.ns),
		stateless: make([]int, m.ns)}
	for x := range g.stage {
		g.stage[x] = -1
	}
	return g
}

// placePart places part i of table t at the first stage where all of it
// fits, undoing what a failed try placed.
func (g *greedy) placePart(t, i int) bool {
	us := g.m.parts[t][i]
	for s := g.earliest(t, i); s < g.m.ns; s++ {
		snap := g.save()
		if g.tryPart(us, s) {
			return true
		}
		g.restore(snap)
	}
	return false
}

// earliest is the first stage the part's match may take: after the
// units of the tables it depends on (strictly after for match and action
// dependencies), and no earlier than the table's previous part.
func (g *greedy) earliest(t, i int) int {
	m, s := g.m, 0
	for _, d := range m.p.Deps {
		if d.To != t {
			continue
		}
		for _, from := range m.parts[d.From] {
			for _, x := range from {
				s = max(s, g.stage[x]+btoi(d.Kind.strict()))
			}
		}
	}
	if i > 0 {
		prev := m.parts[t][i-1]
		if m.ordered(t) {
			for _, x := range prev {
				s = max(s, g.stage[x])
			}
		} else {
			s = max(s, g.stage[prev[0]])
		}
	}
	return s
}

// tryPart puts the part's match at stage s and each ALU at its first
// stage with room; false when some unit finds none.
func (g *greedy) tryPart(us []int, s int) bool {
	m := g.m
	g.stage[us[0]] = s
	for _, x := range us[1:] {
		first := s
		for _, r := range m.units[x].reads {
			first = max(first, g.stage[r]+1)
		}
		if m.modifiesKey(x) && first != s {
			return false
		}
		placed := false
		for st := first; st < m.ns && !placed; st++ {
			placed = g.tryUnit(x, st)
			if m.modifiesKey(x) {
				break
			}
		}
		if !placed {
			return false
		}
	}
	return g.keyWrittenLast(us) && g.countTables(us)
}

// keyWrittenLast reports whether no unit of the part sits after a unit
// that changes the table's key (the repeated match would see the new key).
func (g *greedy) keyWrittenLast(us []int) bool {
	last := 0
	for _, x := range us {
		last = max(last, g.stage[x])
	}
	for _, x := range us {
		if g.m.writesKey(x) && g.stage[x] < last {
			return false
		}
	}
	return true
}

// tryUnit puts ALU x at stage st if the stage has room for it and for
// carrying the outputs it reads across the stages in between.
func (g *greedy) tryUnit(x, st int) bool {
	m, l := g.m, g.m.p.Limits
	u := m.units[x]
	if u.stateful {
		if g.stateful[st] >= l.StatefulALUsPerStage {
			return false
		}
	} else if g.stateless[st] >= l.ALUsPerStage-l.HeaderALUs {
		return false
	}
	// The outputs x reads are carried through the stages after their
	// current last reader and before st.
	var carry []int
	for _, r := range u.reads {
		for c := max(g.end(r), g.stage[r]) + 1; c < st; c++ {
			carry = append(carry, c)
		}
	}
	need := make(map[int]int)
	for _, c := range carry {
		need[c]++
	}
	if !u.stateful {
		need[st]++
	}
	for c, n := range need {
		if g.stateless[c]+n > l.ALUsPerStage-l.HeaderALUs {
			return false
		}
	}
	for _, c := range carry {
		g.stateless[c]++
	}
	if u.stateful {
		g.stateful[st]++
	} else {
		g.stateless[st]++
	}
	g.stage[x] = st
	return true
}

// end is the last stage of the placed units that read unit x.
func (g *greedy) end(x int) int {
	e := -1
	for _, r := range g.m.units[x].readers {
		e = max(e, g.stage[r])
	}
	return e
}

// countTables counts the part in every stage it holds a unit in; false
// when one of them has no table left.
func (g *greedy) countTables(us []int) bool {
	in := map[int]bool{}
	for _, x := range us {
		in[g.stage[x]] = true
	}
	for st := range in {
		if g.tables[st] >= g.m.p.Limits.TablesPerStage {
			return false
		}
	}
	for st := range in {
		g.tables[st]++
	}
	return true
}

// snapshot is what a try may change, to undo it.
type snapshot struct {
	stage, tables, stateful, stateless []int
}

func (g *greedy) save() snapshot {
	return snapshot{append([]int(nil), g.stage...), append([]int(nil), g.tables...),
		append([]int(nil), g.stateful...), append([]int(nil), g.stateless...)}
}

func (g *greedy) restore(s snapshot) {
	g.stage, g.tables, g.stateful, g.stateless = s.stage, s.tables, s.stateful, s.stateless
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
