package driver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/tofino/tna"
)

// tofinoBackend writes the compiled program as TNA P4 (res.TNA).
func tofinoBackend(ctx context.Context, res *Result, file string, progress Progress) error {
	start := time.Now()
	defer func() { res.Report.Phases["backend"] = time.Since(start).Seconds() }()
	progress("backend", "TNA P4")
	c, err := compiled(res, "Tofino")
	if err != nil {
		return err
	}
	in := tna.Input{Compiled: c, File: file}
	text, err := tna.Emit(ctx, in)
	var te *backends.Error
	switch {
	case errors.As(err, &te):
		return &DoesNotFitError{err}
	case err != nil:
		return &DoesNotFitError{fmt.Errorf("tofino: %w", err)}
	}
	// The program written must check: one that does not is p4hls's bug,
	// an internal error rather than a file the user finds broken later.
	var d diag.List
	prog, _, err := frontend.Load(ctx, "tofino.p4", []byte(text), frontend.Options{}, &d)
	switch {
	case err != nil:
		return fmt.Errorf("tofino: checking the TNA program: %w", err)
	case prog == nil:
		return fmt.Errorf("tofino: the TNA program p4hls wrote does not check: %s", firstError(&d))
	}
	res.TNA = text
	return nil
}
