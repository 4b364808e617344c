package tofino

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

// TestHandConfigurations: the stateful ALU runs BLUE with its two
// registers as one pair (lo = last_update, hi = p_mark; m_lo = now - 10,
// m_hi = now): when m_lo > lo (unsigned, as P4's bit<32>), lo takes now and
// hi counts up; the output is the new hi. The VLIW slot rotates left by 5
// (SipHash's step).
func TestHandConfigurations(t *testing.T) {
	w := func(x *z3.Context, v uint64) z3.Expr { return grammartest.Word(x, v) }
	examples := map[string]grammartest.Example{
		"stateful": {
			Name: "BLUE as one register pair",
			Config: []uint64{
				0, 0, 0, 0, 0, 5, // c_hi: m_lo + 0 >u lo (unused)
				0, 0, 0, 0, 0, 5, // c_lo: m_lo + 0 >u lo
				0, 1, 0, 0, 4, // lo1: A = m_hi; compute A
				0, 0, 0, 0, 5, // lo2: 0 (never on)
				1, 2, 0, 1, 0, // hi1: A = 1, B = hi; compute A + B
				0, 0, 0, 0, 5, // hi2: 0 (never on)
				10, 0, 10, 0, // predicates: lo1 = c_lo, lo2 = false, hi1 = c_lo, hi2 = false
				3, // output: new hi
			},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				if p[0] > s[0] {
					return []uint64{p[1], s[1] + 1}, s[1] + 1
				}
				return []uint64{s[0], s[1]}, s[1]
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				c := s[0].ULT(p[0])
				hi := x.Ite(c, s[1].Add(w(x, 1)), s[1])
				return []z3.Expr{x.Ite(c, p[1], s[0]), hi}, hi
			},
		},
		"stateless": {
			Name:   "rotate left by 5",
			Config: []uint64{0 /*i*/, 5 /*n*/, 13 /*rotl*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				x := p[0] & 0xffffffff
				return nil, (x<<5 | x>>27) & 0xffffffff
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				return nil, p[0].Shl(w(x, 5)).BVOr(p[0].LShr(w(x, 27)))
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
}
