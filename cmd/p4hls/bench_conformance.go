package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/p4hls/p4hls/check"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// The conformance bench (`p4hls bench conformance --p4c DIR`) checks p4c's
// own test programs with p4hls's frontend, as `p4hls check` does, and
// compares the outcome with p4c's: a program p4c accepts must check clean,
// one it rejects must be rejected with a located error. p4c's verdict is
// read from its reference outputs, never from running p4c.

// conformanceSuites are the folders of a p4c checkout's testdata the bench
// reads: the programs, and where p4c keeps each one's reference stderr
// (the program's path with -stderr appended, under the outputs folder).
var conformanceSuites = []struct{ programs, outputs string }{
	{"testdata/p4_16_samples", "testdata/p4_16_samples_outputs"},
	{"testdata/p4_16_errors", "testdata/p4_16_errors_outputs"},
}

// p4cErrorLine matches a line of p4c's stderr that reports an error (and
// not a warning, a note, or a comment quoted from the program):
//
//	prog.p4(14): [--Werror=type-error] error: y: argument does not match
//	prog.p4(1):syntax error, unexpected END_ANNOTATION
//	error: main: no such declaration
var p4cErrorLine = regexp.MustCompile(`^(\S+\(\d+\):\s*)?((\[--Werror=[^]]+\] )?error:|syntax error)`)

// p4cVerdict reads a reference stderr: whether p4c rejected the program,
// and whether it found a syntax error (p4c reports some checks of the
// parser's, such as duplicate names, before the syntax error further on).
func p4cVerdict(stderr []byte) (rejected, syntax bool) {
	for _, line := range strings.Split(string(stderr), "\n") {
		if m := p4cErrorLine.FindStringSubmatch(line); m != nil {
			rejected = true
			syntax = syntax || m[2] == "syntax error"
		}
	}
	return rejected, syntax
}

// archIncludes maps the include file that names an architecture to the
// architecture's name in the bench's table.
var archIncludes = []struct{ file, arch string }{
	{"v1model.p4", "v1model"},
	{"psa.p4", "psa"},
	{"pna.p4", "pna"},
	{"ebpf_model.p4", "ebpf"},
	{"xdp_model.p4", "ebpf"},
	{"ubpf_model.p4", "ubpf"},
	{"tna.p4", "tna"},
	{"t2na.p4", "tna"},
}

// archOrder is the order of the table's rows.
var archOrder = []string{"core", "v1model", "psa", "pna", "ebpf", "ubpf", "tna"}

var includeLine = regexp.MustCompile(`(?m)^\s*#\s*include\s*[<"]([^>"]+)[>"]`)

// programArch names the architecture a program is written for, from the
// architecture file it includes, directly or through a file of its own
// folder; "core" when it includes none.
func programArch(file string, src []byte) string {
	seen := map[string]bool{file: true}
	var walk func(dir string, src []byte, depth int) string
	walk = func(dir string, src []byte, depth int) string {
		for _, m := range includeLine.FindAllSubmatch(src, -1) {
			inc := string(m[1])
			for _, a := range archIncludes {
				if filepath.Base(inc) == a.file {
					return a.arch
				}
			}
			path := filepath.Join(dir, inc)
			if depth > 8 || seen[path] {
				continue
			}
			seen[path] = true
			if text, err := os.ReadFile(path); err == nil {
				if arch := walk(filepath.Dir(path), text, depth+1); arch != "core" {
					return arch
				}
			}
		}
		return "core"
	}
	return walk(filepath.Dir(file), src, 0)
}

// conformanceProgram is one program of the corpus with p4c's verdict.
type conformanceProgram struct {
	Path     string `json:"path"` // relative to the checkout
	Arch     string `json:"arch"`
	Rejected bool   `json:"p4c_rejects"`
	Syntax   bool   `json:"p4c_syntax_error"`
}

// conformanceOutcome is how p4hls fared on a program.
type conformanceOutcome struct {
	conformanceProgram
	// Verdict is "accepted", "rejected", "crashed" or "hung".
	Verdict string `json:"verdict"`
	// SyntaxOK is set when the program parses (checked for programs p4c
	// accepts).
	SyntaxOK bool `json:"syntax_ok"`
	// Located is set for a rejection whose first error has a file, line
	// and column.
	Located bool `json:"located"`
	// First is the first error, or the panic of a crash.
	First   string  `json:"first_error,omitempty"`
	Seconds float64 `json:"seconds"`
}

// agrees reports whether p4hls and p4c agree on the program: accepted by
// both, or rejected by both with a located error.
func (o conformanceOutcome) agrees() bool {
	if o.Rejected {
		return o.Verdict == "rejected" && o.Located
	}
	return o.Verdict == "accepted"
}

// conformanceCorpus lists the programs of a p4c checkout that have a
// reference stderr, in path order.
func conformanceCorpus(root string) ([]conformanceProgram, error) {
	var out []conformanceProgram
	for _, s := range conformanceSuites {
		dir := filepath.Join(root, s.programs)
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".p4") {
				return err
			}
			rel, _ := filepath.Rel(dir, path)
			ref, err := os.ReadFile(filepath.Join(root, s.outputs, rel+"-stderr"))
			if err != nil {
				return nil // a file other programs include: no verdict of its own
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return fmt.Errorf("read %s: %w", path, err)
			}
			rejected, syntax := p4cVerdict(ref)
			relRoot, _ := filepath.Rel(root, path)
			out = append(out, conformanceProgram{Path: relRoot, Arch: programArch(path, src), Rejected: rejected, Syntax: syntax})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("p4c testdata: %w", err)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no programs with reference outputs under %s/testdata", root)
	}
	return out, nil
}

// conformanceOptions configure a run.
type conformanceOptions struct {
	Root     string        // the p4c checkout
	Bundled  bool          // p4hls's own include files instead of p4c's p4include
	Jobs     int           // programs checked at once
	Timeout  time.Duration // per program: longer counts as a hang
	Includes []string      // more include folders
}

// runConformance checks every program and returns the outcomes in corpus
// order. progress, when not nil, is called after each program.
func runConformance(ctx context.Context, progs []conformanceProgram, o conformanceOptions, progress func(done int)) []conformanceOutcome {
	opts := frontend.Options{IncludeDirs: o.Includes}
	if !o.Bundled {
		opts.IncludeDirs = append([]string{filepath.Join(o.Root, "p4include")}, o.Includes...)
	}
	out := make([]conformanceOutcome, len(progs))
	var mu sync.Mutex
	done := 0
	inParallel(ctx, len(progs), o.Jobs, func(i int) {
		out[i] = checkConformance(ctx, progs[i], filepath.Join(o.Root, progs[i].Path), opts, o.Timeout)
		mu.Lock()
		done++
		if progress != nil {
			progress(done)
		}
		mu.Unlock()
	})
	return out
}

// inParallel calls do(i) for every i from 0 to n-1, jobs at a time, and
// stops handing out work when ctx ends.
func inParallel(ctx context.Context, n, jobs int, do func(i int)) {
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(jobs, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				do(i)
			}
		}()
	}
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
}

// checkConformance checks one program as `p4hls check` does (package
// check), with a time
// limit and a recovered panic counted as the frontend's failures.
func checkConformance(ctx context.Context, p conformanceProgram, file string, opts frontend.Options, timeout time.Duration) conformanceOutcome {
	o := conformanceOutcome{conformanceProgram: p}
	src, err := os.ReadFile(file)
	if err != nil {
		o.Verdict, o.First = "rejected", err.Error()
		return o
	}
	start := time.Now()
	defer func() { o.Seconds = time.Since(start).Seconds() }()
	type result struct {
		d     diag.List
		crash string
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	run := func(syntaxOnly bool) (result, bool) {
		ch := make(chan result, 1)
		go func() {
			var r result
			defer func() {
				if e := recover(); e != nil {
					r.crash = fmt.Sprint(e)
				}
				ch <- r
			}()
			// The error is cancellation's, which the select below sees.
			if syntaxOnly {
				_, _, _ = frontend.Parse(cctx, file, src, opts, &r.d)
			} else if res, _ := check.Run(cctx, check.Request{File: file, Source: src, Frontend: opts}); res != nil {
				r.d = res.Diagnostics
			}
		}()
		select {
		case r := <-ch:
			return r, cctx.Err() == nil
		case <-cctx.Done():
			return result{}, false
		}
	}
	r, finished := run(false)
	switch {
	case !finished:
		o.Verdict = "hung"
		return o
	case r.crash != "":
		o.Verdict, o.First = "crashed", r.crash
		return o
	case !r.d.HasErrors():
		o.Verdict, o.SyntaxOK = "accepted", true
		return o
	}
	o.Verdict = "rejected"
	first := firstError(&r.d)
	o.First = first.String()
	o.Located = first.Span.File != "" && first.Span.Start.Line > 0 && first.Span.Start.Col > 0
	if !p.Rejected {
		r, finished := run(true)
		o.SyntaxOK = finished && r.crash == "" && !r.d.HasErrors()
	}
	return o
}

func firstError(d *diag.List) diag.Diagnostic {
	for _, x := range d.Items() {
		if x.Severity == diag.Error {
			return x
		}
	}
	return diag.Diagnostic{}
}

// conformanceRow counts one architecture's outcomes.
type conformanceRow struct {
	Arch          string `json:"arch"`
	Valid         int    `json:"p4c_accepts"`
	ValidOK       int    `json:"checked_clean"`
	ValidSyntaxOK int    `json:"parsed"`
	Semantic      int    `json:"p4c_semantic_errors"`
	SemanticOK    int    `json:"semantic_rejected"`
	Syntax        int    `json:"p4c_syntax_errors"`
	SyntaxOK      int    `json:"syntax_rejected"`
	Crashed       int    `json:"crashed"`
	Hung          int    `json:"hung"`
}

func (r *conformanceRow) add(o conformanceOutcome) {
	switch {
	case !o.Rejected:
		r.Valid++
		if o.agrees() {
			r.ValidOK++
		}
		if o.SyntaxOK {
			r.ValidSyntaxOK++
		}
	case o.Syntax:
		r.Syntax++
		if o.agrees() {
			r.SyntaxOK++
		}
	default:
		r.Semantic++
		if o.agrees() {
			r.SemanticOK++
		}
	}
	switch o.Verdict {
	case "crashed":
		r.Crashed++
	case "hung":
		r.Hung++
	}
}

// conformanceTable sums outcomes per architecture, in archOrder, with a
// last row for all.
func conformanceTable(outs []conformanceOutcome) []conformanceRow {
	rows := map[string]*conformanceRow{}
	all := &conformanceRow{Arch: "all"}
	for _, o := range outs {
		r := rows[o.Arch]
		if r == nil {
			r = &conformanceRow{Arch: o.Arch}
			rows[o.Arch] = r
		}
		r.add(o)
		all.add(o)
	}
	var out []conformanceRow
	for _, a := range archOrder {
		if r := rows[a]; r != nil {
			out = append(out, *r)
		}
	}
	return append(out, *all)
}

func printConformance(w io.Writer, rows []conformanceRow, wall time.Duration) {
	const format = "%-8s %16s %8s %18s %18s %8s %5s\n"
	fmt.Fprintf(w, format, "arch", "valid: checked", "parsed", "semantic: rejected", "syntax: rejected", "crashed", "hung")
	frac := func(n, of int) string {
		if of == 0 {
			return "-"
		}
		return fmt.Sprintf("%d/%d %3.0f%%", n, of, 100*float64(n)/float64(of))
	}
	for _, r := range rows {
		fmt.Fprintf(w, format, r.Arch, frac(r.ValidOK, r.Valid), fmt.Sprint(r.ValidSyntaxOK), frac(r.SemanticOK, r.Semantic),
			frac(r.SyntaxOK, r.Syntax), fmt.Sprint(r.Crashed), fmt.Sprint(r.Hung))
	}
	fmt.Fprintf(w, "wall time %.1fs\n", wall.Seconds())
}

// printDisagreements lists the programs where p4hls and p4c disagree,
// grouped by architecture, each with p4hls's first error.
func printDisagreements(w io.Writer, outs []conformanceOutcome) {
	sorted := append([]conformanceOutcome(nil), outs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Arch < sorted[j].Arch })
	for _, o := range sorted {
		if o.agrees() {
			continue
		}
		want := "accepts"
		if o.Rejected {
			want = "rejects"
		}
		fmt.Fprintf(w, "%s [%s] p4c %s, p4hls %s: %s\n", o.Path, o.Arch, want, o.Verdict, oneLine(o.First))
	}
}

func oneLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return s
}

// benchConformance implements `p4hls bench conformance`.
func benchConformance(ctx context.Context, o conformanceOptions, jsonOut, failures string, stdout, stderr io.Writer) int {
	if o.Root == "" {
		return usageError(stderr, "bench", "conformance needs --p4c DIR, a checkout of p4c")
	}
	progs, err := conformanceCorpus(o.Root)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	}
	start := time.Now()
	outs := runConformance(ctx, progs, o, nil)
	wall := time.Since(start)
	if ctx.Err() != nil {
		return exitUserErr
	}
	headers := "p4c's p4include"
	if o.Bundled {
		headers = "p4hls's bundled headers"
	}
	fmt.Fprintf(stdout, "%d programs of %s, with %s\n", len(progs), o.Root, headers)
	rows := conformanceTable(outs)
	printConformance(stdout, rows, wall)
	if failures != "" {
		var buf bytes.Buffer
		printDisagreements(&buf, outs)
		if err := os.WriteFile(failures, buf.Bytes(), 0o644); err != nil {
			fmt.Fprintf(stderr, "p4hls: %v\n", err)
			return exitUserErr
		}
	}
	return writeJSON(jsonOut, struct {
		Rows     []conformanceRow     `json:"rows"`
		Programs []conformanceOutcome `json:"programs"`
	}{rows, outs}, stderr)
}

// defaultJobs is the number of programs checked at once.
func defaultJobs() int { return runtime.GOMAXPROCS(0) }
