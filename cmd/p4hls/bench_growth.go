package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"runtime"
	"runtime/metrics"
	"strings"
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/synth"
)

// growthSizes are the sizes `bench growth` compiles each shape at.
var growthSizes = []int{10, 100, 1_000, 10_000}

// growthShape is a kind of program that grows with one number.
type growthShape struct {
	Name string
	// Program is the v1model program of size n.
	Program func(n int) string
}

// growthShapes are the shapes of `bench growth`: what used to grow
// superlinearly in phase 1 (else-if arms), in synthesis (a chain of
// statements in one @atomic block) and in phase 1 and allocation
// (tables applied one after another).
var growthShapes = []growthShape{
	{"else-if arms", elseIfProgram},
	{"@atomic statements", atomicProgram},
	{"tables", tablesProgram},
}

// growthRow is a row of `p4hls bench growth`.
type growthRow struct {
	Shape string `json:"shape"`
	Size  int    `json:"size"`
	// Outcome is "N stages", "refused: STATUS" (the report's status, as
	// report.json says it) or "cut at the limit"; Stages is N (0 unless
	// placed), Status the report's status.
	Outcome string        `json:"outcome"`
	Stages  int           `json:"stages"`
	Status  report.Status `json:"status"`
	Seconds float64       `json:"seconds"`
	// PeakHeapBytes is the Go heap's high-water mark during the compile.
	PeakHeapBytes uint64 `json:"peak_heap_bytes"`
	// Message is why the compile stopped, when it did not place.
	Message string `json:"message,omitempty"`
}

// benchGrowth implements `p4hls bench growth`: each of shapes generated
// at each of sizes in memory and compiled for Tofino in the process, with a time
// limit per compile, printing outcome, time and peak heap as a table
// (and as JSON).
func benchGrowth(ctx context.Context, shapes []growthShape, sizes []int, timeout time.Duration, jsonOut string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "load average: %s; time limit %s per compile\n", loadAverage(), timeout)
	fmt.Fprintln(stdout, "peak heap: the Go heap's live objects (runtime/metrics), sampled every 5 ms during the compile; Z3's own memory is not counted")
	const format = "%-20s %7s %-24s %9s %10s\n"
	fmt.Fprintf(stdout, format, "shape", "size", "outcome", "time", "peak heap")
	var rows []growthRow
	for _, shape := range shapes {
		for _, n := range sizes {
			if ctx.Err() != nil {
				return exitUserErr
			}
			r := growthOne(ctx, shape, n, timeout)
			rows = append(rows, r)
			fmt.Fprintf(stdout, format, r.Shape, fmt.Sprint(r.Size), r.Outcome, fmt.Sprintf("%.2fs", r.Seconds),
				fmt.Sprintf("%.1f MB", float64(r.PeakHeapBytes)/1e6))
			if r.Message != "" {
				fmt.Fprintf(stderr, "%s %d: %s\n", r.Shape, r.Size, firstLine(r.Message, 300))
			}
		}
	}
	return writeJSON(jsonOut, rows, stderr)
}

// growthGrace is how long a compile past its time limit may take to
// stop: every phase polls its context, but a step between polls (the
// parser of a large file) runs to its end.
const growthGrace = 10 * time.Second

// growthOne compiles one generated program with a time limit, sampling
// the heap while it runs. A compile that does not stop within
// growthGrace of its limit is left to finish in the background (the rows
// after it then share the machine with it) so that the bench never hangs.
func growthOne(ctx context.Context, shape growthShape, n int, timeout time.Duration) growthRow {
	r := growthRow{Shape: shape.Name, Size: n}
	name := fmt.Sprintf("growth_%s_%d.p4", strings.NewReplacer(" ", "_", "@", "", "-", "_").Replace(shape.Name), n)
	req := driver.Request{File: name, Source: []byte(shape.Program(n)), Target: "tofino",
		Synth: synth.Options{Cache: synth.NewMemoryCache()}}
	runtime.GC() // each compile's peak starts from what the bench itself holds
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type outcome struct {
		res *driver.Result
		err error
	}
	done := make(chan outcome, 1)
	start := time.Now()
	go func() {
		res, err := driver.Compile(cctx, req, nil)
		done <- outcome{res, err}
	}()
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	var late <-chan time.Time
	for {
		metrics.Read(sample)
		r.PeakHeapBytes = max(r.PeakHeapBytes, sample[0].Value.Uint64())
		select {
		case o := <-done:
			r.Seconds = time.Since(start).Seconds()
			r.Status = o.res.Report.Status
			switch {
			case o.err == nil:
				r.Stages, r.Outcome = o.res.Report.Stages, fmt.Sprintf("%d stages", o.res.Report.Stages)
			case r.Status == report.Timeout || errors.Is(o.err, context.DeadlineExceeded):
				r.Outcome, r.Message = "cut at the limit", o.err.Error()
			default:
				r.Outcome, r.Message = "refused: "+string(r.Status), o.err.Error()
				if d := compileError(o.res); d != "" {
					r.Message = d
				}
			}
			return r
		case <-cctx.Done():
			if late == nil {
				late = time.After(growthGrace)
			}
		case <-late:
			r.Seconds, r.Status = time.Since(start).Seconds(), report.Timeout
			r.Outcome, r.Message = "cut at the limit", fmt.Sprintf("did not stop within %s of the limit; left running", growthGrace)
			return r
		case <-tick.C:
		}
	}
}

// compileError is the first error diagnostic of a compile, located ("" when
// it has none).
func compileError(res *driver.Result) string {
	for _, d := range res.Diagnostics.Items() {
		if d.Severity == diag.Error {
			return d.String()
		}
	}
	return ""
}

// firstLine cuts s at its first newline and at n bytes.
func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > n {
		s = s[:n] + "..."
	}
	return s
}

// growthSkeleton is a v1model program around an ingress control's
// declarations and apply block.
func growthSkeleton(decls, apply string) string {
	return `#include <core.p4>
#include <v1model.p4>
header h_t { bit<32> a; bit<32> b; bit<32> c; }
struct headers { h_t h; }
struct metadata { bit<32> x; }
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
` + decls + `    apply {
` + apply + `    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`
}

// elseIfProgram is an if/else-if chain of n arms on one field, each arm
// an assignment.
func elseIfProgram(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("        ")
		if i > 0 {
			b.WriteString("else ")
		}
		fmt.Fprintf(&b, "if (hdr.h.a == %d) { hdr.h.b = %d; }\n", i, i+1)
	}
	return growthSkeleton("", b.String())
}

// atomicProgram is an action whose @atomic block reads a register, runs
// n chained statements on the value (operators that do not fold into
// each other) and writes it back.
func atomicProgram(n int) string {
	ops := []string{"c = c + hdr.h.a;", "c = c ^ 3;", "c = c + 7;", "c = c - hdr.h.b;", "c = c & 0xffff;"}
	var b strings.Builder
	b.WriteString("    register<bit<32>>(1) r;\n    action a() {\n        @atomic {\n            bit<32> c;\n            r.read(c, 0);\n")
	for i := range n {
		b.WriteString("            " + ops[i%len(ops)] + "\n")
	}
	b.WriteString("            r.write(0, c);\n            hdr.h.c = c;\n        }\n    }\n")
	b.WriteString("    table t { actions = { a; } default_action = a(); }\n")
	return growthSkeleton(b.String(), "        t.apply();\n")
}

// tablesProgram is n tables applied one after another, each adding its
// entry's value to the same field.
func tablesProgram(n int) string {
	var decls, apply strings.Builder
	for i := range n {
		fmt.Fprintf(&decls, "    action a%d(bit<32> v) { hdr.h.b = hdr.h.b + v; }\n", i)
		fmt.Fprintf(&decls, "    table t%d { key = { hdr.h.a: exact; } actions = { a%d; NoAction; } default_action = NoAction(); }\n", i, i)
		fmt.Fprintf(&apply, "        t%d.apply();\n", i)
	}
	return growthSkeleton(decls.String(), apply.String())
}
