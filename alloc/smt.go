package alloc

import (
	"context"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/solver/z3"
)

// Z3 solves Table 3 as stated, with Z3's Optimize over bit-vectors: a
// stage per unit, "unit x is in stage s" as stage = s, and the
// propagation indicators as the comparisons they stand for.
type Z3 struct{}

func (Z3) Name() string { return "z3" }

// smt builds the assertions.
type smt struct {
	m     *model
	z     *z3.Context
	stage []z3.Expr
	out   []z3.Expr
}

// Bit-vector widths: stages, and counts of units in a stage.
const (
	stageBits = 10
	countBits = 20
)

func (Z3) Solve(ctx context.Context, p *Problem, mode Mode) (*Solution, error) {
	start := time.Now()
	m, err := newModel(p)
	if err != nil {
		return nil, err
	}
	if m.ns >= 1<<(stageBits-1) || len(m.units) >= 1<<(countBits-1) {
		return nil, fmt.Errorf("the problem is too large for the SMT encoding (%d stages, %d units)", m.ns, len(m.units))
	}
	z := z3.NewContext()
	defer z.Close()
	e := &smt{m: m, z: z}
	e.build()
	cost := z.BVConst("cost", stageBits)
	e.assert(e.bv(m.lowerBound()).ULE(cost))
	for _, s := range e.stage {
		e.out = append(e.out, s.Add(e.bv(1)).ULE(cost))
	}
	var res z3.Result
	var model *z3.Model
	if mode == Optimal {
		o := z.NewOptimize()
		for _, a := range e.out {
			o.Assert(a)
		}
		o.Minimize(cost)
		if res, err = o.Check(ctx); err == nil && res == z3.Sat {
			model = o.Model()
		}
	} else {
		s := z.NewSolver()
		for _, a := range e.out {
			s.Assert(a)
		}
		if res, err = s.Check(ctx); err == nil && res == z3.Sat {
			model = s.Model()
		}
	}
	switch {
	case err != nil:
		return nil, err
	case res == z3.Unsat:
		return nil, &InfeasibleError{Why: "Z3 proved the constraints unsatisfiable"}
	case res != z3.Sat:
		return nil, fmt.Errorf("Z3 stopped without a placement: %w", context.DeadlineExceeded)
	}
	stages := make([]int, len(m.units))
	for x, s := range e.stage {
		v, err := model.Uint(s)
		if err != nil {
			return nil, err
		}
		stages[x] = int(v.Int64())
	}
	sol := m.solution(stages)
	sol.Proven = mode == Optimal
	sol.Solver, sol.Mode, sol.Time = "z3", mode, time.Since(start)
	return sol, nil
}

func (e *smt) bv(v int) z3.Expr    { return e.z.BV(uint64(v), stageBits) }
func (e *smt) count(v int) z3.Expr { return e.z.BV(uint64(v), countBits) }

// one is 1 when b holds, in a count.
func (e *smt) one(b z3.Expr) z3.Expr { return e.z.Ite(b, e.count(1), e.count(0)) }

func (e *smt) assert(b z3.Expr) { e.out = append(e.out, b) }

func (e *smt) build() {
	m := e.m
	for x := range m.units {
		s := e.z.BVConst(fmt.Sprintf("stage%d", x), stageBits)
		e.stage = append(e.stage, s)
		e.assert(s.ULT(e.bv(m.ns)))
	}
	e.order()
	e.capacity()
}

func (e *smt) order() {
	m := e.m
	for t := range m.parts {
		for _, us := range m.parts[t] {
			match := e.stage[us[0]]
			for _, x := range us[1:] {
				if m.modifiesKey(x) {
					e.assert(e.stage[x].Eq(match))
				} else {
					e.assert(match.ULE(e.stage[x]))
				}
				for _, r := range m.units[x].reads {
					e.assert(e.stage[r].ULT(e.stage[x]))
				}
			}
			for _, w := range us {
				if !m.writesKey(w) {
					continue
				}
				for _, x := range us {
					if x != w {
						e.assert(e.stage[x].ULE(e.stage[w]))
					}
				}
			}
		}
	}
	// after: every unit of the earlier part is before (or, not strict, no
	// later than) the later part's match.
	after := func(earlier []int, match int, strict bool) {
		for _, x := range earlier {
			if strict {
				e.assert(e.stage[x].ULT(e.stage[match]))
			} else {
				e.assert(e.stage[x].ULE(e.stage[match]))
			}
		}
	}
	for _, d := range m.p.Deps {
		for _, from := range m.parts[d.From] {
			for _, to := range m.parts[d.To] {
				after(from, to[0], d.Kind.strict())
			}
		}
	}
	for t := range m.parts {
		for i := 1; i < len(m.parts[t]); i++ {
			if m.ordered(t) {
				after(m.parts[t][i-1], m.parts[t][i][0], false)
			} else { // alike parts, in order (see the ILP)
				e.assert(e.stage[m.parts[t][i-1][0]].ULE(e.stage[m.parts[t][i][0]]))
			}
		}
	}
}

// capacity: matches per stage (a part's match is in every stage one of
// its units is in), stateful ALUs, and stateless ALUs plus propagations
// (an output is carried through every stage strictly between the ALU's
// and its last reader's).
func (e *smt) capacity() {
	m, l := e.m, e.m.p.Limits
	ends := make(map[int]z3.Expr)
	for x, u := range m.units {
		if len(u.readers) > 0 {
			end := e.stage[u.readers[0]]
			for _, r := range u.readers[1:] {
				end = e.z.Ite(end.ULT(e.stage[r]), e.stage[r], end)
			}
			ends[x] = end
		}
	}
	for s := 0; s < m.ns; s++ {
		at := e.bv(s)
		var tables, stateful, stateless []z3.Expr
		for t := range m.parts {
			for _, us := range m.parts[t] {
				var in []z3.Expr
				for _, x := range us {
					in = append(in, e.stage[x].Eq(at))
				}
				tables = append(tables, e.one(e.z.Or(in...)))
			}
		}
		for x, u := range m.units {
			switch {
			case u.isMatch():
			case u.stateful:
				stateful = append(stateful, e.one(e.stage[x].Eq(at)))
			default:
				stateless = append(stateless, e.one(e.stage[x].Eq(at)))
			}
			if end, ok := ends[x]; ok {
				stateless = append(stateless, e.one(e.stage[x].ULT(at).And(at.ULT(end))))
			}
		}
		e.atMost(tables, l.TablesPerStage)
		e.atMost(stateful, l.StatefulALUsPerStage)
		e.atMost(stateless, l.ALUsPerStage-l.HeaderALUs)
	}
}

func (e *smt) atMost(terms []z3.Expr, n int) {
	if len(terms) <= n {
		return
	}
	sum := terms[0]
	for _, t := range terms[1:] {
		sum = sum.Add(t)
	}
	e.assert(sum.ULE(e.count(n)))
}
