package driver

import (
	"context"
	"errors"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/internal/memlimit"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/transform"
)

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
	if r.Status == report.DoesNotFit {
		span, msg := fitPlace(req.File, err)
		res.Diagnostics.Errorf(span, diag.DoesNotFit, "%s", msg)
	}
	for _, d := range res.Diagnostics.Items() {
		r.Diagnostics = append(r.Diagnostics, report.NewDiagnostic(d))
	}
	for _, a := range res.Artifacts {
		r.Artifacts = append(r.Artifacts, report.NewArtifact(a.Name, a.MediaType, a.Data))
	}
}

// StatusOf says how a compile that returned err ended.
func StatusOf(err error) report.Status {
	var fit *DoesNotFitError
	switch {
	case err == nil:
		return report.OK
	case errors.Is(err, ErrRequest):
		return report.BadRequest
	case errors.Is(err, ErrProgram):
		return report.ProgramError
	case errors.As(err, &fit):
		return report.DoesNotFit
	case errors.As(err, new(*memlimit.LimitError)):
		return report.MemoryLimit
	case errors.Is(err, context.DeadlineExceeded):
		return report.Timeout
	case errors.Is(err, context.Canceled):
		return report.Interrupted
	}
	return report.Internal
}

// fitPlace splits the error of a program the target cannot hold into
// the place at fault (the construct the error names, or the main file)
// and the message without it.
func fitPlace(file string, err error) (diag.Span, string) {
	var be *backends.Error
	var u *synth.UnsupportedError
	var tables *transform.TooManyTablesError
	var construct *transform.UnsupportedError
	switch {
	case errors.As(err, &be) && be.Span.Start.IsValid():
		return be.Span, be.Msg
	case errors.As(err, &u) && u.Span.Start.IsValid():
		return u.Span, u.Msg
	case errors.As(err, &tables) && tables.Span.Start.IsValid():
		return tables.Span, tables.Msg
	case errors.As(err, &construct) && construct.Span.Start.IsValid():
		return construct.Span, construct.Msg
	}
	return diag.Span{File: file}, err.Error()
}
