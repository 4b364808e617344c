package driver

import (
	"fmt"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/menshen/lower"
	"github.com/p4hls/p4hls/synth"
)

// MenshenTenant is the VLAN ID p4hls gives a program on Menshen.
const MenshenTenant = 1

// MenshenInput is what the Menshen lowering needs from a compile for the
// menshen target, with the entries to install.
func MenshenInput(res *Result, entries []interp.TableEntry) (lower.Input, error) {
	if res.analysis == nil || res.Placement == nil || res.TransformedProgram == nil {
		return lower.Input{}, fmt.Errorf("the compile did not reach allocation")
	}
	prog := res.TransformedProgram
	if len(prog.Pipeline) != 6 || prog.Arch != "v1model" {
		return lower.Input{}, fmt.Errorf("Menshen runs v1model programs")
	}
	ingress := prog.Pipeline[2].Control
	in := lower.Input{Program: prog, Placement: res.Placement, Graphs: map[string]*synth.Graph{},
		Entries: entries, Tenant: MenshenTenant}
	base := 0
	for _, cg := range res.analysis.Controls {
		switch {
		case cg.Control == ingress:
			in.Ingress, in.Base = cg, base
		case len(cg.Nodes) > 0:
			return lower.Input{}, &DoesNotFitError{fmt.Errorf("control %s has tables or statements; Menshen's one pipeline runs the ingress control", cg.Control.Name)}
		}
		base += len(cg.Nodes)
	}
	if in.Ingress == nil {
		return lower.Input{}, fmt.Errorf("no ingress control")
	}
	for _, g := range res.Graphs {
		in.Graphs[g.Action.Name] = g
	}
	return in, nil
}
