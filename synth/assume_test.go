package synth_test

import (
	"context"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/pipeline"
	"github.com/p4hls/p4hls/synth"
)

// TestPreconditionsCollected: an assume or assert holds where it is
// reached: on its branch's path, and not at all on a path never taken
// or for a constant true condition.
func TestPreconditionsCollected(t *testing.T) {
	prog := corpus.CounterProgram(t, `
            assume(true);
            if (hdr.app.sample == 3) {
                assert(c != 7);
            }
            if (1 == 2) {
                assume(c == 0);
            }`)
	tx, err := synth.Preprocess(corpus.AtomicAction(t, prog))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, p := range tx.Preconditions {
		kinds = append(kinds, p.Kind)
	}
	if got := strings.Join(kinds, " "); got != "assume assert assume" {
		t.Errorf("preconditions %q, want the three statements in order", got)
	}
	// Only the assert says something: c != 7 where the sample field is 3.
	if tx.Assume == nil || !strings.Contains(tx.Assume.String(), "hdr.app.sample") || !strings.Contains(tx.Assume.String(), "32w7") {
		t.Errorf("Assume = %v, want the assert on the path hdr.app.sample == 3", tx.Assume)
	}
	never := corpus.CounterProgram(t, `assume(1 == 2);`)
	if _, err := synth.Preprocess(corpus.AtomicAction(t, never)); err == nil || !strings.Contains(err.Error(), "never all hold") {
		t.Errorf("preconditions that cannot hold: got %v", err)
	}
}

// TestPreconditionSavesAStage: BLUE increase on Tofino with assume(now >=
// FREEZE_TIME) maps onto one stateful ALU (the pair holds both
// registers), as CaT's Table 4 says; the graph is proven under the
// precondition and runs as the interpreter does on packets that meet it,
// and it is wrong where now - 10 wraps, which is why the program without
// the precondition takes 2 stages.
func TestPreconditionSavesAStage(t *testing.T) {
	if testing.Short() {
		t.Skip("a Tofino synthesis")
	}
	prog, tx, stateful, stateless := setupTofino(t, "blue_increase_assume.p4")
	g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Depth() != 1 {
		t.Fatalf("depth %d, want 1:\n%s", g.Depth(), g)
	}
	if err := synth.Prove(context.Background(), tx, g, 32); err != nil {
		t.Fatal(err)
	}
	d, err := pipeline.Verify(prog, []pipeline.Placed{pipeline.AtDepths(g)}, 32, 5000)
	if err != nil || d != nil {
		t.Fatalf("the graph differs from the program on packets that meet the precondition: %v %v", err, d)
	}
	unstated := *tx
	unstated.Assume = nil
	if err := synth.Prove(context.Background(), &unstated, g, 32); err == nil {
		t.Error("the one-stage graph proves without the precondition; it should be wrong where now - 10 wraps")
	}
}

// TestCasesMeetPreconditions: the random cases of a program with a
// precondition hold only packets that meet it, each in the state the
// packets before it left, so the interpreter runs them all without a
// failed assume.
func TestCasesMeetPreconditions(t *testing.T) {
	prog := corpus.Load(t, "flowlet_assume.p4")
	c := interp.NewGenerator(prog, 4).Case(500, 2, 8)
	if len(c.Packets) < 100 {
		t.Fatalf("%d packets drawn, want most of 500", len(c.Packets))
	}
	sw, err := interp.New(prog, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Registers {
		if err := sw.RegisterWrite(r.Register, r.Index, r.Value); err != nil {
			t.Fatal(err)
		}
	}
	for i, p := range c.Packets {
		if _, err := sw.Process(p.Port, p.Data); err != nil {
			t.Fatalf("packet %d of %d: %v", i+1, len(c.Packets), err)
		}
	}
}
