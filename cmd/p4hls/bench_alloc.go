package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/synth"
)

// allocRun is one solver and mode on one program: allocation as a compile
// runs it (placement.Solve: the greedy placement, then the solver when it
// may do better), timed alone.
type allocRun struct {
	Solver  string  `json:"solver"`
	By      string  `json:"placed_by,omitempty"` // greedy or the solver
	Mode    string  `json:"mode"`
	Seconds float64 `json:"seconds"`
	Stages  int     `json:"stages"`
	Error   string  `json:"error,omitempty"`
}

// allocResult is a row of `p4hls bench alloc` (CaT's Table 5).
type allocResult struct {
	Program string     `json:"program"`
	Target  string     `json:"target"`
	ALU     string     `json:"alu"`
	Tables  int        `json:"tables"`
	ALUs    int        `json:"alus"`
	Runs    []allocRun `json:"runs"`
	Error   string     `json:"error,omitempty"`
}

// benchAlloc implements `p4hls bench alloc`: the single-transaction
// benchmarks (each on its Table 4 grammar) and the switch programs of
// testdata/p4/alloc, each allocated by both solvers in both modes.
func benchAlloc(ctx context.Context, corpus, jsonOut string, timeout time.Duration, stdout, stderr io.Writer) int {
	type program struct{ file, target, alu string }
	grammar := map[string]benchRow{}
	for _, r := range table4 {
		if _, ok := grammar[r.File]; !ok && r.File != "siphash" {
			grammar[r.File] = r
		}
	}
	var programs []program
	var names []string
	for name := range grammar {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		programs = append(programs, program{filepath.Join(corpus, name+".p4"), grammar[name].Target, grammar[name].ALU})
	}
	switches, _ := filepath.Glob(filepath.Join(corpus, "..", "alloc", "*.p4"))
	sort.Strings(switches)
	for _, f := range switches {
		for _, name := range names {
			if strings.HasPrefix(filepath.Base(f), name+"_") {
				programs = append(programs, program{f, grammar[name].Target, grammar[name].ALU})
				break
			}
		}
	}
	const format = "%-52s %-7s %6s %14s %14s %14s %14s\n"
	head := []any{"program", "target", "tables"}
	for _, s := range alloc.Solvers() {
		head = append(head, s.Name()+" optimal", s.Name()+" feasible")
	}
	fmt.Fprintf(stdout, format, head...)
	cache := synth.NewMemoryCache()
	var results []allocResult
	for _, pr := range programs {
		if ctx.Err() != nil {
			return exitUserErr
		}
		r := allocOne(ctx, pr.file, pr.target, pr.alu, timeout, cache)
		results = append(results, r)
		if r.Error != "" {
			fmt.Fprintf(stderr, "%s: %s\n", r.Program, r.Error)
			continue
		}
		cells := []any{r.Program, r.Target, fmt.Sprint(r.Tables)}
		for _, run := range r.Runs {
			cell := "✗"
			if run.Error == "" {
				cell = fmt.Sprintf("%.3fs %2d", run.Seconds, run.Stages)
			}
			cells = append(cells, cell)
		}
		fmt.Fprintf(stdout, format, cells...)
	}
	return writeJSON(jsonOut, results, stderr)
}

// allocOne compiles a program (synthesis and a verified allocation
// included), then allocates its problem with each solver in each mode,
// timing the solver alone and validating each placement.
func allocOne(ctx context.Context, file, target, alu string, timeout time.Duration, cache synth.Cache) allocResult {
	r := allocResult{Program: strings.TrimSuffix(filepath.Base(file), ".p4"), Target: target, ALU: alu}
	src, err := os.ReadFile(file)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	cctx, cancel := context.WithTimeout(ctx, timeout)
	// The compile validates its placement and runs it in the pipeline
	// model against the interpreter on 2,000 packets.
	res, err := driver.Compile(cctx, driver.Request{File: file, Source: src, Target: target, ALU: alu,
		Synth: synth.Options{Cache: cache}, VerifyPackets: 2000}, nil)
	cancel()
	if err != nil {
		r.Error = benchError(err)
		return r
	}
	p := res.Placement.Problem
	r.Tables = len(p.Tables)
	for _, s := range alloc.Solvers() {
		for _, mode := range []alloc.Mode{alloc.Optimal, alloc.Feasible} {
			run := allocRun{Solver: s.Name(), Mode: mode.String()}
			cctx, cancel := context.WithTimeout(ctx, timeout)
			start := time.Now()
			sol, err := place(cctx, p, s, mode)
			run.Seconds = time.Since(start).Seconds()
			cancel()
			if err != nil {
				run.Error = err.Error()
			} else {
				run.Stages, run.By = sol.Stages, sol.Solver
			}
			r.Runs = append(r.Runs, run)
		}
	}
	return r
}

// sweepPoint is one allocation of the sweep.
type sweepPoint struct {
	Limit    string  `json:"limit"`
	Value    int     `json:"value"`
	Mode     string  `json:"mode"`
	Accepted bool    `json:"accepted"`
	Stages   int     `json:"stages,omitempty"`
	Seconds  float64 `json:"seconds"`
	// TimedOut is set when the solver neither placed nor rejected.
	TimedOut bool `json:"timed_out,omitempty"`
}

// benchSweep implements `p4hls bench sweep`: a generated switch-scale
// program allocated for Tofino by each solver, then with one limit of
// the target varied at a time (CaT's Figures 8 to 10), with the default
// solver.
func benchSweep(ctx context.Context, tables, stages int, jsonOut string, timeout time.Duration, stdout, stderr io.Writer) int {
	src := switchProgram(tables, 8)
	res, err := driver.Transform(ctx, driver.Request{File: "switch.p4", Source: []byte(src), Target: "tofino", Stages: stages}, nil)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: the generated program: %v\n", err)
		return exitUserErr
	}
	// No synthesized action: every action counts as P4's one-stage action.
	p := placement.Build(res.Analysis, nil, res.Target.Limits).Problem
	fmt.Fprintf(stdout, "switch-scale program: %d tables, %d dependencies, Tofino limits with %d stages; lower bound %d stages\n",
		len(p.Tables), len(p.Deps), p.Limits.Stages, alloc.LowerBound(p))
	var points []sweepPoint
	solve := func(s alloc.Solver, q *alloc.Problem, mode alloc.Mode, limit string, value int) sweepPoint {
		cctx, cancel := context.WithTimeout(ctx, timeout)
		defer cancel()
		start := time.Now()
		sol, err := place(cctx, q, s, mode)
		pt := sweepPoint{Limit: limit, Value: value, Mode: s.Name() + " " + mode.String(), Seconds: time.Since(start).Seconds()}
		var inf *alloc.InfeasibleError
		switch {
		case err == nil:
			pt.Accepted, pt.Stages = true, sol.Stages
		case err != nil && !errors.As(err, &inf):
			pt.TimedOut = true
		}
		points = append(points, pt)
		return pt
	}
	for _, s := range alloc.Solvers() {
		pt := solve(s, p, alloc.Optimal, "tofino", 0)
		fmt.Fprintf(stdout, "  %-14s %s in %.2fs\n", pt.Mode, verdict(pt), pt.Seconds)
	}
	sweeps := []struct {
		name   string
		values []int
		set    func(q *alloc.Problem, v int)
	}{
		{"entries per table", []int{512, 1024, 2048, 4096, 8192, 16384}, func(q *alloc.Problem, v int) { q.Limits.EntriesPerTable = v }},
		{"stages", []int{6, 7, 8, 9, 10, 11, 12, 14, 16}, func(q *alloc.Problem, v int) { q.Limits.Stages = v }},
		{"tables per stage", []int{4, 6, 8, 10, 12, 14, 16, 20}, func(q *alloc.Problem, v int) { q.Limits.TablesPerStage = v }},
	}
	for _, sw := range sweeps {
		def := alloc.Solvers()[0]
		fmt.Fprintf(stdout, "\n%-18s %-28s %-28s\n", sw.name, def.Name()+" optimal", def.Name()+" feasible")
		prev, turn := false, 0
		for _, v := range sw.values {
			q := *p
			sw.set(&q, v)
			opt := solve(def, &q, alloc.Optimal, sw.name, v)
			feas := solve(def, &q, alloc.Feasible, sw.name, v)
			fmt.Fprintf(stdout, "%-18d %-28s %-28s\n", v, fmt.Sprintf("%s %.2fs", verdict(opt), opt.Seconds), fmt.Sprintf("%s %.2fs", verdict(feas), feas.Seconds))
			if opt.Accepted && !prev && turn == 0 {
				turn = v
			}
			prev = opt.Accepted
		}
		if turn != 0 {
			fmt.Fprintf(stdout, "rejected below %s %d, accepted from %d\n", sw.name, turn, turn)
		}
	}
	return writeJSON(jsonOut, points, stderr)
}

// place allocates p as a compile does, with solver s.
func place(ctx context.Context, p *alloc.Problem, s alloc.Solver, mode alloc.Mode) (*alloc.Solution, error) {
	pl := placement.Placement{Problem: p}
	if err := pl.Solve(ctx, s, mode); err != nil {
		return nil, err
	}
	return pl.Solution, nil
}

func verdict(pt sweepPoint) string {
	if pt.TimedOut {
		return "time limit"
	}
	if !pt.Accepted {
		return "rejected"
	}
	return fmt.Sprintf("accepted, %d stages", pt.Stages)
}
