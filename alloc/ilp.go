package alloc

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/p4hls/p4hls/solver/milp"
)

// CBC solves the ILP form of Table 3 with CBC: a binary per unit and
// stage, the stage as their weighted sum, and appendix C's big-M
// indicators for the propagation of outputs across stages.
type CBC struct{}

func (CBC) Name() string { return "cbc" }

// ilp builds the model's rows.
type ilp struct {
	m     *model
	lp    *milp.Model
	x     [][]milp.Var // x[unit][stage]
	stage []milp.Var
	err   error
}

func (CBC) Solve(ctx context.Context, p *Problem, mode Mode) (*Solution, error) {
	start := time.Now()
	m, err := newModel(p)
	if err != nil {
		return nil, err
	}
	lp := milp.NewModel()
	defer lp.Close()
	e := &ilp{m: m, lp: lp}
	e.build(mode)
	if e.err != nil {
		return nil, fmt.Errorf("building the ILP: %w", e.err)
	}
	st, err := lp.Solve(ctx, mode == Feasible)
	if err != nil {
		return nil, err
	}
	switch st {
	case milp.Infeasible:
		return nil, &InfeasibleError{Why: "CBC proved the constraints infeasible"}
	case milp.Unknown:
		return nil, fmt.Errorf("CBC stopped without a placement: %w", context.DeadlineExceeded)
	}
	stages := make([]int, len(m.units))
	for x := range m.units {
		stages[x] = int(math.Round(lp.Value(e.stage[x])))
	}
	sol := m.solution(stages)
	sol.Proven = st == milp.Optimal && mode == Optimal
	sol.Solver, sol.Mode, sol.Time = "cbc", mode, time.Since(start)
	return sol, nil
}

func (e *ilp) row(vars []milp.Var, coefs []float64, sense milp.Sense, rhs float64) {
	if e.err == nil {
		e.err = e.lp.AddRow("", vars, coefs, sense, rhs)
	}
}

func (e *ilp) build(mode Mode) {
	m, ns := e.m, e.m.ns
	// Each unit sits in exactly one stage; stage is that stage's number.
	for x := range m.units {
		row := make([]milp.Var, ns)
		for s := range row {
			row[s] = e.lp.AddVar(fmt.Sprintf("x%d_%d", x, s), 0, 1, true, 0)
		}
		e.x = append(e.x, row)
		e.stage = append(e.stage, e.lp.AddVar(fmt.Sprintf("stage%d", x), 0, float64(ns-1), true, 0))
		e.row(row, ones(ns), milp.EQ, 1)
		vars, coefs := append([]milp.Var{e.stage[x]}, row...), []float64{-1}
		for s := 0; s < ns; s++ {
			coefs = append(coefs, float64(s))
		}
		e.row(vars, coefs, milp.EQ, 0)
	}
	e.tables()
	e.order()
	e.capacity()
	if mode == Optimal {
		cost := e.lp.AddVar("cost", float64(min(m.lowerBound(), ns)), float64(ns), true, 1)
		for x := range m.units {
			e.row([]milp.Var{cost, e.stage[x]}, []float64{1, -1}, milp.GE, 1)
		}
	}
}

// tables: a part's match is in every stage where one of its units is
// (match-action pairing), and a stage holds at most N_table matches.
func (e *ilp) tables() {
	m, ns := e.m, e.m.ns
	held := make([][]milp.Var, ns)
	for t := range m.parts {
		for _, us := range m.parts[t] {
			for s := 0; s < ns; s++ {
				ms := e.lp.AddVar("m", 0, 1, true, 0)
				held[s] = append(held[s], ms)
				for _, x := range us {
					e.row([]milp.Var{e.x[x][s], ms}, []float64{1, -1}, milp.LE, 0)
				}
			}
		}
	}
	for s := 0; s < ns; s++ {
		e.row(held[s], ones(len(held[s])), milp.LE, float64(m.p.Limits.TablesPerStage))
	}
}

// order: a part's ALUs run no earlier than its match (in its stage, when
// the action writes the key), an ALU after the ALUs it reads, no unit of
// a part after an ALU that writes its key, a table
// after the tables it depends on, and the parts of an ordered table in
// order.
func (e *ilp) order() {
	m := e.m
	last := make([][]milp.Var, len(m.parts)) // last[t][i] >= every unit of the part
	for t := range m.parts {
		for _, us := range m.parts[t] {
			l := e.lp.AddVar("last", 0, float64(m.ns-1), true, 0)
			last[t] = append(last[t], l)
			match := us[0]
			for _, x := range us {
				e.row([]milp.Var{l, e.stage[x]}, []float64{1, -1}, milp.GE, 0)
				if x == match {
					continue
				}
				sense := milp.GE
				if m.modifiesKey(x) {
					sense = milp.EQ
				}
				e.row([]milp.Var{e.stage[x], e.stage[match]}, []float64{1, -1}, sense, 0)
				for _, r := range m.units[x].reads {
					e.row([]milp.Var{e.stage[x], e.stage[r]}, []float64{1, -1}, milp.GE, 1)
				}
			}
			for _, w := range us {
				if m.writesKey(w) { // the part ends where its key changes
					e.row([]milp.Var{l, e.stage[w]}, []float64{1, -1}, milp.LE, 0)
				}
			}
		}
	}
	gap := func(strict bool) float64 {
		if strict {
			return 1
		}
		return 0
	}
	for _, d := range m.p.Deps {
		for _, l := range last[d.From] {
			for _, us := range m.parts[d.To] {
				e.row([]milp.Var{e.stage[us[0]], l}, []float64{1, -1}, milp.GE, gap(d.Kind.strict()))
			}
		}
	}
	for t := range m.parts {
		for i := 1; i < len(m.parts[t]); i++ {
			if m.ordered(t) {
				e.row([]milp.Var{e.stage[m.parts[t][i][0]], last[t][i-1]}, []float64{1, -1}, milp.GE, 0)
			} else {
				// The parts of an exact table are alike: any placement
				// has one with their matches in order.
				e.row([]milp.Var{e.stage[m.parts[t][i][0]], e.stage[m.parts[t][i-1][0]]}, []float64{1, -1}, milp.GE, 0)
			}
		}
	}
}

// capacity: stateful ALUs per stage, and stateless ALUs plus the slots
// that carry outputs through a stage (ALU propagation 1-4, with appendix
// C's big-M indicators lo = beg < s, hi = s < end, prop = lo and hi).
func (e *ilp) capacity() {
	m, ns := e.m, e.m.ns
	big := float64(ns + 5)
	stateful, stateless := make([][]milp.Var, ns), make([][]milp.Var, ns)
	for x, u := range m.units {
		if u.isMatch() {
			continue
		}
		for s := 0; s < ns; s++ {
			if u.stateful {
				stateful[s] = append(stateful[s], e.x[x][s])
			} else {
				stateless[s] = append(stateless[s], e.x[x][s])
			}
		}
		if len(u.readers) == 0 {
			continue
		}
		end := e.lp.AddVar("end", 0, float64(ns), true, 0)
		e.row([]milp.Var{end, e.stage[x]}, []float64{1, -1}, milp.GE, 1)
		for _, r := range u.readers {
			e.row([]milp.Var{end, e.stage[r]}, []float64{1, -1}, milp.GE, 0)
		}
		for s := 0; s < ns; s++ {
			lo := e.lp.AddVar("lo", 0, 1, true, 0)
			hi := e.lp.AddVar("hi", 0, 1, true, 0)
			prop := e.lp.AddVar("prop", 0, 1, true, 0)
			fs := float64(s)
			e.row([]milp.Var{e.stage[x], lo}, []float64{1, big}, milp.GE, fs)       // (1) s - beg <= M lo
			e.row([]milp.Var{e.stage[x], lo}, []float64{1, big}, milp.LE, fs+big-1) // (2) s - beg > -M (1 - lo)
			e.row([]milp.Var{end, hi}, []float64{-1, big}, milp.LE, big-1-fs)       // (3) s - end < M (1 - hi)
			e.row([]milp.Var{end, hi}, []float64{1, -big}, milp.LE, fs)             // (4) s - end >= -M hi
			e.row([]milp.Var{lo, hi, prop}, []float64{1, 1, -big}, milp.LE, 1)      // (5) lo + hi - 2 < M prop
			e.row([]milp.Var{lo, hi, prop}, []float64{1, 1, -big}, milp.GE, 2-big)  // (6) lo + hi - 2 >= -M (1 - prop)
			stateless[s] = append(stateless[s], prop)
		}
	}
	l := m.p.Limits
	for s := 0; s < ns; s++ {
		if len(stateful[s]) > 0 {
			e.row(stateful[s], ones(len(stateful[s])), milp.LE, float64(l.StatefulALUsPerStage))
		}
		if len(stateless[s]) > 0 {
			e.row(stateless[s], ones(len(stateless[s])), milp.LE, float64(l.ALUsPerStage-l.HeaderALUs))
		}
	}
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}
