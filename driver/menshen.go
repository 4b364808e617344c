package driver

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen/lower"
	"github.com/p4hls/p4hls/synth"
)

// MenshenTenant is the VLAN ID p4hls gives a program on Menshen.
const MenshenTenant = 1

// MenshenOutput is what the Menshen backend produced.
type MenshenOutput struct {
	// Lines is the configuration in the text form, one entry per line.
	Lines []string
	// Lowered says where the program's fields and registers went.
	Lowered *lower.Result
}

// MenshenReport is report.json's "menshen".
type MenshenReport struct {
	Tenant     int                   `json:"tenant"`
	Containers int                   `json:"containers"`
	Entries    int                   `json:"config_entries"`
	Registers  map[string]lower.Cell `json:"registers"`
}

// menshenBackend lowers the compiled program (with no table entries: a
// packet test or the control plane brings those) to its configuration.
func menshenBackend(res *Result, progress Progress) error {
	start := time.Now()
	defer func() { res.Report.Phases["backend"] = time.Since(start).Seconds() }()
	progress("backend", "menshen configuration")
	in, err := MenshenInput(res, nil)
	if err != nil {
		return err
	}
	if err := egressEmpty(res, "Menshen's one pipeline runs the ingress control"); err != nil {
		return err
	}
	lr, err := lower.Lower(in)
	var le *backends.Error
	switch {
	case errors.As(err, &le):
		return &DoesNotFitError{err}
	case err != nil:
		return fmt.Errorf("menshen: %w", err)
	}
	lines, err := lr.Config.Lines()
	if err != nil {
		return &DoesNotFitError{fmt.Errorf("menshen: %w", err)}
	}
	res.Menshen = &MenshenOutput{Lines: lines, Lowered: lr}
	res.Report.Menshen = &MenshenReport{Tenant: MenshenTenant, Containers: lr.Containers, Entries: len(lines), Registers: lr.Registers}
	for res.Report.Stages < lr.Stages { // the egress decision's table
		res.Report.PerStage = append(res.Report.PerStage, StageUsage{Tables: 1})
		res.Report.Stages++
	}
	for s := range res.Report.PerStage {
		res.Report.PerStage[s].Containers = lr.Containers // the PHV carries every container through every stage
	}
	return nil
}

// MenshenInput is what the Menshen lowering needs from a compile for the
// menshen target, with the entries to install.
func MenshenInput(res *Result, entries []interp.TableEntry) (lower.Input, error) {
	c, err := compiled(res, "Menshen")
	return lower.Input{Compiled: c, Entries: entries, Tenant: MenshenTenant}, err
}

// compiled is what every backend takes from a compile of a v1model
// program (backend names the target in the error); a backend that runs
// the ingress control alone refuses the rest (egressEmpty).
func compiled(res *Result, backend string) (backends.Compiled, error) {
	if res.analysis == nil || res.Placement == nil || res.TransformedProgram == nil {
		return backends.Compiled{}, fmt.Errorf("the compile did not reach allocation")
	}
	prog := res.TransformedProgram
	if len(prog.Pipeline) != 6 || prog.Arch != "v1model" {
		return backends.Compiled{}, &DoesNotFitError{fmt.Errorf("the %s backend takes v1model programs", backend)}
	}
	c := backends.Compiled{Program: prog, Placement: res.Placement, Graphs: map[string]*synth.Graph{}}
	base := 0
	for _, cg := range res.analysis.Controls {
		switch cg.Control {
		case prog.Pipeline[2].Control:
			c.Ingress, c.Base = cg, base
		case prog.Pipeline[3].Control:
			c.Egress, c.EgressBase = cg, base
		}
		base += len(cg.Nodes)
	}
	if c.Ingress == nil {
		return backends.Compiled{}, fmt.Errorf("no ingress control")
	}
	for _, g := range res.Graphs {
		c.Graphs[g.Action.Name] = g
	}
	return c, nil
}

// VerifyMenshen runs packets random frames that Menshen admits, with 16
// random entries in every table, through the interpreter and through the
// configured model (fresh ones), and compares every output and register.
// It returns the divergence, minimized, or nil. The entries are ones
// Menshen can hold: a table's share one mask (the first entry's prefix
// length or mask), and egress ports are below 256 (or 511, drop).
func VerifyMenshen(res *Result, packets int, seed int64) (*interp.Divergence, error) {
	in, err := MenshenInput(res, nil)
	if err != nil {
		return nil, err
	}
	prog := res.TransformedProgram
	gen := interp.NewGenerator(prog, seed)
	c := gen.Case(0, 16, 0)
	oneMask(c.Entries)
	eightBitPorts(prog, c.Entries)
	in.Entries = c.Entries
	if _, err := lower.Lower(in); err != nil {
		return nil, &DoesNotFitError{fmt.Errorf("with random entries: %w", err)}
	}
	in.Entries = nil
	for tries := 0; len(c.Packets) < packets && tries < 4*packets; tries++ {
		data := gen.Packet()
		if len(data) > 12 && lower.Admitted(lower.Tag(data, MenshenTenant)) {
			c.Packets = append(c.Packets, interp.PacketIn{Data: data})
		}
	}
	if len(c.Packets) < packets {
		return nil, fmt.Errorf("only %d of %d random frames are IPv4/UDP, which Menshen admits", len(c.Packets), 4*packets)
	}
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	model := func() (interp.Target, error) { return lower.NewMachine(in), nil }
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

// egressEmpty refuses a program whose controls other than the ingress
// (the egress) have tables or statements (why says why they cannot run).
func egressEmpty(res *Result, why string) error {
	for _, cg := range res.analysis.Controls {
		if cg.Control != res.TransformedProgram.Pipeline[2].Control && len(cg.Nodes) > 0 {
			return &DoesNotFitError{fmt.Errorf("control %s has tables or statements; %s", cg.Control.Name, why)}
		}
	}
	return nil
}
