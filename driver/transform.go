package driver

import (
	"context"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/transform"
)

// TransformReport is report.json's "transform": what phase 1 traded.
// Before and after count what a compiler sees in the program as written
// and as rewritten.
type TransformReport struct {
	Before   transform.Summary `json:"before"`
	After    transform.Summary `json:"after"`
	Rewrites []RewriteReport   `json:"rewrites"`
	Kept     []KeptReport      `json:"kept"`
	// SolverQueries counts the guard queries of both analyses and the
	// rewrite.
	SolverQueries int `json:"solver_queries"`
}

// RewriteReport is one run of if statements that became a table.
type RewriteReport struct {
	Control  string   `json:"control"`
	Table    string   `json:"table"`
	At       string   `json:"at"`
	Keys     []string `json:"keys"`
	Entries  int      `json:"entries"`
	Gateways int      `json:"gateways"`
}

// KeptReport is an if statement that stays, and why.
type KeptReport struct {
	At     string `json:"at"`
	Reason string `json:"reason"`
}

// transformPhase runs phase 1: it analyzes prog, rewrites its if-else
// chains into tables, checks the rewritten text with the frontend, and
// analyzes that too. It fills res.Transformed, the report, and the
// analysis of the program later phases use (allocation reads its table
// dependency graph).
func transformPhase(ctx context.Context, req Request, res *Result, prog *ir.Program, tablesPerStage int, progress Progress) error {
	start := time.Now()
	defer func() { res.Report.Phases["transform"] = time.Since(start).Seconds() }()
	progress("transform", req.File)
	opts := transform.Options{TablesPerStage: tablesPerStage}
	before, err := transform.Analyze(ctx, prog, opts)
	if err != nil {
		return fmt.Errorf("transform: %w", err)
	}
	tr := &TransformReport{Before: before.Summary, After: before.Summary, Rewrites: []RewriteReport{}, Kept: []KeptReport{},
		SolverQueries: before.Queries}
	res.Report.Transform = tr
	res.Transformed, res.TransformedProgram, res.analysis = req.Source, prog, before
	if req.NoTransform {
		return nil
	}
	out, err := transform.Transform(ctx, prog, req.File, req.Source)
	if err != nil {
		return fmt.Errorf("transform: %w", err)
	}
	tr.SolverQueries += out.Queries
	if before.GuardsExhausted || out.GuardsExhausted {
		res.Report.Diagnostics = append(res.Report.Diagnostics, fmt.Sprintf(
			"%s: note: the guard analysis reached its bound of solver queries; past it, dependencies and rewrites were decided conservatively", req.File))
	}
	for _, k := range out.Kept {
		tr.Kept = append(tr.Kept, KeptReport{At: k.Span.String(), Reason: k.Reason})
	}
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
		res.Report.Diagnostics = append(res.Report.Diagnostics, fmt.Sprintf(
			"%s: warning: p4hls's rewrite of if statements into tables made a program that does not check, so it is not used (please report this): %s",
			req.File, firstError(&d)))
		return nil
	}
	after, err := transform.Analyze(ctx, next, opts)
	if err != nil {
		return fmt.Errorf("transform: %w", err)
	}
	tr.After, tr.SolverQueries = after.Summary, tr.SolverQueries+after.Queries
	for _, rw := range out.Rewrites {
		tr.Rewrites = append(tr.Rewrites, RewriteReport{Control: rw.Control, Table: rw.Table, At: rw.Span.String(),
			Keys: rw.Keys, Entries: rw.Entries, Gateways: rw.Gateways})
	}
	res.Transformed, res.TransformedProgram, res.analysis = out.Source, next, after
	return nil
}

func firstError(d *diag.List) string {
	for _, item := range d.Items() {
		return item.String()
	}
	return "no diagnostic"
}
