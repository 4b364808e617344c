package synth

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar"
)

// TestEncodeScaled: scaled to 8-bit words, (x - 10) < y is the same
// formula computed at 8 bits: with x = 5 the difference wraps to 251, not
// to 0xfffffffb, so it is below y = 252 and not below y = 250. A bit slice
// above the word does not scale.
func TestEncodeScaled(t *testing.T) {
	b := NewBuilder()
	x, y := b.Input("x", nil, 32), b.Input("y", nil, 32)
	less := b.Binary(OpLtU, b.Binary(OpSub, x, b.Const(10, 32)), y)
	for _, tc := range []struct {
		y    uint64
		want uint64
	}{{252, 1}, {250, 0}} {
		ctx := z3.NewContext()
		env := map[*Term]z3.Expr{x: ctx.BV(5, 8), y: ctx.BV(tc.y, 8)}
		got := less.EncodeScaled(ctx, env, 8).Simplify()
		if s := got.String(); s != map[uint64]string{1: "#b1", 0: "#b0"}[tc.want] {
			t.Errorf("y = %d: got %s, want %d", tc.y, s, tc.want)
		}
		ctx.Close()
	}
	if !less.Scales(8) {
		t.Error("a subtraction and a comparison do not scale")
	}
	if b.Extract(x, 15, 8).Scales(8) {
		t.Error("bits 15..8 of a word scale to 8-bit words")
	}
	if !b.Extract(x, 7, 0).Scales(8) {
		t.Error("bits 7..0 of a word do not scale to 8-bit words")
	}
}

// TestHoleValue: a constant of the pool goes into a narrower hole only as
// the value the hole makes of it.
func TestHoleValue(t *testing.T) {
	u5 := &grammar.Hole{Kind: grammar.HoleConst, Bits: 5}
	s5 := &grammar.Hole{Kind: grammar.HoleSConst, Bits: 5}
	u32 := &grammar.Hole{Kind: grammar.HoleConst, Bits: 32}
	for _, tc := range []struct {
		h      *grammar.Hole
		v      uint64
		want   uint64
		wantOK bool
	}{
		{u5, 10, 10, true},
		{u5, 40, 0, false},
		{u5, 0xfffffff6, 0, false}, // -10: no unsigned 5-bit value
		{s5, 0xfffffff6, 0x16, true},
		{s5, 10, 10, true},
		{s5, 20, 0, false}, // 0b10100 would read as -12
		{u32, 0xfffffff6, 0xfffffff6, true},
	} {
		got, ok := holeValue(tc.h, tc.v, 32)
		if ok != tc.wantOK || ok && got != tc.want {
			t.Errorf("%v-bit hole (kind %d), %#x: got %#x, %v; want %#x, %v", tc.h.Bits, tc.h.Kind, tc.v, got, ok, tc.want, tc.wantOK)
		}
	}
}

// TestBudgetCutsQueries: a query whose budget runs out fails with
// errBudget, at the same point however loaded the machine is.
func TestBudgetCutsQueries(t *testing.T) {
	var d diag.List
	g := grammar.Parse("t.alu", []byte(`stateless s(packet a, b) {
		hole k : const<32>;
		output choose<2>(a * b + k, a ^ k, a * k, b * k);
	}`), &d)
	if d.HasErrors() {
		t.Fatal(d.Err())
	}
	// a * b + 12345: no budget, found; a budget of a few microseconds'
	// work cannot find it.
	spec := Spec{Packets: 2, CareOutput: true, Constants: []uint64{12345},
		Encode: func(x *z3.Context, _, p []z3.Expr) ([]z3.Expr, z3.Expr) {
			return nil, p[0].Mul(p[1]).Add(x.BV(12345, p[0].Width()))
		}}
	if _, _, err := FindConfig(context.Background(), g, spec, 32); err != nil {
		t.Fatalf("without a budget: %v", err)
	}
	ctx := withBudget(context.Background(), 10*time.Microsecond)
	if _, _, err := findConfig(ctx, aluSketch{g}, spec, 32, DefaultSearchWidth); !errors.Is(err, errBudget) {
		t.Errorf("with a tiny budget: %v, want errBudget", err)
	}
}

// TestNarrowWidth: Options.SearchWidth 0 is the default 8 bits; a
// negative one, or one no narrower than the word, means no narrow search.
func TestNarrowWidth(t *testing.T) {
	tests := []struct{ searchWidth, width, want int }{
		{0, 32, 8},
		{8, 32, 8},
		{16, 32, 16},
		{-1, 32, 0},
		{32, 32, 0},
		{40, 32, 0},
		{0, 8, 0}, // the default is the word itself: nothing narrower
		{0, 16, 8},
	}
	for _, tc := range tests {
		if got := narrowWidth(tc.searchWidth, tc.width); got != tc.want {
			t.Errorf("narrowWidth(%d, %d) = %d, want %d", tc.searchWidth, tc.width, got, tc.want)
		}
	}
}

// TestQueryKeySearchWidth: the search width is in a query's key, as the
// search it means: 0 and 8 are one search, -1 and 32 (at 32 bits) are the
// full-width search alone, and the two differ.
func TestQueryKeySearchWidth(t *testing.T) {
	var d diag.List
	g := grammar.Parse("t.alu", []byte(`stateless k(packet a) { output a + const<32>; }`), &d)
	if g == nil {
		t.Fatal(d.Error())
	}
	spec := Spec{Packets: 1, CareOutput: true, Key: "a + 300"}
	key := func(searchWidth int) string {
		k, ok := QueryKey(g, spec, 32, searchWidth)
		if !ok {
			t.Fatal("a spec with a Key has no query key")
		}
		return k
	}
	if key(0) != key(8) {
		t.Error("search widths 0 and 8 (the default) give different keys")
	}
	if key(-1) != key(32) {
		t.Error("search widths -1 and 32 (both off at 32 bits) give different keys")
	}
	if key(0) == key(-1) {
		t.Error("the narrow search and the full-width one alone share a key")
	}
}
