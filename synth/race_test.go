package synth_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
)

// TestConcurrentSyntheses runs two syntheses, of different actions with
// different word and search widths, at once in one process, and checks
// that each gives what it gives alone and is proved. It is meant for
// go test -race: synthesis keeps no package state, and the two share only
// the Banzai grammars, which they read.
func TestConcurrentSyntheses(t *testing.T) {
	type shape struct{ depth, alus int }
	runs := []struct {
		name, atom string
		prog       *ir.Program
		opts       synth.Options
		want       shape
	}{
		// Word and registers must have one width (a wider ALU would not
		// wrap where the register does), and the corpus registers are 32
		// bits; so sampling is rewritten at 16 bits, searched at 4 first.
		// By hand: if_else_raw counts and outputs the old count (stage
		// 1), a stateless ALU compares it with 29 (2).
		{"sampling at 16 bits", "if_else_raw", sampling16(t), synth.Options{Width: 16, SearchWidth: 4}, shape{2, 2}},
		// By hand: pred_raw compares its state or 0 with an input or a
		// constant, not an input with a constant, so a stateless ALU
		// computes rtt < 30 (stage 1) for the two ALUs it guards (2);
		// the traffic's ALU adds unguarded: 4 ALUs (CaT: 2 stages).
		{"rcp", "pred_raw", corpus.Load(t, "rcp.p4"), synth.Options{Width: 32, SearchWidth: -1}, shape{2, 4}},
	}
	alone := make([]shape, len(runs))
	txs := make([]*synth.Transaction, len(runs))
	for i, r := range runs {
		g, err := synthesizeOn(t, r.prog, r.atom, r.opts)
		if err != nil {
			t.Fatalf("%s alone: %v", r.name, err)
		}
		alone[i] = shape{g.Depth(), len(g.ALUs)}
		if alone[i] != r.want {
			t.Errorf("%s alone: depth %d and %d ALUs, want depth %d and %d ALUs\n%s", r.name, g.Depth(), len(g.ALUs), r.want.depth, r.want.alus, g)
		}
		// A transaction of its own for the run alongside, so that only
		// the grammars (one parse for every Target) are shared.
		tx, err := synth.Preprocess(corpus.AtomicAction(t, r.prog))
		if err != nil {
			t.Fatal(err)
		}
		txs[i] = tx
	}
	tg, err := banzai.Target("")
	if err != nil {
		t.Fatal(err)
	}
	stateless, err := tg.Grammar("stateless")
	if err != nil {
		t.Fatal(err)
	}
	graphs := make([]*synth.Graph, len(runs))
	errs := make([]error, len(runs))
	var wg sync.WaitGroup
	for i, r := range runs {
		stateful, err := tg.Grammar(r.atom)
		if err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			graphs[i], _, errs[i] = synth.Synthesize(context.Background(), txs[i], stateful, stateless, r.opts)
			if errs[i] == nil {
				errs[i] = synth.Prove(context.Background(), txs[i], graphs[i], r.opts.Width)
			}
		}()
	}
	wg.Wait()
	for i, r := range runs {
		if errs[i] != nil {
			t.Errorf("%s alongside another: %v", r.name, errs[i])
			continue
		}
		if got := (shape{graphs[i].Depth(), len(graphs[i].ALUs)}); got != alone[i] {
			t.Errorf("%s: alongside another, depth %d and %d ALUs; alone, depth %d and %d ALUs",
				r.name, got.depth, got.alus, alone[i].depth, alone[i].alus)
		}
	}
}

// synthesizeOn synthesizes prog's action on a Banzai atom.
func synthesizeOn(t *testing.T, prog *ir.Program, atom string, opts synth.Options) (*synth.Graph, error) {
	t.Helper()
	_, tx, stateful, stateless := setupProgram(t, prog, atom)
	g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, opts)
	return g, err
}

// sampling16 is sampling.p4 with every 32-bit type made 16 bits wide.
func sampling16(t *testing.T) *ir.Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(corpus.Dir(), "ok", "sampling.p4"))
	if err != nil {
		t.Fatal(err)
	}
	return corpus.LoadSource(t, "sampling.p4", []byte(strings.ReplaceAll(string(src), "bit<32>", "bit<16>")))
}
