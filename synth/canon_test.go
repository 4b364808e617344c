package synth_test

import (
	"context"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/synth"
)

// TestTestsInEitherPolarity: DNS TTL change's canonical update tests
// ttl - last == 0, and Menshen's ALUs compute only the != of it for the
// counter's ALU to read; the ALU reads the test in either polarity, so
// the action maps (3 stages, as before terms were canonical). Without
// preprocessing, where a negation stays a ~ of the test, the stateful
// firewall maps too (depth 3 on pred_raw; 4 stages with the drop after).
func TestTestsInEitherPolarity(t *testing.T) {
	prog := corpus.Load(t, "dns_ttl_change.p4")
	tx, err := synth.Preprocess(corpus.AtomicAction(t, prog))
	if err != nil {
		t.Fatal(err)
	}
	tg := menshen.Target()
	stateful, _ := tg.Grammar(tg.Stateful)
	stateless, _ := tg.Grammar(tg.Stateless)
	g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Depth() != 3 {
		t.Errorf("DNS TTL change on Menshen: depth %d, want 3", g.Depth())
	}
	if err := synth.Prove(context.Background(), tx, g, 32); err != nil {
		t.Fatal(err)
	}

	_, _, stateful, stateless = setup(t, "stateful_firewall.p4", "pred_raw")
	raw, err := synth.PreprocessWith(corpus.AtomicAction(t, corpus.Load(t, "stateful_firewall.p4")), synth.PreprocessOptions{NoSimplify: true})
	if err != nil {
		t.Fatal(err)
	}
	g, _, err = synth.Synthesize(context.Background(), raw, stateful, stateless, synth.Options{})
	if err != nil {
		t.Fatalf("stateful firewall without preprocessing: %v", err)
	}
	if g.Depth() != 3 {
		t.Errorf("stateful firewall without preprocessing: depth %d, want 3", g.Depth())
	}
}
