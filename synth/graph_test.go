package synth

import (
	"context"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar"
)

func parse(t *testing.T, src string) *grammar.Grammar {
	t.Helper()
	var d diag.List
	g := grammar.Parse("t.alu", []byte(src), &d)
	if g == nil {
		t.Fatal(d.String())
	}
	return g
}

func TestGraphDepth(t *testing.T) {
	add := parse(t, "stateless add(packet a, b) { output a + b; }")
	field := func(i int) Operand { return Operand{Kind: FromField, Index: i} }
	alu := func(i int) Operand { return Operand{Kind: FromALU, Index: i} }
	v := &ir.Var{Name: "x", Type: &ir.Bits{Width: 32}}
	g := &Graph{
		Action: &ir.Action{Name: "a"},
		Fields: []ir.Expr{&ir.VarRef{Var: v}},
		ALUs: []*ALU{
			{Grammar: add, Config: grammar.Config{}, Inputs: []Operand{field(0), field(0)}},
			{Grammar: add, Config: grammar.Config{}, Inputs: []Operand{field(0), field(0)}},
			{Grammar: add, Config: grammar.Config{}, Inputs: []Operand{alu(0), alu(1)}},
			{Grammar: add, Config: grammar.Config{}, Inputs: []Operand{alu(2), field(0)}},
		},
		Writes: []Write{{Field: 0, Value: alu(3)}},
	}
	if err := g.ComputeDepths(); err != nil {
		t.Fatal(err)
	}
	var depths []int
	for _, a := range g.ALUs {
		depths = append(depths, a.Depth)
	}
	if want := []int{0, 0, 1, 2}; !equalInts(depths, want) || g.Depth() != 3 {
		t.Errorf("depths %v (graph %d), want %v (graph 3)", depths, g.Depth(), want)
	}
	if s := g.String(); !strings.Contains(s, "alu3 depth 2 add(alu2, x)") || !strings.Contains(s, "x = alu3") {
		t.Errorf("String():\n%s", s)
	}
	g.ALUs[0].Inputs[0] = alu(2) // a read of a later ALU
	if err := g.ComputeDepths(); err == nil {
		t.Error("a read of a later ALU was accepted")
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestFindConfigChecksArity(t *testing.T) {
	g := parse(t, "stateless add(packet a, b) { output a + b; }")
	spec := Spec{Packets: 3, Encode: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) { return nil, p[0] }}
	_, _, err := FindConfig(context.Background(), g, spec, 32)
	if err == nil || !strings.Contains(err.Error(), "ALU add has 0 and 2") {
		t.Errorf("got %v", err)
	}
}

func TestFindConfigCancelled(t *testing.T) {
	g := parse(t, "stateless k(packet a) { output a * const<32>; }")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	spec := Spec{Packets: 1, CareOutput: true, Encode: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
		return nil, p[0].Mul(x.BV(12345&(1<<uint(p[0].Width())-1), p[0].Width()))
	}}
	if _, _, err := FindConfig(ctx, g, spec, 32); err == nil || !strings.Contains(err.Error(), "interrupted") {
		t.Errorf("a cancelled query: %v", err)
	}
}

// TestFindConfigFullWidth: a + 300 looks like a + 44 at the 8-bit search
// width; the 32-bit verification rejects that and the full-width search
// finds 300. A signed constant found at 8 bits is sign-extended.
func TestFindConfigFullWidth(t *testing.T) {
	tests := []struct {
		src  string
		add  uint64
		want uint64
	}{
		{"stateless k(packet a) { output a + const<32>; }", 300, 300},
		{"stateless k(packet a) { output a + const<32>; }", 7, 7},
		{"stateless k(packet a) { output a + sconst<16>; }", 0xffffffff, 0xffff}, // -1 in 16 bits
	}
	for _, tc := range tests {
		g := parse(t, tc.src)
		spec := Spec{Packets: 1, CareOutput: true, Encode: func(x *z3.Context, s, p []z3.Expr) ([]z3.Expr, z3.Expr) {
			w := p[0].Width()
			return nil, p[0].Add(x.BV(tc.add&(1<<uint(w)-1), w))
		}}
		cfg, _, err := FindConfig(context.Background(), g, spec, 32)
		if err != nil {
			t.Fatal(err)
		}
		if cfg[0] != tc.want {
			t.Errorf("a + %#x: constant %#x, want %#x", tc.add, cfg[0], tc.want)
		}
	}
}
