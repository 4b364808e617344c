package synth

import (
	"context"
	"slices"
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
func fieldSynthesizer(stateless *grammar.Grammar, x *Term) *synthesizer {
	return &synthesizer{ctx: context.Background(), tx: &Transaction{Action: &ir.Action{Name: "a"}}, stateless: stateless,
		width: 32, attemptBudget: time.Second, g: &Graph{}, fields: map[string]int{}, done: map[*Term]Operand{x: {Kind: FromField}}}
}
