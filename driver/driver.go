// Package driver runs p4hls's phases for one compile request: the
// frontend, phase 1 (transform), phase 2 (synth), phase 3 (alloc and
// alloc/placement) and the backend of the target the request names,
// found in a registry; and it reports what each produced, failures
// included. It orchestrates: the work is in the phases' packages.
package driver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/memlimit"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/pipeline"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/transform"
)

// Request is one compile.
type Request struct {
	File     string
	Source   []byte
	Frontend frontend.Options
	// Targets is the registry Target is looked up in (nil: Registry()).
	Targets *backends.Registry
	// Target names the target; ALU one of its stateful grammars ("" for
	// the target's default); Options are the target's own options.
	Target, ALU string
	Options     backends.Options
	Synth       synth.Options
	// NoPreprocess synthesizes the actions as written, without constant
	// folding and simplification (the ablation of CaT's Table 4).
	NoPreprocess bool
	// VerifyPackets, when not 0, runs each synthesized action in the
	// pipeline model against the interpreter on that many random packets,
	// then the target's own check of its output, when it has one.
	VerifyPackets int
	// MaxMemory, when above 0, stops the compile when the process's
	// resident memory passes that many bytes (a *memlimit.LimitError):
	// for a process that runs one compile at a time, as the command line.
	MaxMemory int64
	// NoTransform skips phase 1's rewrites (the analysis still reports);
	// EmitTransformed adds the program after phase 1 to the artifacts.
	NoTransform, EmitTransformed bool
	// Solver names the allocation solver ("" for the default);
	// AllocMode asks for an optimal or any feasible placement.
	Solver    string
	AllocMode alloc.Mode
	// Limits, where not 0, replace the target's: stages, ALUs per stage,
	// tables per stage, entries per table.
	Stages, ALUsPerStage, TablesPerStage, EntriesPerTable int
	// Events, when not nil, receives every step of the compile as data,
	// in the compile's goroutine (a service streams them).
	Events func(Event)
}

// Progress receives a line per step of long work.
type Progress func(phase, detail string)

// Event is one step of a compile: a phase, or a step in one, starting
// (what Progress gets as a line); an action synthesized (Action set); a
// placement found (Alloc set).
type Event struct {
	Phase, Detail string
	Action        *report.Action
	Alloc         *report.Alloc
	// Stages is the placement's stage count, with Alloc.
	Stages int
}

// TransformedFile is the artifact holding the program after phase 1.
const TransformedFile = "transformed.p4"

// Result is what a compile produced, as far as it went.
type Result struct {
	// Target is the target compiled for, with the request's limits and
	// ALU (nil when the request names none).
	Target  *target.Target
	Program *ir.Program
	// Transformed is the main file after phase 1 (the source when nothing
	// was rewritten), TransformedProgram its IR and Analysis phase 1's
	// analysis of it.
	Transformed        []byte
	TransformedProgram *ir.Program
	Analysis           *transform.Analysis
	// Graphs are the synthesized actions; Placement phase 3's problem and
	// solution; Compiled what the backend was given.
	Graphs    []*synth.Graph
	Placement *placement.Placement
	Compiled  *backends.Compiled
	// Artifacts are the files the compile produced, the backend's last.
	Artifacts   []backends.Artifact
	Report      report.Report
	Diagnostics diag.List
	// Source maps file names to their text, for printing diagnostics.
	Source func(file string) []byte
}

// ErrProgram says the program has errors (in Result.Diagnostics).
var ErrProgram = errors.New("the program has errors")

// ErrRequest marks a request that names no valid target, ALU, option or
// solver.
var ErrRequest = errors.New("bad request")

// DoesNotFitError says the program cannot be mapped onto the target.
type DoesNotFitError struct{ Err error }

func (e *DoesNotFitError) Error() string { return e.Err.Error() }
func (e *DoesNotFitError) Unwrap() error { return e.Err }

// Compile runs the phases and the backend. Errors are ErrRequest,
// ErrProgram, a *DoesNotFitError, a context error wrapped with the phase
// it interrupted, or internal. The result is never nil: its report says
// how far the compile went and why it stopped, and its diagnostics hold
// the errors that have a place in the program.
func Compile(ctx context.Context, req Request, progress Progress) (*Result, error) {
	ctx, stop := memlimit.Watch(ctx, req.MaxMemory)
	defer stop()
	res, err := compile1(ctx, req, progress)
	var limit *memlimit.LimitError
	if err != nil && errors.As(context.Cause(ctx), &limit) {
		err = fmt.Errorf("%w, %w", limit, err)
	}
	res.finish(req, err)
	return res, err
}

// compile1 is Compile's run of the phases, under its memory watch.
func compile1(ctx context.Context, req Request, progress Progress) (*Result, error) {
	res, c, err := begin(ctx, req, progress)
	if err != nil {
		return res, err
	}
	// Synthesis reads the program as written: phase 1 rewrites apply
	// blocks and never an action, so the actions are the same, and their
	// spans point into the user's file; it adds the actions phase 1 made
	// that use registers, where the target needs them synthesized.
	if c.target.Processor {
		// A processor runs the actions as code: nothing to synthesize or
		// place, and its backend checks its own output (--verify).
		return res, c.phase("backend", c.target.Name, func() error { return c.emit(ctx) })
	}
	if err := c.phase("synth", "", func() error { return c.synthesize(ctx) }); err != nil {
		return res, err
	}
	if err := c.phase("alloc", "", func() error { return c.allocate(ctx) }); err != nil {
		return res, err
	}
	if req.VerifyPackets > 0 {
		detail := fmt.Sprintf("%d packets", req.VerifyPackets)
		if err := c.phase("verify", detail, c.verifyPlacement); err != nil {
			return res, err
		}
	}
	return res, c.phase("backend", c.target.Name, func() error { return c.emit(ctx) })
}

// Transform runs the frontend and phase 1 only, for the target's stage
// limits (`p4hls bench transform`).
func Transform(ctx context.Context, req Request, progress Progress) (*Result, error) {
	res, _, err := begin(ctx, req, progress)
	res.finish(req, err)
	return res, err
}

// begin is how every compile starts: check the request, load the
// program, run phase 1.
func begin(ctx context.Context, req Request, progress Progress) (*Result, *compile, error) {
	if progress == nil {
		progress = func(string, string) {}
	}
	if req.Events != nil {
		lines := progress
		progress = func(phase, detail string) {
			lines(phase, detail)
			req.Events(Event{Phase: phase, Detail: detail})
		}
	}
	res := &Result{Report: report.New(req.Target)}
	c := &compile{req: req, res: res, progress: progress}
	if err := c.choose(); err != nil {
		return res, c, fmt.Errorf("%w: %w", ErrRequest, err)
	}
	err := c.phase("frontend", req.File, func() error { return c.load(ctx) })
	if err == nil {
		err = c.phase("transform", req.File, func() error { return c.transform(ctx) })
	}
	return res, c, err
}

// phase runs one phase, timing it and telling progress.
func (c *compile) phase(name, detail string, run func() error) error {
	if detail != "" {
		c.progress(name, detail)
	} else {
		c.event(Event{Phase: name}) // a stream shows every phase start
	}
	c.res.Report.Reached = append(c.res.Report.Reached, name)
	start := time.Now()
	err := run()
	c.res.Report.Phases[name] += time.Since(start).Seconds()
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		// Say where the time limit or the interrupt stopped the compile.
		err = fmt.Errorf("in %s: %w", phaseTitle(name), err)
	}
	return err
}

// phaseTitle names a phase in messages.
func phaseTitle(name string) string {
	return map[string]string{"frontend": "the frontend", "transform": "phase 1 (if statements to tables)",
		"synth": "synthesis", "alloc": "allocation", "verify": "verification", "backend": "the backend"}[name]
}

// load runs the frontend; the result has no program (and the error is
// ErrProgram) when the program has errors.
func (c *compile) load(ctx context.Context) error {
	req, res := c.req, c.res
	prog, source, err := frontend.Load(ctx, req.File, req.Source, req.Frontend, &res.Diagnostics)
	if source != nil {
		res.Source = source.FileText
	}
	if err != nil {
		return err
	}
	if prog == nil {
		return ErrProgram
	}
	res.Program = prog
	return nil
}

// synthesize maps every action with an @atomic block, and every action
// that uses a register outside one, onto the target's ALUs.
func (c *compile) synthesize(ctx context.Context) error {
	res := c.res
	for _, a := range c.synthesizedActions() {
		c.progress("synth", "action "+a.Name)
		start := time.Now()
		tx, err := synth.PreprocessWith(a, synth.PreprocessOptions{NoSimplify: c.req.NoPreprocess})
		if err != nil {
			return &DoesNotFitError{fmt.Errorf("action %s: %w", a.Name, err)}
		}
		g, stats, err := synth.Synthesize(ctx, tx, c.stateful, c.stateless, c.req.Synth)
		res.Report.SolverQueries += stats.Queries
		res.Report.CacheHits += stats.CacheHits
		res.Report.CacheRejected += stats.CacheRejected
		var u *synth.UnsupportedError
		switch {
		case errors.As(err, &u):
			return &DoesNotFitError{err}
		case err != nil:
			return fmt.Errorf("synthesizing action %s: %w", a.Name, err)
		}
		// Every graph is proven against its action before it is used.
		if err := synth.Prove(ctx, tx, g, c.width()); err != nil {
			return fmt.Errorf("internal error: action %s: %w", a.Name, err)
		}
		res.Graphs = append(res.Graphs, g)
		act := report.NewAction(g, tx, stats, time.Since(start))
		res.Report.Actions = append(res.Report.Actions, act)
		c.event(Event{Phase: "synth", Detail: "action " + a.Name + " synthesized", Action: &act})
		if tx.Assume == nil && stats.Deeper {
			for _, d := range synth.WrapNotes(tx, g.Depth()) {
				res.Diagnostics.Add(d)
			}
		}
	}
	return nil
}

// synthesizedActions are the actions synthesis maps: the program's as
// written, then, for a target that runs registers in actions only, those
// phase 1 made of apply-block code that uses a register (an if-else
// chain's branches become actions of its table).
func (c *compile) synthesizedActions() []*ir.Action {
	out := c.res.Program.SynthesizedActions()
	if !c.target.RegistersInActions || c.res.TransformedProgram == nil || c.res.TransformedProgram == c.res.Program {
		return out
	}
	written := map[string]bool{}
	for _, a := range out {
		written[a.Name] = true
	}
	for _, a := range c.res.TransformedProgram.SynthesizedActions() {
		if !written[a.Name] {
			out = append(out, a)
		}
	}
	return out
}

// width is the ALUs' word width.
func (c *compile) width() int { return cmp.Or(c.req.Synth.Width, synth.DefaultWidth) }

// allocate places the tables of the transformed program and the ALUs of
// its actions in stages.
func (c *compile) allocate(ctx context.Context) error {
	res := c.res
	graphs := map[string]*synth.Graph{}
	for _, g := range res.Graphs {
		graphs[g.Action.Name] = g
	}
	pl := placement.Build(res.Analysis, graphs, c.target.Limits)
	c.progress("alloc", fmt.Sprintf("%d tables, %s, %s", len(pl.Problem.Tables), c.solver.Name(), c.req.AllocMode))
	err := pl.Solve(ctx, c.solver, c.req.AllocMode)
	var inf *alloc.InfeasibleError
	switch {
	case errors.As(err, &inf):
		return &DoesNotFitError{errors.New(inf.Why)}
	case err != nil:
		return err
	}
	res.Placement = pl
	sol := pl.Solution
	res.Report.Stages, res.Report.PerStage = sol.Stages, pl.Usage()
	res.Report.Alloc = &report.Alloc{Solver: sol.Solver, Mode: sol.Mode.String(), Proven: sol.Proven,
		Seconds: sol.Time.Seconds(), Tables: len(pl.Problem.Tables), LowerBound: pl.LowerBound}
	alloc := *res.Report.Alloc
	c.event(Event{Phase: "alloc", Detail: fmt.Sprintf("placed in %d stages", sol.Stages), Alloc: &alloc, Stages: sol.Stages})
	return nil
}

// event tells the request's Events of a step that is not a progress line.
func (c *compile) event(e Event) {
	if c.req.Events != nil {
		c.req.Events(e)
	}
}

// verifyPlacement runs the program with every synthesized action
// replaced by its graph, each ALU in the stage allocation gave it,
// against the interpreter, with register state carried across packets.
func (c *compile) verifyPlacement() error {
	return pipeline.VerifyGraphs(c.res.Program, c.res.Graphs, c.res.Placement.Stages, c.width(), c.req.VerifyPackets)
}

// emit runs the target's backend, then its own check of its output when
// the request asks for verification.
func (c *compile) emit(ctx context.Context) error {
	res := c.res
	compiled, err := c.compiled()
	if err != nil {
		return err
	}
	res.Compiled = compiled
	out, err := c.backend.Emit(ctx, compiled, c.req.Options)
	if err != nil {
		return backendError(ctx, c.target.Name, err)
	}
	res.Artifacts = append(res.Artifacts, out.Artifacts...)
	res.Report.Backend = out.Report
	if out.Usage != nil {
		res.Report.Stages, res.Report.PerStage = len(out.Usage), out.Usage
	}
	v, ok := c.backend.(backends.Verifier)
	if c.req.VerifyPackets == 0 || !ok {
		return nil
	}
	c.progress("verify", fmt.Sprintf("%d packets on the %s output", c.req.VerifyPackets, c.target.Name))
	start := time.Now()
	defer func() { res.Report.Phases["verify"] += time.Since(start).Seconds() }()
	if err := v.Verify(ctx, compiled, out, c.req.Options, c.req.VerifyPackets); err != nil {
		return backendError(ctx, c.target.Name, err)
	}
	return nil
}

// backendError sorts a backend's error: p4hls's own bugs and
// interruptions stay what they are; anything else is a program the
// target cannot hold.
func backendError(ctx context.Context, target string, err error) error {
	var be *backends.Error
	switch {
	case errors.Is(err, backends.ErrInternal):
		return fmt.Errorf("%s: %w", target, err)
	case ctx.Err() != nil:
		return fmt.Errorf("%s backend: %w", target, ctx.Err())
	case errors.As(err, &be):
		return &DoesNotFitError{err}
	}
	return &DoesNotFitError{fmt.Errorf("%s: %w", target, err)}
}

// compiled is what the backend takes.
func (c *compile) compiled() (*backends.Compiled, error) {
	res, req := c.res, c.req
	out := &backends.Compiled{Target: c.target, Program: res.TransformedProgram, Graphs: res.Graphs,
		Usage: res.Report.PerStage,
		Source: backends.Source{File: req.File, Text: req.Source, IncludeDirs: req.Frontend.IncludeDirs,
			Defines: req.Frontend.Defines, NoTransform: req.NoTransform, Solver: req.Solver, AllocMode: req.AllocMode}}
	if res.Placement != nil {
		out.Problem, out.Placement = res.Placement.Problem, res.Placement.Solution
	}
	if c.target.Processor {
		// The program as written: phase 1's tables replace if statements
		// for pipelines, and a processor runs the if statements as they are.
		out.Program = res.Program
		return out, nil
	}
	return out, out.LocateControls(res.Analysis)
}
