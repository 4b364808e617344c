package alloc

import "fmt"

// A model is a Problem flattened into units: what one stage holds for one
// table part. A part's match is a unit; so is each ALU of each of its
// actions (every part runs its own copy). Both encodings, ILP and SMT,
// give each unit a stage.

type unit struct {
	table, part int
	// action is the index into the table's Actions, alu into the
	// action's ALUs; both are -1 for the part's match.
	action, alu int
	stateful    bool
	// reads and readers are units of the same part and action.
	reads, readers []int
}

func (u *unit) isMatch() bool { return u.alu < 0 }

type model struct {
	p     *Problem
	ns    int
	units []unit
	// parts[t][i] lists the units of part i of table t, its match first.
	parts [][][]int
}

// newModel flattens p, or says at once that it cannot fit (tooSmall).
func newModel(p *Problem) (*model, error) {
	if err := p.check(); err != nil {
		return nil, err
	}
	m := &model{p: p, ns: p.Limits.Stages}
	for t, tab := range p.Tables {
		var parts [][]int
		for i := 0; i < p.Parts(t); i++ {
			us := []int{m.add(unit{table: t, part: i, action: -1, alu: -1})}
			for k, a := range tab.Actions {
				first := len(m.units)
				for u, alu := range p.Actions[a].ALUs {
					x := unit{table: t, part: i, action: k, alu: u, stateful: alu.Stateful}
					for _, r := range alu.Reads {
						x.reads = append(x.reads, first+r)
					}
					us = append(us, m.add(x))
				}
				for x := first; x < len(m.units); x++ {
					for _, r := range m.units[x].reads {
						m.units[r].readers = append(m.units[r].readers, x)
					}
				}
			}
			parts = append(parts, us)
		}
		m.parts = append(m.parts, parts)
	}
	return m, m.tooSmall()
}

func (m *model) add(u unit) int {
	m.units = append(m.units, u)
	return len(m.units) - 1
}

// ordered reports whether table t's parts apply in priority order (a
// packet may match entries in several parts of a ternary, LPM or range
// table; the first part that hits decides).
func (m *model) ordered(t int) bool {
	switch m.p.Tables[t].Match {
	case "ternary", "lpm", "range":
		return true
	}
	return false
}

// lowerBound is a number of stages no placement can go below: what the
// parts, stateful ALUs and stateless ALUs need at their limits per stage.
// Both encodings state it; it costs nothing and spares the solver proving
// it (a switch-scale program is often exactly that full).
func (m *model) lowerBound() int {
	lb, _ := capacityBound(m.p)
	return lb
}

// tooSmall rejects, without a solver, a problem whose lower bound is
// past the target's stages.
func (m *model) tooSmall() error {
	if msg := TooFull(m.p); msg != "" {
		return &InfeasibleError{Why: msg}
	}
	return nil
}

// capacityBound is the stages the problem's table parts, stateful ALUs
// and stateless ALUs need at the target's limits per stage, the largest
// of the three, and a sentence naming the limit that gives it. It counts
// without building the model: linear in the tables and their ALUs.
func capacityBound(p *Problem) (int, string) {
	parts, stateful, stateless := 0, 0, 0
	for t, tab := range p.Tables {
		n := p.Parts(t)
		parts += n
		for _, a := range tab.Actions {
			for _, alu := range p.Actions[a].ALUs {
				if alu.Stateful {
					stateful += n
				} else {
					stateless += n
				}
			}
		}
	}
	l := p.Limits
	ceil := func(n, per int) int { return (n + per - 1) / per }
	lb, why := 1, ""
	if need := ceil(parts, l.TablesPerStage); need > lb {
		lb, why = need, fmt.Sprintf("its %d table parts (tables, gateways and keyless tables, a part per stage's worth of entries) need at least %d stages at %d tables per stage; "+
			"merge tables, or allow %d tables per stage (--tables-per-stage %d)", parts, need, l.TablesPerStage, ceil(parts, l.Stages), ceil(parts, l.Stages))
	}
	if need := ceil(stateful, l.StatefulALUsPerStage); need > lb {
		lb, why = need, fmt.Sprintf("its %d stateful ALUs need at least %d stages at %d per stage; split the state among fewer actions", stateful, need, l.StatefulALUsPerStage)
	}
	if need := ceil(stateless, l.ALUsPerStage-l.HeaderALUs); need > lb {
		lb, why = need, fmt.Sprintf("its %d ALUs need at least %d stages at %d per stage; allow more ALUs per stage (--alus-per-stage)", stateless, need, l.ALUsPerStage-l.HeaderALUs)
	}
	return lb, why
}

// TooFull says why a problem has no placement when its table parts or
// ALUs alone need more stages than the target has at its limits per
// stage ("" when they do not). It counts, so it answers at once where
// a solver, or Explain's relaxed solves, would take minutes (thousands of
// tables).
func TooFull(p *Problem) string {
	lb, why := capacityBound(p)
	if lb <= p.Limits.Stages {
		return ""
	}
	return fmt.Sprintf("needs at least %d stages, the target has %d: %s", lb, p.Limits.Stages, why)
}

// modifiesKey reports whether unit x's action may not span stages.
func (m *model) modifiesKey(x int) bool {
	u := m.units[x]
	if u.isMatch() {
		return false
	}
	return m.p.Actions[m.p.Tables[u.table].Actions[u.action]].ModifiesKey
}

// writesKey reports whether unit x changes its table's key when its
// stage ends: no unit of its part may sit in a later stage, where the
// repeated match would see the new key. The match of a table with a
// ModifiesKey action counts: that action runs in the match's stage.
func (m *model) writesKey(x int) bool {
	u := m.units[x]
	t := m.p.Tables[u.table]
	if u.isMatch() {
		for _, a := range t.Actions {
			if m.p.Actions[a].ModifiesKey {
				return true
			}
		}
		return false
	}
	return m.modifiesKey(x) || m.p.Actions[t.Actions[u.action]].ALUs[u.alu].WritesKey != ""
}

// solution turns the stage of every unit into a Solution.
func (m *model) solution(stage []int) *Solution {
	s := &Solution{Propagated: make([]int, m.ns)}
	for t := range m.parts {
		s.Parts = append(s.Parts, make([][]int, len(m.parts[t])))
		s.ALUs = append(s.ALUs, make([][][]int, len(m.parts[t])))
		for i, us := range m.parts[t] {
			alus := make([][]int, len(m.p.Tables[t].Actions))
			for k, a := range m.p.Tables[t].Actions {
				alus[k] = make([]int, len(m.p.Actions[a].ALUs))
			}
			held := map[int]bool{}
			for _, x := range us {
				held[stage[x]] = true
				if u := m.units[x]; !u.isMatch() {
					alus[u.action][u.alu] = stage[x]
				}
				s.Stages = max(s.Stages, stage[x]+1)
			}
			for st := 0; st < m.ns; st++ {
				if held[st] {
					s.Parts[t][i] = append(s.Parts[t][i], st)
				}
			}
			s.ALUs[t][i] = alus
		}
	}
	for x, u := range m.units {
		if end := m.end(x, stage); len(u.readers) > 0 {
			for st := stage[x] + 1; st < end; st++ {
				s.Propagated[st]++
			}
		}
	}
	return s
}

// end is the last stage that reads unit x's output.
func (m *model) end(x int, stage []int) int {
	e := stage[x]
	for _, r := range m.units[x].readers {
		e = max(e, stage[r])
	}
	return e
}

func (m *model) unitName(x int) string {
	u := m.units[x]
	t := m.p.Tables[u.table]
	if u.isMatch() {
		return fmt.Sprintf("the match of %s (part %d)", t.Name, u.part+1)
	}
	return fmt.Sprintf("ALU %d of action %s of %s (part %d)", u.alu, m.p.Actions[t.Actions[u.action]].Name, t.Name, u.part+1)
}
