// Package grammartest checks hand configurations of ALU grammars, for the
// tests of the target packages: a configuration must implement a known
// update, which is checked by running the grammar (Eval) against a
// hand-written Go function and by proving equivalence at full width with
// Z3 (synth.EncodeALU against the same update written as Z3 terms). It
// imports synth for that encoding, which is why it is for tests only: the
// target packages themselves import grammar alone.
package grammartest

import (
	"context"
	"math/rand"
	"testing"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// Width is the word width the examples are checked at.
const Width = 32

// Example is a hand configuration and the update it implements.
type Example struct {
	Name   string
	Config grammar.Config
	// Go computes the new state values and the output.
	Go func(states, packets []uint64) ([]uint64, uint64)
	// Z3 builds the same as terms.
	Z3 func(x *z3.Context, states, packets []z3.Expr) ([]z3.Expr, z3.Expr)
}

// word draws a 32-bit input: half the time small (so equalities with small
// constants and comparisons near 0 happen), else uniform.
func word(r *rand.Rand) uint64 {
	switch r.Intn(4) {
	case 0:
		return uint64(r.Intn(40))
	case 1:
		return uint64(-int64(r.Intn(40))) & 0xffffffff
	}
	return uint64(r.Uint32())
}

// Check runs both checks of one example.
func Check(t *testing.T, g *grammar.Grammar, ex Example, rounds int) {
	t.Helper()
	if len(ex.Config) != len(g.Holes) {
		t.Fatalf("%s: the configuration has %d values, the grammar %d holes", ex.Name, len(ex.Config), len(g.Holes))
	}
	r := rand.New(rand.NewSource(1))
	states := make([]uint64, len(g.States))
	packets := make([]uint64, len(g.Packets))
	for i := 0; i < rounds; i++ {
		for j := range states {
			states[j] = word(r)
		}
		for j := range packets {
			packets[j] = word(r)
		}
		got := g.Eval(ex.Config, states, packets, Width)
		wantStates, wantOut := ex.Go(states, packets)
		for j := range wantStates {
			if got.States[j] != wantStates[j]&0xffffffff {
				t.Fatalf("%s: states %x packets %x: new %s = %#x, want %#x", ex.Name, states, packets, g.States[j], got.States[j], wantStates[j])
			}
		}
		if got.Output != wantOut&0xffffffff {
			t.Fatalf("%s: states %x packets %x: output %#x, want %#x", ex.Name, states, packets, got.Output, wantOut)
		}
	}
	Prove(t, g, ex)
}

// Prove shows with Z3 that the configured grammar equals the example's
// update for every 32-bit input.
func Prove(t *testing.T, g *grammar.Grammar, ex Example) {
	t.Helper()
	x := z3.NewContext()
	defer x.Close()
	states := make([]z3.Expr, len(g.States))
	for i, s := range g.States {
		states[i] = x.BVConst("s_"+s, Width)
	}
	packets := make([]z3.Expr, len(g.Packets))
	for i, p := range g.Packets {
		packets[i] = x.BVConst("p_"+p, Width)
	}
	terms, err := synth.EncodeALU(x, g, synth.HoleConsts(x, g.Holes, ex.Config), states, packets, Width)
	if err != nil {
		t.Fatal(err)
	}
	wantStates, wantOut := ex.Z3(x, states, packets)
	differs := []z3.Expr{terms.Output.Eq(wantOut).Not()}
	for i, w := range wantStates {
		differs = append(differs, terms.States[i].Eq(w).Not())
	}
	s := x.NewSolver()
	s.Assert(x.Or(differs...))
	r, err := s.Check(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if r != z3.Unsat {
		m := s.Model()
		var in []string
		for _, v := range append(states, packets...) {
			val, _ := m.Uint(v)
			in = append(in, v.String()+"="+val.Text(16))
		}
		t.Fatalf("%s: not equivalent at 32 bits (%v); a counterexample: %v", ex.Name, r, in)
	}
}

// Word and Ite are shorthands for writing Z3 specs.
func Word(x *z3.Context, v uint64) z3.Expr { return x.BV(v&0xffffffff, Width) }

// Bool01 turns a Boolean term into the 0 or 1 word grammars compute.
func Bool01(x *z3.Context, b z3.Expr) z3.Expr { return x.Ite(b, Word(x, 1), Word(x, 0)) }

// Signed32 interprets a word as a signed 32-bit value.
func Signed32(v uint64) int64 { return int64(int32(uint32(v))) }
