package driver

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/backends"
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
	res.TNA = text
	return nil
}
