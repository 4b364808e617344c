package driver

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"time"

	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/synth"
)

// Report is a compile's account of itself, OUTDIR/report.json. Its names
// are read by other tools; docs/report.md documents every one, and a test
// checks that the documented names are the written ones.
type Report struct {
	Target string `json:"target"`
	ALU    string `json:"alu"`
	// Status says how the compile ended (one of the Status constants);
	// Error is why it failed ("" when it did not).
	Status Status `json:"status"`
	Error  string `json:"error"`
	// Reached lists the phases that started, in order.
	Reached []string `json:"reached"`
	// Stages is the number of pipeline stages the program uses.
	Stages   int                    `json:"stages"`
	PerStage []placement.StageUsage `json:"per_stage"`
	// Phases holds seconds per phase; a phase that did not run has 0.
	Phases        map[string]float64 `json:"phases"`
	SolverQueries int                `json:"solver_queries"`
	CacheHits     int                `json:"cache_hits"`
	Diagnostics   []Diagnostic       `json:"diagnostics"`
	// Transform is phase 1's outcome (nil until it ran); Alloc phase 3's.
	Transform *TransformReport `json:"transform"`
	Alloc     *AllocReport     `json:"alloc"`
	Actions   []ActionReport   `json:"actions"`
	// Backend is the target's own section (nil when it has none or the
	// backend did not run); Artifacts lists the files written.
	Backend   any              `json:"backend"`
	Artifacts []ArtifactReport `json:"artifacts"`
}

// Status is how a compile ended.
type Status string

const (
	StatusOK          Status = "ok"
	StatusBadRequest  Status = "bad-request"   // no such target, ALU, option or solver
	StatusProgram     Status = "program-error" // the program has errors
	StatusDoesNotFit  Status = "does-not-fit"  // the target cannot hold the program
	StatusTimeout     Status = "timeout"
	StatusInterrupted Status = "interrupted"
	StatusInternal    Status = "internal-error" // a bug in p4hls
)

// Diagnostic is one diagnostic as the report writes it: 1-based lines
// and columns, the end just after the last byte.
type Diagnostic struct {
	File      string    `json:"file"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	EndLine   int       `json:"end_line"`
	EndColumn int       `json:"end_column"`
	Severity  string    `json:"severity"`
	Code      string    `json:"code"`
	Message   string    `json:"message"`
	Related   []Related `json:"related"`
}

// Related is a diagnostic's secondary place.
type Related struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// AllocReport is phase 3's outcome.
type AllocReport struct {
	Solver  string  `json:"solver"`
	Mode    string  `json:"mode"`
	Proven  bool    `json:"proven_optimal"`
	Seconds float64 `json:"seconds"`
	Tables  int     `json:"tables"`
}

// ActionReport describes one synthesized action.
type ActionReport struct {
	Name          string  `json:"name"`
	StatefulALUs  int     `json:"stateful_alus"`
	StatelessALUs int     `json:"stateless_alus"`
	Depth         int     `json:"depth"`
	Queries       int     `json:"queries"`
	CacheHits     int     `json:"cache_hits"`
	Seconds       float64 `json:"seconds"`
}

// ArtifactReport is one file the compile produced.
type ArtifactReport struct {
	Name      string `json:"name"`
	MediaType string `json:"media_type"`
	Bytes     int    `json:"bytes"`
	SHA256    string `json:"sha256"`
}

// Phases are the report's phase names, in the order they run.
func Phases() []string {
	return []string{"frontend", "transform", "synth", "alloc", "verify", "backend"}
}

func newReport(req Request) Report {
	r := Report{Target: req.Target, Status: StatusOK, Reached: []string{}, Phases: map[string]float64{},
		PerStage: []placement.StageUsage{}, Diagnostics: []Diagnostic{}, Actions: []ActionReport{}, Artifacts: []ArtifactReport{}}
	for _, p := range Phases() {
		r.Phases[p] = 0
	}
	return r
}

func actionReport(g *synth.Graph, stats synth.Stats, took time.Duration) ActionReport {
	r := ActionReport{Name: g.Action.Name, Depth: g.Depth(), Queries: stats.Queries, CacheHits: stats.CacheHits, Seconds: took.Seconds()}
	for _, a := range g.ALUs {
		if len(a.State) > 0 {
			r.StatefulALUs++
		} else {
			r.StatelessALUs++
		}
	}
	return r
}

// finish completes the report once the compile ends with err: the
// status, the reason, a diagnostic for a program the target cannot hold
// (at its place when the error has one), the diagnostics and the
// artifacts.
func (res *Result) finish(req Request, err error) {
	r := &res.Report
	r.Status = StatusOf(err)
	if err != nil {
		r.Error = err.Error()
	}
	if r.Status == StatusDoesNotFit {
		span, msg := fitPlace(req.File, err)
		res.Diagnostics.Errorf(span, diag.DoesNotFit, "%s", msg)
	}
	for _, d := range res.Diagnostics.Items() {
		r.Diagnostics = append(r.Diagnostics, reportDiagnostic(d))
	}
	for _, a := range res.Artifacts {
		sum := sha256.Sum256(a.Data)
		r.Artifacts = append(r.Artifacts, ArtifactReport{Name: a.Name, MediaType: a.MediaType, Bytes: len(a.Data), SHA256: hex.EncodeToString(sum[:])})
	}
}

// StatusOf says how a compile that returned err ended.
func StatusOf(err error) Status {
	var fit *DoesNotFitError
	switch {
	case err == nil:
		return StatusOK
	case errors.Is(err, ErrRequest):
		return StatusBadRequest
	case errors.Is(err, ErrProgram):
		return StatusProgram
	case errors.As(err, &fit):
		return StatusDoesNotFit
	case errors.Is(err, context.DeadlineExceeded):
		return StatusTimeout
	case errors.Is(err, context.Canceled):
		return StatusInterrupted
	}
	return StatusInternal
}

// fitPlace splits the error of a program the target cannot hold into
// the place at fault (the construct the error names, or the main file)
// and the message without it.
func fitPlace(file string, err error) (diag.Span, string) {
	var be *backends.Error
	var u *synth.UnsupportedError
	switch {
	case errors.As(err, &be) && be.Span.Start.IsValid():
		return be.Span, be.Msg
	case errors.As(err, &u) && u.Span.Start.IsValid():
		return u.Span, u.Msg
	}
	return diag.Span{File: file}, err.Error()
}

func reportDiagnostic(d diag.Diagnostic) Diagnostic {
	out := Diagnostic{File: d.Span.File, Line: d.Span.Start.Line, Column: d.Span.Start.Col, EndLine: d.Span.End.Line,
		EndColumn: d.Span.End.Col, Severity: d.Severity.String(), Code: d.Code.String(), Message: d.Msg, Related: []Related{}}
	for _, rel := range d.Related {
		out.Related = append(out.Related, Related{File: rel.Span.File, Line: rel.Span.Start.Line, Column: rel.Span.Start.Col, Message: rel.Msg})
	}
	return out
}
