// Package backends is where targets plug in. A target is a Backend: its
// description as data (limits, ALU grammars, options) and an Emit that
// turns a program through the three phases (a Compiled) into files
// (Artifacts). A Registry holds the targets a compiler offers; the driver,
// the command line and the service read it and never test a target's
// name. The targets themselves live in their own packages (tofino/tna,
// menshen/lower, backends/banzai), which import this one.
package backends

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/transform"
)

// Backend is a target p4hls compiles for.
type Backend interface {
	// Target describes the target: its name, a one-line description, its
	// limits and its ALU grammars (Stateful and Stateless name the
	// defaults). It returns a fresh value each time: callers may change
	// the copy they get.
	Target() *target.Target
	// Options are the options Emit takes beyond the common ones.
	Options() []Option
	// Emit writes the compiled program for the target. An *Error says
	// what the target cannot do, and where.
	Emit(ctx context.Context, c *Compiled, opts Options) (*Output, error)
}

// Verifier is a Backend that can check what it emitted: it runs the
// output on a model of the target (or the interpreter) against the
// program on packets random packets. `compile --verify N` calls it.
type Verifier interface {
	Verify(ctx context.Context, c *Compiled, out *Output, opts Options, packets int) error
}

// Option is a target-specific option, set as NAME=VALUE.
type Option struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Default     string `json:"default"`
}

// Options are a compile's target options by name. A missing option has
// its default (Value).
type Options map[string]string

// Value returns the option's value, or its default from the backend's
// list.
func (o Options) Value(b Backend, name string) string {
	if v, ok := o[name]; ok {
		return v
	}
	for _, opt := range b.Options() {
		if opt.Name == name {
			return opt.Default
		}
	}
	return ""
}

// Check refuses options b does not take.
func (o Options) Check(b Backend) error {
	var known []string
	for _, opt := range b.Options() {
		known = append(known, opt.Name)
	}
	for _, name := range slices.Sorted(maps.Keys(o)) {
		if !slices.Contains(known, name) {
			if len(known) == 0 {
				return fmt.Errorf("target %s takes no options; it was given %q", b.Target().Name, name)
			}
			return fmt.Errorf("target %s has no option %q (options: %s)", b.Target().Name, name, strings.Join(known, ", "))
		}
	}
	return nil
}

// Artifact is one file a compile produced.
type Artifact struct {
	// Name is the file's name in the output folder (no folders).
	Name string
	// MediaType says what the bytes are ("text/x-p4", "application/json").
	MediaType string
	Data      []byte
}

// Output is what a backend emitted.
type Output struct {
	// Artifacts are the files, in the order a listing shows them.
	Artifacts []Artifact
	// Usage, when not nil, replaces the per-stage usage of the placement
	// (a target whose program takes stages of its own, or that fills in
	// its containers).
	Usage []placement.StageUsage
	// Report is the target's own section of the compile's report (any
	// value encoding/json writes), or nil.
	Report any
}

// Source says where a program came from, for backends that record it
// beside their output.
type Source struct {
	// File is the main file's name as the request gave it; Text its
	// contents.
	File string
	Text []byte
	// IncludeDirs and Defines are the preprocessor's options.
	IncludeDirs []string
	Defines     map[string]string
	// NoTransform, Solver and AllocMode are the options of phases 1 and 3
	// the compile ran with.
	NoTransform bool
	Solver      string
	AllocMode   alloc.Mode
}

// Compiled is a program through the three phases.
type Compiled struct {
	// Target is the target compiled for, with the compile's limits; its
	// Stateful grammar is the one synthesis used.
	Target *target.Target
	Source Source
	// Program is the program as compiled (after phase 1).
	Program *ir.Program
	// Ingress and Egress are phase 1's graphs of a v1model program's
	// ingress and egress controls (Egress is nil when it has no nodes);
	// both are nil for other architectures.
	Ingress, Egress *transform.ControlGraph
	// Problem is the allocation problem and Placement its solution; Base
	// and EgressBase are the indices of the ingress and egress graphs'
	// first nodes among the problem's tables.
	Problem          *alloc.Problem
	Placement        *alloc.Solution
	Base, EgressBase int
	// Usage is what each stage of the placement holds.
	Usage []placement.StageUsage
	// Graphs are the synthesized actions, in the program's order.
	Graphs []*synth.Graph
}

// LocateControls finds, for a v1model program, phase 1's graphs of the
// ingress and egress controls and their places among the problem's
// tables (an is phase 1's analysis of the program, whose control graphs
// the problem's tables follow in order).
func (c *Compiled) LocateControls(an *transform.Analysis) error {
	prog := c.Program
	if prog.Arch != ir.V1Model {
		return nil
	}
	base := 0
	for _, cg := range an.Controls {
		switch cg.Control {
		case prog.Pipeline[ir.V1Ingress].Control:
			c.Ingress, c.Base = cg, base
		case prog.Pipeline[ir.V1Egress].Control:
			c.Egress, c.EgressBase = cg, base
		}
		base += len(cg.Nodes)
	}
	if c.Ingress == nil {
		return fmt.Errorf("%w: phase 1 has no graph of the ingress control", ErrInternal)
	}
	return nil
}

// Graph returns the synthesized graph of the action called name, or nil
// when the action was not synthesized.
func (c *Compiled) Graph(name string) *synth.Graph {
	for _, g := range c.Graphs {
		if g.Action.Name == name {
			return g
		}
	}
	return nil
}

// V1Model refuses a program that is not a v1model one (backend names the
// target in the message).
func (c *Compiled) V1Model(backend string) error {
	if c.Program.Arch != ir.V1Model || c.Ingress == nil {
		return fmt.Errorf("the %s backend takes v1model programs", backend)
	}
	return nil
}

// ErrInternal marks a backend's failure that is p4hls's bug (what it
// wrote does not check, or disagrees with the program), as against a
// program the target cannot hold.
var ErrInternal = errors.New("internal error")

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
