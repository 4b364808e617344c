// Package hxdp is the hxdp target: it compiles the XDP program the xdp
// target writes (its prog.o, verified by the kernel) for the hXDP core of
// FPGA NICs: the paper's transformations (bounds checks and zeroing the
// core makes redundant dropped, three-operand and 6-byte forms,
// parameterized exits), then a schedule into 4-lane VLIW rows. It writes
// the ROM as hex, the map configuration and a listing.
//
// It takes the XDP backend as a value (Backend.XDP) rather than importing
// one: the input is an XDP object, whichever backend wrote it.
package hxdp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/hxdp"
	"github.com/p4hls/p4hls/target"
)

// Name is the target's name.
const Name = "hxdp"

// The files the target writes beside the XDP target's.
const (
	ROMFile     = "rom.hex"         // hxdp.ROM.Hex: a row per line, lane 0 rightmost
	ConfigFile  = "map-config.json" // hxdp.Config
	AXIFile     = "map-config.axi"  // the configuration as AXI-Lite writes
	ListingFile = "listing.txt"     // row by row, with each instruction's P4 line
)

// Backend is the hxdp target. XDP is the backend whose output it starts
// from (the xdp target's).
type Backend struct {
	XDP backends.Backend
}

// Target describes the core: a processor (no stages, no ALUs to
// synthesize).
func (b Backend) Target() *target.Target {
	return &target.Target{
		Name:        Name,
		Description: "hXDP: the 4-lane VLIW core of FPGA NICs running XDP (ROM hex, map configuration, listing)",
		Processor:   true,
	}
}

// Options are the XDP backend's: the program is its program.
func (b Backend) Options() []backends.Option { return b.XDP.Options() }

// Report is the target's section of report.json.
type Report struct {
	EBPFInstructions int          `json:"ebpf_instructions"`
	Instructions     int          `json:"instructions"`
	Rows             int          `json:"rows"`
	IPC              float64      `json:"ipc"`
	LanesPerRow      float64      `json:"lanes_per_row"`
	Maps             int          `json:"maps"`
	Passes           []PassReport `json:"passes"`
}

// Emit writes the XDP target's files and the core's: the ROM, the map
// configuration (as JSON and as AXI-Lite writes) and the listing. A
// program whose ROM needs more rows than the core holds is refused at
// the P4 line that takes the most instructions.
func (b Backend) Emit(ctx context.Context, c *backends.Compiled, opts backends.Options) (*backends.Output, error) {
	out, err := b.XDP.Emit(ctx, c, opts)
	if err != nil {
		return nil, err
	}
	obj, layout, err := xdpOutput(out.Artifacts)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", backends.ErrInternal, err)
	}
	im, err := Build(ctx, obj, layout, Options{})
	var pe *PlaceError
	if errors.As(err, &pe) {
		return nil, backends.Errorf(diag.Span{File: pe.File, Start: diag.Pos{Line: pe.Line, Col: 1}, End: diag.Pos{Line: pe.Line, Col: 1}}, "%s", pe.Msg)
	}
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: compiling %s for hXDP: %w", backends.ErrInternal, kernel.ObjectFile, err)
	}
	if !im.Fits() {
		at, n := im.busiest()
		sp := diag.Span{File: at.file, Start: diag.Pos{Line: at.line, Col: 1}, End: diag.Pos{Line: at.line, Col: 1}}
		return nil, backends.Errorf(sp, "the program needs %d rows; the hXDP core holds %d (of the %d instructions left of prog.o's %d after the passes, this line's code takes the most: %d)",
			im.Rows(), hxdp.MaxRows, im.Scheduled, im.EBPF, n)
	}
	cfg, err := json.MarshalIndent(im.Config, "", "  ")
	if err != nil {
		return nil, err
	}
	out.Artifacts = append(out.Artifacts,
		backends.Artifact{Name: ROMFile, MediaType: "text/plain", Data: im.ROM.Hex()},
		backends.Artifact{Name: ConfigFile, MediaType: "application/json", Data: append(cfg, '\n')},
		backends.Artifact{Name: AXIFile, MediaType: "text/plain", Data: im.Config.AXI()},
		backends.Artifact{Name: ListingFile, MediaType: "text/plain", Data: im.Listing(c.Source.File, c.Source.Text)},
	)
	out.Report = Report{EBPFInstructions: im.EBPF, Instructions: im.Scheduled, Rows: im.Rows(), IPC: round2(im.IPC()), LanesPerRow: round2(im.LanesPerRow()),
		Maps: len(im.Config.Maps), Passes: im.Passes}
	return out, nil
}

func round2(x float64) float64 { return float64(int(x*100+0.5)) / 100 }

// xdpOutput finds prog.o and maps.json among the XDP backend's files.
func xdpOutput(arts []backends.Artifact) ([]byte, kernel.Layout, error) {
	var obj, js []byte
	for _, a := range arts {
		switch a.Name {
		case kernel.ObjectFile:
			obj = a.Data
		case kernel.LayoutFile:
			js = a.Data
		}
	}
	var layout kernel.Layout
	if obj == nil || js == nil {
		return nil, layout, fmt.Errorf("the XDP backend wrote no %s or no %s", kernel.ObjectFile, kernel.LayoutFile)
	}
	if err := json.Unmarshal(js, &layout); err != nil {
		return nil, layout, fmt.Errorf("reading %s: %w", kernel.LayoutFile, err)
	}
	return obj, layout, nil
}

// Verify runs what Emit wrote, the ROM and the map configuration, on the
// model against prog.o in the kernel (as root) on packets random packets
// (`compile --verify N`).
func (b Backend) Verify(ctx context.Context, c *backends.Compiled, out *backends.Output, _ backends.Options, packets int) error {
	obj, layout, err := xdpOutput(out.Artifacts)
	if err != nil {
		return fmt.Errorf("%w: %w", backends.ErrInternal, err)
	}
	im := &Image{}
	for _, a := range out.Artifacts {
		switch a.Name {
		case ROMFile:
			im.ROM, err = hxdp.ParseHex(a.Data)
		case ConfigFile:
			err = json.Unmarshal(a.Data, &im.Config)
		}
		if err != nil {
			return fmt.Errorf("%w: reading %s: %w", backends.ErrInternal, a.Name, err)
		}
	}
	d, _, err := Diff(ctx, c.Program, obj, layout, im, 1, packets)
	switch {
	case err != nil:
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return fmt.Errorf("%w: %w", backends.ErrInternal, err)
	case d != nil:
		return fmt.Errorf("%w: the hXDP model disagrees with the kernel: %v", backends.ErrInternal, d)
	}
	return nil
}
