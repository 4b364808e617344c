package tna

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// TestConstantLimit: a stateful ALU holds four constants that its 4-bit
// immediates (-8..7) do not; by hand, Banzai's sub atom configured as
// "if (s < 10) s = s + (11 + 12) else s = s + (13 + 14)" uses five, all
// live, and one register's RegisterActions share the four. With the
// update's constants small (1..4), only 10 counts; with the condition
// 0 < 10 (its state operand zeroed), the else branch never runs, and its
// 13 and 14 do not count.
func TestConstantLimit(t *testing.T) {
	tg, err := banzai.Target("sub")
	if err != nil {
		t.Fatal(err)
	}
	sub, _ := tg.Grammar("sub")
	configure := func(consts []uint64, zeroCond bool) grammar.Config {
		cfg := make(grammar.Config, len(sub.Holes))
		k := 0
		cmpLine := sub.Holes[slices.IndexFunc(sub.Holes, func(h *grammar.Hole) bool { return strings.HasPrefix(h.Label, "cmp") })].Span.Start.Line
		for i, h := range sub.Holes {
			switch {
			case zeroCond && strings.HasPrefix(h.Label, "opt") && h.Span.Start.Line == cmpLine:
				cfg[i] = 1 // opt(s) is 0
			case h.Kind == grammar.HoleConst:
				cfg[i] = consts[k]
				k++
			case strings.HasPrefix(h.Label, "mux3"):
				cfg[i] = 2 // the constant
			case strings.HasPrefix(h.Label, "cmp"):
				cfg[i] = 1 // <
			case strings.HasPrefix(h.Label, "mux2"):
				cfg[i] = 1 // the output: the new value
			}
		}
		return cfg
	}
	for _, tc := range []struct {
		consts   []uint64
		zeroCond bool
		want     string
	}{
		{[]uint64{10, 1, 2, 3, 4}, false, ""},
		{[]uint64{10, 11, 12, 13, 14}, false, "register r's stateful ALU needs 5 constants outside -8..7 (10, 11, 12, 13, 14); a Tofino stateful ALU holds 4"},
		{[]uint64{10, 11, 12, 13, 14}, true, ""},
	} {
		ac := &actionCode{e: &emitter{ctx: context.Background(), wideConstants: map[string]map[int32]bool{}}, a: &ir.Action{Name: "a"}}
		err := ac.countConstants("r", &synth.ALU{Grammar: sub, Config: configure(tc.consts, tc.zeroCond)})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v: %v", tc.consts, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%v: got %v, want %q", tc.consts, err, tc.want)
		}
	}
}
