// Package placement is phase 3 for a program: it poses the allocation
// problem of a program through phases 1 and 2 (a table per node of phase
// 1's control graphs, the ALUs of each action, the guarded dependencies),
// solves it, says in the program's terms why a program does not fit, and
// reads the placement back per stage and per synthesized action.
//
// It sits between alloc, which knows tables and ALUs only by index, and
// the phases whose results it reads.
package placement

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/transform"
)

// defaultTableSize is the entries of a table that declares no size (what
// BMv2 allocates).
const defaultTableSize = 1024

// Placement is a program's allocation problem and, once solved, its
// solution.
type Placement struct {
	Problem *alloc.Problem
	// Nodes are the phase 1 nodes the problem's tables come from, by
	// table index.
	Nodes []*transform.Node
	// Solution is nil until Solve succeeds; LowerBound is the stages no
	// placement can go below (Solution.Proven says it is met).
	Solution   *alloc.Solution
	LowerBound int
}

// ExactBudget is how long a solver may look for a placement better than
// the greedy one before the greedy one is taken (its bound said): the
// exact encodings' time grows fast with the problem, and a compile must
// answer.
const ExactBudget = 10 * time.Second

// Solve places the problem: first by list scheduling (alloc.Greedy); a
// greedy placement that meets the lower bound is optimal, and in
// feasible mode any one will do. Otherwise solver s looks for one in
// fewer stages within ExactBudget; the greedy one stands when there is
// none (then proven optimal) or when time runs out (its bound said). A
// program that does not fit is an *alloc.InfeasibleError that says why
// in the program's terms; a placement that breaks a constraint is an
// internal error.
func (pl *Placement) Solve(ctx context.Context, s alloc.Solver, mode alloc.Mode) error {
	if msg := alloc.ChainTooLong(pl.Problem); msg != "" {
		// No placement can beat the longest chain: say so without the
		// solver, which takes long to prove it (SipHash: 18 s).
		return &alloc.InfeasibleError{Why: msg}
	}
	if msg := alloc.TooFull(pl.Problem); msg != "" {
		// Counting says so at once; Greedy and Explain would place
		// thousands of tables first.
		return &alloc.InfeasibleError{Why: msg}
	}
	if msg := alloc.KeyWrittenEarly(pl.Problem); msg != "" {
		// No relaxed limit would help: say what would.
		return &alloc.InfeasibleError{Why: msg}
	}
	pl.LowerBound = alloc.LowerBound(pl.Problem)
	greedy := alloc.Greedy(pl.Problem)
	if greedy != nil {
		greedy.Mode, greedy.Proven = mode, greedy.Stages <= pl.LowerBound
		if mode == alloc.Feasible || greedy.Proven {
			pl.Solution = greedy
			return nil
		}
	}
	sol, err := pl.exact(ctx, s, mode, greedy)
	var inf *alloc.InfeasibleError
	switch {
	case err == nil:
	case greedy != nil && errors.As(err, &inf):
		// No placement in fewer stages: the greedy one is optimal.
		sol, pl.LowerBound = greedy, greedy.Stages
		sol.Proven = true
	case greedy != nil && ctx.Err() == nil:
		sol = greedy // the solver ran out of its budget: the greedy placement and its bound
	case errors.As(err, &inf):
		return &alloc.InfeasibleError{Why: alloc.Explain(ctx, s, pl.Problem)}
	default:
		return fmt.Errorf("allocating: %w", err)
	}
	if err := alloc.Validate(pl.Problem, sol); err != nil {
		return fmt.Errorf("internal error: the %s placement breaks a constraint: %w", sol.Solver, err)
	}
	pl.Solution = sol
	return nil
}

// exact runs the solver; when there is a greedy placement, within
// ExactBudget and one stage fewer than it: a placement there is better,
// and none proves the greedy one optimal. A solver answers that sooner
// than it finds the best placement within the greedy one's stages (32
// copies of RCP on Banzai: CBC proves 6 stages too few in 2 s, and did not
// prove 7 optimal in 10 s).
func (pl *Placement) exact(ctx context.Context, s alloc.Solver, mode alloc.Mode, greedy *alloc.Solution) (*alloc.Solution, error) {
	if greedy == nil {
		return s.Solve(ctx, pl.Problem, mode)
	}
	q := *pl.Problem
	q.Limits.Stages = greedy.Stages - 1
	ctx, cancel := context.WithTimeout(ctx, ExactBudget)
	defer cancel()
	return s.Solve(ctx, &q, mode)
}

// StageUsage is what one stage holds.
type StageUsage struct {
	Tables     int `json:"tables"`
	ALUs       int `json:"alus"`
	Gateways   int `json:"gateways"`
	Containers int `json:"containers"`
}

// Usage counts what each stage of the solution holds (Containers is the
// target's to fill).
func (pl *Placement) Usage() []StageUsage {
	sol := pl.Solution
	out := make([]StageUsage, sol.Stages)
	for t, parts := range sol.Parts {
		for i, stages := range parts {
			for _, s := range stages {
				if pl.Nodes[t].Kind == transform.GatewayNode {
					out[s].Gateways++
				} else {
					out[s].Tables++
				}
			}
			for _, alus := range sol.ALUs[t][i] {
				for _, s := range alus {
					out[s].ALUs++
				}
			}
		}
	}
	for s := range out {
		if s < len(sol.Propagated) {
			out[s].ALUs += sol.Propagated[s]
		}
	}
	return out
}

// Stages returns the stages the solution gave g's ALUs, in the first part
// of the first table that runs g's action; nil when no table runs it.
func (pl *Placement) Stages(g *synth.Graph) []int {
	p, sol := pl.Problem, pl.Solution
	for t, tab := range p.Tables {
		for k, a := range tab.Actions {
			if p.Actions[a].Name == g.Action.Name && len(sol.ALUs[t][0][k]) == len(g.ALUs) {
				return sol.ALUs[t][0][k]
			}
		}
	}
	return nil
}

// Build poses one problem of the match-action controls' nodes
// (they share the stages): a table per node, its actions' ALUs, and the
// guarded dependencies.
func Build(an *transform.Analysis, graphs map[string]*synth.Graph, limits target.Limits) *Placement {
	pl := &Placement{Problem: &alloc.Problem{Limits: limits}}
	p := pl.Problem
	// An action is described once per set of keys it runs under: which of
	// its ALUs write the key depends on them.
	type use struct {
		a    *ir.Action
		keys string
	}
	actions := map[use]int{}
	action := func(a *ir.Action, keys []ir.Expr) int {
		k := use{a, exprsText(keys)}
		if i, ok := actions[k]; ok {
			return i
		}
		act := alloc.Action{Name: a.Name}
		if g, ok := graphs[a.Name]; ok {
			act.ALUs = graphALUs(g)
			act.ModifiesKey = markKeyWrites(g, act.ALUs, keys)
		} else {
			act.ALUs, act.ModifiesKey = plainALUs(a.Body), writesKey(a, keys)
		}
		p.Actions = append(p.Actions, act)
		actions[k] = len(p.Actions) - 1
		return len(p.Actions) - 1
	}
	for _, cg := range an.Controls {
		base := len(p.Tables)
		for _, n := range cg.Nodes {
			p.Tables = append(p.Tables, nodeTable(n, action))
			pl.Nodes = append(pl.Nodes, n)
		}
		for _, d := range cg.Deps {
			p.Deps = append(p.Deps, alloc.Dep{From: base + d.From.Order, To: base + d.To.Order, Kind: depKinds[d.Kind]})
		}
	}
	return pl
}

var depKinds = map[transform.DepKind]alloc.DepKind{
	transform.MatchDep: alloc.Match, transform.ActionDep: alloc.ActionDep,
	transform.SuccessorDep: alloc.Successor, transform.ReverseMatchDep: alloc.ReverseMatch,
}

func nodeTable(n *transform.Node, action func(*ir.Action, []ir.Expr) int) alloc.Table {
	switch n.Kind {
	case transform.TableNode:
		t := n.Table
		tab := alloc.Table{Name: t.Name, Entries: t.Size}
		var keys []ir.Expr
		for _, k := range t.Keys {
			keys = append(keys, k.Expr)
			tab.Match = widerMatch(tab.Match, k.Match)
		}
		switch {
		case len(keys) == 0:
			tab.Entries = 1 // a keyless table runs its default action: one entry's worth
		case tab.Entries == 0:
			tab.Entries = max(len(t.Entries), defaultTableSize)
		}
		for _, a := range n.Actions() {
			tab.Actions = append(tab.Actions, action(a, keys))
		}
		return tab
	case transform.GatewayNode:
		return alloc.Table{Name: fmt.Sprintf("condition at line %d", n.Span.Start.Line)}
	}
	if a := SynthesizedCall(n); a != nil {
		// A direct call of a synthesized action: a keyless table of it.
		return alloc.Table{Name: fmt.Sprintf("call of %s at line %d", a.Name, n.Span.Start.Line), Entries: 1, Actions: []int{action(a, nil)}}
	}
	// Statements outside tables: a keyless table whose one action is them.
	a := &ir.Action{Name: fmt.Sprintf("statements at line %d", n.Span.Start.Line), Body: n.Stmts}
	return alloc.Table{Name: a.Name, Actions: []int{action(a, nil)}}
}

// SynthesizedCall returns the action a default node calls when the node
// is one call of an action synthesis maps (phase 1 makes such a call a
// node of its own), or nil.
func SynthesizedCall(n *transform.Node) *ir.Action {
	if n.Kind != transform.DefaultNode || len(n.Stmts) != 1 {
		return nil
	}
	if c, ok := n.Stmts[0].(*ir.CallAction); ok && c.Call.Action.Synthesized() {
		return c.Call.Action
	}
	return nil
}

// widerMatch orders match kinds by how they split: exact parts are
// disjoint, the others apply in priority order.
func widerMatch(a, b string) string {
	rank := map[string]int{"": 0, "exact": 1, "optional": 2, "lpm": 3, "range": 3, "ternary": 4}
	if rank[b] > rank[a] {
		return b
	}
	return a
}

// graphALUs describes a synthesized graph's ALUs for allocation.
func graphALUs(g *synth.Graph) []alloc.ALU {
	out := make([]alloc.ALU, len(g.ALUs))
	for i, a := range g.ALUs {
		out[i].Stateful = len(a.State) > 0
		reads := map[int]bool{}
		ops := append([]synth.Operand(nil), a.Inputs...)
		for _, c := range a.State {
			ops = append(ops, c.Index)
		}
		for _, op := range ops {
			if op.Kind == synth.FromALU && !reads[op.Index] {
				reads[op.Index] = true
				out[i].Reads = append(out[i].Reads, op.Index)
			}
		}
	}
	return out
}

// markKeyWrites marks the ALUs of g after which the table's key differs:
// an ALU whose output a key field takes, and, for a key field given a
// copy or a constant (which lands when the action's last stage ends),
// every ALU no other reads. It reports whether the key changes with no
// ALU to mark: then it changes where the table matches.
func markKeyWrites(g *synth.Graph, alus []alloc.ALU, keys []ir.Expr) (atMatch bool) {
	read := make([]bool, len(alus))
	for _, a := range alus {
		for _, r := range a.Reads {
			read[r] = true
		}
	}
	for _, w := range g.Writes {
		field := ir.Format(g.Fields[w.Field])
		if !isKey(field, keys) {
			continue
		}
		if w.Value.Kind == synth.FromALU {
			alus[w.Value.Index].WritesKey = field
			continue
		}
		if len(alus) == 0 {
			atMatch = true
		}
		for i := range alus {
			if !read[i] {
				alus[i].WritesKey = field
			}
		}
	}
	return atMatch
}

// plainALUs describes an action without @atomic code as P4 targets run
// one: in a single stage, one ALU per primitive (stateful for an extern
// object's method), all reading the stage's input.
func plainALUs(body []ir.Stmt) []alloc.ALU {
	var out []alloc.ALU
	for _, st := range body {
		switch st := st.(type) {
		case *ir.If:
			out = append(out, plainALUs(st.Then)...)
			out = append(out, plainALUs(st.Else)...)
		case *ir.Block:
			out = append(out, plainALUs(st.Body)...)
		case *ir.CallAction:
			out = append(out, plainALUs(st.Call.Action.Body)...)
		case *ir.CallStmt:
			_, onInstance := st.Call.Callee.Recv.(*ir.InstanceRef)
			out = append(out, alloc.ALU{Stateful: onInstance})
		case *ir.Assign, *ir.SetValid, *ir.StackShift:
			out = append(out, alloc.ALU{})
		case *ir.Declare:
			if st.Init != nil {
				out = append(out, alloc.ALU{})
			}
		}
	}
	return out
}

func exprsText(es []ir.Expr) string {
	var parts []string
	for _, e := range es {
		parts = append(parts, ir.Format(e))
	}
	return strings.Join(parts, ", ")
}

// isKey reports whether the location lhs (printed) is, holds or lies
// in one of keys.
func isKey(lhs string, keys []ir.Expr) bool {
	within := func(a, b string) bool {
		return a == b || strings.HasPrefix(a, b+".") || strings.HasPrefix(a, b+"[")
	}
	for _, k := range keys {
		if k := ir.Format(k); within(k, lhs) || within(lhs, k) {
			return true
		}
	}
	return false
}

// writesKey reports whether an action assigns a table key's field.
func writesKey(a *ir.Action, keys []ir.Expr) bool {
	if len(keys) == 0 {
		return false
	}
	var walk func([]ir.Stmt) bool
	walk = func(ss []ir.Stmt) bool {
		for _, st := range ss {
			switch st := st.(type) {
			case *ir.Assign:
				if isKey(ir.Format(st.LHS), keys) {
					return true
				}
			case *ir.CallStmt: // r.read(meta.k, i), hash(meta.k, ...)
				for _, arg := range st.Call.Args {
					if arg.Dir != ir.DirIn && arg.Dir != ir.DirNone && isKey(ir.Format(arg.Value), keys) {
						return true
					}
				}
			case *ir.If:
				if walk(st.Then) || walk(st.Else) {
					return true
				}
			case *ir.Block:
				if walk(st.Body) {
					return true
				}
			}
		}
		return false
	}
	return walk(a.Body)
}
