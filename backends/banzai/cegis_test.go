package banzai

import (
	"context"
	"math/rand"
	"testing"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// oneLiner is a one-line update for one atom: as terms (for CEGIS) and as
// a Go function (to re-check the configuration CEGIS finds with Eval).
type oneLiner struct {
	atom string
	desc string
	spec func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr)
	goFn func(s, p []uint64) []uint64
}

func w(x *z3.Context, v uint64) z3.Expr { return x.BV(v&0xffffffff, 32) }

// k is the constant v as a word of ref's width: FindConfig searches at a
// reduced width first, so a spec takes its width from its inputs.
func k(ref z3.Expr, v uint64) z3.Expr {
	return ref.Context().BV(v&(1<<uint(ref.Width())-1), ref.Width())
}

var oneLiners = []oneLiner{
	{"raw", "s' = s + a",
		func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) { n := s[0].Add(p[0]); return []z3.Expr{n}, n },
		func(s, p []uint64) []uint64 { return []uint64{s[0] + p[0]} }},
	{"pred_raw", "if (s < a) s' = s + 1",
		func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
			n := x.Ite(s[0].SLT(p[0]), s[0].Add(k(s[0], 1)), s[0])
			return []z3.Expr{n}, n
		},
		func(s, p []uint64) []uint64 {
			if s32(s[0]) < s32(p[0]) {
				return []uint64{s[0] + 1}
			}
			return []uint64{s[0]}
		}},
	{"if_else_raw", "s' = s == 29 ? 0 : s + 1",
		func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
			n := x.Ite(s[0].Eq(k(s[0], 29)), k(s[0], 0), s[0].Add(k(s[0], 1)))
			return []z3.Expr{n}, n
		},
		func(s, p []uint64) []uint64 {
			if s[0] == 29 {
				return []uint64{0}
			}
			return []uint64{s[0] + 1}
		}},
	{"sub", "s' = s + a - b",
		func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
			n := s[0].Add(p[0]).Sub(p[1])
			return []z3.Expr{n}, n
		},
		func(s, p []uint64) []uint64 { return []uint64{s[0] + p[0] - p[1]} }},
	// nested_ifs compares s + x - y with a constant: with wraparound, s > a
	// is not s - a > 0, so the one-liner compares with a constant.
	{"nested_ifs", "s' = s > 5 ? s - 1 : s + b",
		func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
			n := x.Ite(k(s[0], 5).SLT(s[0]), s[0].Sub(k(s[0], 1)), s[0].Add(p[1]))
			return []z3.Expr{n}, n
		},
		func(s, p []uint64) []uint64 {
			if s32(s[0]) > 5 {
				return []uint64{s[0] - 1}
			}
			return []uint64{s[0] + p[1]}
		}},
	{"pair", "(s0', s1') = (s0 + a, s1 - b)",
		func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
			n0, n1 := s[0].Add(p[0]), s[1].Sub(p[1])
			return []z3.Expr{n0, n1}, n0
		},
		func(s, p []uint64) []uint64 { return []uint64{s[0] + p[0], s[1] - p[1]} }},
}

// TestCEGISSmoke: CEGIS (examples, then verification at 32 bits) finds a
// configuration of each atom for a one-line update; the binding and the
// encoding work together. The result is re-checked with Eval.
func TestCEGISSmoke(t *testing.T) {
	tg, _ := Target("")
	for _, ol := range oneLiners {
		t.Run(ol.atom, func(t *testing.T) {
			g, err := tg.Grammar(ol.atom)
			if err != nil {
				t.Fatal(err)
			}
			cfg, st := findConfig(t, g, ol)
			t.Logf("%s: %s in %d iterations, %v", ol.desc, g.FormatConfig(cfg), st.Iterations, st.Time)
			r := rand.New(rand.NewSource(3))
			for i := 0; i < 20000; i++ {
				s := []uint64{uint64(r.Uint32()), uint64(r.Intn(64))}[:len(g.States)]
				p := []uint64{uint64(r.Intn(64)), uint64(r.Uint32())}
				got := g.Eval(cfg, s, p, 32)
				want := ol.goFn(s, p)
				for j := range want {
					if got.States[j] != want[j]&0xffffffff {
						t.Fatalf("found %s, but on states %x packets %x it gives %x, want %x", g.FormatConfig(cfg), s, p, got.States, want)
					}
				}
			}
		})
	}
}

func findConfig(t testing.TB, g *grammar.Grammar, ol oneLiner) (grammar.Config, synth.QueryStats) {
	spec := synth.Spec{States: len(g.States), Packets: len(g.Packets), Encode: ol.spec}
	cfg, st, err := synth.FindConfig(context.Background(), g, spec, 32)
	if err != nil {
		t.Fatalf("%s: %v", ol.desc, err)
	}
	return cfg, st
}

// TestCEGISNoConfig: an update the atom cannot do is reported as such
// (raw cannot multiply).
func TestCEGISNoConfig(t *testing.T) {
	tg, _ := Target("")
	g, _ := tg.Grammar("raw")
	spec := synth.Spec{States: 1, Packets: 1, Encode: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
		return []z3.Expr{s[0].Mul(p[0])}, s[0]
	}}
	if _, _, err := synth.FindConfig(context.Background(), g, spec, 32); err != synth.ErrNoConfig {
		t.Errorf("raw for s' = s * a: %v, want ErrNoConfig", err)
	}
}

// BenchmarkCEGISQuery measures one smoke-test query per atom.
func BenchmarkCEGISQuery(b *testing.B) {
	tg, _ := Target("")
	for _, ol := range oneLiners {
		g, _ := tg.Grammar(ol.atom)
		b.Run(ol.atom, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				findConfig(b, g, ol)
			}
		})
	}
}

// BenchmarkEval measures one evaluation of each grammar.
func BenchmarkEval(b *testing.B) {
	tg, _ := Target("")
	for _, g := range tg.Grammars {
		cfg := make(grammar.Config, len(g.Holes))
		s, p := make([]uint64, len(g.States)), make([]uint64, len(g.Packets))
		b.Run(g.Name, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				g.Eval(cfg, s, p, 32)
			}
		})
	}
}
