package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/store"
	"github.com/p4hls/p4hls/synth"
)

// benchRow is one row of CaT's Table 4: a benchmark, the grammar it is
// compiled with, and CaT's default stage count (ALUS.md §6; 0 where CaT
// has no number).
type benchRow struct {
	File, Target, ALU string
	CaT               int
}

// table4 lists the rows of CaT's Table 4 (ALUS.md §6.1 and §6.2).
var table4 = []benchRow{
	{"blue_increase", "tofino", "", 1}, {"blue_decrease", "tofino", "", 1}, {"flowlet", "tofino", "", 2},
	{"marple_new_flow", "tofino", "", 1}, {"marple_tcp_nmo", "tofino", "", 2}, {"sampling", "tofino", "", 1},
	{"rcp", "tofino", "", 1}, {"snap_heavy_hitter", "tofino", "", 1}, {"dns_ttl_change", "tofino", "", 2},
	{"conga", "tofino", "", 1},
	{"blue_increase", "banzai", "pred_raw", 4}, {"blue_decrease", "banzai", "sub", 4}, {"flowlet", "banzai", "pred_raw", 3},
	{"marple_new_flow", "banzai", "pred_raw", 2}, {"marple_tcp_nmo", "banzai", "pred_raw", 3},
	{"sampling", "banzai", "if_else_raw", 2}, {"rcp", "banzai", "pred_raw", 2}, {"snap_heavy_hitter", "banzai", "pair", 1},
	{"dns_ttl_change", "banzai", "nested_ifs", 3}, {"conga", "banzai", "pair", 1},
	{"stateful_firewall", "banzai", "pred_raw", 4}, {"learn_filter", "banzai", "raw", 3},
	{"spam_detection", "banzai", "pair", 1}, {"stfq", "banzai", "nested_ifs", 3},
	// The benchmarks whose bit<32> subtraction wraps where Domino's int
	// goes below zero, written with C's meaning (|-|): CaT's counts are
	// for the same C programs.
	{"blue_increase_sat", "tofino", "", 1}, {"blue_decrease_sat", "tofino", "", 1}, {"flowlet_sat", "tofino", "", 2},
	{"blue_increase_sat", "banzai", "pred_raw", 4}, {"blue_decrease_sat", "banzai", "sub", 4}, {"flowlet_sat", "banzai", "pred_raw", 3},
	// The benchmarks whose wrap costs a stage, with the precondition that
	// rules it out stated (assume): CaT's counts hold for them.
	{"blue_increase_assume", "tofino", "", 1}, {"blue_decrease_assume", "tofino", "", 1}, {"flowlet_assume", "tofino", "", 2},
	{"flowlet_assume", "banzai", "pred_raw", 3}, {"spam_detection_assume", "banzai", "pair", 1},
	// ME-1, SipHash-2-4 on Tofino: not a Table 4 row (CaT 0 prints "-").
	{"siphash", "tofino", "", 0},
}

// benchResult is a row's outcome. Stages are -1 where the compile failed
// (Error says why).
type benchResult struct {
	Benchmark     string  `json:"benchmark"`
	Target        string  `json:"target"`
	ALU           string  `json:"alu"`
	Seconds       float64 `json:"seconds"`
	Stages        int     `json:"stages"`
	StagesNoPred  int     `json:"stages_no_pred_pack"`
	StagesNoPre   int     `json:"stages_no_preprocess"`
	CaTStages     int     `json:"cat_stages"`
	SolverQueries int     `json:"solver_queries"`
	Error         string  `json:"error,omitempty"`
}

// runBench implements `p4hls bench synth`: CaT's Table 4 rows, each
// compiled as a first `p4hls compile` would (no query answered by an
// earlier compile), as a table and as JSON; and `p4hls bench transform`.
func runBench(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	corpus := fs.String("corpus", "testdata/p4/ok", "the folder `DIR` holding the benchmark programs")
	jsonOut := fs.String("json", "", "also write the results to `FILE` as JSON")
	timeout := fs.Duration("timeout", 2*time.Minute, "time limit `D` per compile (growth: 30s by default)")
	tables := fs.Int("tables", 120, "sweep: the generated switch program's `N` tables")
	stages := fs.Int("stages", 0, "sweep: the target has `N` stages (default: Tofino's 12)")
	var conf conformanceOptions
	fs.StringVar(&conf.Root, "p4c", "", "conformance, stf: the checkout of p4c, `DIR`, whose testdata and p4include are read")
	fs.BoolVar(&conf.Bundled, "bundled", false, "conformance: include p4hls's bundled headers, not p4c's p4include")
	fs.IntVar(&conf.Jobs, "j", defaultJobs(), "conformance, stf: check `N` programs at once")
	failures := fs.String("failures", "", "conformance: write the programs p4hls and p4c disagree on to `FILE`; stf: those that fail, and why")
	programs := fs.String("programs", "", "stf: instead of p4c's samples, every v1model program under `DIR`, with an .stf next to it or not")
	stfTarget := fs.String("target", "", "stf: also compile for `TARGET` the programs whose test passes on the interpreter (Tofino: and run the test on the TNA program)")
	packets := fs.Int("packets", 1_000_000, "sim: run `N` packets through each program (hxdp: 10,000 by default)")
	var so benchServeOptions
	fs.StringVar(&so.server, "server", "", "serve: load the server at `ADDR` (default: one started in this process)")
	fs.IntVar(&so.concurrency, "concurrency", 50, "serve: send `N` compiles at once")
	fs.IntVar(&so.soak, "soak", 0, "serve: then run `N` compiles in a loop and print goroutines, heap and solver contexts before and after")
	fs.IntVar(&so.maxCompiles, "max-compiles", 2, "serve: the started server runs `N` compiles at once")
	fs.IntVar(&so.maxQueue, "max-queue", 48, "serve: and lets `N` more wait")
	want := operands{synopsis: "synth|transform|alloc|sweep|edit|copies|serve|xdp|hxdp|sim|growth|conformance|stf", min: 1, max: 1, none: "no benchmark: want synth, transform, alloc, sweep, edit, copies, serve, xdp, hxdp, sim, growth, conformance or stf"}
	fs.Usage = func() { printHelp(stdout, fs, want) }
	rest, code, done := parseArgs(ctx, fs, args, want, stderr)
	if done {
		return code
	}
	switch rest[0] {
	case "transform":
		return benchTransform(ctx, *corpus, *jsonOut, stdout, stderr)
	case "alloc":
		return benchAlloc(ctx, *corpus, *jsonOut, *timeout, stdout, stderr)
	case "sweep":
		return benchSweep(ctx, *tables, *stages, *jsonOut, *timeout, stdout, stderr)
	case "edit":
		return benchEdit(ctx, *corpus, editRows, *jsonOut, *timeout, stdout, stderr)
	case "copies":
		return benchCopies(ctx, copiesSizes, *timeout, *jsonOut, stdout, stderr)
	case "conformance":
		// A program that takes this long is hung; a compile's limit is not
		// a check's.
		conf.Timeout = 20 * time.Second
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "timeout" {
				conf.Timeout = *timeout
			}
		})
		return benchConformance(ctx, conf, *jsonOut, *failures, stdout, stderr)
	case "stf":
		return benchSTF(ctx, stfBenchOptions{Root: conf.Root, Programs: *programs, Target: *stfTarget, Jobs: conf.Jobs, Timeout: *timeout}, *jsonOut, *failures, stdout, stderr)
	case "serve":
		so.corpus, so.jsonOut, so.results = *corpus, *jsonOut, store.NewMemory(store.DefaultMemoryBytes)
		return benchServe(ctx, so, stdout, stderr)
	case "xdp":
		return runBenchXDP(ctx, *jsonOut, stdout, stderr)
	case "sim":
		return benchSim(ctx, *corpus, *packets, *jsonOut, stdout, stderr)
	case "growth":
		// A generated program compiles in seconds or is refused; the
		// limit is for one that regresses, and 10,000 must not take
		// the default's two minutes a row.
		limit := 30 * time.Second
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "timeout" {
				limit = *timeout
			}
		})
		return benchGrowth(ctx, growthShapes, growthSizes, limit, *jsonOut, stdout, stderr)
	case "hxdp":
		n := 10_000
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "packets" {
				n = *packets
			}
		})
		return benchHXDP(ctx, *corpus, n, *jsonOut, stdout, stderr)
	case "synth":
	default:
		return usageError(stderr, "bench", "unknown benchmark %q: want synth, transform, alloc, sweep, edit, copies, serve, xdp, hxdp, sim, growth, conformance or stf", rest[0])
	}
	var results []benchResult
	// Fixed columns rather than a tabwriter: each row prints as it ends.
	const format = "%-18s %-7s %-12s %8s %7s %9s %8s %11s %8s\n"
	fmt.Fprintf(stdout, format, "benchmark", "target", "grammar", "time", "stages", "w/o pred", "w/o ppa", "CaT stages", "queries")
	for _, row := range table4 {
		if ctx.Err() != nil {
			return exitUserErr
		}
		r := benchOne(ctx, row, *corpus, *timeout)
		results = append(results, r)
		fmt.Fprintf(stdout, format, r.Benchmark, r.Target, r.ALU, fmt.Sprintf("%.2fs", r.Seconds),
			stagesText(r.Stages), stagesText(r.StagesNoPred), stagesText(r.StagesNoPre), catText(r.CaTStages), strconv.Itoa(r.SolverQueries))
		if r.Error != "" {
			fmt.Fprintf(stderr, "%s (%s %s): %s\n", r.Benchmark, r.Target, r.ALU, r.Error)
		}
	}
	return writeJSON(*jsonOut, results, stderr)
}

// writeJSON writes a bench's results to path ("" writes nothing).
func writeJSON(path string, v any, stderr io.Writer) int {
	if path == "" {
		return exitOK
	}
	data, _ := json.MarshalIndent(v, "", "  ")
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	}
	return exitOK
}

// benchOne compiles a row by default, without predecessor packing and
// without preprocessing; the time is the default compile's.
func benchOne(ctx context.Context, row benchRow, corpus string, timeout time.Duration) benchResult {
	r := benchResult{Benchmark: row.File, Target: row.Target, ALU: row.ALU, CaTStages: row.CaT, Stages: -1, StagesNoPred: -1, StagesNoPre: -1}
	if r.ALU == "" {
		r.ALU = "stateful"
	}
	file := filepath.Join(corpus, row.File+".p4")
	src, err := os.ReadFile(file)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	// The default compile first: its time is the row's; then the two
	// ablations, each with one optimization off.
	for _, variant := range []struct{ noPred, noPre bool }{{false, false}, {true, false}, {false, true}} {
		// A fresh cache each, as `p4hls compile` starts with: a query
		// asked twice in one compile is answered once (SipHash's rounds
		// ask alike), none is carried from an earlier compile.
		req := driver.Request{File: file, Source: src, Target: row.Target, ALU: row.ALU,
			Synth: synth.Options{NoPredecessorPacking: variant.noPred, Cache: synth.NewMemoryCache()}, NoPreprocess: variant.noPre}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		start := time.Now()
		res, err := driver.Compile(cctx, req, nil)
		cancel()
		stages := synthStages(res, err)
		switch {
		case variant.noPred:
			r.StagesNoPred = stages
		case variant.noPre:
			r.StagesNoPre = stages
		default:
			r.Seconds = time.Since(start).Seconds()
			r.Stages = stages
			r.SolverQueries = res.Report.SolverQueries
			if err != nil {
				r.Error = benchError(err)
			}
			if stages < 0 {
				return r
			}
		}
	}
	return r
}

// synthStages is a compile's stage count (-1 when it failed): the
// placement's, or, when every action was synthesized but the placement
// does not fit the target (SipHash's 35 stages on Tofino's 12), the
// deepest action's, which is what this table measures.
func synthStages(res *driver.Result, err error) int {
	var fit *driver.DoesNotFitError
	switch {
	case err == nil:
		return res.Report.Stages
	case errors.As(err, &fit) && res != nil && res.Program != nil && len(res.Graphs) == len(res.Program.SynthesizedActions()):
		d := 0
		for _, g := range res.Graphs {
			d = max(d, g.Depth())
		}
		return d
	}
	return -1
}

func benchError(err error) string {
	if errors.Is(err, context.DeadlineExceeded) {
		return "time limit: " + err.Error()
	}
	return err.Error()
}

func catText(n int) string {
	if n == 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

func stagesText(n int) string {
	if n < 0 {
		return "✗"
	}
	return strconv.Itoa(n)
}
