package driver

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/transform"
)

// transform runs phase 1: it analyzes the program, rewrites its if-else
// chains into tables, checks the rewritten text with the frontend, and
// analyzes that too. It fills res.Transformed, the report, and the
// analysis of the program later phases use (allocation reads its table
// dependency graph).
func (c *compile) transform(ctx context.Context) error {
	req, res, prog := c.req, c.res, c.res.Program
	opts := transform.Options{TablesPerStage: c.target.Limits.TablesPerStage}
	if err := transform.CheckTableCount(prog, c.target.Limits.Stages, c.target.Limits.TablesPerStage); err != nil {
		return &DoesNotFitError{err}
	}
	if err := transform.CheckKeys(prog); err != nil {
		return &DoesNotFitError{err}
	}
	before, err := transform.Analyze(ctx, prog, opts)
	if err != nil {
		return fmt.Errorf("transform: %w", err)
	}
	tr := &report.Transform{Before: before.Summary, After: before.Summary, Rewrites: []report.Rewrite{}, Kept: []report.Kept{},
		SolverQueries: before.Queries}
	res.Report.Transform = tr
	res.Transformed, res.TransformedProgram, res.Analysis = req.Source, prog, before
	defer c.addTransformed()
	if req.NoTransform {
		return nil
	}
	out, err := transform.TransformWith(ctx, prog, req.File, req.Source, transform.RewriteOptions{KeepTableBranches: c.target.NoNextTables, RegisterActions: c.target.RegistersInActions})
	if err != nil {
		return fmt.Errorf("transform: %w", err)
	}
	tr.SolverQueries += out.Queries
	file := diag.Span{File: req.File}
	if before.GuardsExhausted || out.GuardsExhausted {
		res.Diagnostics.Add(diag.Diagnostic{Span: file, Severity: diag.Note, Code: diag.AnalysisBounded,
			Msg: "the guard analysis reached its bound of solver queries; past it, dependencies and rewrites were decided conservatively"})
	}
	tr.Kept = report.NewKept(out.Kept)
	if len(out.Rewrites) == 0 {
		return nil
	}
	var d diag.List
	written := req.Frontend
	written.Written = req.Source
	next, _, err := frontend.Load(ctx, req.File, out.Source, written, &d)
	if err != nil {
		return fmt.Errorf("transform: %w", err)
	}
	if next == nil {
		// A rewrite the frontend rejects is a p4hls bug; the program as
		// written still compiles, so say so and go on without it.
		res.Diagnostics.Warnf(file, diag.RewriteRejected,
			"p4hls's rewrite of if statements into tables made a program that does not check, so it is not used (please report this): %s", d.Error())
		return nil
	}
	after, err := transform.Analyze(ctx, next, opts)
	if err != nil {
		return fmt.Errorf("transform: %w", err)
	}
	tr.After, tr.SolverQueries = after.Summary, tr.SolverQueries+after.Queries
	tr.Rewrites = report.NewRewrites(out.Rewrites)
	res.Transformed, res.TransformedProgram, res.Analysis = out.Source, next, after
	return nil
}

// addTransformed adds the program after phase 1 to the artifacts, when
// the request asks for it.
func (c *compile) addTransformed() {
	if c.req.EmitTransformed {
		c.res.Artifacts = append(c.res.Artifacts, backends.Artifact{Name: TransformedFile, MediaType: "text/x-p4", Data: c.res.Transformed})
	}
}
