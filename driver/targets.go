package driver

import (
	"fmt"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/backends"
	banzai "github.com/p4hls/p4hls/backends/banzai/emit"
	"github.com/p4hls/p4hls/backends/hxdp"
	"github.com/p4hls/p4hls/backends/xdp"
	"github.com/p4hls/p4hls/menshen/lower"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/tofino/tna"
)

// Registry returns the targets p4hls compiles for, the first the default.
// A new target is a package implementing backends.Backend and one line
// here.
func Registry() *backends.Registry {
	r, err := backends.NewRegistry(
		tna.Backend{},
		lower.Backend{},
		banzai.Backend{},
		xdp.Backend{},
		hxdp.Backend{XDP: xdp.Backend{}},
	)
	if err != nil {
		panic(err) // the built-in targets validate (TestRegistry)
	}
	return r
}

// compile is one compile's state as the phases run.
type compile struct {
	req      Request
	res      *Result
	progress Progress
	backend  backends.Backend
	// target is the backend's target with the request's limits, Stateful
	// naming the stateful ALU synthesis uses.
	target              *target.Target
	stateful, stateless *grammar.Grammar
	solver              alloc.Solver
}

// choose finds what the request names: the target, its ALUs, its limits,
// its options and the allocation solver.
func (c *compile) choose() error {
	req := c.req
	targets := req.Targets
	if targets == nil {
		targets = Registry()
	}
	b, err := targets.Lookup(req.Target)
	if err != nil {
		return err
	}
	c.backend, c.target = b, b.Target()
	c.res.Report.Target = c.target.Name
	if req.ALU != "" {
		if names := backends.StatefulGrammars(b); !slices.Contains(names, req.ALU) {
			return fmt.Errorf("target %s has no stateful ALU %q (it has: %s)", c.target.Name, req.ALU, strings.Join(names, ", "))
		}
		c.target.Stateful = req.ALU
	}
	c.res.Report.ALU = c.target.Stateful
	if c.target.Processor {
		// No ALUs, no stages: the limits and the ALU options do not apply.
		c.res.Target = c.target
		return req.Options.Check(b)
	}
	if c.stateful, err = c.target.Grammar(c.target.Stateful); err != nil {
		return err
	}
	if c.stateless, err = c.target.Grammar(c.target.Stateless); err != nil {
		return err
	}
	if c.target.Limits, err = c.target.Limits.With(req.Stages, req.ALUsPerStage, req.TablesPerStage, req.EntriesPerTable); err != nil {
		return err
	}
	c.res.Target = c.target
	if err := req.Options.Check(b); err != nil {
		return err
	}
	c.solver, err = alloc.SolverNamed(req.Solver)
	return err
}
