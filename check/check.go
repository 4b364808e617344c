// Package check is the check of a program that the service's Check, the
// editor server (`p4hls lsp`) and `p4hls check` share: preprocess, parse,
// check, and lower a v1model program (so a check finds what a compile's
// frontend would), keeping every diagnostic and what the checker learned.
// One path, so that an editor never shows what CI would not, or the
// reverse.
package check

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// Request is one check: the main file, its text, and how #include finds
// the others.
type Request struct {
	File     string
	Source   []byte
	Frontend frontend.Options
}

// Files is the request of a check of files held in memory (a service's
// request, an editor's buffers): #include reads only them and the
// bundled headers, never the disk.
func Files(main string, files map[string][]byte, includeDirs []string, defines map[string]string) Request {
	return Request{File: main, Source: files[main],
		Frontend: frontend.Options{Files: files, IncludeDirs: includeDirs, Defines: defines}}
}

// Result is what a check found.
type Result struct {
	// Diagnostics are every diagnostic, of the main file and of the
	// files it includes.
	Diagnostics diag.List
	// Program is what the checker learned, errors or not
	// (frontend.Analyze): nil only when the input was refused before
	// parsing (too large), and without resolved names when parsing
	// failed.
	Program *frontend.Checked
	// Source is the preprocessed program and the text of every file read
	// (nil when preprocessing did not run).
	Source *frontend.Source
}

// OK says whether the program is valid: no diagnostic is an error.
func (r *Result) OK() bool { return !r.Diagnostics.HasErrors() }

// Text is the text of a file the check read (nil when it read none by
// that name), for printing excerpts.
func (r *Result) Text(file string) []byte { return r.Source.FileText(file) }

// Run checks req. The error is for cancellation only: the program's
// problems are diagnostics.
func Run(ctx context.Context, req Request) (*Result, error) {
	res := &Result{}
	prog, source, err := frontend.AnalyzeProgram(ctx, req.File, req.Source, req.Frontend, &res.Diagnostics)
	res.Program, res.Source = prog, source
	if err != nil {
		return res, fmt.Errorf("check %s: %w", req.File, err)
	}
	return res, nil
}
