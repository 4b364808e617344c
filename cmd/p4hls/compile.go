package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"github.com/p4hls/p4hls/alloc"
	"io"
	"os"
	"path/filepath"
	"text/tabwriter"
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/synth"
)

// exitDoesNotFit is compile's status for a program the target cannot hold.
const exitDoesNotFit = 2

// runCompile implements `p4hls compile`: the phases that exist today
// (frontend, synthesis), a per-action summary on stdout and
// OUTDIR/report.json.
func runCompile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	options := frontendFlags(fs)
	var req driver.Request
	fs.StringVar(&req.Target, "target", "tofino", "the target: `tofino`, banzai or menshen")
	fs.StringVar(&req.ALU, "alu", "", "Banzai's stateful atom (`NAME`: raw, pred_raw, if_else_raw, sub, nested_ifs, pair)")
	fs.BoolVar(&req.Synth.NoPredecessorPacking, "no-pred-pack", false, "do not pack a state variable's ALU with its predecessor's")
	exhaustive := fs.Bool("exhaustive", false, "give every shallower stateful mapping all the time it takes, not a work budget: slower, and a deeper result then proves the shallower ones have no configuration")
	fs.BoolVar(&req.NoPreprocess, "no-preprocess", false, "synthesize actions as written, without constant folding and simplification")
	fs.IntVar(&req.VerifyPackets, "verify", 0, "run the synthesized ALUs against the interpreter on `N` random packets")
	fs.BoolVar(&req.NoTransform, "no-transform", false, "do not rewrite if statements into tables (phase 1 still reports)")
	fs.StringVar(&req.Solver, "solver", "", "the allocation solver: `z3` (the default) or cbc")
	allocMode := fs.String("alloc", "optimal", "allocation: `optimal` (fewest stages) or feasible (the first placement found)")
	fs.StringVar(allocMode, "mode", "optimal", "the same as --alloc: `optimal` or feasible")
	fs.IntVar(&req.Stages, "stages", 0, "the target has `N` stages (default: the target's)")
	fs.IntVar(&req.ALUsPerStage, "alus-per-stage", 0, "each stage has `N` ALUs (default: the target's)")
	fs.IntVar(&req.TablesPerStage, "tables-per-stage", 0, "each stage holds `N` tables (default: the target's)")
	fs.IntVar(&req.EntriesPerTable, "entries-per-table", 0, "a stage's table holds `N` entries (default: the target's)")
	var emit listFlag
	fs.Var(&emit, "emit", "also write `WHAT` to OUTDIR: transformed (the program after phase 1, as transformed.p4)")
	out := fs.String("o", "out", "write the report to `OUTDIR`")
	cacheDir := fs.String("cache-dir", "", "keep solver query results in `DIR` across compiles")
	timeout := fs.Duration("timeout", 10*time.Minute, "stop after `D`")
	want := operands{synopsis: "FILE.p4", min: 1, max: 1, none: "no input file"}
	fs.Usage = func() { printHelp(stdout, fs, want) }
	files, code, done := parseArgs(ctx, fs, args, want, stderr)
	if done {
		return code
	}
	req.File = files[0]
	req.Frontend = options()
	if *exhaustive {
		req.Synth.AttemptBudget = -1 // synth.Options: negative, no bound
	}
	switch *allocMode {
	case "optimal":
		req.AllocMode = alloc.Optimal
	case "feasible":
		req.AllocMode = alloc.Feasible
	default:
		fmt.Fprintf(stderr, "p4hls: --mode %s: want optimal or feasible\n", *allocMode)
		return exitUsage
	}
	for _, what := range emit {
		if what != "transformed" {
			fmt.Fprintf(stderr, "p4hls: --emit %s: unknown artifact (known: transformed)\n", what)
			return exitUsage
		}
	}
	var err error
	if req.Source, err = os.ReadFile(req.File); err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", req.File, unwrapPathError(err))
		return exitUserErr
	}
	req.Synth.Cache = synth.NewMemoryCache()
	if *cacheDir != "" {
		if req.Synth.Cache, err = synth.NewDiskCache(*cacheDir); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
	}
	ctx, cancel := context.WithTimeout(ctx, *timeout)
	defer cancel()
	res, err := driver.Compile(ctx, req, progressPrinter(stderr))
	endProgress(stderr)
	if res.Source != nil {
		diag.Print(stderr, &res.Diagnostics, res.Source, isTerminal(stderr))
	}
	if code, failed := compileFailure(err, *timeout, stderr); failed {
		return code
	}
	printTransform(stdout, res.Report.Transform)
	printActions(stdout, res.Report)
	if err := writeReport(*out, res.Report); err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	}
	if len(emit) > 0 {
		if err := os.WriteFile(filepath.Join(*out, "transformed.p4"), res.Transformed, 0o644); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
	}
	if req.Target == "banzai" {
		if err := writeBanzai(*out, res); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
		fmt.Fprintf(stdout, "banzai: the ALU pipeline in %s and %s\n", filepath.Join(*out, "pipeline.json"), filepath.Join(*out, "pipeline.dot"))
	}
	if res.TNA != "" {
		if err := os.WriteFile(filepath.Join(*out, "tofino.p4"), []byte(res.TNA), 0o644); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
		fmt.Fprintf(stdout, "tofino: the TNA program in %s\n", filepath.Join(*out, "tofino.p4"))
	}
	if res.Menshen != nil {
		if err := writeMenshen(*out, req, res); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
		fmt.Fprintf(stdout, "menshen: %d configuration entries in %s and %s\n", len(res.Menshen.Lines),
			filepath.Join(*out, "menshen.conf"), filepath.Join(*out, "menshen-config.pcap"))
	}
	fmt.Fprintf(stdout, "%d stages; report in %s\n", res.Report.Stages, filepath.Join(*out, "report.json"))
	return exitOK
}

// compileFailure prints a failed compile's error and picks the exit status.
func compileFailure(err error, timeout time.Duration, stderr io.Writer) (int, bool) {
	var fit *driver.DoesNotFitError
	var u *synth.UnsupportedError
	switch {
	case err == nil:
		return exitOK, false
	case errors.Is(err, driver.ErrProgram):
		return exitUserErr, true
	case errors.Is(err, driver.ErrRequest):
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUsage, true
	case errors.As(err, &u):
		fmt.Fprintf(stderr, "%s: error: %s\n", u.Span, u.Msg)
		return exitDoesNotFit, true
	case errors.As(err, &fit):
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitDoesNotFit, true
	case errors.Is(err, context.DeadlineExceeded):
		fmt.Fprintf(stderr, "p4hls: stopped after the %v time limit: %v\n", timeout, err)
		return exitUserErr, true
	case errors.Is(err, context.Canceled):
		fmt.Fprintf(stderr, "p4hls: interrupted: %v\n", err)
		return exitUserErr, true
	}
	// Anything else is a failure of p4hls itself.
	fmt.Fprintf(stderr, "p4hls: %v\n", err)
	return exitInternal, true
}

// progressPrinter shows progress on stderr: one line updated in place on
// a terminal, plain lines otherwise.
func progressPrinter(w io.Writer) driver.Progress {
	tty := isTerminal(w)
	return func(phase, detail string) {
		if tty {
			fmt.Fprintf(w, "\r\033[K%s: %s", phase, detail)
			return
		}
		fmt.Fprintf(w, "%s: %s\n", phase, detail)
	}
}

func endProgress(w io.Writer) {
	if isTerminal(w) {
		fmt.Fprint(w, "\r\033[K")
	}
}

// printTransform prints phase 1's trade in one line.
func printTransform(w io.Writer, t *driver.TransformReport) {
	if t == nil {
		return
	}
	fmt.Fprintf(w, "transform: %d gateways, %d tables, %d stages -> %d gateways, %d tables, %d stages (%d tables replace if statements)\n",
		t.Before.Gateways, t.Before.Tables, t.Before.Stages, t.After.Gateways, t.After.Tables, t.After.Stages, len(t.Rewrites))
}

func printActions(w io.Writer, r driver.Report) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "action\tstateful ALUs\tstateless ALUs\tdepth\tqueries\tcache hits\ttime")
	for _, a := range r.Actions {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2fs\n", a.Name, a.StatefulALUs, a.StatelessALUs, a.Depth, a.Queries, a.CacheHits, a.Seconds)
	}
	tw.Flush()
}

// writeBanzai writes the resource graphs and their placement as JSON and
// as a Graphviz drawing.
func writeBanzai(dir string, res *driver.Result) error {
	p := driver.Pipeline(res)
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "pipeline.json"), append(data, '\n'), 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "pipeline.dot"), []byte(p.Dot()), 0o644)
}

func writeReport(dir string, r driver.Report) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "report.json"), append(data, '\n'), 0o644)
}
