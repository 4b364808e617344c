package synth_test

import (
	"math/rand"
	"testing"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/tofino"
)

// allGrammars returns the grammars of every target.
func allGrammars(t testing.TB) []*grammar.Grammar {
	bz, err := banzai.Target("")
	if err != nil {
		t.Fatal(err)
	}
	var out []*grammar.Grammar
	out = append(out, bz.Grammars...)
	out = append(out, tofino.Target().Grammars...)
	out = append(out, menshen.Target().Grammars...)
	return out
}

// TestEvalAgreesWithEncode: for random holes and inputs, the Z3 term
// EncodeALU builds simplifies to exactly what grammar's Eval computes, at
// two widths. The two are one meaning written twice, in two packages.
func TestEvalAgreesWithEncode(t *testing.T) {
	r := rand.New(rand.NewSource(42))
	for _, g := range allGrammars(t) {
		t.Run(g.Name, func(t *testing.T) {
			x := z3.NewContext()
			defer x.Close()
			for round := 0; round < 150; round++ {
				width := []int{32, 8}[round%2]
				cfg := make(grammar.Config, len(g.Holes))
				for i, h := range g.Holes {
					cfg[i] = r.Uint64() & (1<<uint(h.Bits) - 1)
					if h.Bits == 64 {
						cfg[i] = r.Uint64()
					}
				}
				states := randomWords(r, len(g.States), width)
				packets := randomWords(r, len(g.Packets), width)
				want := g.Eval(cfg, states, packets, width)
				terms, err := synth.EncodeALU(x, g, synth.HoleConsts(x, g.Holes, cfg), words(x, states, width), words(x, packets, width), width)
				if err != nil {
					t.Fatal(err)
				}
				got := value(t, terms.Output)
				if got != want.Output {
					t.Fatalf("width %d, %s, states %x, packets %x: Encode gives output %#x, Eval %#x",
						width, g.FormatConfig(cfg), states, packets, got, want.Output)
				}
				for i := range g.States {
					if v := value(t, terms.States[i]); v != want.States[i] {
						t.Fatalf("width %d, %s: Encode gives %s' = %#x, Eval %#x", width, g.FormatConfig(cfg), g.States[i], v, want.States[i])
					}
				}
			}
		})
	}
}

func randomWords(r *rand.Rand, n, width int) []uint64 {
	out := make([]uint64, n)
	mask := uint64(1)<<uint(width) - 1
	for i := range out {
		if r.Intn(3) == 0 {
			out[i] = uint64(r.Intn(4)) // small values make equalities true
		} else {
			out[i] = r.Uint64() & mask
		}
	}
	return out
}

func words(x *z3.Context, vs []uint64, width int) []z3.Expr {
	out := make([]z3.Expr, len(vs))
	for i, v := range vs {
		out[i] = x.BV(v, width)
	}
	return out
}

func value(t *testing.T, e z3.Expr) uint64 {
	t.Helper()
	v, err := e.Simplify().BigValue()
	if err != nil {
		t.Fatal(err)
	}
	return v.Uint64()
}

// TestEncodeCmpExactly: cmp compares "s + a" with a constant without
// wrapping up to 56-bit words, so at 32 bits s = 2^32 - 1 plus a = 1 is
// 2^32, above 0 (wrapped, it would be 0); at 64 bits the sum wraps.
// grammar's TestCmpComparesExactly checks Eval on the same cases.
func TestEncodeCmpExactly(t *testing.T) {
	var d diag.List
	g := grammar.Parse("t.alu", []byte(`stateful t(state s; packet a) {
    if (cmp(s + a, 0)) { s = 1; } else { s = 2; }
    output s;
}`), &d)
	if g == nil {
		t.Fatal(d.Error())
	}
	tests := []struct {
		kind    uint64 // cmp's hole: 0 !=, 1 <s, 2 >s, 3 ==, 4 <u, 5 >u
		s, a    uint64
		width   int
		want    uint64 // s = 1 when the comparison holds, else 2
		comment string
	}{
		{5, 0xffffffff, 1, 32, 1, "2^32 >u 0"},
		{3, 0xffffffff, 1, 32, 2, "2^32 != 0"},
		{2, 0x7fffffff, 1, 32, 1, "2^31 >s 0: signed leaves, no wrap to -2^31"},
		{1, 0xffffffff, 0, 32, 1, "-1 <s 0"},
		{4, 0xffffffff, 0, 32, 2, "2^32-1 is not <u 0"},
		{5, ^uint64(0), 1, 64, 2, "64 bits: 2^64 wraps to 0, not >u 0"},
	}
	x := z3.NewContext()
	defer x.Close()
	for _, tc := range tests {
		cfg := grammar.Config{tc.kind}
		terms, err := synth.EncodeALU(x, g, synth.HoleConsts(x, g.Holes, cfg), words(x, []uint64{tc.s}, tc.width), words(x, []uint64{tc.a}, tc.width), tc.width)
		if err != nil {
			t.Fatal(err)
		}
		if got := value(t, terms.States[0]); got != tc.want {
			t.Errorf("%s: Encode gives %d, want %d", tc.comment, got, tc.want)
		}
	}
}

// TestEncodeALUChecksArity: an encoding with the wrong number of inputs
// is an error naming the grammar, not a panic.
func TestEncodeALUChecksArity(t *testing.T) {
	var d diag.List
	g := grammar.Parse("t.alu", []byte(`stateless t(packet a, b) { output a + b; }`), &d)
	if g == nil {
		t.Fatal(d.Error())
	}
	x := z3.NewContext()
	defer x.Close()
	_, err := synth.EncodeALU(x, g, nil, nil, words(x, []uint64{1}, 32), 32)
	want := "grammar t: encode needs 0 holes, 0 states and 2 packet inputs; got 0, 0, 1"
	if err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}
