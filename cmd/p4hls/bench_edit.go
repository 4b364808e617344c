package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/synth"
)

// editRow is a row of `p4hls bench edit`: a program compiled with a
// cache folder, compiled again unchanged, and again after one constant
// of its action is edited, as a user's edit-compile loop runs.
type editRow struct {
	Program   string  `json:"program"`
	Target    string  `json:"target"`
	ALU       string  `json:"alu,omitempty"`
	Edit      string  `json:"edit"`
	Cold      float64 `json:"cold_seconds"`
	Unchanged float64 `json:"unchanged_seconds"`
	Edited    float64 `json:"edited_seconds"`
	// Queries and CacheHits are the edited compile's.
	Queries       int    `json:"edited_queries"`
	CacheHits     int    `json:"edited_cache_hits"`
	Stages        int    `json:"stages"`
	EditedStages  int    `json:"edited_stages"`
	Error         string `json:"error,omitempty"`
	define, value string
}

// editRows are the edits `bench edit` times: a constant of the
// transaction in Table 4 programs, on Tofino and on a Banzai atom.
var editRows = []editRow{
	{Program: "blue_increase", Target: "tofino", define: "FREEZE_TIME", value: "20"},
	{Program: "blue_increase", Target: "tofino", define: "DELTA", value: "2"},
	{Program: "sampling", Target: "tofino", define: "N", value: "40"},
	{Program: "snap_heavy_hitter", Target: "tofino", define: "THRESHOLD", value: "2000"},
	{Program: "rcp", Target: "tofino", define: "MAX_ALLOWABLE_RTT", value: "50"},
	{Program: "sampling", Target: "banzai", ALU: "if_else_raw", define: "N", value: "20"},
	{Program: "rcp", Target: "banzai", ALU: "pred_raw", define: "MAX_ALLOWABLE_RTT", value: "50"},
}

// benchEdit implements `p4hls bench edit`.
func benchEdit(ctx context.Context, corpus string, edits []editRow, jsonOut string, timeout time.Duration, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "load average: %s\n", loadAverage())
	const format = "%-18s %-7s %-12s %-30s %8s %10s %8s %8s %7s %8s\n"
	fmt.Fprintf(stdout, format, "program", "target", "grammar", "edit", "cold", "unchanged", "edited", "queries", "hits", "stages")
	var rows []editRow
	for _, r := range edits {
		if ctx.Err() != nil {
			return exitUserErr
		}
		r = editOne(ctx, corpus, r, timeout)
		rows = append(rows, r)
		if r.Error != "" {
			fmt.Fprintf(stderr, "%s (%s): %s\n", r.Program, r.Edit, r.Error)
			continue
		}
		fmt.Fprintf(stdout, format, r.Program, r.Target, r.ALU, r.Edit, seconds(r.Cold), seconds(r.Unchanged), seconds(r.Edited),
			fmt.Sprint(r.Queries), fmt.Sprint(r.CacheHits), fmt.Sprintf("%d -> %d", r.Stages, r.EditedStages))
	}
	return writeJSON(jsonOut, rows, stderr)
}

func seconds(s float64) string { return fmt.Sprintf("%.2fs", s) }

// editOne runs one row's three compiles against a fresh cache folder.
func editOne(ctx context.Context, corpus string, r editRow, timeout time.Duration) editRow {
	file := filepath.Join(corpus, r.Program+".p4")
	src, err := os.ReadFile(file)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	line := "#define " + r.define + " "
	start := strings.Index(string(src), line)
	if start < 0 {
		r.Error = fmt.Sprintf("%s has no %q", file, strings.TrimSpace(line))
		return r
	}
	end := start + strings.IndexByte(string(src[start:]), '\n')
	r.Edit = fmt.Sprintf("%s %s -> %s", r.define, strings.TrimSpace(string(src[start+len(line):end])), r.value)
	edited := string(src[:start]) + line + r.value + string(src[end:])
	dir, err := os.MkdirTemp("", "p4hls-bench-edit-")
	if err != nil {
		r.Error = err.Error()
		return r
	}
	defer os.RemoveAll(dir)
	compile := func(source string) (float64, *driver.Result, error) {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		begin := time.Now()
		// A cache opened per compile, as each `p4hls compile --cache-dir`
		// opens its folder.
		cache, err := synth.NewDiskCache(dir)
		if err != nil {
			return 0, nil, err
		}
		res, err := driver.Compile(cctx, driver.Request{File: file, Source: []byte(source), Target: r.Target, ALU: r.ALU,
			Synth: synth.Options{Cache: cache}}, nil)
		return time.Since(begin).Seconds(), res, err
	}
	var res *driver.Result
	if r.Cold, res, err = compile(string(src)); err == nil {
		r.Stages = res.Report.Stages
		if r.Unchanged, _, err = compile(string(src)); err == nil {
			r.Edited, res, err = compile(edited)
		}
	}
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Queries, r.CacheHits, r.EditedStages = res.Report.SolverQueries, res.Report.CacheHits, res.Report.Stages
	return r
}

// copiesRow is a row of `p4hls bench copies`.
type copiesRow struct {
	Copies    int     `json:"copies"`
	Alike     bool    `json:"alike"`
	Seconds   float64 `json:"seconds"`
	Queries   int     `json:"queries"`
	CacheHits int     `json:"cache_hits"`
	Stages    int     `json:"stages"`
	Error     string  `json:"error,omitempty"`
}

// copiesSizes are the numbers of copies `bench copies` compiles.
var copiesSizes = []int{8, 16, 32}

// benchCopies implements `p4hls bench copies`: N copies of RCP's
// transaction, each with its own registers and table, compiled for
// Banzai's pred_raw as one program, the copies the same, and alike (each
// its own RTT bound): the same transaction is synthesized once, and an
// alike one from the first's configurations moved to its constants.
func benchCopies(ctx context.Context, sizes []int, timeout time.Duration, jsonOut string, stdout, stderr io.Writer) int {
	fmt.Fprintf(stdout, "load average: %s\n", loadAverage())
	const format = "%-8s %-6s %8s %8s %7s %7s\n"
	fmt.Fprintf(stdout, format, "copies", "alike", "time", "queries", "hits", "stages")
	var rows []copiesRow
	for _, alike := range []bool{false, true} {
		for _, n := range sizes {
			if ctx.Err() != nil {
				return exitUserErr
			}
			r := copiesOne(ctx, n, alike, timeout)
			rows = append(rows, r)
			if r.Error != "" {
				fmt.Fprintf(stderr, "%d copies: %s\n", n, r.Error)
				continue
			}
			fmt.Fprintf(stdout, format, fmt.Sprint(n), fmt.Sprint(alike), seconds(r.Seconds), fmt.Sprint(r.Queries), fmt.Sprint(r.CacheHits), fmt.Sprint(r.Stages))
		}
	}
	return writeJSON(jsonOut, rows, stderr)
}

func copiesOne(ctx context.Context, n int, alike bool, timeout time.Duration) copiesRow {
	r := copiesRow{Copies: n, Alike: alike}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	begin := time.Now()
	res, err := driver.Compile(cctx, driver.Request{File: "copies.p4", Source: []byte(rcpCopies(n, alike)), Target: "banzai", ALU: "pred_raw",
		Synth: synth.Options{Cache: synth.NewMemoryCache()}}, nil)
	r.Seconds = time.Since(begin).Seconds()
	if err != nil {
		r.Error = err.Error()
		return r
	}
	r.Queries, r.CacheHits, r.Stages = res.Report.SolverQueries, res.Report.CacheHits, res.Report.Stages
	return r
}

// rcpCopies is a program of n copies of RCP's transaction (its sums of
// bytes and of RTTs under a bound, and its count of packets under it),
// applied when the header is valid, as programs guard their tables.
// With alike, copy i's bound is 30 + i; else every copy's is 30.
func rcpCopies(n int, alike bool) string {
	var b strings.Builder
	b.WriteString(`#include <core.p4>
#include <v1model.p4>
header app_t { bit<32> size_bytes; bit<32> rtt; }
struct headers { app_t app; }
struct metadata { }
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.app); transition accept; }
}
control NoCheck(inout headers hdr, inout metadata meta) { apply { } }
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.app); } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
`)
	for i := range n {
		bound := 30
		if alike {
			bound += i
		}
		fmt.Fprintf(&b, `    register<bit<32>>(1) bytes%[1]d;
    register<bit<32>>(1) rtts%[1]d;
    register<bit<32>>(1) pkts%[1]d;
    action rcp%[1]d() {
        @atomic {
            bit<32> t; bit<32> s; bit<32> p;
            bytes%[1]d.read(t, 0); rtts%[1]d.read(s, 0); pkts%[1]d.read(p, 0);
            t = t + hdr.app.size_bytes;
            if (hdr.app.rtt < %[2]d) { s = s + hdr.app.rtt; p = p + 1; }
            bytes%[1]d.write(0, t); rtts%[1]d.write(0, s); pkts%[1]d.write(0, p);
        }
    }
    table rcp_stats%[1]d { actions = { rcp%[1]d; } default_action = rcp%[1]d(); }
`, i, bound)
	}
	b.WriteString("    apply {\n        if (hdr.app.isValid()) {\n")
	for i := range n {
		fmt.Fprintf(&b, "            rcp_stats%d.apply();\n", i)
	}
	b.WriteString("        }\n    }\n}\nV1Switch(P(), NoCheck(), I(), E(), NoCheck(), D()) main;\n")
	return b.String()
}
