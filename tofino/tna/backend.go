package tna

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/tofino"
)

// ProgramFile is the artifact holding the TNA program.
const ProgramFile = "tofino.p4"

// Backend is the Tofino target.
type Backend struct{}

// Target is Tofino-1.
func (Backend) Target() *target.Target { return tofino.Target() }

// Options: the Tofino backend takes none.
func (Backend) Options() []backends.Option { return nil }

// Emit writes the TNA program and checks it with the frontend: a program
// that does not check is p4hls's bug, an internal error rather than a
// file the user finds broken later.
func (Backend) Emit(ctx context.Context, c *backends.Compiled, _ backends.Options) (*backends.Output, error) {
	text, err := Emit(ctx, c)
	if err != nil {
		return nil, err
	}
	if _, err := Load(ctx, []byte(text)); err != nil {
		return nil, err
	}
	return &backends.Output{Artifacts: []backends.Artifact{{Name: ProgramFile, MediaType: "text/x-p4", Data: []byte(text)}}}, nil
}

// Verify runs the TNA program and the compiled one in the interpreter on
// the same random packets, table entries and register contents: every
// output, drop and register cell must agree.
func (Backend) Verify(ctx context.Context, c *backends.Compiled, out *backends.Output, _ backends.Options, packets int) error {
	tna, err := Load(ctx, out.Artifacts[0].Data)
	if err != nil {
		return err
	}
	prog := c.Program
	cs := interp.NewGenerator(prog, 3).Case(packets, 2, 2)
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	emitted := func() (interp.Target, error) { return interp.New(tna, interp.Options{}) }
	d, err := interp.Diff(ref, emitted, cs, interp.RegisterCells(prog))
	switch {
	case err != nil:
		return fmt.Errorf("verifying the TNA program: %w", err)
	case d != nil:
		return fmt.Errorf("%w: the TNA program disagrees with the program: %v\n%s", backends.ErrInternal, d, d.STF(prog))
	}
	return nil
}

// Load checks a TNA program p4hls wrote (with the bundled tna.p4) and
// returns its IR.
func Load(ctx context.Context, text []byte) (*ir.Program, error) {
	var d diag.List
	prog, _, err := frontend.Load(ctx, ProgramFile, text, frontend.Options{}, &d)
	switch {
	case err != nil:
		return nil, fmt.Errorf("tofino: checking the TNA program: %w", err)
	case prog == nil:
		return nil, fmt.Errorf("%w: the TNA program p4hls wrote does not check: %s", backends.ErrInternal, d.Error())
	}
	return prog, nil
}
