package synth

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/synth/grammar"
)

// TestLiveConstants: raw's s' = opt(s) + mux2(a, K). By hand: K matters
// when the mux picks it and the output is the new value; when the mux
// picks the packet input, K changes nothing.
func TestLiveConstants(t *testing.T) {
	tg, err := banzai.Target("raw")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := tg.Grammar("raw")
	k := slices.IndexFunc(raw.Holes, func(h *grammar.Hole) bool { return h.Kind == grammar.HoleConst })
	if k < 0 {
		t.Fatal("raw has no constant hole")
	}
	// The update's mux2: the choice on the constant's line.
	mux := slices.IndexFunc(raw.Holes, func(h *grammar.Hole) bool {
		return strings.HasPrefix(h.Label, "mux2") && h.Span.Start.Line == raw.Holes[k].Span.Start.Line
	})
	if mux < 0 {
		t.Fatal("raw's update has no mux2")
	}
	for _, tc := range []struct {
		pick uint64 // 0: the packet input a, 1: K
		live bool
	}{{0, false}, {1, true}} {
		cfg := make(grammar.Config, len(raw.Holes))
		cfg[mux], cfg[k] = tc.pick, 5
		live, err := LiveConstants(context.Background(), raw, cfg, 32)
		if err != nil {
			t.Fatal(err)
		}
		if got := slices.Contains(live, k); got != tc.live {
			t.Errorf("mux picks %d: K live %v, want %v (live holes %v)", tc.pick, got, tc.live, live)
		}
	}
}
