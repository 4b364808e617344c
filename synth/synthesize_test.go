package synth_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/pipeline"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/tofino"
)

// setup loads a benchmark, preprocesses its action and returns it with a
// Banzai atom and the Banzai stateless ALU.
func setup(t *testing.T, file, atom string) (*ir.Program, *synth.Transaction, *grammar.Grammar, *grammar.Grammar) {
	t.Helper()
	return setupProgram(t, corpus.Load(t, file), atom)
}

// setupProgram is setup of a loaded program.
func setupProgram(t *testing.T, prog *ir.Program, atom string) (*ir.Program, *synth.Transaction, *grammar.Grammar, *grammar.Grammar) {
	t.Helper()
	tx, err := synth.Preprocess(corpus.AtomicAction(t, prog))
	if err != nil {
		t.Fatal(err)
	}
	tg, err := banzai.Target(atom)
	if err != nil {
		t.Fatal(err)
	}
	stateful, _ := tg.Grammar(atom)
	stateless, _ := tg.Grammar("stateless")
	return prog, tx, stateful, stateless
}

// setupTofino is setup with the Tofino ALUs.
func setupTofino(t *testing.T, file string) (*ir.Program, *synth.Transaction, *grammar.Grammar, *grammar.Grammar) {
	t.Helper()
	prog := corpus.Load(t, file)
	tx, err := synth.Preprocess(corpus.AtomicAction(t, prog))
	if err != nil {
		t.Fatal(err)
	}
	tg := tofino.Target()
	stateful, _ := tg.Grammar("stateful")
	stateless, _ := tg.Grammar("stateless")
	return prog, tx, stateful, stateless
}

// TestSynthesizeMeansTheAction synthesizes benchmarks for their Table 4
// Banzai atoms, proves each graph with Z3, and runs it, one stage per
// depth, against the interpreter on 2 × 10,000 random packets with
// register state carried across packets.
func TestSynthesizeMeansTheAction(t *testing.T) {
	tests := []struct {
		file, atom string
		// depth is the stage count to reach: CaT's (Table 4, ALUS.md
		// §6.2), or Chipmunk's 2 for STFQ, where the tree computes the
		// start time from the new finish time. 0 where p4hls needs one
		// stage more than CaT: flowlets on pred_raw, whose comparison of
		// arrival - last time with 5 neither pred_raw's comparator (state
		// or 0 against an input) nor one stateless ALU can do (4 against
		// 3), and spam detection: count + 1 > 100 is false at count
		// 0xffffffff, where the sum wraps to 0, and pair's exact
		// comparisons spend both its levels on the count's range, so
		// is_mail == 1 comes from a stateless ALU first: 2 stages against
		// CaT's 1 (CaT's model does not wrap).
		depth int
	}{
		{"sampling.p4", "if_else_raw", 2},
		{"marple_new_flow.p4", "pred_raw", 2},
		{"marple_tcp_nmo.p4", "pred_raw", 3},
		{"rcp.p4", "pred_raw", 2},
		{"blue_increase.p4", "pred_raw", 4},
		{"blue_decrease.p4", "sub", 4},
		{"conga.p4", "pair", 1},
		{"snap_heavy_hitter.p4", "pair", 1},
		{"dns_ttl_change.p4", "nested_ifs", 3},
		{"stfq.p4", "nested_ifs", 2},
		{"flowlet.p4", "pred_raw", 0},
		{"learn_filter.p4", "raw", 3},
		{"spam_detection.p4", "pair", 0},
		// By hand: the index (hash units of both endpoint orders, one
		// ALU picks by direction) and from_inside == 1 in stage 1, the
		// state in 2, allowed = (new state == 1) in 3; CaT needs 4.
		{"stateful_firewall.p4", "pred_raw", 3},
		// With C's meaning (|-|, saturating): by hand, the stateless ALU
		// has no one operation for now |-| 10, so a tree computes it in
		// 2 stages (now >= 10 and now - 10, then the choice between the
		// difference and 0), before the 3 stages of the wrapping
		// version's mapping: 5. Flowlets: (arrival |-| last) > 5 is
		// (arrival |-| 5) > last, so the old time, arrival >= 5 and
		// arrival - 5 (1), the choice (2), the comparison with the old
		// time (3), the hop (4).
		{"blue_increase_sat.p4", "pred_raw", 5},
		{"blue_decrease_sat.p4", "sub", 5},
		{"flowlet_sat.p4", "pred_raw", 4},
	}
	for _, tc := range tests {
		t.Run(tc.file+"/"+tc.atom, func(t *testing.T) {
			prog, tx, stateful, stateless := setup(t, tc.file, tc.atom)
			g, stats, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%d ALUs, depth %d, %d queries\n%s", len(g.ALUs), g.Depth(), stats.Queries, g)
			if tc.depth != 0 && g.Depth() != tc.depth {
				t.Errorf("depth %d, want %d (CaT)", g.Depth(), tc.depth)
			}
			checkGraph(t, prog, tx, g)
		})
	}
}

// checkGraph proves a graph equivalent to its transaction and runs it,
// one stage per depth, against the interpreter on 2 × 10,000 random
// packets with register state carried across packets.
func checkGraph(t *testing.T, prog *ir.Program, tx *synth.Transaction, g *synth.Graph) {
	t.Helper()
	if err := synth.Prove(context.Background(), tx, g, 32); err != nil {
		t.Errorf("%v\n%s", err, g)
	}
	model := func() (interp.Target, error) {
		return pipeline.New(prog, []pipeline.Placed{pipeline.AtDepths(g)}, 32, interp.Options{})
	}
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	for seed := int64(0); seed < 2; seed++ {
		c := interp.NewGenerator(prog, seed).Case(10000, 2, int(seed))
		d, err := interp.Diff(ref, model, c, interp.RegisterCells(prog))
		if err != nil {
			t.Fatal(err)
		}
		if d != nil {
			t.Fatalf("the synthesized graph disagrees: %v\n%s", d, d.STF(prog))
		}
	}
}

// TestTofinoFlowlet: Tofino's VLIW slot subtracts but cannot compare, and
// has x1 - x0 but not x0 - x1. By hand: the time's ALU outputs its old
// value (stage 1), a slot computes arrival - old time (2), the hop's ALU
// compares that difference with 5 itself (3). CaT's 2 folds arrival - lt
// > 5 into one comparison, which is wrong where the subtraction wraps.
func TestTofinoFlowlet(t *testing.T) {
	prog, tx, stateful, stateless := setupTofino(t, "flowlet.p4")
	// A short budget: the packed mapping has no configuration, and proving
	// that takes minutes.
	g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{AttemptBudget: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	if g.Depth() != 3 {
		t.Errorf("depth %d, want 3\n%s", g.Depth(), g)
	}
	checkGraph(t, prog, tx, g)
}

// TestTofinoSaturating: with C's meaning of the subtraction (|-|), BLUE
// and flowlets take one stage on Tofino. By hand: a register pair holds
// both state variables, and one comparison unit computes now - 10 -
// last_update (arrival - 6 - last_time) exactly, with its carry, which is
// what the saturating difference compares: it is 0 where now < 10, and 0
// is above no time. CaT's counts are 1, 1 and 2.
func TestTofinoSaturating(t *testing.T) {
	for _, file := range []string{"blue_increase_sat.p4", "blue_decrease_sat.p4", "flowlet_sat.p4"} {
		t.Run(file, func(t *testing.T) {
			prog, tx, stateful, stateless := setupTofino(t, file)
			g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if g.Depth() != 1 {
				t.Errorf("depth %d, want 1\n%s", g.Depth(), g)
			}
			checkGraph(t, prog, tx, g)
		})
	}
}

// TestPredecessorPacking: BLUE's packet count reads the time of the last
// update; the pair atom holds both, so after the stateless now - 10 one
// stage does it (2 in all). Without packing, the time's ALU outputs its
// old value and the count's ALU, a stage later, compares it with now - 10
// itself (folding): 3.
func TestPredecessorPacking(t *testing.T) {
	_, tx, stateful, stateless := setup(t, "blue_increase.p4", "pair")
	for _, tc := range []struct {
		noPack bool
		depth  int
	}{{false, 2}, {true, 3}} {
		g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{NoPredecessorPacking: tc.noPack})
		if err != nil {
			t.Fatal(err)
		}
		if g.Depth() != tc.depth {
			t.Errorf("NoPredecessorPacking=%v: depth %d, want %d\n%s", tc.noPack, g.Depth(), tc.depth, g)
		}
	}
}

// TestPackingChoosesThePartner: DNS TTL change's counter reads the "seen"
// flag and the last TTL. By hand, on Tofino: packed with the last TTL (a
// register pair), its ALU compares the TTL with the old one itself and
// takes the flag, which the seen ALU outputs a stage earlier, as an input:
// 2 stages (CaT's count). Packed with the flag instead, the TTL
// comparison needs two packet inputs compared, which no comparison unit
// does: a stateless ALU computes it first, 3 stages; greedy packing,
// which packs only groups that read one other group, packs neither.
func TestPackingChoosesThePartner(t *testing.T) {
	prog, tx, stateful, stateless := setupTofino(t, "dns_ttl_change.p4")
	g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.Depth() != 2 {
		t.Errorf("depth %d, want 2\n%s", g.Depth(), g)
	}
	checkGraph(t, prog, tx, g)
}

// TestSynthesizeRefusesMutualState: CONGA's two state variables read each
// other, which a one-state atom cannot hold; the error says so.
func TestSynthesizeRefusesMutualState(t *testing.T) {
	_, tx, stateful, stateless := setup(t, "conga.p4", "if_else_raw")
	_, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	var u *synth.UnsupportedError
	want := []string{"best_path[hdr.app.dst] and best_path_util[hdr.app.dst] read each other's old values",
		"the new best_path reads the old best_path_util; the new best_path_util reads the old best_path",
		"ALU if_else_raw holds 1 state variable(s). Break the cycle"}
	for _, w := range want {
		if !errors.As(err, &u) || !strings.Contains(err.Error(), w) {
			t.Errorf("got %v, want an UnsupportedError saying %q", err, w)
		}
	}
}

// TestSynthesizeRefusesTwoIndexes: CONGA's registers at two indexes read
// each other, so one ALU must hold both, and a pair holds its state
// variables at one index: the error names the cycle, the rule and the
// rewrite that fits.
func TestSynthesizeRefusesTwoIndexes(t *testing.T) {
	_, tx, stateful, stateless := setup(t, "conga_two_index.p4", "pair")
	_, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	var u *synth.UnsupportedError
	for _, w := range []string{"best_path[hdr.app.leaf] and best_path_util[hdr.app.dst] read each other's old values",
		"ALU pair holds its 2 state variables at one address",
		"best_path at hdr.app.leaf & 255, best_path_util at hdr.app.dst & 255",
		"Index them alike (every one at hdr.app.leaf & 255, as best_path)"} {
		if !errors.As(err, &u) || !strings.Contains(err.Error(), w) {
			t.Errorf("got %v, want an UnsupportedError saying %q", err, w)
		}
	}
}

// TestQueryCache: a second synthesis of the same action with the same
// cache issues no solver query and gives the same graph; a disk cache
// answers a new process (a new cache value over the same folder).
func TestQueryCache(t *testing.T) {
	_, tx, stateful, stateless := setup(t, "marple_tcp_nmo.p4", "pred_raw")
	dir := t.TempDir()
	var first string
	for run := 0; run < 3; run++ {
		cache, err := synth.NewDiskCache(dir)
		if err != nil {
			t.Fatal(err)
		}
		opts := synth.Options{Cache: cache}
		g, stats, err := synth.Synthesize(context.Background(), tx, stateful, stateless, opts)
		if err != nil {
			t.Fatal(err)
		}
		if run == 0 {
			first = g.String()
			if stats.Queries == 0 || stats.CacheHits != 0 {
				t.Fatalf("first run: %+v", stats)
			}
			continue
		}
		if stats.Queries != 0 || stats.CacheHits == 0 {
			t.Errorf("run %d: %+v, want every query from the cache", run, stats)
		}
		if g.String() != first {
			t.Errorf("run %d gave another graph:\n%s\nwant\n%s", run, g, first)
		}
	}
}

// TestProveCatchesAWrongGraph: sampling's graph, with the stateless ALU's
// constant changed from 29 to 28, no longer computes the action.
func TestProveCatchesAWrongGraph(t *testing.T) {
	_, tx, stateful, stateless := setup(t, "sampling.p4", "if_else_raw")
	g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := synth.Prove(context.Background(), tx, g, 32); err != nil {
		t.Fatal(err)
	}
	last := g.ALUs[len(g.ALUs)-1]
	if last.Grammar != stateless || last.Config[0] != 29 {
		t.Fatalf("expected the stateless compare with 29 last:\n%s", g)
	}
	last.Config[0] = 28
	if err := synth.Prove(context.Background(), tx, g, 32); err == nil || !strings.Contains(err.Error(), "differs") {
		t.Errorf("got %v", err)
	}
}

// TestDeepSharedTerms: sixty updates that each read the last twice make a
// term DAG whose tree is 2^60 nodes; preprocessing, synthesis and the
// error message must stay linear in the DAG (this hung before). The
// update multiplies, which pred_raw cannot.
func TestDeepSharedTerms(t *testing.T) {
	var body strings.Builder
	for i := 0; i < 60; i++ {
		body.WriteString("            c = c * (c + hdr.app.sample);\n")
	}
	body.WriteString("            hdr.app.sample = c;")
	err := synthesizeCounter(t, body.String(), "pred_raw")
	var u *synth.UnsupportedError
	if !errors.As(err, &u) || len(err.Error()) > 2000 || !strings.Contains(err.Error(), "...") {
		t.Errorf("got %.300v, want a short UnsupportedError", err)
	}
}

// synthesizeCounter synthesizes corpus.CounterProgram(body)'s action on
// a Banzai atom and returns the error.
func synthesizeCounter(t *testing.T, body, atom string) error {
	t.Helper()
	tx, err := synth.Preprocess(corpus.AtomicAction(t, corpus.CounterProgram(t, body)))
	if err != nil {
		t.Fatal(err)
	}
	tg, _ := banzai.Target(atom)
	stateful, _ := tg.Grammar(atom)
	stateless, _ := tg.Grammar("stateless")
	_, _, err = synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	return err
}

// TestObstacleNamed: raw computes the count's update (c + 1), but the
// packet's field becomes the count times the field, which no stateless
// ALU of Banzai computes (it has no multiplication). The error must say
// that the update fits and what stopped the mapping, not that no
// configuration computes the update.
func TestObstacleNamed(t *testing.T) {
	err := synthesizeCounter(t, "            c = c + 1;\n            hdr.app.sample = c * hdr.app.sample;", "raw")
	var u *synth.UnsupportedError
	if !errors.As(err, &u) || !strings.Contains(err.Error(), "ALU raw computes count[32w0] = (count[32w0]_pre + 32w1), but no mapping of it leaves the rest computable; the first stopped at: no configuration of ALU stateless computes") {
		t.Errorf("got %v", err)
	}
}

// TestQueryCacheKeepsCuts: BLUE's packed attempt on Tofino runs out of
// its budget (the wrap needs a third comparison, and proving that there
// is no configuration takes minutes). A budget counts work, so the cut is
// the same every time: a second synthesis with the same cache issues no
// query, and maps as the first did.
func TestQueryCacheKeepsCuts(t *testing.T) {
	_, tx, stateful, stateless := setupTofino(t, "blue_increase.p4")
	cache := synth.NewMemoryCache()
	first, stats, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Queries == 0 {
		t.Fatalf("first run: %+v", stats)
	}
	again, stats, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{Cache: cache})
	if err != nil {
		t.Fatal(err)
	}
	if stats.Queries != 0 || again.String() != first.String() {
		t.Errorf("second run: %+v\n%s\nwant no query and\n%s", stats, again, first)
	}
}

// TestLowBitsStored: a count written into a 16-bit field is the low bits
// of the register's new value; the field keeps those bits of whatever
// word it is given, so raw's one stateful ALU (whose output is the new
// count) is the whole mapping, with no stateless ALU to cut the bits out
// (Banzai's have no slice). Prove checks the field gets the low bits.
func TestLowBitsStored(t *testing.T) {
	src := `#include <core.p4>
#include <v1model.p4>
header app_t { bit<32> sample; bit<16> low; }
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) count;
    action a() {
        @atomic {
            bit<32> c;
            count.read(c, 0);
            c = c + 1;
            count.write(0, c);
            hdr.app.low = (bit<16>) c;
        }
    }
    table t { actions = { a; } default_action = a(); }
    apply { t.apply(); }
}
BENCH_MAIN
`
	prog := corpus.LoadSource(t, "low.p4", []byte(src))
	_, tx, stateful, stateless := setupProgram(t, prog, "raw")
	g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(g.ALUs) != 1 || g.ALUs[0].Grammar != stateful {
		t.Fatalf("want raw's ALU alone:\n%s", g)
	}
	if err := synth.Prove(context.Background(), tx, g, 32); err != nil {
		t.Fatal(err)
	}
}

// TestTooDeepRefused: an action whose register's new value is a chain
// of more than MaxTermDepth operations is refused at once, at the
// action, naming the bound, before any solver query.
func TestTooDeepRefused(t *testing.T) {
	var body strings.Builder
	for range synth.MaxTermDepth/2 + 10 {
		body.WriteString("            c = c ^ hdr.app.sample;\n            c = c + 3;\n")
	}
	prog := corpus.CounterProgram(t, body.String())
	_, tx, stateful, stateless := setupProgram(t, prog, "pred_raw")
	_, stats, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{})
	var u *synth.UnsupportedError
	if !errors.As(err, &u) {
		t.Fatalf("Synthesize: %v, want an *UnsupportedError", err)
	}
	want := fmt.Sprintf("is %d operations deep, past synthesis's bound of %d (MaxTermDepth)", synth.MaxTermDepth+20, synth.MaxTermDepth)
	if !strings.Contains(u.Msg, want) || !strings.Contains(u.Msg, "register cell count") {
		t.Errorf("message %q, want it to name the register cell and say %q", u.Msg, want)
	}
	if a := corpus.AtomicAction(t, prog); u.Span != a.Span {
		t.Errorf("refused at %v, want the action at %v", u.Span, a.Span)
	}
	if stats.Queries != 0 {
		t.Errorf("%d solver queries, want none", stats.Queries)
	}
}
