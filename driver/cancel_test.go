package driver

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/report"
)

// benchProgram is a corpus-style program: app_t's fields, the shared
// bench.p4, then decls before MyIngress and body inside it.
func benchProgram(fields, decls, body string) []byte {
	return []byte(`#include <core.p4>
#include <v1model.p4>
header app_t { ` + fields + ` }
#include "../include/bench.p4"
` + decls + `
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
` + body + `
}
BENCH_MAIN
`)
}

// repeat joins n copies of format, each given its index.
func repeat(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format, i)
	}
	return b.String()
}

// TestCancelInEachPhase interrupts a compile 50 ms into each phase of a
// program that spends long there, and checks that it stops in that phase,
// as interrupted. It logs the time from the cancel to Compile's return
// (the cancellation latency, measured here rather than asserted: run with
// -v to read it).
func TestCancelInEachPhase(t *testing.T) {
	siphash, err := os.ReadFile(filepath.Join(corpus.Dir(), "ok", "siphash.p4"))
	if err != nil {
		t.Fatal(err)
	}
	rcp := `register<bit<32>>(1) traffic%[1]d;
    register<bit<32>>(1) rtts%[1]d;
    register<bit<32>>(1) pkts%[1]d;
    action rcp%[1]d() {
        @atomic {
            bit<32> traffic; bit<32> rtt_sum; bit<32> pkts;
            traffic%[1]d.read(traffic, 0); rtts%[1]d.read(rtt_sum, 0); pkts%[1]d.read(pkts, 0);
            traffic = traffic + hdr.app.size;
            if (hdr.app.rtt < 30) { rtt_sum = rtt_sum + hdr.app.rtt; pkts = pkts + 1; }
            traffic%[1]d.write(0, traffic); rtts%[1]d.write(0, rtt_sum); pkts%[1]d.write(0, pkts);
        }
    }
    table t%[1]d { actions = { rcp%[1]d; } default_action = rcp%[1]d(); }
`
	for _, tc := range []struct {
		phase string
		req   Request
	}{
		{"frontend", Request{Target: "tofino", Source: benchProgram("bit<32> sample;",
			repeat(50000, "const bit<32> C%d = 1;\n"), "    apply { }")}},
		{"transform", Request{Target: "tofino", Source: benchProgram("bit<32> sample;", "",
			"    apply {\n"+strings.TrimPrefix(repeat(frontend.MaxStatementDepth-100, "        else if (hdr.app.sample == %[1]d) { hdr.app.sample = %[1]d + 1; }\n"), "        else ")+"    }")}},
		{"synth", Request{Target: "tofino", Stages: 40, Source: siphash}},
		{"alloc", Request{Target: "banzai", Stages: 64, Source: benchProgram("bit<32> size; bit<32> rtt;", "",
			repeat(32, rcp)+"    apply {\n        if (hdr.app.isValid()) {\n"+repeat(32, "            t%d.apply();\n")+"        }\n    }")}},
		{"backend", Request{Target: "xdp", Source: benchProgram("bit<32> sample;", "",
			repeat(400, "    action a%[1]d(bit<32> v) { hdr.app.sample = hdr.app.sample + v; }\n    table t%[1]d { key = { hdr.app.sample: exact; } actions = { a%[1]d; NoAction; } default_action = NoAction(); }\n")+
				"    apply {\n"+repeat(400, "        t%d.apply();\n")+"    }")}},
	} {
		t.Run(tc.phase, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			cancelled := make(chan time.Time, 1)
			progress := func(phase, _ string) {
				if phase == tc.phase && len(cancelled) == 0 {
					go func() {
						time.Sleep(50 * time.Millisecond)
						cancelled <- time.Now()
						cancel()
					}()
				}
			}
			req := tc.req
			req.File = filepath.Join(corpus.Dir(), "ok", "cancel.p4")
			res, err := Compile(ctx, req, progress)
			returned := time.Now()
			reached := res.Report.Reached
			if !errors.Is(err, context.Canceled) || res.Report.Status != report.Interrupted || reached[len(reached)-1] != tc.phase {
				t.Fatalf("got %v, status %s, phases %v; want interrupted in %s", err, res.Report.Status, reached, tc.phase)
			}
			if !strings.Contains(err.Error(), "in "+phaseTitle(tc.phase)+": ") {
				t.Errorf("the error %q does not name the phase", err)
			}
			t.Logf("%s: returned %v after the cancel", tc.phase, returned.Sub(<-cancelled))
		})
	}
}

// TestDeepestOnEveryTarget: the deepest expression and the longest
// else-if chain the frontend accepts are compiled, or refused, by every
// target, never an internal error: each output holds a bracket per
// operator and a block per arm, which p4c's nesting limit (for the Tofino
// program) and clang (for the xdp target's C) must take.
func TestDeepestOnEveryTarget(t *testing.T) {
	terms := frontend.MaxExpressionDepth/2 - 5 // the frontend counts about two per operator
	deepest(t, "an expression", benchProgram("bit<32> sample;", "", "    apply {\n        bit<32> v = hdr.app.sample;\n        hdr.app.sample = "+
		strings.TrimSuffix(strings.Repeat("v + ", terms), " + ")+";\n    }"))
	deepest(t, "an else-if chain", benchProgram("bit<32> sample;", "", "    apply {\n"+
		strings.TrimPrefix(repeat(frontend.MaxStatementDepth, "        else if (hdr.app.sample == %[1]d) { hdr.app.sample = %[1]d + 1; }\n"), "        else ")+"    }"))
}

func deepest(t *testing.T, what string, src []byte) {
	t.Helper()
	for _, target := range Registry().Names() {
		res, err := Compile(context.Background(), Request{File: filepath.Join(corpus.Dir(), "ok", "deep.p4"), Source: src, Target: target}, nil)
		if res.Report.Status == report.ProgramError {
			t.Fatalf("the frontend refuses %s at its limit: %v", what, res.Diagnostics.Error())
		}
		if s := res.Report.Status; s != report.OK && s != report.DoesNotFit {
			t.Errorf("%s, %s: %s: %v", what, target, s, err)
		}
	}
}
