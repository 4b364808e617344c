package banzai

import (
	"testing"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar/grammartest"
)

// TestTarget: every grammar parses, the limits validate, and each of
// CaT's six atoms makes a valid target; neither a name of no grammar nor
// the stateless ALU does.
func TestTarget(t *testing.T) {
	for _, atom := range []string{"raw", "pred_raw", "if_else_raw", "sub", "nested_ifs", "pair"} {
		tg, err := Target(atom)
		if err != nil {
			t.Fatal(err)
		}
		if err := tg.Validate(); err != nil {
			t.Error(err)
		}
	}
	for _, name := range []string{"nosuch", "stateless"} {
		if _, err := Target(name); err == nil {
			t.Errorf("%s made a target", name)
		}
	}
}

// s32 compares as the grammars do: signed 32-bit.
func s32(v uint64) int64 { return grammartest.Signed32(v) }

// TestHandConfigurations: one hand configuration per grammar implements a
// known update (hole values written from the hole order of each file:
// a call's arguments come before its own choice).
func TestHandConfigurations(t *testing.T) {
	tg, _ := Target("")
	w := func(x *z3.Context, v uint64) z3.Expr { return grammartest.Word(x, v) }
	examples := map[string]grammartest.Example{
		// raw: a counter, s' = s + 1, output the new value.
		"raw": {
			Name:   "counter",
			Config: []uint64{0 /*opt: s*/, 1 /*K*/, 1 /*mux2: K*/, 1 /*output: new*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				return []uint64{s[0] + 1}, s[0] + 1
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				n := s[0].Add(w(x, 1))
				return []z3.Expr{n}, n
			},
		},
		// pred_raw: Marple new flow, if (s == 0) s = 1; output the old value.
		"pred_raw": {
			Name: "marple new flow",
			Config: []uint64{0 /*opt: s*/, 0 /*K1*/, 2 /*mux3: K1*/, 3, /*rel: ==*/
				1 /*opt: 0*/, 1 /*K2*/, 2 /*mux3: K2*/, 0 /*output: old*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				if s[0] == 0 {
					return []uint64{1}, s[0]
				}
				return []uint64{s[0]}, s[0]
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				return []z3.Expr{x.Ite(s[0].Eq(w(x, 0)), w(x, 1), s[0])}, s[0]
			},
		},
		// if_else_raw: sampling, s' = s == 29 ? 0 : s + 1; output the old value.
		"if_else_raw": {
			Name: "sampling",
			Config: []uint64{0 /*opt: s*/, 29, 2 /*mux3: K*/, 3, /*rel: ==*/
				1 /*opt: 0*/, 0, 2, /* then: 0 + 0 */
				0 /*opt: s*/, 1, 2, /* else: s + 1 */
				0 /*output: old*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				if s[0] == 29 {
					return []uint64{0}, s[0]
				}
				return []uint64{s[0] + 1}, s[0]
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				return []z3.Expr{x.Ite(s[0].Eq(w(x, 29)), w(x, 0), s[0].Add(w(x, 1)))}, s[0]
			},
		},
		// sub: s' = s < a ? s + (a - b) : b + 3 (signed); output the new value.
		"sub": {
			Name: "conditional difference",
			Config: []uint64{0 /*opt: s*/, 0, 0 /*mux3: a*/, 1, /*rel: <*/
				0 /*opt: s*/, 0, 0 /*a*/, 0, 1 /*b*/, 1, /*arith: -*/
				1 /*opt: 0*/, 0, 1 /*b*/, 3, 2 /*K=3*/, 0, /*arith: +*/
				1 /*output: new*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				n := p[1] + 3
				if s32(s[0]) < s32(p[0]) {
					n = s[0] + p[0] - p[1]
				}
				return []uint64{n}, n
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				n := x.Ite(s[0].SLT(p[0]), s[0].Add(p[0].Sub(p[1])), p[1].Add(w(x, 3)))
				return []z3.Expr{n}, n
			},
		},
		// nested_ifs: s > 0 ? (s - a < 0 ? s + (b + 1) : s + (a - b))
		//                   : (a - b == 0 ? a + 5 : s + (b - a)),
		// the conditions compared exactly (no wraparound): s - a < 0 is
		// s < a, signed.
		"nested_ifs": {
			Name: "decision tree",
			Config: []uint64{
				0, 2, 2, 0, 2, /* g1: s + 0 - 0 > 0 */
				0, 2, 0, 0, 1, /* g2: s + 0 - a < 0 */
				0, 0, 1, 1, 2, 0, /* U1: s + (b + 1) */
				0, 0, 0, 0, 1, 1, /* U2: s + (a - b) */
				1, 0, 1, 0, 3, /* g3: 0 + a - b == 0 */
				1, 0, 0, 5, 2, 0, /* U3: 0 + (a + 5) */
				0, 0, 1, 0, 0, 1, /* U4: s + (b - a) */
				1, /* output: new */
			},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				a, b := p[0], p[1]
				var n uint64
				switch {
				case s32(s[0]) > 0 && s32(s[0]) < s32(a):
					n = s[0] + b + 1
				case s32(s[0]) > 0:
					n = s[0] + a - b
				case (a-b)&0xffffffff == 0:
					n = a + 5
				default:
					n = s[0] + b - a
				}
				return []uint64{n}, n
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				a, b, zero := p[0], p[1], w(x, 0)
				n := x.Ite(zero.SLT(s[0]),
					x.Ite(s[0].SLT(a), s[0].Add(b.Add(w(x, 1))), s[0].Add(a.Sub(b))),
					x.Ite(a.Sub(b).Eq(zero), a.Add(w(x, 5)), s[0].Add(b.Sub(a))))
				return []z3.Expr{n}, n
			},
		},
		// pair: SNAP heavy hitter with threshold 5: while not heavy (s1 ==
		// 0) count (s0 + 1) and turn heavy once the count reaches 5 (s0 >
		// 3); the output is the new heavy flag.
		"pair": {
			Name: "heavy hitter",
			Config: append([]uint64{
				1, 2, 2, 0, 3, /* g1: s1 + 0 - 0 == 0 */
				0, 2, 2, 3, 2, /* g2: s0 + 0 - 0 > 3 */
				0, 1, 2, 0, 2, 0, /* V1 s0: s0 + (1 + 0) */
				1, 1, 2, 0, 2, 0, /* V1 s1: 0 + (1 + 0) */
				0, 1, 2, 0, 2, 0, /* V2 s0: s0 + (1 + 0) */
				0, 0, 2, 0, 2, 0, /* V2 s1: s1 + (0 + 0) */
				2, 2, 2, 0, 0, /* g3: 0 + 0 - 0 != 0: never */
			}, append(make([]uint64, 5+12+12), 3 /* output: new s1 */)...),
			Go: func(s, p []uint64) ([]uint64, uint64) {
				if s[1] != 0 {
					return []uint64{s[0], s[1]}, s[1]
				}
				heavy := uint64(0)
				if s32(s[0]) > 3 {
					heavy = 1
				}
				return []uint64{s[0] + 1, heavy}, heavy
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				counting := s[1].Eq(w(x, 0))
				heavy := x.Ite(counting, x.Ite(w(x, 3).SLT(s[0]), w(x, 1), w(x, 0)), s[1])
				return []z3.Expr{x.Ite(counting, s[0].Add(w(x, 1)), s[0]), heavy}, heavy
			},
		},
		// The stateless ALU, opcode 13 with i = 10: a < 10 (signed).
		"stateless": {
			Name:   "a < 10",
			Config: []uint64{10 /*i*/, 13 /*op*/},
			Go: func(s, p []uint64) ([]uint64, uint64) {
				if s32(p[0]) < 10 {
					return nil, 1
				}
				return nil, 0
			},
			Z3: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
				return nil, grammartest.Bool01(x, p[0].SLT(w(x, 10)))
			},
		},
	}
	for _, g := range tg.Grammars {
		ex, ok := examples[g.Name]
		if !ok {
			t.Errorf("grammar %s has no hand-configured example", g.Name)
			continue
		}
		t.Run(g.Name, func(t *testing.T) { grammartest.Check(t, g, ex, 100000) })
	}
}
