package driver

import (
	"errors"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/tofino/tna"
)

// tofinoBackend writes the compiled program as TNA P4 (res.TNA).
func tofinoBackend(res *Result, file string, progress Progress) error {
	start := time.Now()
	defer func() { res.Report.Phases["backend"] = time.Since(start).Seconds() }()
	progress("backend", "TNA P4")
	if res.analysis == nil || res.Placement == nil || res.TransformedProgram == nil {
		return fmt.Errorf("the compile did not reach allocation")
	}
	prog := res.TransformedProgram
	if len(prog.Pipeline) != 6 || prog.Arch != "v1model" {
		return &DoesNotFitError{fmt.Errorf("the Tofino backend takes v1model programs")}
	}
	in := tna.Input{Program: prog, Placement: res.Placement, Graphs: map[string]*synth.Graph{}, File: file}
	base := 0
	for _, cg := range res.analysis.Controls {
		if cg.Control == prog.Pipeline[2].Control {
			in.Ingress, in.Base = cg, base
		}
		base += len(cg.Nodes)
	}
	if in.Ingress == nil {
		return fmt.Errorf("no ingress control")
	}
	for _, g := range res.Graphs {
		in.Graphs[g.Action.Name] = g
	}
	text, err := tna.Emit(in)
	var te *tna.Error
	switch {
	case errors.As(err, &te):
		return &DoesNotFitError{err}
	case err != nil:
		return &DoesNotFitError{fmt.Errorf("tofino: %w", err)}
	}
	res.TNA = text
	return nil
}
