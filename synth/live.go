package synth

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar"
)

// LiveConstants lists the constant holes of a configured ALU whose value
// matters: with every other hole as configured, another value of it
// changes a new state or the output for some input. A backend that prints
// the whole grammar counts only these against the target's constants
// (Tofino's stateful ALU holds four that do not fit its 4-bit immediates).
func LiveConstants(ctx context.Context, g *grammar.Grammar, cfg grammar.Config, width int) ([]int, error) {
	x := z3.NewContext()
	defer x.Close()
	states, packets := inputVars(x, len(g.States), len(g.Packets), width)
	holes := HoleConsts(x, g.Holes, cfg)
	base, err := EncodeALU(x, g, holes, states, packets, width)
	if err != nil {
		return nil, err
	}
	var live []int
	for i, h := range g.Holes {
		if h.Kind == grammar.HoleChoice {
			continue
		}
		other := append([]z3.Expr(nil), holes...)
		other[i] = x.BVConst(fmt.Sprintf("k%d", i), h.Bits)
		t, err := EncodeALU(x, g, other, states, packets, width)
		if err != nil {
			return nil, err
		}
		differs, err := mayDiffer(ctx, x, base, t)
		if err != nil {
			return nil, fmt.Errorf("synth: ALU %s: %w", g.Name, err)
		}
		if differs {
			live = append(live, i)
		}
	}
	return live, nil
}

// inputVars makes variables for an ALU's state and packet inputs.
func inputVars(x *z3.Context, nStates, nPackets, width int) (states, packets []z3.Expr) {
	states = make([]z3.Expr, nStates)
	for i := range states {
		states[i] = x.BVConst(fmt.Sprintf("s%d", i), width)
	}
	packets = make([]z3.Expr, nPackets)
	for i := range packets {
		packets[i] = x.BVConst(fmt.Sprintf("p%d", i), width)
	}
	return states, packets
}

// mayDiffer says whether two encodings of an ALU give another output or
// another new state for some input (an unknown answer counts as yes).
func mayDiffer(ctx context.Context, x *z3.Context, a, b ALUTerms) (bool, error) {
	differs := []z3.Expr{a.Output.Eq(b.Output).Not()}
	for j := range a.States {
		differs = append(differs, a.States[j].Eq(b.States[j]).Not())
	}
	s := x.NewSolverFor("QF_BV")
	s.Assert(x.Or(differs...))
	res, err := s.Check(ctx)
	return res != z3.Unsat, err
}
