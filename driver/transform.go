package driver

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
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
	out, next, err := c.rewrite(ctx, transform.RewriteOptions{KeepTableBranches: c.target.NoNextTables, RegisterActions: c.target.RegistersInActions})
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
	if next == nil {
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

// maxRewriteTries bounds phase 1's tries: each drops the rewrites a
// frontend error points into, and runs the analysis again.
const maxRewriteTries = 4

// rewrite runs phase 1's rewrites and checks the program they make. A
// rewrite the frontend rejects is a p4hls bug; the program as written
// still compiles, so the statements it replaced stay as written (with a
// warning saying so) and the others are tried again. next is nil when no
// rewrite is left, or when the errors point into none of them (then every
// rewrite goes, with the warning).
func (c *compile) rewrite(ctx context.Context, opts transform.RewriteOptions) (out *transform.Result, next *ir.Program, err error) {
	req, res := c.req, c.res
	written := req.Frontend
	written.Written = req.Source
	file := diag.Span{File: req.File}
	var queries int
	for try := 1; ; try++ {
		out, err = transform.TransformWith(ctx, res.Program, req.File, req.Source, opts)
		if err != nil {
			return nil, nil, err
		}
		queries += out.Queries
		out.Queries = queries
		if len(out.Rewrites) == 0 {
			return out, nil, nil
		}
		var d diag.List
		next, _, err = frontend.Load(ctx, req.File, out.Source, written, &d)
		if err != nil || next != nil {
			return out, next, err
		}
		bad := rejectedRewrites(out.Rewrites, d.Items(), req.File)
		if len(bad) == 0 || try == maxRewriteTries {
			res.Diagnostics.Warnf(file, diag.RewriteRejected,
				"p4hls's rewrite of if statements into tables made a program that does not check, so it is not used (please report this): %s", d.Error())
			return out, nil, nil
		}
		if opts.Skip == nil {
			opts.Skip = map[int]string{}
		}
		for _, rw := range bad {
			why := fmt.Sprintf("p4hls's table for these statements did not check, so they stay as written (please report this): %s", rw.err)
			opts.Skip[rw.Span.Start.Line] = why
			res.Diagnostics.Warnf(rw.Span, diag.RewriteRejected, "%s", why)
		}
	}
}

// rejected is a rewrite a frontend error points into, and the error.
type rejected struct {
	transform.Rewrite
	err string
}

// rejectedRewrites lists the rewrites whose lines hold an error of errs:
// the rewritten text keeps the replaced statements' line numbers (its
// tables and actions are numbered from them).
func rejectedRewrites(rws []transform.Rewrite, errs []diag.Diagnostic, file string) []rejected {
	var out []rejected
	for _, rw := range rws {
		for _, e := range errs {
			if e.Severity == diag.Error && e.Span.File == file && rw.Span.Start.Line <= e.Span.Start.Line && e.Span.Start.Line <= rw.Span.End.Line {
				out = append(out, rejected{rw, e.Msg})
				break
			}
		}
	}
	return out
}
