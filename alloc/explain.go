package alloc

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/p4hls/p4hls/target"
)

// Solvers returns the allocation solvers; the first is the default:
// CBC. Since the greedy placement places every row of `p4hls bench
// alloc` and `bench sweep` without a solver, a solver's work is to show
// that no placement has fewer stages than the greedy one, or find one
// that does, and that CBC does far sooner: 32 copies of RCP on Banzai in
// 2 s, where Z3 had not in 10 s (nor in 120 s with --stages 6), and
// TestSolverProvesGreedyOptimal's 8 copies in 0.4 s, where Z3 had not in
// 10 s. (On whole problems Z3 was the faster: 3.0 s against 10.6 s for
// a 120-table switch program, `go test ./alloc -bench SwitchScale`.)
func Solvers() []Solver { return []Solver{CBC{}, Z3{}} }

// SolverNamed returns the solver called name ("" for the default), or an
// error listing the solvers.
func SolverNamed(name string) (Solver, error) {
	solvers := Solvers()
	if name == "" {
		return solvers[0], nil
	}
	var names []string
	for _, s := range solvers {
		if s.Name() == name {
			return s, nil
		}
		names = append(names, s.Name())
	}
	return nil, fmt.Errorf("unknown solver %q (solvers: %s)", name, strings.Join(names, ", "))
}

// Explain finds the limit that makes a problem infeasible by solving it
// again with each limit relaxed, and says it in the program's terms: the
// limit that binds, what hits it (the chain, or what shares the stage),
// and what would remove it.
func Explain(ctx context.Context, s Solver, p *Problem) string {
	l := p.Limits
	relaxed := []struct {
		name   string
		relax  func(*target.Limits)
		report func(*Solution, *Problem) string
	}{
		{"stages", func(x *target.Limits) { x.Stages = 4*l.Stages + 16 }, func(sol *Solution, q *Problem) string {
			msg := fmt.Sprintf("needs %d stages, the target has %d", sol.Stages, l.Stages)
			if chain, n := longestChain(q); n > l.Stages {
				msg += fmt.Sprintf(": the chain %s is the longest (%d stages); shorten it (fewer tables that depend on each other, a shallower action), or compile for %d stages (--stages %d)", chain, n, n, n)
			} else {
				msg += fmt.Sprintf(": no chain is that long, but the tables and ALUs that must follow each other do not fit their stages together; compile for %d stages (--stages %d), or give a stage more room (--tables-per-stage, --alus-per-stage)", sol.Stages, sol.Stages)
			}
			return msg
		}},
		{"tables", func(x *target.Limits) { x.TablesPerStage = 1 << 20 }, func(sol *Solution, q *Problem) string {
			s, n := busiest(sol.Stages, func(st int) int { return countTables(sol, st) })
			return fmt.Sprintf("stage %d needs %d tables (%s), the target allows %d, and more stages would not help: they must share it; "+
				"merge some of them, or allow %d tables per stage (--tables-per-stage %d)",
				s, n, strings.Join(tablesAt(q, sol, s), ", "), l.TablesPerStage, n, n)
		}},
		{"stateful ALUs", func(x *target.Limits) { x.StatefulALUsPerStage = 1 << 20 }, func(sol *Solution, q *Problem) string {
			s, n := busiest(sol.Stages, func(st int) int { return countALUs(q, sol, st, true) })
			return fmt.Sprintf("stage %d needs %d stateful ALUs (%s), the target allows %d, and more stages would not help: they must share it "+
				"(an action that writes its table's key runs where the table matches); split the state among actions that can run in different stages",
				s, n, strings.Join(actionsAt(q, sol, s, true), ", "), l.StatefulALUsPerStage)
		}},
		{"ALUs", func(x *target.Limits) { x.ALUsPerStage = 1 << 20 }, func(sol *Solution, q *Problem) string {
			s, n := busiest(sol.Stages, func(st int) int { return countALUs(q, sol, st, false) + sol.Propagated[st] })
			return fmt.Sprintf("stage %d needs %d ALUs (%s; %d carry results to later stages), the target allows %d, and more stages would not help: "+
				"they must share it; allow %d ALUs per stage (--alus-per-stage %d)",
				s, n, strings.Join(actionsAt(q, sol, s, false), ", "), sol.Propagated[s], l.ALUsPerStage-l.HeaderALUs, n+l.HeaderALUs, n+l.HeaderALUs)
		}},
	}
	for _, r := range relaxed {
		q := *p
		r.relax(&q.Limits)
		sol, err := quickest(ctx, s, &q)
		if err == nil {
			return "the program does not fit: it " + r.report(sol, &q)
		}
	}
	q := *p
	for _, r := range relaxed {
		r.relax(&q.Limits)
	}
	if _, err := s.Solve(ctx, &q, Optimal); err == nil {
		return "the program does not fit: no single limit binds, but more stages and more room per stage together would hold it; " +
			"compile with --stages, --tables-per-stage and --alus-per-stage raised"
	}
	return "the program does not fit the target, whichever limits are relaxed: its table dependencies and its actions' ALUs order each other in a cycle"
}

// tablesAt names the tables (and gateways) with a part in stage st.
func tablesAt(p *Problem, sol *Solution, st int) []string {
	var out []string
	for t, parts := range sol.Parts {
		for _, stages := range parts {
			if slices.Contains(stages, st) {
				out = append(out, p.Tables[t].Name)
				break
			}
		}
	}
	return out
}

// actionsAt names the actions with ALUs of the kind in stage st, each
// with its count.
func actionsAt(p *Problem, sol *Solution, st int, stateful bool) []string {
	var out []string
	for t, parts := range sol.ALUs {
		for _, acts := range parts {
			for k, alus := range acts {
				act := p.Actions[p.Tables[t].Actions[k]]
				n := 0
				for u, s := range alus {
					if s == st && act.ALUs[u].Stateful == stateful {
						n++
					}
				}
				if n > 0 {
					out = append(out, fmt.Sprintf("%d of action %s", n, act.Name))
				}
			}
		}
	}
	return out
}

// quickest places a relaxed problem the quick way when it can: a greedy
// placement that meets the lower bound is optimal, so the solver (whose
// time a relaxed problem of hundreds of tables can take by the minute)
// runs only when the greedy one may be beaten, and stops at
// explainBudget with the greedy one.
func quickest(ctx context.Context, s Solver, q *Problem) (*Solution, error) {
	g := Greedy(q)
	if g != nil && g.Stages <= LowerBound(q) {
		return g, nil
	}
	sctx, cancel := context.WithTimeout(ctx, explainBudget)
	defer cancel()
	sol, err := s.Solve(sctx, q, Optimal)
	if err != nil && g != nil && ctx.Err() == nil {
		return g, nil
	}
	return sol, err
}

// explainBudget bounds each solve of a relaxed problem.
const explainBudget = 5 * time.Second

func busiest(stages int, count func(int) int) (stage, n int) {
	for s := 0; s < stages; s++ {
		if c := count(s); c > n {
			stage, n = s, c
		}
	}
	return stage, n
}

func countTables(sol *Solution, stage int) int {
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

func countALUs(p *Problem, sol *Solution, stage int, stateful bool) int {
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

// ChainTooLong says why a problem has no placement when its longest
// chain needs more stages than the target has ("" when it does not).
func ChainTooLong(p *Problem) string {
	chain, n := longestChain(p)
	if n <= p.Limits.Stages {
		return ""
	}
	return fmt.Sprintf("needs at least %d stages, the target has %d: the chain %s is the longest (%d stages); "+
		"shorten it (fewer tables that depend on each other, a shallower action), or compile for %d stages (--stages %d)", n, p.Limits.Stages, chain, n, n, n)
}

// longestChain is the dependency chain that needs the most stages: each
// table takes as many stages as its deepest action has ALUs in a row,
// and a match or action dependency starts the next table a stage later.
func longestChain(p *Problem) (string, int) {
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
	preds := make([][]Dep, len(p.Tables))
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
			if d.Kind == Match || d.Kind == ActionDep {
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
func aluDepth(alus []ALU) int {
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

// KeyWrittenEarly says why a problem has no placement when an action
// writes its table's key with an ALU that later ALUs of the action read
// ("" when none does): the match repeats in every stage the action's ALUs
// occupy, and after the write it would match the new key.
func KeyWrittenEarly(p *Problem) string {
	for _, tab := range p.Tables {
		for _, a := range tab.Actions {
			act := p.Actions[a]
			for v, alu := range act.ALUs {
				for _, u := range alu.Reads {
					if key := act.ALUs[u].WritesKey; key != "" {
						return fmt.Sprintf("action %s writes %s, a key of table %s, in the stage of its ALU %d, and its ALU %d reads that result a stage later; "+
							"the table's match repeats in every stage its action's ALUs occupy (CaT §3.3) and would match the new key there: "+
							"key %s on a field the action does not write, or compute %s in a table applied before %s",
							act.Name, key, tab.Name, u, v, tab.Name, key, tab.Name)
					}
				}
			}
		}
	}
	return ""
}
