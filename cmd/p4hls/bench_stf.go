package main

import (
	"bytes"
	"cmp"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/report"
)

// The packet-test bench (`p4hls bench stf --p4c DIR [--target T]`) runs
// p4c's own packet tests: every v1model program of p4c's samples with an
// .stf next to it, on the interpreter; then, for a target, it compiles the
// programs whose test passes and, for Tofino, runs the test again on the
// TNA program written. It counts what a user bringing such programs
// meets: tests passed, refusals (with reasons), internal errors. With
// --programs DIR instead, it takes every v1model program under DIR (the
// checkouts of others' programs), with a test or not: one without
// compiles as one whose test passes.

// stfOutcome is how one program fared.
type stfOutcome struct {
	Path string `json:"path"` // relative to the checkout
	// Interp is "pass", "mismatch", "error" (the interpreter or the
	// frontend refused the program or the test) or "no test".
	Interp string `json:"interp"`
	// Compile is "", "ok", "does not check" (the frontend's errors),
	// "refused" or "internal error"; Output is the
	// test on the target's output: "", "pass", "mismatch" or "error".
	Compile string  `json:"compile,omitempty"`
	Output  string  `json:"output,omitempty"`
	Why     string  `json:"why,omitempty"` // the first error or mismatch
	Seconds float64 `json:"seconds"`
}

// stfBenchOptions configure a run.
type stfBenchOptions struct {
	Root     string // the p4c checkout
	Programs string // or a folder of programs, tests or not
	Target   string // "" for the interpreter only
	Jobs     int
	Timeout  time.Duration // per compile
}

// stfCorpus lists the v1model programs of p4c's samples that have a
// packet test, in path order.
func stfCorpus(root string) ([]string, error) {
	tests, err := filepath.Glob(filepath.Join(root, "testdata", "p4_16_samples", "*.stf"))
	if err != nil {
		return nil, err
	}
	var out []string
	for _, stf := range tests {
		p4 := strings.TrimSuffix(stf, ".stf") + ".p4"
		src, err := os.ReadFile(p4)
		if err != nil || programArch(p4, src) != "v1model" {
			continue
		}
		out = append(out, p4)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no v1model programs with an .stf under %s/testdata/p4_16_samples", root)
	}
	return out, nil
}

// programsCorpus lists the v1model programs under dir: files that
// include v1model.p4 (directly or not) and instantiate a V1Switch, in path
// order. Others are included files or programs of other architectures.
func programsCorpus(dir string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".p4") {
			return err
		}
		src, err := os.ReadFile(path)
		if err == nil && bytes.Contains(src, []byte("V1Switch")) && programArch(path, src) == "v1model" {
			out = append(out, path)
		}
		return nil
	})
	if err == nil && len(out) == 0 {
		err = fmt.Errorf("no v1model programs under %s", dir)
	}
	return out, err
}

// runSTFBench runs every program, o.Jobs at once, and returns the
// outcomes in corpus order.
func runSTFBench(ctx context.Context, files []string, o stfBenchOptions) []stfOutcome {
	out := make([]stfOutcome, len(files))
	inParallel(ctx, len(files), o.Jobs, func(i int) { out[i] = stfProgram(ctx, files[i], o) })
	return out
}

// stfProgram runs one program's test on the interpreter and, when it
// passes and a target is asked for, compiles it and runs the test on the
// output. A panic is an internal error, not the end of the bench.
func stfProgram(ctx context.Context, file string, o stfBenchOptions) (res stfOutcome) {
	start := time.Now()
	res.Path, _ = filepath.Rel(cmp.Or(o.Programs, o.Root), file)
	defer func() {
		if r := recover(); r != nil {
			res.Why = fmt.Sprint("panic: ", r)
			if res.Interp == "" {
				res.Interp = "error"
			} else {
				res.Compile = "internal error"
			}
		}
		res.Seconds = time.Since(start).Seconds()
	}()
	// p4c's samples include p4c's headers; others' programs their own
	// files, next to them, and p4hls's bundled headers.
	opts := frontend.Options{IncludeDirs: []string{filepath.Join(o.Root, "p4include")}}
	if o.Programs != "" {
		opts.IncludeDirs = []string{filepath.Dir(file)}
	}
	stf := strings.TrimSuffix(file, ".p4") + ".stf"
	src, err := os.ReadFile(file)
	if err != nil {
		res.Interp, res.Why = "error", err.Error()
		return res
	}
	if _, err := os.Stat(stf); err == nil || o.Programs == "" {
		res.Interp, res.Why = runTestOn(ctx, file, src, stf, opts) // a panic here is the interpreter's
	} else {
		res.Interp = "no test"
	}
	if res.Interp != "pass" && res.Interp != "no test" || o.Target == "" {
		return res
	}
	cctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	cres, err := driver.Compile(cctx, driver.Request{File: file, Source: src, Frontend: opts, Target: o.Target}, nil)
	switch driver.StatusOf(err) {
	case report.OK:
		res.Compile = "ok"
	case report.ProgramError:
		res.Compile, res.Why = "does not check", firstReason(cres, err)
		return res
	case report.DoesNotFit, report.Timeout, report.MemoryLimit:
		res.Compile, res.Why = "refused", firstReason(cres, err)
		return res
	default:
		res.Compile, res.Why = "internal error", firstReason(cres, err)
		return res
	}
	// Tofino's output is a P4 program the interpreter runs too: the test
	// on it, or, for a program without one, random packets on both.
	for _, a := range cres.Artifacts {
		switch {
		case a.Name == "tofino.p4" && res.Interp == "pass":
			res.Output, res.Why = runTestOn(ctx, a.Name, a.Data, stf, frontend.Options{})
		case a.Name == "tofino.p4":
			res.Output, res.Why = diffOn(ctx, cres.Program, a.Name, a.Data)
		}
	}
	return res
}

// diffPackets is how many random packets diffOn sends: with random
// entries, register cells and control-plane choices, enough to reach
// most branches of a program's tables.
const diffPackets = 1000

// diffOn runs random packets (interp.NewGenerator) through the program
// as written and the program src a target wrote: "pass" when every
// output, drop and register cell agrees, "mismatch" with the first
// difference, or "error".
func diffOn(ctx context.Context, orig *ir.Program, file string, src []byte) (string, string) {
	out, why := loadForTest(ctx, file, src, frontend.Options{})
	if out == nil {
		return "error", why
	}
	c := interp.NewGenerator(orig, 1).Case(diffPackets, 2, 2)
	ref := func() (interp.Target, error) { return interp.New(orig, interp.Options{Seed: 1}) }
	emitted := func() (interp.Target, error) { return interp.New(out, interp.Options{Seed: 1}) }
	div, err := interp.Diff(ref, emitted, c, interp.RegisterCells(orig))
	switch {
	case err != nil:
		return "error", err.Error()
	case div != nil:
		return "mismatch", firstLine(div.Error(), 300)
	}
	return "pass", ""
}

// runTestOn runs a packet test on the interpreter, on program src: "pass",
// "mismatch" (with the first one) or "error" (with why).
func runTestOn(ctx context.Context, file string, src []byte, stf string, opts frontend.Options) (string, string) {
	prog, why := loadForTest(ctx, file, src, opts)
	if prog == nil {
		return "error", why
	}
	sw, err := interp.New(prog, interp.Options{Seed: 1})
	if err != nil {
		return "error", err.Error()
	}
	text, err := os.ReadFile(stf)
	if err != nil {
		return "error", err.Error()
	}
	cmds, err := interp.ParseSTF(filepath.Base(stf), string(text))
	if err != nil {
		return "error", err.Error()
	}
	r, err := sw.RunSTF(filepath.Base(stf), cmds)
	switch {
	case err != nil:
		return "error", err.Error()
	case len(r.Mismatches) > 0:
		return "mismatch", r.Mismatches[0].String()
	}
	return "pass", ""
}

// loadForTest loads a program to run packets on, or says why it could
// not.
func loadForTest(ctx context.Context, file string, src []byte, opts frontend.Options) (*ir.Program, string) {
	var d diag.List
	prog, _, err := frontend.Load(ctx, file, src, opts, &d)
	switch {
	case err != nil:
		return nil, err.Error()
	case prog == nil:
		return nil, firstLine(d.Error(), 300)
	}
	return prog, ""
}

// firstReason is the first error diagnostic of a failed compile, or its
// error.
func firstReason(res *driver.Result, err error) string {
	if res != nil {
		for _, d := range res.Diagnostics.Items() {
			if d.Severity == diag.Error {
				return d.String()
			}
		}
	}
	return firstLine(err.Error(), 300)
}

// stfCounts are a run's totals.
type stfCounts struct {
	Programs       int `json:"programs"`
	NoTest         int `json:"no_test"`
	InterpPass     int `json:"interp_pass"`
	InterpMismatch int `json:"interp_mismatch"`
	InterpError    int `json:"interp_not_run"`
	Compiled       int `json:"compiled"`
	Unchecked      int `json:"does_not_check"`
	Refused        int `json:"refused"`
	Internal       int `json:"internal_errors"`
	OutputPass     int `json:"output_pass"`
	OutputMismatch int `json:"output_mismatch"`
	OutputError    int `json:"output_not_run"`
}

func countSTF(outs []stfOutcome) stfCounts {
	c := stfCounts{Programs: len(outs)}
	for _, o := range outs {
		switch o.Interp {
		case "pass":
			c.InterpPass++
		case "mismatch":
			c.InterpMismatch++
		case "no test":
			c.NoTest++
		default:
			c.InterpError++
		}
		switch o.Compile {
		case "ok":
			c.Compiled++
		case "does not check":
			c.Unchecked++
		case "refused":
			c.Refused++
		case "internal error":
			c.Internal++
		}
		switch o.Output {
		case "pass":
			c.OutputPass++
		case "mismatch":
			c.OutputMismatch++
		case "error":
			c.OutputError++
		}
	}
	return c
}

func printSTFBench(w io.Writer, o stfBenchOptions, c stfCounts, wall time.Duration) {
	if o.Programs != "" {
		fmt.Fprintf(w, "%d v1model programs under %s, %d with a packet test (%.1f s)\n", c.Programs, o.Programs, c.Programs-c.NoTest, wall.Seconds())
	} else {
		fmt.Fprintf(w, "%d v1model programs of %s with a packet test (%.1f s)\n", c.Programs, o.Root, wall.Seconds())
	}
	fmt.Fprintf(w, "interpreter: %d pass, %d mismatch, %d not run (refused or unsupported)\n", c.InterpPass, c.InterpMismatch, c.InterpError)
	if o.Target == "" {
		return
	}
	fmt.Fprintf(w, "%s, of the %d that pass or have no test: %d do not check, %d compiled, %d refused, %d internal errors\n", o.Target, c.InterpPass+c.NoTest, c.Unchecked, c.Compiled, c.Refused, c.Internal)
	if c.OutputPass+c.OutputMismatch+c.OutputError > 0 {
		fmt.Fprintf(w, "%s output: %d pass, %d mismatch, %d not run\n", o.Target, c.OutputPass, c.OutputMismatch, c.OutputError)
	}
}

// printSTFFailures lists the programs that did not pass, and why.
func printSTFFailures(w io.Writer, outs []stfOutcome) {
	for _, o := range outs {
		if (o.Interp == "pass" || o.Interp == "no test") && (o.Compile == "" || o.Compile == "ok") && (o.Output == "" || o.Output == "pass") {
			continue
		}
		stage := "interpreter " + o.Interp
		switch {
		case o.Compile != "" && o.Compile != "ok":
			stage = o.Compile
		case o.Output != "":
			stage = "output " + o.Output
		}
		fmt.Fprintf(w, "%s\t%s\t%s\n", o.Path, stage, oneLine(o.Why))
	}
}

func benchSTF(ctx context.Context, o stfBenchOptions, jsonOut, failures string, stdout, stderr io.Writer) int {
	if (o.Root == "") == (o.Programs == "") {
		return usageError(stderr, "bench", "stf needs --p4c DIR, a checkout of p4c, or --programs DIR, a folder of programs")
	}
	if o.Target != "" && !slices.Contains(driver.Registry().Names(), o.Target) {
		return usageError(stderr, "bench", "--target %s: the targets are %s", o.Target, strings.Join(driver.Registry().Names(), ", "))
	}
	list := stfCorpus
	if o.Programs != "" {
		list = programsCorpus
	}
	files, err := list(cmp.Or(o.Programs, o.Root))
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	}
	start := time.Now()
	outs := runSTFBench(ctx, files, o)
	if ctx.Err() != nil {
		return exitUserErr
	}
	c := countSTF(outs)
	printSTFBench(stdout, o, c, time.Since(start))
	if failures != "" {
		var b strings.Builder
		printSTFFailures(&b, outs)
		if err := os.WriteFile(failures, []byte(b.String()), 0o644); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
	}
	return writeJSON(jsonOut, struct {
		Counts   stfCounts    `json:"counts"`
		Programs []stfOutcome `json:"programs"`
	}{c, outs}, stderr)
}
