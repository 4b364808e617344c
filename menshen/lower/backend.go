package lower

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/target"
)

// The files the Menshen backend writes: the configuration in its text
// form (one entry per line), the same entries as control frames, the
// compile that made them (BuildFile), from which `p4hls sim --target
// menshen` rebuilds the machine, and the configuration in words, line by
// line, for a person to review.
const (
	ConfigFile  = "menshen.conf"
	PcapFile    = "menshen-config.pcap"
	BuildFile   = "menshen.json"
	ListingFile = "menshen.txt"
)

// DefaultTenant is the VLAN ID p4hls gives a program on Menshen when the
// compile names none.
const DefaultTenant = 1

// Backend is the Menshen target.
type Backend struct{}

// Target is the CaT fork of Menshen.
func (Backend) Target() *target.Target { return menshen.Target() }

// Options: the tenant, the VLAN ID of the program's frames.
func (Backend) Options() []backends.Option {
	return []backends.Option{{Name: "tenant", Default: strconv.Itoa(DefaultTenant),
		Description: "the VLAN ID (1 to 31) of the frames the program processes; its tables are that tenant's"}}
}

// Report is the Menshen section of a compile's report.
type Report struct {
	Tenant     int             `json:"tenant"`
	Containers int             `json:"containers"`
	Entries    int             `json:"config_entries"`
	Registers  map[string]Cell `json:"registers"`
}

// Build is menshen.json: the compile that made a configuration, so that
// it can be made again with a packet test's entries.
type Build struct {
	File        string            `json:"file"`
	SHA256      string            `json:"sha256"`
	IncludeDirs []string          `json:"include_dirs,omitempty"`
	Defines     map[string]string `json:"defines,omitempty"`
	NoTransform bool              `json:"no_transform,omitempty"`
	Solver      string            `json:"solver,omitempty"`
	Alloc       string            `json:"alloc"`
	Tenant      int               `json:"tenant"`
	// Registers says which stage's container ALU holds each register.
	Registers map[string]Cell `json:"registers"`
}

// Emit lowers the compiled program (with no table entries: a packet test
// or the control plane brings those) to its configuration.
func (b Backend) Emit(_ context.Context, c *backends.Compiled, opts backends.Options) (*backends.Output, error) {
	in, err := NewInput(c, b, opts)
	if err != nil {
		return nil, err
	}
	lr, err := Lower(in)
	if err != nil {
		return nil, err
	}
	lines, err := lr.Config.Lines()
	if err != nil {
		return nil, err
	}
	frames, err := menshen.LineFrames(lines)
	if err != nil {
		return nil, err
	}
	var pcap bytes.Buffer
	if err := menshen.WritePcap(&pcap, frames); err != nil {
		return nil, err
	}
	build, err := buildFile(c.Source, in.Tenant, lr.Registers)
	if err != nil {
		return nil, err
	}
	listing, err := lr.Listing()
	if err != nil {
		return nil, err
	}
	out := &backends.Output{
		Artifacts: []backends.Artifact{
			{Name: ConfigFile, MediaType: "text/plain", Data: []byte(strings.Join(lines, "\n") + "\n")},
			{Name: PcapFile, MediaType: "application/vnd.tcpdump.pcap", Data: pcap.Bytes()},
			{Name: BuildFile, MediaType: "application/json", Data: build},
			{Name: ListingFile, MediaType: "text/plain", Data: []byte(listing)},
		},
		Report: &Report{Tenant: in.Tenant, Containers: lr.Containers, Entries: len(lines), Registers: lr.Registers},
	}
	out.Usage = append(out.Usage, c.Usage...)
	for len(out.Usage) < lr.Stages { // the egress decision's table
		out.Usage = append(out.Usage, placement.StageUsage{Tables: 1})
	}
	for s := range out.Usage {
		out.Usage[s].Containers = lr.Containers // the PHV carries every container through every stage
		// Menshen has no gateways: a condition is part of the keys of the
		// tables it guards, and takes no place of its own.
		out.Usage[s].Gateways = 0
	}
	return out, nil
}

// NewInput is the lowering's input for a compile (no entries), with the
// tenant opts set; it refuses a program Menshen's one pipeline cannot run.
func NewInput(c *backends.Compiled, b backends.Backend, opts backends.Options) (Input, error) {
	tenant, err := strconv.Atoi(opts.Value(b, "tenant"))
	if err != nil {
		return Input{}, fmt.Errorf("option tenant: %w", err)
	}
	if err := c.V1Model("Menshen"); err != nil {
		return Input{}, err
	}
	if c.Egress != nil && len(c.Egress.Nodes) > 0 {
		return Input{}, errorAt(c.Egress.Nodes[0].Span, "control %s has tables or statements; Menshen's one pipeline runs the ingress control (move them there)", c.Egress.Control.Name)
	}
	return Input{Compiled: *c, Tenant: tenant}, nil
}

// buildFile writes menshen.json, with the file and include folders made
// absolute so that a later `p4hls sim` from elsewhere finds them.
func buildFile(src backends.Source, tenant int, registers map[string]Cell) ([]byte, error) {
	abs, err := filepath.Abs(src.File)
	if err != nil {
		return nil, err
	}
	var includes []string
	for _, d := range src.IncludeDirs {
		a, err := filepath.Abs(d)
		if err != nil {
			return nil, err
		}
		includes = append(includes, a)
	}
	sum := sha256.Sum256(src.Text)
	b := Build{File: abs, SHA256: hex.EncodeToString(sum[:]), IncludeDirs: includes, Defines: src.Defines,
		NoTransform: src.NoTransform, Solver: src.Solver, Alloc: src.AllocMode.String(), Tenant: tenant, Registers: registers}
	data, err := json.MarshalIndent(b, "", "  ")
	return append(data, '\n'), err
}

// Verify runs packets random frames that Menshen admits, with 16 random
// entries in every table, through the interpreter and through the
// configured model, and compares every output and register.
func (b Backend) Verify(_ context.Context, c *backends.Compiled, _ *backends.Output, opts backends.Options, packets int) error {
	in, err := NewInput(c, b, opts)
	if err != nil {
		return err
	}
	d, err := Check(in, packets, 1)
	switch {
	case err != nil:
		return fmt.Errorf("verifying on the Menshen model: %w", err)
	case d != nil:
		return fmt.Errorf("%w: the Menshen configuration disagrees with the program: %v\n%s", backends.ErrInternal, d, d.STF(c.Program))
	}
	return nil
}

// Check runs packets random frames that Menshen admits, with 16 random
// entries in every table, through the interpreter and through the
// configured model (fresh ones), and compares every output and register.
// It returns the divergence, minimized, or nil. The entries are ones
// Menshen can hold: a table's share one mask (the first entry's prefix
// length or mask), and egress ports are below 256 (or 511, drop).
func Check(in Input, packets int, seed int64) (*interp.Divergence, error) {
	prog := in.Program
	gen := interp.NewGenerator(prog, seed)
	c := gen.Case(0, 16, 0)
	oneMask(c.Entries)
	eightBitPorts(prog, c.Entries)
	in.Entries = c.Entries
	if _, err := Lower(in); err != nil {
		return nil, fmt.Errorf("with random entries: %w", err)
	}
	in.Entries = nil
	for tries := 0; len(c.Packets) < packets && tries < 4*packets; tries++ {
		data := gen.Packet()
		if len(data) > 12 && Admitted(Tag(data, in.Tenant)) {
			c.Packets = append(c.Packets, interp.PacketIn{Data: data})
		}
	}
	if len(c.Packets) < packets {
		return nil, fmt.Errorf("only %d of %d random frames are IPv4/UDP, which Menshen admits", len(c.Packets), 4*packets)
	}
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	model := func() (interp.Target, error) { return NewMachine(in), nil }
	return interp.Diff(ref, model, c, interp.RegisterCells(prog))
}

// oneMask gives every entry of a table its first entry's LPM prefix
// length and ternary mask.
func oneMask(entries []interp.TableEntry) {
	first := map[string]interp.Entry{}
	for i := range entries {
		e := &entries[i].Entry
		f, ok := first[entries[i].Table]
		if !ok {
			first[entries[i].Table] = *e
			continue
		}
		for k := range e.Keys {
			switch m := &e.Keys[k]; m.Kind {
			case interp.MatchLPM:
				m.PrefixLen = f.Keys[k].PrefixLen
			case interp.MatchTernary:
				m.Mask = f.Keys[k].Mask
			}
		}
	}
}

// eightBitPorts keeps the action data that an action assigns to the
// egress port below 256 (or at 511, v1model's drop): Menshen's ports are
// 8 bits.
func eightBitPorts(prog *ir.Program, entries []interp.TableEntry) {
	ports := map[string][]int{} // action name -> data indexes that are ports
	for _, c := range prog.Controls {
		for _, a := range c.Actions {
			for i, p := range a.Data() {
				for _, st := range a.Body {
					as, ok := st.(*ir.Assign)
					if !ok || !strings.HasSuffix(ir.Format(as.LHS), ".egress_spec") {
						continue
					}
					rhs := as.RHS
					if c, ok := rhs.(*ir.Cast); ok {
						rhs = c.X
					}
					if v, ok := rhs.(*ir.VarRef); ok && v.Var == p {
						ports[a.Name] = append(ports[a.Name], i)
					}
				}
			}
		}
	}
	for _, te := range entries {
		for _, i := range ports[te.Entry.Action] {
			if d := te.Entry.Data[i]; d.Int64() != 511 && d.Int64() > 255 {
				d.And(d, big.NewInt(255))
			}
		}
	}
}
