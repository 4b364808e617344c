package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/memlimit"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/stagemap"
	"github.com/p4hls/p4hls/synth"
)

// exitDoesNotFit is compile's status for a program the target cannot hold.
const exitDoesNotFit = 2

// runCompile implements `p4hls compile`: the three phases and the
// target's backend, a summary on stdout, and the artifacts and
// report.json in OUTDIR (the report even when the compile fails).
func runCompile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	options := frontendFlags(fs)
	registry := driver.Registry()
	var req driver.Request
	fs.StringVar(&req.Target, "target", registry.Names()[0], "the target: `NAME`, one of "+strings.Join(registry.Names(), ", ")+" ('p4hls targets' lists them)")
	fs.StringVar(&req.ALU, "alu", "", "the stateful ALU synthesis uses: `NAME`, one of the target's ("+aluHelp(registry)+"); default: the target's")
	var targetOptions listFlag
	fs.Var(&targetOptions, "option", "set the target's option `NAME=VALUE` (repeatable; 'p4hls targets' lists them)")
	fs.BoolVar(&req.Synth.NoPredecessorPacking, "no-pred-pack", false, "do not pack a state variable's ALU with its predecessor's")
	exhaustive := fs.Bool("exhaustive", false, "give every shallower stateful mapping all the time it takes, not a work budget: slower, and a deeper result then proves the shallower ones have no configuration")
	fs.BoolVar(&req.NoPreprocess, "no-preprocess", false, "synthesize actions as written, without constant folding and simplification")
	fs.IntVar(&req.VerifyPackets, "verify", 0, "run the synthesized ALUs, and the target's output where it has a model, against the interpreter on `N` random packets")
	fs.BoolVar(&req.NoTransform, "no-transform", false, "do not rewrite if statements into tables (phase 1 still reports)")
	fs.StringVar(&req.Solver, "solver", "", "the allocation solver: `NAME`, "+solverHelp())
	allocMode := fs.String("alloc", "optimal", "allocation: `MODE`, optimal (fewest stages) or feasible (the first placement found)")
	fs.StringVar(allocMode, "mode", "optimal", "the same as --alloc: `MODE`, optimal or feasible")
	fs.IntVar(&req.Stages, "stages", 0, "the target has `N` stages (default: the target's)")
	fs.IntVar(&req.ALUsPerStage, "alus-per-stage", 0, "each stage has `N` ALUs (default: the target's)")
	fs.IntVar(&req.TablesPerStage, "tables-per-stage", 0, "each stage holds `N` tables (default: the target's)")
	fs.IntVar(&req.EntriesPerTable, "entries-per-table", 0, "a stage's table holds `N` entries (default: the target's)")
	var emit listFlag
	fs.Var(&emit, "emit", "also write `WHAT` to OUTDIR: transformed (the program after phase 1, as "+driver.TransformedFile+")")
	out := fs.String("o", "out", "write the target's files and report.json to `OUTDIR`")
	cacheDir := fs.String("cache-dir", "", "keep solver query results in `DIR` across compiles")
	timeout := fs.Duration("timeout", 10*time.Minute, "stop after `D`")
	maxMemory := fs.String("max-memory", "", "stop when p4hls holds more than `SIZE` of memory (bytes, or with K, M, G: 800M, 2G; 0: no limit) "+
		"(default: half the machine's, "+memlimit.Size(memlimit.Default())+" here)")
	server := fs.String("server", "", "compile on the p4hls server at `ADDR` (HOST:PORT of its gRPC port), writing the same files")
	jobs := fs.Int("jobs", 0, "compile the FILE.p4s given, `N` at once, sharing the query cache: each into OUTDIR/NAME, a line per program, and OUTDIR/summary.jsonl")
	format := fs.String("format", formatText, formatHelp+"; json prints report.json")
	var reports listFlag
	fs.Var(&reports, "report", "also write the report as `FORMAT`: html (OUTDIR/report.html, the stage map)")
	want := operands{synopsis: "FILE.p4...", min: 1, max: -1, none: "no input file"}
	fs.Usage = func() {
		printHelp(stdout, fs, want)
		exitHelp(stdout, "0  compiled", "1  the program has errors, the time or memory limit passed, or the compile was interrupted",
			"2  a bad command line (a bad target, ALU, option or solver too), or a program the target cannot hold",
			"3  an internal error of p4hls")
	}
	files, code, done := parseArgs(ctx, fs, args, want, stderr)
	if done {
		return code
	}
	if *jobs <= 0 && len(files) > 1 {
		return usageError(stderr, "compile", "want one FILE.p4, got %d: %s", len(files), strings.Join(files, " "))
	}
	out1, err := outputOptions(*format, reports, *jobs, *server)
	if err != nil {
		return usageError(stderr, "compile", "%v", err)
	}
	req.Frontend, req.Targets = options(), registry
	if req.MaxMemory, err = maxMemoryOption(*maxMemory); err != nil {
		return usageError(stderr, "compile", "--max-memory: %v", err)
	}
	if *exhaustive {
		req.Synth.AttemptBudget = -1 // synth.Options: negative, no bound
	}
	if err := setCompileOptions(&req, *allocMode, emit, targetOptions); err != nil {
		fmt.Fprintf(stderr, "p4hls compile: %v\n", err)
		return exitUsage
	}
	req.Synth.Cache = synth.NewMemoryCache()
	if *cacheDir != "" {
		var err error
		if req.Synth.Cache, err = synth.NewDiskCache(*cacheDir); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
	}
	run, closeRun, err := compiler(*server, *timeout)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUsage
	}
	defer closeRun()
	if *jobs > 0 {
		return compileJobs(ctx, run, req, files, *jobs, *out, stdout, stderr)
	}
	req.File = files[0]
	return compileOne(ctx, run, req, *out, *timeout, out1, stdout, stderr)
}

// output says what a compile of one program prints and writes besides
// its artifacts and report.json.
type output struct {
	format string // formatText, formatJSON, formatSARIF
	html   bool   // OUTDIR/report.html
}

// outputOptions reads --format and --report, which apply to one program
// compiled here.
func outputOptions(format string, reports []string, jobs int, server string) (output, error) {
	o := output{format: format}
	if err := checkFormat(format); err != nil {
		return o, err
	}
	for _, r := range reports {
		if r != "html" {
			return o, fmt.Errorf("--report %s: want html", r)
		}
		o.html = true
	}
	switch {
	case jobs > 0 && (o.html || format != formatText):
		return o, errors.New("--format and --report apply to one program, not --jobs")
	case server != "" && o.html:
		return o, errors.New("--report html needs the compile's placement, which --server does not bring back; the server serves the report itself (GET /v1/reports/ID)")
	}
	return o, nil
}

// runner runs one compile, here or on a server.
type runner func(ctx context.Context, req driver.Request, progress driver.Progress) (*driver.Result, error)

// compiler is the runner of a compile with the time limit: the driver in
// this process, or the server at addr.
func compiler(addr string, timeout time.Duration) (runner, func(), error) {
	if addr == "" {
		return func(ctx context.Context, req driver.Request, progress driver.Progress) (*driver.Result, error) {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			return driver.Compile(ctx, req, progress)
		}, func() {}, nil
	}
	rc, err := dialServer(addr)
	if err != nil {
		return nil, nil, err
	}
	return func(ctx context.Context, req driver.Request, progress driver.Progress) (*driver.Result, error) {
		return rc.compile(ctx, req, timeout, progress)
	}, func() { rc.conn.Close() }, nil
}

// compileOne is `p4hls compile FILE.p4`: the compile, its summary on
// stdout (or its report as JSON or SARIF), the artifacts and report.json
// (and report.html) in out.
func compileOne(ctx context.Context, run runner, req driver.Request, out string, timeout time.Duration, o output, stdout, stderr io.Writer) int {
	var err error
	if req.Source, err = frontend.ReadSource(req.File); err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", req.File, unwrapPathError(err))
		return exitUserErr
	}
	res, err := run(ctx, req, progressPrinter(stderr))
	endProgress(stderr)
	if o.format == formatText {
		diag.Print(stderr, &res.Diagnostics, res.Source, isTerminal(stderr))
	}
	warnDamagedCache(stderr, req.Synth.Cache, res.Report.CacheRejected)
	code, failed := compileFailure(err, timeout, stderr)
	var page []byte
	if o.html {
		if page, err = stagemap.Render(stageMapInput(req.File, res)); err != nil {
			fmt.Fprintf(stderr, "p4hls: internal error: %v\n", err)
			return exitInternal
		}
	}
	if werr := writeOutput(out, res, page); werr != nil {
		fmt.Fprintf(stderr, "p4hls: writing %s: %v\n", out, werr)
		return max(code, exitUserErr)
	}
	if o.format != formatText {
		return printCompile(o.format, res, code, stdout, stderr)
	}
	if failed {
		return code
	}
	printTransform(stdout, res.Report.Transform)
	printActions(stdout, res.Report)
	for _, a := range res.Artifacts {
		fmt.Fprintf(stdout, "%s: %s\n", res.Report.Target, filepath.Join(out, a.Name))
	}
	fmt.Fprintf(stdout, "%d stages; report in %s\n", res.Report.Stages, filepath.Join(out, reportFile))
	return exitOK
}

// printCompile prints a compile's report (json) or its diagnostics
// (sarif) on stdout, and keeps the compile's exit status.
func printCompile(format string, res *driver.Result, code int, stdout, stderr io.Writer) int {
	var err error
	if format == formatJSON {
		err = printJSON(stdout, res.Report)
	} else {
		text := res.Source
		if text == nil {
			text = func(string) []byte { return nil }
		}
		err = printSARIF(stdout, res.Report.Diagnostics, text)
	}
	if err != nil {
		fmt.Fprintf(stderr, "p4hls compile: %v\n", err)
		return exitInternal
	}
	return code
}

// warnDamagedCache says when the query cache held damaged entries or
// answers that did not hold: the compile did not use them (their queries
// ran again and replaced them), but a cache folder that others write, or
// a failing disk, is worth knowing about.
func warnDamagedCache(stderr io.Writer, cache synth.Cache, rejected int) {
	n := rejected
	if c, ok := cache.(interface{ Damaged() int }); ok {
		n += c.Damaged()
	}
	if n > 0 {
		fmt.Fprintf(stderr, "p4hls: warning: %d entries of the query cache were damaged or did not hold for their query; they were not used, and were rewritten\n", n)
	}
}

// setCompileOptions sets the request's fields that flags give as text.
func setCompileOptions(req *driver.Request, mode string, emit, options []string) error {
	switch mode {
	case "optimal":
		req.AllocMode = alloc.Optimal
	case "feasible":
		req.AllocMode = alloc.Feasible
	default:
		return fmt.Errorf("--mode %s: want optimal or feasible", mode)
	}
	for _, what := range emit {
		if what != "transformed" {
			return fmt.Errorf("--emit %s: unknown artifact (known: transformed)", what)
		}
		req.EmitTransformed = true
	}
	for _, o := range options {
		name, value, ok := strings.Cut(o, "=")
		if !ok || name == "" {
			return fmt.Errorf("--option %s: want NAME=VALUE", o)
		}
		if req.Options == nil {
			req.Options = backends.Options{}
		}
		req.Options[name] = value
	}
	return nil
}

// aluHelp lists each target's stateful ALUs, the default first.
func aluHelp(r *backends.Registry) string {
	var parts []string
	var none []string
	for _, b := range r.Backends() {
		tg := b.Target()
		if tg.Stateful == "" {
			none = append(none, tg.Name)
			continue
		}
		alus := []string{tg.Stateful}
		for _, name := range backends.StatefulGrammars(b) {
			if name != tg.Stateful {
				alus = append(alus, name)
			}
		}
		parts = append(parts, tg.Name+": "+strings.Join(alus, ", "))
	}
	if len(none) > 0 { // the NIC targets run actions as code, with no ALUs to choose
		parts = append(parts, strings.Join(none, " and ")+" have none")
	}
	return strings.Join(parts, "; ")
}

// solverHelp lists the allocation solvers, the default first.
func solverHelp() string {
	var names []string
	for i, s := range alloc.Solvers() {
		if i == 0 {
			names = append(names, s.Name()+" (the default)")
			continue
		}
		names = append(names, s.Name())
	}
	return strings.Join(names, " or ")
}

// maxMemoryOption is --max-memory's budget in bytes: the default when
// not given, 0 (no limit) when given as 0.
func maxMemoryOption(flag string) (int64, error) {
	if flag == "" {
		return memlimit.Default(), nil
	}
	return memlimit.ParseSize(flag)
}

// compileFailure prints a failed compile's error, when its diagnostics do
// not already say it, and picks the exit status.
func compileFailure(err error, timeout time.Duration, stderr io.Writer) (int, bool) {
	switch driver.StatusOf(err) {
	case report.OK:
		return exitOK, false
	case report.ProgramError:
		return exitUserErr, true
	case report.BadRequest:
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUsage, true
	case report.DoesNotFit:
		return exitDoesNotFit, true // a diagnostic says why
	case report.Timeout:
		fmt.Fprintf(stderr, "p4hls: stopped after the %v time limit, %v\n", timeout, err)
		return exitUserErr, true
	case report.Interrupted:
		fmt.Fprintf(stderr, "p4hls: interrupted: %v\n", err)
		return exitUserErr, true
	case report.MemoryLimit:
		fmt.Fprintf(stderr, "p4hls: stopped at the %v\n", err)
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
func printTransform(w io.Writer, t *report.Transform) {
	if t == nil {
		return
	}
	fmt.Fprintf(w, "transform: %d gateways, %d tables, %d stages -> %d gateways, %d tables, %d stages (%d tables replace if statements)\n",
		t.Before.Gateways, t.Before.Tables, t.Before.Stages, t.After.Gateways, t.After.Tables, t.After.Stages, len(t.Rewrites))
}

func printActions(w io.Writer, r report.Report) {
	if len(r.Actions) == 0 {
		return
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "action\tstateful ALUs\tstateless ALUs\tdepth\tqueries\tcache hits\ttime")
	for _, a := range r.Actions {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2fs\n", a.Name, a.StatefulALUs, a.StatelessALUs, a.Depth, a.Queries, a.CacheHits, a.Seconds)
	}
	tw.Flush()
}
