package driver

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
)

// TestRegistry: the built-in targets validate, in a fixed order, and an
// unknown name is answered with the list.
func TestRegistry(t *testing.T) {
	r := Registry()
	if got, want := strings.Join(r.Names(), " "), "tofino menshen banzai xdp hxdp"; got != want {
		t.Errorf("targets %q, want %q", got, want)
	}
	if _, err := r.Lookup("fpga"); err == nil || err.Error() != `unknown target "fpga" (targets: tofino, menshen, banzai, xdp, hxdp)` {
		t.Errorf("Lookup(fpga): %v", err)
	}
	for _, b := range r.Backends() {
		tg := b.Target()
		if tg.Description == "" || !tg.Processor && len(backends.StatefulGrammars(b)) == 0 {
			t.Errorf("%s: no stateful ALU (a pipeline must have one) or no description", tg.Name)
		}
	}
}

// The toy target exists only here: a pipeline of 3 stages of two ALUs,
// one of them stateful, whose stateful ALU can set its word to a
// constant when the word equals one, and whose stateless ALU adds,
// subtracts or compares with a constant.
const toyStateful = `stateful once(state s; packet a) {
    if (s == const<2>) {
        s = const<2>;
    }
    output mux2(s, new(s));
}`

const toyStateless = `stateless alu(packet a, b) {
    hole i : const<3>;
    output choose<2>(i, a + b, a == i, a - b);
}`

// toy is the test's backend: it writes where each table and ALU went,
// and counts the checks --verify asks of it.
type toy struct {
	grammars []*grammar.Grammar
	verified *int
}

func newToy(t *testing.T) toy {
	var d diag.List
	var gs []*grammar.Grammar
	for name, src := range map[string]string{"once.alu": toyStateful, "alu.alu": toyStateless} {
		g := grammar.Parse(name, []byte(src), &d)
		if g == nil {
			t.Fatalf("%s: %v", name, d.String())
		}
		gs = append(gs, g)
	}
	return toy{grammars: gs, verified: new(int)}
}

func (b toy) Target() *target.Target {
	return &target.Target{Name: "toy", Description: "a target of this test only", Grammars: b.grammars, Stateful: "once", Stateless: "alu",
		Limits: target.Limits{Stages: 3, ALUsPerStage: 2, StatefulALUsPerStage: 1, TablesPerStage: 2, EntriesPerTable: 64,
			Containers: 16, ContainerBits: 32, WordBits: 32}}
}

func (toy) Options() []backends.Option { return nil }

func (toy) Emit(_ context.Context, c *backends.Compiled, _ backends.Options) (*backends.Output, error) {
	var b strings.Builder
	for t, tab := range c.Problem.Tables {
		fmt.Fprintf(&b, "table %s: stages %v\n", tab.Name, c.Placement.Parts[t])
	}
	for _, g := range c.Graphs {
		for u, a := range g.ALUs {
			fmt.Fprintf(&b, "action %s: ALU %d (%s) at depth %d\n", g.Action.Name, u, a.Grammar.Name, a.Depth)
		}
	}
	return &backends.Output{Artifacts: []backends.Artifact{{Name: "placement.txt", MediaType: "text/plain", Data: []byte(b.String())}}}, nil
}

func (b toy) Verify(_ context.Context, _ *backends.Compiled, out *backends.Output, _ backends.Options, packets int) error {
	if len(out.Artifacts) != 1 {
		return fmt.Errorf("verify got %d artifacts", len(out.Artifacts))
	}
	*b.verified += packets
	return nil
}

// TestTargetOfOneTest: a target is one Backend and one registration. The
// toy target, known only to this test, compiles Marple's new-flow
// program end to end through the public API: its stateful ALU keeps the
// flag (set 0 to 1), a stateless one computes new_flow = (old == 0) a
// stage later, so the program takes 2 stages; --verify runs the
// pipeline model and then the target's own check.
func TestTargetOfOneTest(t *testing.T) {
	b := newToy(t)
	reg, err := backends.NewRegistry(b)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(corpus.Dir(), "ok", "marple_new_flow.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compile(context.Background(), Request{File: file, Source: src, Targets: reg, Target: "toy", VerifyPackets: 500}, nil)
	if err != nil {
		t.Fatal(err, res.Diagnostics.String())
	}
	if res.Report.Target != "toy" || res.Report.ALU != "once" || res.Report.Stages != 2 || res.Report.Status != report.OK {
		t.Errorf("report: target %s, ALU %s, %d stages, status %s", res.Report.Target, res.Report.ALU, res.Report.Stages, res.Report.Status)
	}
	if len(res.Artifacts) != 1 || res.Artifacts[0].Name != "placement.txt" {
		t.Fatalf("artifacts %v", res.Artifacts)
	}
	text := string(res.Artifacts[0].Data)
	for _, want := range []string{"action new_flow: ALU 0 (once) at depth 0\n", "action new_flow: ALU 1 (alu) at depth 1\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("placement.txt has no %q:\n%s", want, text)
		}
	}
	if *b.verified != 500 {
		t.Errorf("the target's check ran on %d packets, want 500", *b.verified)
	}
	_, err = Compile(context.Background(), Request{File: file, Source: src, Targets: reg, Target: "tofino"}, nil)
	if err == nil || !strings.Contains(err.Error(), `unknown target "tofino" (targets: toy)`) {
		t.Errorf("a target not in the registry: %v", err)
	}
}

// TestConcurrentCompiles: two compiles of different programs, targets and
// search widths (the width of synthesis's first, narrow queries), run at
// once in one process, give what each gives alone.
// Run under `go test -race` (make test does), it shows the phases share
// no mutable state.
func TestConcurrentCompiles(t *testing.T) {
	requests := []Request{
		{File: "marple_new_flow.p4", Target: "tofino", Synth: synth.Options{SearchWidth: 8}},
		{File: "sampling.p4", Target: "banzai", ALU: "if_else_raw", Synth: synth.Options{SearchWidth: 4}, VerifyPackets: 200},
	}
	for i := range requests {
		r := &requests[i]
		r.File = filepath.Join(corpus.Dir(), "ok", r.File)
		var err error
		if r.Source, err = os.ReadFile(r.File); err != nil {
			t.Fatal(err)
		}
	}
	compile := func(req Request) *Result {
		req.Synth.Cache = synth.NewMemoryCache()
		res, err := Compile(context.Background(), req, nil)
		if err != nil {
			t.Error(filepath.Base(req.File), err, res.Diagnostics.String())
		}
		return res
	}
	var alone []*Result
	for _, req := range requests {
		alone = append(alone, compile(req))
	}
	if t.Failed() {
		return
	}
	together := make([]*Result, 2*len(requests))
	var wg sync.WaitGroup
	for i := range together {
		wg.Add(1)
		go func() {
			defer wg.Done()
			together[i] = compile(requests[i%len(requests)])
		}()
	}
	wg.Wait()
	for i, res := range together {
		want := alone[i%len(requests)]
		if res.Report.Stages != want.Report.Stages || len(res.Artifacts) != len(want.Artifacts) {
			t.Errorf("%s: %d stages, %d artifacts; alone %d, %d", requests[i%len(requests)].File, res.Report.Stages, len(res.Artifacts),
				want.Report.Stages, len(want.Artifacts))
			continue
		}
		for k, a := range res.Artifacts {
			if !bytes.Equal(a.Data, want.Artifacts[k].Data) {
				t.Errorf("%s: %s differs from the compile alone", requests[i%len(requests)].File, a.Name)
			}
		}
	}
}

// TestEvents: Request.Events sees the phases in order, Marple new flow's
// one action once synthesized (one stateful and one stateless ALU, as
// the toy target has them), and the placement in the 2 stages the
// report gives.
func TestEvents(t *testing.T) {
	reg, err := backends.NewRegistry(newToy(t))
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(corpus.Dir(), "ok", "marple_new_flow.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var phases []string
	var actions []report.Action
	var placed []Event
	events := func(e Event) {
		switch {
		case e.Action != nil:
			actions = append(actions, *e.Action)
		case e.Alloc != nil:
			placed = append(placed, e)
		case len(phases) == 0 || phases[len(phases)-1] != e.Phase:
			phases = append(phases, e.Phase)
		}
	}
	if _, err := Compile(context.Background(), Request{File: file, Source: src, Targets: reg, Target: "toy", Events: events}, nil); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Join(phases, " "), "frontend transform synth alloc backend"; got != want {
		t.Errorf("phases %q, want %q", got, want)
	}
	if len(actions) != 1 || actions[0].Name != "new_flow" || actions[0].StatefulALUs != 1 || actions[0].StatelessALUs != 1 {
		t.Errorf("actions %+v, want new_flow with 1 stateful and 1 stateless ALU", actions)
	}
	// The greedy placement meets the lower bound (the action's two ALUs
	// in a row): no solver runs.
	if len(placed) != 1 || placed[0].Stages != 2 || placed[0].Alloc.Solver != "greedy" || !placed[0].Alloc.Proven {
		t.Errorf("placement events %+v, want one of 2 stages by greedy, proven", placed)
	}
}

// TestTooManyTablesBeforePhase1: a control applying more tables than
// Tofino's 12 stages of 16 hold is refused before phase 1's analysis,
// which is quadratic in the tables: the report says the program does not
// fit, at the control, naming the limit.
func TestTooManyTablesBeforePhase1(t *testing.T) {
	var decls, apply strings.Builder
	for i := range 200 {
		fmt.Fprintf(&decls, "    table t%d { key = { hdr.app.sample: exact; } actions = { NoAction; } }\n", i)
		fmt.Fprintf(&apply, "        t%d.apply();\n", i)
	}
	src := `#include <core.p4>
#include <v1model.p4>
header app_t { bit<32> sample; }
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
` + decls.String() + `    apply {
` + apply.String() + `    }
}
BENCH_MAIN
`
	file := filepath.Join(corpus.Dir(), "ok", "tables200.p4")
	res, err := Compile(context.Background(), Request{File: file, Source: []byte(src), Target: "tofino"}, nil)
	if res.Report.Status != report.DoesNotFit || res.Analysis != nil {
		t.Fatalf("status %s, analysis %v (%v), want does-not-fit before the analysis", res.Report.Status, res.Analysis != nil, err)
	}
	items := res.Diagnostics.Items()
	want := "control MyIngress applies 200 tables, which need at least 13 stages at 16 tables per stage; the target has 12"
	if len(items) != 1 || items[0].Code != diag.DoesNotFit || items[0].Span.Start.Line != 5 || !strings.Contains(items[0].Msg, want) {
		t.Errorf("diagnostics %v, want one at line 5 (the control) saying %q", items, want)
	}
}
