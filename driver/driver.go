// Package driver runs p4hls's phases for one compile request and reports
// what they produced. Today it runs the frontend, resource transformation
// and resource synthesis; allocation and the backends join as they land,
// and their phases already have their place in the report.
package driver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/pipeline"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/tofino"
	"github.com/p4hls/p4hls/transform"
)

// Request is one compile.
type Request struct {
	File     string
	Source   []byte
	Frontend frontend.Options
	// Target is "banzai", "menshen" or "tofino"; ALU names Banzai's
	// stateful atom.
	Target, ALU string
	Synth       synth.Options
	// NoPreprocess synthesizes the actions as written, without constant
	// folding and simplification (the ablation of CaT's Table 4).
	NoPreprocess bool
	// VerifyPackets, when not 0, runs each synthesized action in the
	// pipeline model against the interpreter on that many random packets.
	VerifyPackets int
	// NoTransform skips phase 1's rewrites (the analysis still reports).
	NoTransform bool
	// Solver names the allocation solver ("" for the default);
	// AllocMode asks for an optimal or any feasible placement.
	Solver    string
	AllocMode alloc.Mode
	// Limits, where not 0, replace the target's: stages, ALUs per stage,
	// tables per stage, entries per table.
	Stages, ALUsPerStage, TablesPerStage, EntriesPerTable int
}

// Progress receives a line per step of long work.
type Progress func(phase, detail string)

// Result is what a compile produced.
type Result struct {
	Program *ir.Program
	// Transformed is the main file after phase 1 (the source when nothing
	// was rewritten), and TransformedProgram its IR.
	Transformed        []byte
	TransformedProgram *ir.Program
	// Allocation is phase 3's problem and Placement its solution.
	Allocation *alloc.Problem
	Placement  *alloc.Solution
	Graphs     []*synth.Graph
	// TNA is the Tofino backend's output, a TNA P4 program (target
	// tofino only).
	TNA string
	// Menshen is the Menshen backend's output (target menshen only).
	Menshen     *MenshenOutput
	Report      Report
	Diagnostics diag.List
	// Source maps file names to their text, for printing diagnostics.
	Source func(file string) []byte
	// analysis is phase 1's analysis of TransformedProgram.
	analysis *transform.Analysis
}

// ErrProgram says the program has errors (in Result.Diagnostics).
var ErrProgram = errors.New("the program has errors")

// ErrRequest marks a request that names no valid target or ALU.
var ErrRequest = errors.New("bad request")

// DoesNotFitError says the program cannot be mapped onto the target.
type DoesNotFitError struct{ Err error }

func (e *DoesNotFitError) Error() string { return e.Err.Error() }
func (e *DoesNotFitError) Unwrap() error { return e.Err }

// Compile runs the phases. Errors are ErrProgram, a *DoesNotFitError, a
// context error wrapped with the action it interrupted, or internal.
func Compile(ctx context.Context, req Request, progress Progress) (*Result, error) {
	res, b, err := begin(ctx, req, progress)
	if err != nil {
		return res, err
	}
	progress = b.progress

	// Synthesis reads the program as written: phase 1 rewrites apply
	// blocks and never an action, so the actions are the same, and their
	// spans point into the user's file.
	start := time.Now()
	err = synthesize(ctx, req, res, b.stateful, b.stateless, progress)
	res.Report.Phases["synth"] = time.Since(start).Seconds()
	if err != nil {
		return res, err
	}
	pl, err := allocPhase(ctx, req, res, b.target, progress)
	if err != nil {
		return res, err
	}
	res.Allocation, res.Placement = pl.problem, pl.sol
	if req.VerifyPackets > 0 {
		progress("verify", fmt.Sprintf("%d packets", req.VerifyPackets))
		if err := verify(res.Program, res.Graphs, pl, req.VerifyPackets); err != nil {
			return res, err
		}
	}
	if req.Target == "tofino" {
		return res, tofinoBackend(ctx, res, req.File, progress)
	}
	if req.Target != "menshen" {
		return res, nil
	}
	if err := menshenBackend(res, progress); err != nil {
		return res, err
	}
	if req.VerifyPackets > 0 {
		progress("verify", fmt.Sprintf("%d frames on the Menshen model", req.VerifyPackets))
		d, err := VerifyMenshen(res, req.VerifyPackets, 1)
		if err != nil {
			return res, fmt.Errorf("verifying on the Menshen model: %w", err)
		}
		if d != nil {
			return res, fmt.Errorf("internal error: the Menshen configuration disagrees with the program: %v\n%s", d, d.STF(res.TransformedProgram))
		}
	}
	return res, nil
}

// Transform runs the frontend and phase 1 only, for the target's stage
// limits (`p4hls bench transform`).
func Transform(ctx context.Context, req Request, progress Progress) (*Result, error) {
	res, _, err := begin(ctx, req, progress)
	return res, err
}

// started is what begin found: the target, its ALUs, and the progress
// callback to use.
type started struct {
	target              *target.Target
	stateful, stateless *grammar.Grammar
	progress            Progress
}

// begin is how every compile starts: check the request's target, load
// the program, run phase 1.
func begin(ctx context.Context, req Request, progress Progress) (*Result, *started, error) {
	if progress == nil {
		progress = func(string, string) {}
	}
	res := &Result{Report: newReport(req)}
	tg, stateful, stateless, err := grammars(req.Target, req.ALU)
	if err != nil {
		return res, nil, fmt.Errorf("%w: %w", ErrRequest, err)
	}
	if tg, err = withLimits(tg, req); err != nil {
		return res, nil, fmt.Errorf("%w: %w", ErrRequest, err)
	}
	res.Report.ALU = stateful.Name
	prog, err := frontendPhase(ctx, req, res, progress)
	if err == nil {
		err = transformPhase(ctx, req, res, prog, tg.Limits.TablesPerStage, progress)
	}
	return res, &started{target: tg, stateful: stateful, stateless: stateless, progress: progress}, err
}

// withLimits returns the target with the request's limits in place of
// its own.
func withLimits(tg *target.Target, req Request) (*target.Target, error) {
	t := *tg
	for _, o := range []struct {
		name string
		v    int
		dst  *int
	}{
		{"stages", req.Stages, &t.Limits.Stages},
		{"ALUs per stage", req.ALUsPerStage, &t.Limits.ALUsPerStage},
		{"tables per stage", req.TablesPerStage, &t.Limits.TablesPerStage},
		{"entries per table", req.EntriesPerTable, &t.Limits.EntriesPerTable},
	} {
		switch {
		case o.v < 0:
			return nil, fmt.Errorf("%s: %d is not a count", o.name, o.v)
		case o.v > 0:
			*o.dst = o.v
		}
	}
	if req.ALUsPerStage > 0 && t.Limits.StatefulALUsPerStage > req.ALUsPerStage {
		t.Limits.StatefulALUsPerStage = req.ALUsPerStage
	}
	return &t, nil
}

// frontendPhase loads the program; it is nil (with ErrProgram) when the
// program has errors.
func frontendPhase(ctx context.Context, req Request, res *Result, progress Progress) (*ir.Program, error) {
	start := time.Now()
	progress("frontend", req.File)
	prog, source, err := frontend.Load(ctx, req.File, req.Source, req.Frontend, &res.Diagnostics)
	res.Report.Phases["frontend"] = time.Since(start).Seconds()
	if source != nil {
		res.Source = source.FileText
	}
	res.Report.Diagnostics = diagnosticLines(&res.Diagnostics)
	if err != nil {
		return nil, err
	}
	if prog == nil {
		return nil, ErrProgram
	}
	res.Program = prog
	return prog, nil
}

// grammars returns the target and its stateful and stateless ALUs.
func grammars(name, alu string) (tg *target.Target, stateful, stateless *grammar.Grammar, err error) {
	switch name {
	case "banzai":
		if alu == "" {
			return nil, nil, nil, fmt.Errorf("target banzai needs --alu, one of %v", banzai.Atoms)
		}
		if tg, err = banzai.Target(alu); err != nil {
			return nil, nil, nil, err
		}
	case "tofino":
		if alu != "" && alu != "stateful" {
			return nil, nil, nil, fmt.Errorf("target tofino has one stateful ALU; --alu %s does not name it", alu)
		}
		tg, alu = tofino.Target(), "stateful"
	case "menshen":
		if alu != "" && alu != "if_else" {
			return nil, nil, nil, fmt.Errorf("target menshen has one stateful ALU, if_else; --alu %s does not name it", alu)
		}
		tg, alu = menshen.Target(), "if_else"
	default:
		return nil, nil, nil, fmt.Errorf("unknown target %q (targets: banzai, menshen, tofino)", name)
	}
	if stateful, err = tg.Grammar(alu); err != nil {
		return nil, nil, nil, err
	}
	if stateless, err = tg.Grammar("stateless"); err != nil {
		return nil, nil, nil, err
	}
	return tg, stateful, stateless, nil
}

// synthesize maps every action with an @atomic block.
func synthesize(ctx context.Context, req Request, res *Result, stateful, stateless *grammar.Grammar, progress Progress) error {
	for _, a := range res.Program.AtomicActions() {
		progress("synth", "action "+a.Name)
		start := time.Now()
		tx, err := synth.PreprocessWith(a, synth.PreprocessOptions{NoSimplify: req.NoPreprocess})
		if err != nil {
			return &DoesNotFitError{fmt.Errorf("action %s: %w", a.Name, err)}
		}
		g, stats, err := synth.Synthesize(ctx, tx, stateful, stateless, req.Synth)
		res.Report.SolverQueries += stats.Queries
		res.Report.CacheHits += stats.CacheHits
		var u *synth.UnsupportedError
		switch {
		case errors.As(err, &u):
			return &DoesNotFitError{err}
		case err != nil:
			return fmt.Errorf("synthesizing action %s: %w", a.Name, err)
		}
		// Every graph is proven against its action before it is used.
		if err := synth.Prove(ctx, tx, g, cmp.Or(req.Synth.Width, synth.DefaultWidth)); err != nil {
			return fmt.Errorf("internal error: action %s: %w", a.Name, err)
		}
		res.Graphs = append(res.Graphs, g)
		res.Report.Actions = append(res.Report.Actions, actionReport(g, stats, time.Since(start)))
	}
	return nil
}

// verify runs the program with every synthesized action replaced by its
// graph, each ALU in the stage allocation gave it, against the
// interpreter, with register state carried across packets.
func verify(prog *ir.Program, graphs []*synth.Graph, pl *placement, packets int) error {
	var placed []pipeline.Placed
	for _, g := range graphs {
		placed = append(placed, pl.placed(g))
	}
	model := func() (interp.Target, error) { return pipeline.New(prog, placed, 32, interp.Options{}) }
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	c := interp.NewGenerator(prog, 1).Case(packets, 2, 2)
	d, err := interp.Diff(ref, model, c, interp.RegisterCells(prog))
	if err != nil {
		return fmt.Errorf("verifying: %w", err)
	}
	if d != nil {
		return fmt.Errorf("internal error: the synthesized ALUs disagree with the program: %v\n%s", d, d.STF(prog))
	}
	return nil
}
