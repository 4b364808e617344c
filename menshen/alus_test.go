package menshen

import (
	"testing"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar/grammartest"
)

func TestTarget(t *testing.T) {
	if err := Target().Validate(); err != nil {
		t.Error(err)
	}
}

// TestHandConfigurations: the stateful if-else runs sampling (s == 29 ?
// 0 : s + 1, output the new value); the stateless sub-action 0x1D compares
// A < i with i = -16.
func TestHandConfigurations(t *testing.T) {
	w := func(x *z3.Context, v uint64) z3.Expr { return grammartest.Word(x, v) }
	examples := map[string]grammartest.Example{
		"if_else": {
			Name: "sampling",
			Config: []uint64{0 /*o1: s*/, 29 /*K1*/, 2 /*k1: K1*/, 3, /*rho: ==*/
				1 /*o2: 0*/, 0 /*K2*/, 2, /*k2: K2*/
				0 /*o3: s*/, 1 /*K3*/, 2, /*k3: K3*/
				1 /*q: new*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				if s[0] == 29 {
					return []uint64{0}, 0
				}
				return []uint64{s[0] + 1}, s[0] + 1
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				n := x.Ite(s[0].Eq(w(x, 29)), w(x, 0), s[0].Add(w(x, 1)))
				return []z3.Expr{n}, n
			},
		},
		"stateless": {
			Name:   "A < -16 (opcode 0x1D)",
			Config: []uint64{0xfffffff0 /*i*/, 12 /*A < i*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				if grammartest.Signed32(p[0]) < -16 {
					return nil, 1
				}
				return nil, 0
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				return nil, grammartest.Bool01(x, p[0].SLT(w(x, 0xfffffff0)))
			},
		},
	}
	for _, g := range Target().Grammars {
		ex, ok := examples[g.Name]
		if !ok {
			t.Errorf("grammar %s has no hand-configured example", g.Name)
			continue
		}
		t.Run(g.Name, func(t *testing.T) { grammartest.Check(t, g, ex, 100000) })
	}
	// The emitter reads labels: 0x1D is the label of alternative 12.
	g, _ := Target().Grammar("stateless")
	if l := g.Holes[1].Labels[12]; l == nil || *l != 0x1d {
		t.Errorf("label of alternative 12: %v, want 0x1d", l)
	}
}
