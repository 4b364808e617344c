// Package backends holds what every backend takes and reports: a compiled
// program (its IR after phase 1, phase 1's graphs of its ingress and
// egress controls, the synthesized resource graphs and allocation's
// placement), and the
// error for what a target lacks, at its place in the source.
package backends

import (
	"fmt"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/transform"
)

// Compiled is a program through the three phases.
type Compiled struct {
	// Program is the program as compiled (after phase 1); Ingress is
	// phase 1's graph of its ingress control.
	Program *ir.Program
	Ingress *transform.ControlGraph
	// Egress is phase 1's graph of the egress control (nil when it has
	// no nodes).
	Egress *transform.ControlGraph
	// Placement is allocation's solution; Base and EgressBase are the
	// indices of the ingress and egress graphs' first nodes among its
	// tables.
	Placement        *alloc.Solution
	Base, EgressBase int
	// Graphs are the synthesized actions, by name.
	Graphs map[string]*synth.Graph
}

// Error is a program a backend cannot write for its target, at a place
// in the source.
type Error struct {
	Span diag.Span
	Msg  string
}

func (e *Error) Error() string {
	if e.Span.File == "" {
		return e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Span.File, e.Span.Start.Line, e.Span.Start.Col, e.Msg)
}

// Errorf returns an *Error at sp.
func Errorf(sp diag.Span, format string, args ...any) error {
	return &Error{Span: sp, Msg: fmt.Sprintf(format, args...)}
}
