package synth

import (
	"context"
	"testing"
	"time"

	"github.com/p4hls/p4hls/backends/banzai"
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
