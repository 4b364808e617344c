package transform

import (
	"context"
	"fmt"
	"slices"
)

// DepKind is a dependency kind of Jose et al.'s table dependency graph
// ("Compiling packet programs to reconfigurable switches", NSDI 2015).
type DepKind int

const (
	// MatchDep: the later node's lookup reads what the earlier one writes;
	// it must sit in a later stage.
	MatchDep DepKind = iota
	// ActionDep: the later node's actions read or write what the earlier
	// one writes; it must sit in a later stage.
	ActionDep
	// SuccessorDep: the earlier node decides whether the later one runs
	// (a gateway and its branches, a table and its next tables, an exit
	// and what follows); predication lets them share a stage.
	SuccessorDep
	// ReverseMatchDep: the later node writes what the earlier one reads;
	// they may share a stage, since a stage reads its inputs first.
	ReverseMatchDep
)

func (k DepKind) String() string {
	return [...]string{"match", "action", "successor", "reverse-match"}[k]
}

// NextStage reports whether a dependency of this kind puts its target in
// a later stage than its source.
func (k DepKind) NextStage() bool { return k == MatchDep || k == ActionDep }

// Dep is a dependency between two nodes of one control.
type Dep struct {
	From, To *Node
	Kind     DepKind
	// Hazard is RAW, WAR or WAW ("" for successor dependencies) and Loc
	// the location it is on.
	Hazard string
	Loc    string
}

func (d Dep) String() string {
	if d.Hazard == "" {
		return fmt.Sprintf("%s: %s -> %s", d.Kind, d.From.Span, d.To.Span)
	}
	return fmt.Sprintf("%s (%s on %s): %s -> %s", d.Kind, d.Hazard, d.Loc, d.From.Span, d.To.Span)
}

// hazard finds the data dependency from a to b (a first in program
// order), the strongest kind first; ok is false when there is none.
func hazard(a, b *Node) (d Dep, ok bool) {
	if len(a.eff.writes) == 0 && len(b.eff.writes) == 0 {
		return Dep{}, false // every hazard has a write (two gateways of a chain)
	}
	checks := []struct {
		from, to []loc
		kind     DepKind
		hazard   string
	}{
		{a.eff.writes, b.match, MatchDep, "RAW"},
		{a.eff.writes, b.eff.reads, ActionDep, "RAW"},
		{a.eff.writes, b.eff.writes, ActionDep, "WAW"},
		{a.match, b.eff.writes, ReverseMatchDep, "WAR"},
		{a.eff.reads, b.eff.writes, ReverseMatchDep, "WAR"},
	}
	for _, c := range checks {
		for _, x := range c.from {
			for _, y := range c.to {
				if x.overlaps(y) {
					return Dep{From: a, To: b, Kind: c.kind, Hazard: c.hazard, Loc: string(longer(x, y))}, true
				}
			}
		}
	}
	return Dep{}, false
}

func longer(a, b loc) loc {
	if len(b) > len(a) {
		return b
	}
	return a
}

// dependencies computes a control's guarded dependencies: every pair of
// nodes with a hazard, unless the guard (the conjunction of both nodes'
// path conditions) cannot hold. A guard is only trusted when nothing
// between the first condition it evaluates and the later node writes what
// its conditions read (otherwise the conditions see different values, and
// the dependency stays, as CaT's analysis does). False lists the dropped
// dependencies.
//
// A node that decides whether another runs is its predecessor: each node
// has a dependency from its parent (a data one, or a successor one), so
// the successor dependency of a farther ancestor is implied and left
// out: in an else-if chain of n arms, each of the n gateways decides
// every later arm, and those pairs alone were n² dependencies.
//
// The time is quadratic in the nodes of a control that may run together
// (every pair is looked at for a hazard); the nodes of the other branches
// of a gateway are skipped a branch at a time.
func dependencies(ctx context.Context, nodes []*Node, gs *guards) (deps, false_ []Dep, err error) {
	w := &writers{nodes: nodes, counts: map[loc][]int32{}}
	end := subtreeEnds(nodes)
	var skip []span
	for j, b := range nodes {
		if err := ctx.Err(); err != nil { // j hazards to look at: many, on a long chain
			return nil, nil, err
		}
		skip = earlierBranches(b, skip[:0])
		k := 0
		for i := 0; i < j; i++ {
			for k < len(skip) && skip[k].first <= i {
				k++
			}
			if k < len(skip) && skip[k].at < i {
				// i to first-1 are in another branch of the gateway at:
				// never both run, no dependency at all.
				i = skip[k].first - 1
				continue
			}
			a := nodes[i]
			// A node that decides whether b runs is b's predecessor; a data
			// hazard that needs a later stage binds more (a table's action
			// writing what its next table matches on).
			succ := b.Order <= end[a.Order] || a.eff.endsControl()
			d, ok := hazard(a, b)
			if ok && succ && !d.Kind.NextStage() {
				ok = false
			}
			if ok {
				if a.path != nil || b.path != nil {
					guard := append(a.path.conds(), b.path.conds()...)
					if w.stable(guard, a, b) {
						sat, err := gs.satisfiable(ctx, guard)
						if err != nil {
							return nil, nil, err
						}
						if !sat {
							false_ = append(false_, d)
							ok = false
						}
					}
				}
			}
			switch {
			case ok:
				deps = append(deps, d)
			case succ && (b.Parent == a || a.eff.endsControl()):
				deps = append(deps, Dep{From: a, To: b, Kind: SuccessorDep})
			}
		}
	}
	return deps, false_, nil
}

// subtreeEnds gives each node the Order of the last node it decides
// whether to run (its own when none): the nodes a gateway or table
// decides are added right after it, so they are the Orders up to that.
func subtreeEnds(nodes []*Node) []int {
	end := make([]int, len(nodes))
	for i := len(nodes) - 1; i >= 0; i-- {
		end[i] = max(end[i], i)
		if p := nodes[i].Parent; p != nil {
			end[p.Order] = max(end[p.Order], end[i])
		}
	}
	return end
}

// span is the at and first of a condition on a path.
type span struct{ at, first int }

// earlierBranches appends to out the conditions of b's path, outermost
// first: the nodes strictly between a condition's at and its first are
// in other branches of its gateway than b, and these ranges are disjoint
// and ascending (a deeper gateway is inside the outer branch).
func earlierBranches(b *Node, out []span) []span {
	for x := b.path; x != nil; x = x.up {
		out = append(out, span{x.at, x.first})
	}
	slices.Reverse(out)
	return out
}

// exclusive reports whether a and b lie in different branches of one
// gateway or switch, so that no packet runs both: below the paths'
// common prefix, their conditions are two branches of one gateway.
func exclusive(a, b *Node) bool {
	x, y := a.path, b.path
	for x.len() > y.len() {
		x = x.up
	}
	for y.len() > x.len() {
		y = y.up
	}
	var dx, dy *branch
	for x != y {
		dx, dy, x, y = x, y, x.up, y.up
	}
	return dx != nil && dx.at == dy.at
}

// writers answers "does a node between two program points write l?"
// from per-location prefix counts, built once per location.
type writers struct {
	nodes  []*Node
	counts map[loc][]int32
}

// any reports whether a node with Order in (lo, hi) writes l.
func (w *writers) any(l loc, lo, hi int) bool {
	c, ok := w.counts[l]
	if !ok {
		c = make([]int32, len(w.nodes)+1)
		for i, n := range w.nodes {
			c[i+1] = c[i]
			if anyOverlap(n.eff.writes, []loc{l}) {
				c[i+1]++
			}
		}
		w.counts[l] = c
	}
	return hi > lo+1 && c[hi]-c[lo+1] > 0
}

// stable reports whether the conditions of guard see one state: no node
// that may run with a and b writes a location between two conditions that
// read it. Then the conjunction, with one variable per location, is
// exactly "a and b both run".
func (w *writers) stable(guard []cond, a, b *Node) bool {
	for i, c := range guard {
		for _, d := range guard[i+1:] {
			lo, hi := min(c.at, d.at), max(c.at, d.at)
			for _, l := range c.reads {
				for _, m := range d.reads {
					if l.overlaps(m) && w.changed(longer(l, m), lo, hi, a, b) {
						return false
					}
				}
			}
		}
	}
	return true
}

// changed reports whether a node in (lo, hi) that may run with a and b
// writes l.
func (w *writers) changed(l loc, lo, hi int, a, b *Node) bool {
	if !w.any(l, lo, hi) {
		return false
	}
	for _, m := range w.nodes[lo+1 : hi] {
		if !exclusive(m, a) && !exclusive(m, b) && anyOverlap(m.eff.writes, []loc{l}) {
			return true
		}
	}
	return false
}
