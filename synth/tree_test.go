package synth

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/tofino"
)

// TestTreeOverConstants: without preprocessing, a value made of constants
// alone (500 + 300) is computed by an ALU, and a term two operations over it has no
// input for a tree's spec to range over. The tree search must pass it to
// the fallback (it crashed the process from a query goroutine).
func TestTreeOverConstants(t *testing.T) {
	b := NewBuilder()
	b.raw = true
	sum := b.Binary(OpAdd, b.Const(500, 32), b.Const(300, 32))
	shifted := b.Shift(OpShr, b.Shift(OpShl, sum, 2), 1) // two levels: a tree could save one
	tg, err := banzai.Target("pred_raw")
	if err != nil {
		t.Fatal(err)
	}
	stateless, _ := tg.Grammar("stateless")
	s := &synthesizer{ctx: context.Background(), stateless: stateless, width: 32, attemptBudget: time.Second,
		g:      &Graph{ALUs: []*ALU{{Grammar: stateless, Config: make([]uint64, len(stateless.Holes))}}},
		fields: map[string]int{}, done: map[*Term]Operand{sum: {Kind: FromALU, Index: 0}}}
	if _, ok, err := s.statelessTree(shifted); err != nil || ok {
		t.Errorf("statelessTree = %v, %v; want no tree and no error", ok, err)
	}
}

// TestConstantAsInput: Tofino's VLIW slot has x0 ^ x1 but no x0 ^ i, so
// x ^ 5 takes one ALU with 5 as its second input (action data), though 5
// fits the immediate. SipHash failed on this.
func TestConstantAsInput(t *testing.T) {
	b := NewBuilder()
	x := b.Input("x", nil, 32)
	five := b.Const(5, 32)
	term := b.Binary(OpXor, x, five)
	stateless, _ := tofino.Target().Grammar("stateless")
	s := fieldSynthesizer(stateless, x)
	op, err := s.statelessALU(term)
	if err != nil {
		t.Fatal(err)
	}
	if op.Kind != FromALU || len(s.g.ALUs) != 1 {
		t.Fatalf("got %+v and %d ALUs, want one ALU", op, len(s.g.ALUs))
	}
	if in := s.g.ALUs[0].Inputs; !slices.Contains(in, Operand{Kind: FromConst, Value: 5}) {
		t.Errorf("inputs %+v, want the constant 5 among them", in)
	}
}

// TestSaturatingByATree: Banzai's stateless ALU has no saturating
// subtraction, so one ALU per operation cannot compute x |-| 10; by hand,
// a tree of depth 2 can: x >= 10 and x - 10 side by side, then the first
// chooses between the second and 0 (3 ALUs).
func TestSaturatingByATree(t *testing.T) {
	b := NewBuilder()
	x := b.Input("x", nil, 32)
	term := b.Binary(OpSatSubU, x, b.Const(10, 32))
	tg, err := banzai.Target("pred_raw")
	if err != nil {
		t.Fatal(err)
	}
	stateless, _ := tg.Grammar("stateless")
	s := fieldSynthesizer(stateless, x)
	op, err := s.statelessALU(term)
	if err != nil {
		t.Fatal(err)
	}
	if op.Kind != FromALU || len(s.g.ALUs) != 3 {
		t.Fatalf("got %+v and %d ALUs, want a tree of 3", op, len(s.g.ALUs))
	}
	fromALUs := 0
	for _, in := range s.g.ALUs[op.Index].Inputs {
		if in.Kind == FromALU {
			fromALUs++
		}
	}
	if fromALUs != 2 {
		t.Errorf("the root reads %+v, want the other two ALUs", s.g.ALUs[op.Index].Inputs)
	}
}

// fieldSynthesizer is a synthesizer of stateless ALUs for which x is a
// field.
func fieldSynthesizer(stateless *grammar.Grammar, fields ...*Term) *synthesizer {
	done := map[*Term]Operand{}
	for i, f := range fields {
		done[f] = Operand{Kind: FromField, Index: i}
	}
	return &synthesizer{ctx: context.Background(), tx: &Transaction{Action: &ir.Action{Name: "a"}}, stateless: stateless,
		width: 32, attemptBudget: time.Second, g: &Graph{Action: &ir.Action{Name: "a"}}, fields: map[string]int{}, done: done}
}

// TestRotationOfAComputedValue: Tofino's VLIW slot rotates (a funnel shift
// of a container with itself), so (v << 5) | (v >> 27) takes one ALU once
// v is computed. With v = x + y and w = v ^ z, by hand: v at stage 0, the
// rotation and w at 1, their xor at 2: 3 stages (one ALU per operation: v,
// the two shifts, the or, the xor: 4). The tree for the whole value cannot
// read v before v is computed; v is read twice, so it goes first.
func TestRotationOfAComputedValue(t *testing.T) {
	b := NewBuilder()
	x, y, z := b.Input("x", nil, 32), b.Input("y", nil, 32), b.Input("z", nil, 32)
	v := b.Binary(OpAdd, x, y)
	rot := b.Binary(OpOr, b.Shift(OpShl, v, 5), b.Shift(OpShr, v, 27))
	term := b.Binary(OpXor, rot, b.Binary(OpXor, v, z))
	stateless, _ := tofino.Target().Grammar("stateless")
	s := fieldSynthesizer(stateless, x, y, z)
	if _, err := s.statelessALU(term); err != nil {
		t.Fatal(err)
	}
	if err := s.g.ComputeDepths(); err != nil {
		t.Fatal(err)
	}
	if d := s.g.Depth(); d != 3 {
		t.Errorf("depth %d, want 3:\n%s", d, aluList(s.g))
	}
	if n := len(s.g.ALUs); n != 4 {
		t.Errorf("%d ALUs, want 4 (v, the rotation, w, the xor):\n%s", n, aluList(s.g))
	}
}

// aluList describes a graph's ALUs without its fields (which a test's
// synthesizer does not list).
func aluList(g *Graph) string {
	var b strings.Builder
	for i, a := range g.ALUs {
		fmt.Fprintf(&b, "alu%d (stage %d): config %v, inputs %+v\n", i, a.Depth, a.Config, a.Inputs)
	}
	return b.String()
}

// TestTreeInputs: a tree query ranges over the values the tree reads when
// the term is made of them (a query the size of the tree, however long
// the chain under them), and over the fields and states under them when a
// state the term reads is not among them (only the primaries show how a
// stateful ALU's output relates to the old state).
func TestTreeInputs(t *testing.T) {
	b := NewBuilder()
	x, y := b.Input("x", nil, 32), b.Input("y", nil, 32)
	chain := b.Binary(OpXor, b.Binary(OpAdd, x, y), y) // computed before
	pre := b.Pre(&Cell{Name: "c", Width: 32})
	stateless, _ := tofino.Target().Grammar("stateless")
	s := fieldSynthesizer(stateless, x, y)
	s.done[chain] = Operand{Kind: FromALU}
	s.g.ALUs = []*ALU{{Grammar: stateless}}
	for _, c := range []struct {
		name      string
		term      *Term
		ops, want []*Term
	}{
		{"made of computed values", b.Binary(OpSub, b.Shift(OpShl, chain, 3), x), []*Term{chain, x}, []*Term{chain, x}},
		// In the order the term reads them, its operand that reads no
		// state first (pre + chain is chain + pre).
		{"reads a state", b.Binary(OpAdd, pre, chain), []*Term{chain}, []*Term{x, y, pre}},
	} {
		if got := s.treeInputs(c.term, c.ops); !slices.Equal(got, c.want) {
			t.Errorf("%s: inputs %v, want %v", c.name, got, c.want)
		}
	}
}
