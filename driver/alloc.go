package driver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/pipeline"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/transform"
)

// defaultTableSize is the entries of a table that declares no size (what
// BMv2 allocates).
const defaultTableSize = 1024

// Solvers are the allocation solvers by name; the first is the default:
// Z3, measured faster than CBC on every row of `p4hls bench alloc` and on
// the switch-scale program of `p4hls bench sweep` (README).
var Solvers = []alloc.Solver{alloc.Z3{}, alloc.CBC{}}

func solverNamed(name string) (alloc.Solver, error) {
	if name == "" {
		return Solvers[0], nil
	}
	var names []string
	for _, s := range Solvers {
		if s.Name() == name {
			return s, nil
		}
		names = append(names, s.Name())
	}
	return nil, fmt.Errorf("unknown solver %q (solvers: %s)", name, strings.Join(names, ", "))
}

// placement is what allocation built and found, kept for verification.
type placement struct {
	problem *alloc.Problem
	nodes   []*transform.Node // the node each table came from
	sol     *alloc.Solution
}

// allocPhase places the tables of the transformed program (from phase
// 1's analysis of it) and the ALUs of its actions (the synthesized graphs
// for @atomic ones) in stages.
func allocPhase(ctx context.Context, req Request, res *Result, tg *target.Target, progress Progress) (*placement, error) {
	start := time.Now()
	defer func() { res.Report.Phases["alloc"] = time.Since(start).Seconds() }()
	solver, err := solverNamed(req.Solver)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrRequest, err)
	}
	graphs := map[string]*synth.Graph{}
	for _, g := range res.Graphs {
		graphs[g.Action.Name] = g
	}
	pl := buildProblem(res.analysis, graphs, tg.Limits)
	if msg := chainTooLong(pl.problem); msg != "" {
		// No placement can beat the longest chain: say so without the
		// solver, which takes long to prove it (SipHash: 18 s).
		return nil, &DoesNotFitError{fmt.Errorf("%s: %s", req.File, msg)}
	}
	progress("alloc", fmt.Sprintf("%d tables, %s, %s", len(pl.problem.Tables), solver.Name(), req.AllocMode))
	sol, err := solver.Solve(ctx, pl.problem, req.AllocMode)
	var inf *alloc.InfeasibleError
	switch {
	case errors.As(err, &inf):
		return nil, &DoesNotFitError{fmt.Errorf("%s: %s", req.File, explain(ctx, solver, pl.problem))}
	case err != nil:
		return nil, fmt.Errorf("allocating: %w", err)
	}
	if err := alloc.Validate(pl.problem, sol); err != nil {
		return nil, fmt.Errorf("internal error: the %s placement breaks a constraint: %w", solver.Name(), err)
	}
	pl.sol = sol
	res.Report.Stages = sol.Stages
	res.Report.Alloc = &AllocReport{Solver: sol.Solver, Mode: sol.Mode.String(), Proven: sol.Proven, Seconds: sol.Time.Seconds(),
		Tables: len(pl.problem.Tables)}
	res.Report.PerStage = perStage(pl)
	return pl, nil
}

// AllocReport is report.json's "alloc".
type AllocReport struct {
	Solver  string  `json:"solver"`
	Mode    string  `json:"mode"`
	Proven  bool    `json:"proven_optimal"`
	Seconds float64 `json:"seconds"`
	Tables  int     `json:"tables"`
}

// buildProblem makes one problem of the match-action controls' nodes
// (they share the stages): a table per node, its actions' ALUs, and the
// guarded dependencies.
func buildProblem(an *transform.Analysis, graphs map[string]*synth.Graph, limits target.Limits) *placement {
	pl := &placement{problem: &alloc.Problem{Limits: limits}}
	p := pl.problem
	type use struct {
		a           *ir.Action
		modifiesKey bool
	}
	actions := map[use]int{}
	action := func(a *ir.Action, keys []ir.Expr) int {
		k := use{a, writesKey(a, keys)}
		if i, ok := actions[k]; ok {
			return i
		}
		act := alloc.Action{Name: a.Name, ModifiesKey: k.modifiesKey}
		if g, ok := graphs[a.Name]; ok {
			act.ALUs = graphALUs(g)
		} else {
			act.ALUs = plainALUs(a.Body)
		}
		p.Actions = append(p.Actions, act)
		actions[k] = len(p.Actions) - 1
		return len(p.Actions) - 1
	}
	for _, cg := range an.Controls {
		base := len(p.Tables)
		for _, n := range cg.Nodes {
			p.Tables = append(p.Tables, nodeTable(n, action))
			pl.nodes = append(pl.nodes, n)
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
	// Statements outside tables: a keyless table whose one action is them.
	a := &ir.Action{Name: fmt.Sprintf("statements at line %d", n.Span.Start.Line), Body: n.Stmts}
	return alloc.Table{Name: a.Name, Actions: []int{action(a, nil)}}
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

// writesKey reports whether an action assigns a table key's field.
func writesKey(a *ir.Action, keys []ir.Expr) bool {
	if len(keys) == 0 {
		return false
	}
	var texts []string
	for _, k := range keys {
		texts = append(texts, ir.Format(k))
	}
	var walk func([]ir.Stmt) bool
	walk = func(ss []ir.Stmt) bool {
		for _, st := range ss {
			switch st := st.(type) {
			case *ir.Assign:
				lhs := ir.Format(st.LHS)
				for _, k := range texts {
					if strings.HasPrefix(k, lhs) || strings.HasPrefix(lhs, k) {
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

// perStage counts what each stage holds.
func perStage(pl *placement) []StageUsage {
	out := make([]StageUsage, pl.sol.Stages)
	for t, parts := range pl.sol.Parts {
		for i, stages := range parts {
			for _, s := range stages {
				if pl.nodes[t].Kind == transform.GatewayNode {
					out[s].Gateways++
				} else {
					out[s].Tables++
				}
			}
			for _, alus := range pl.sol.ALUs[t][i] {
				for _, s := range alus {
					out[s].ALUs++
				}
			}
		}
	}
	for s := range out {
		if s < len(pl.sol.Propagated) {
			out[s].ALUs += pl.sol.Propagated[s]
		}
	}
	return out
}

// explain finds the limit that makes a problem infeasible by solving it
// again with each limit relaxed, and says it in the program's terms.
func explain(ctx context.Context, s alloc.Solver, p *alloc.Problem) string {
	l := p.Limits
	relaxed := []struct {
		name   string
		relax  func(*target.Limits)
		report func(*alloc.Solution, *alloc.Problem) string
	}{
		{"stages", func(x *target.Limits) { x.Stages = 4*l.Stages + 16 }, func(sol *alloc.Solution, q *alloc.Problem) string {
			msg := fmt.Sprintf("needs %d stages, the target has %d", sol.Stages, l.Stages)
			if chain, n := longestChain(q); n > l.Stages {
				msg += fmt.Sprintf(": the chain %s is the longest (%d stages)", chain, n)
			}
			return msg
		}},
		{"tables", func(x *target.Limits) { x.TablesPerStage = 1 << 20 }, func(sol *alloc.Solution, q *alloc.Problem) string {
			s, n := busiest(sol.Stages, func(st int) int { return countTables(sol, st) })
			return fmt.Sprintf("stage %d needs %d tables, the target allows %d", s, n, l.TablesPerStage)
		}},
		{"stateful ALUs", func(x *target.Limits) { x.StatefulALUsPerStage = 1 << 20 }, func(sol *alloc.Solution, q *alloc.Problem) string {
			s, n := busiest(sol.Stages, func(st int) int { return countALUs(q, sol, st, true) })
			return fmt.Sprintf("stage %d needs %d stateful ALUs, the target allows %d", s, n, l.StatefulALUsPerStage)
		}},
		{"ALUs", func(x *target.Limits) { x.ALUsPerStage = 1 << 20 }, func(sol *alloc.Solution, q *alloc.Problem) string {
			s, n := busiest(sol.Stages, func(st int) int { return countALUs(q, sol, st, false) + sol.Propagated[st] })
			return fmt.Sprintf("stage %d needs %d ALUs, the target allows %d", s, n, l.ALUsPerStage-l.HeaderALUs)
		}},
	}
	for _, r := range relaxed {
		q := *p
		r.relax(&q.Limits)
		sol, err := s.Solve(ctx, &q, alloc.Optimal)
		if err == nil {
			return "the program does not fit: it " + r.report(sol, &q)
		}
	}
	return "the program does not fit the target, whichever single limit is relaxed"
}

func busiest(stages int, count func(int) int) (stage, n int) {
	for s := 0; s < stages; s++ {
		if c := count(s); c > n {
			stage, n = s, c
		}
	}
	return stage, n
}

func countTables(sol *alloc.Solution, stage int) int {
	n := 0
	for _, parts := range sol.Parts {
		for _, stages := range parts {
			for _, s := range stages {
				if s == stage {
					n++
				}
			}
		}
	}
	return n
}

func countALUs(p *alloc.Problem, sol *alloc.Solution, stage int, stateful bool) int {
	n := 0
	for t, parts := range sol.ALUs {
		for _, acts := range parts {
			for k, alus := range acts {
				for u, s := range alus {
					if s == stage && p.Actions[p.Tables[t].Actions[k]].ALUs[u].Stateful == stateful {
						n++
					}
				}
			}
		}
	}
	return n
}

// placed returns the stages allocation gave g's ALUs, in the first part
// of the first table that runs g's action (at their depths when no table
// runs it).
func (pl *placement) placed(g *synth.Graph) pipeline.Placed {
	for t, tab := range pl.problem.Tables {
		for k, a := range tab.Actions {
			if pl.problem.Actions[a].Name == g.Action.Name && len(pl.sol.ALUs[t][0][k]) == len(g.ALUs) {
				return pipeline.Placed{Graph: g, Stages: pl.sol.ALUs[t][0][k]}
			}
		}
	}
	return pipeline.AtDepths(g)
}

// chainTooLong says why a problem has no placement when its longest
// chain needs more stages than the target has ("" when it does not).
func chainTooLong(p *alloc.Problem) string {
	chain, n := longestChain(p)
	if n <= p.Limits.Stages {
		return ""
	}
	return fmt.Sprintf("needs at least %d stages, the target has %d: the chain %s is the longest (%d stages)", n, p.Limits.Stages, chain, n)
}

// longestChain is the dependency chain that needs the most stages: each
// table takes as many stages as its deepest action has ALUs in a row,
// and a match or action dependency starts the next table a stage later.
func longestChain(p *alloc.Problem) (string, int) {
	weight := make([]int, len(p.Tables))
	deepest := make([]string, len(p.Tables))
	for t, tab := range p.Tables {
		weight[t] = 1
		for _, a := range tab.Actions {
			if d := aluDepth(p.Actions[a].ALUs); d > weight[t] {
				weight[t], deepest[t] = d, p.Actions[a].Name
			}
		}
	}
	preds := make([][]alloc.Dep, len(p.Tables))
	for _, d := range p.Deps {
		preds[d.To] = append(preds[d.To], d)
	}
	last := make([]int, len(p.Tables)) // the table's last stage, from 0
	from := make([]int, len(p.Tables))
	done := make([]bool, len(p.Tables))
	var visit func(t int) int
	visit = func(t int) int {
		if done[t] {
			return last[t]
		}
		done[t] = true // dependencies form a DAG; this guards a bad problem
		last[t], from[t] = weight[t]-1, -1
		for _, d := range preds[t] {
			gap := 0
			if d.Kind == alloc.Match || d.Kind == alloc.ActionDep {
				gap = 1
			}
			if v := visit(d.From) + gap + weight[t]; v-1 > last[t] || (v-1 == last[t] && from[t] < 0 && gap > 0) {
				last[t], from[t] = v-1, d.From
			}
		}
		return last[t]
	}
	end := 0
	for t := range p.Tables {
		if visit(t) > last[end] {
			end = t
		}
	}
	if len(p.Tables) == 0 {
		return "", 0
	}
	var names []string
	for t := end; t >= 0; t = from[t] {
		name := p.Tables[t].Name
		if deepest[t] != "" {
			name += fmt.Sprintf(" -> action %s (%d ALUs deep)", deepest[t], weight[t])
		}
		names = append([]string{name}, names...)
	}
	return strings.Join(names, " -> "), last[end] + 1
}

// aluDepth is the longest run of ALUs that read each other.
func aluDepth(alus []alloc.ALU) int {
	depth := make([]int, len(alus))
	out := 0
	for u, a := range alus {
		depth[u] = 1
		for _, r := range a.Reads {
			depth[u] = max(depth[u], depth[r]+1)
		}
		out = max(out, depth[u])
	}
	return out
}

// Problem is the allocation problem of a Transform result, with no
// synthesized action: every action counts as P4's one-stage action
// (p4hls bench sweep).
func Problem(res *Result, targetName string) (*alloc.Problem, error) {
	tg, _, _, err := grammars(targetName, "")
	if err != nil {
		return nil, err
	}
	if res.analysis == nil {
		return nil, fmt.Errorf("the program has not been through phase 1")
	}
	return buildProblem(res.analysis, nil, tg.Limits).problem, nil
}
