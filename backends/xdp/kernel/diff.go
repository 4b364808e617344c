package kernel

import (
	"fmt"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
)

// Case returns a random case for the program as the kernel can take it:
// interp's generator's, with what a P4Runtime control plane could not
// send the xdp target left out or made so (no entries for tables without
// keys, no priorities in tables of exact and lpm keys,
// where P4Runtime has none) and packets at least an Ethernet header long.
func Case(prog *ir.Program, layout Layout, seed int64, packets, entriesPerTable, registerCells int) *interp.Case {
	g := interp.NewGenerator(prog, seed)
	c := g.Case(packets, entriesPerTable, registerCells)
	kinds := map[string]string{}
	for _, t := range layout.Tables {
		kinds[t.Name] = t.Kind
	}
	var entries []interp.TableEntry
	for _, e := range c.Entries {
		switch kinds[e.Table] {
		case TableKeyless:
			continue
		case TableExact, TableLPM:
			e.Entry.Priority = 0
		}
		entries = append(entries, e)
	}
	c.Entries = entries
	for i, p := range c.Packets {
		for len(p.Data) < minPacket {
			p.Data = append(p.Data, byte(len(p.Data)*37+i))
		}
		c.Packets[i] = p
	}
	return c
}

// Diff runs a random case of packets packets on the interpreter and on the
// kernel and returns where they first disagree (nil when they agree): the
// verdict (drop or send), the egress port, the bytes out, and then every
// register cell.
func Diff(prog *ir.Program, obj []byte, layout Layout, seed int64, packets int) (*interp.Divergence, error) {
	c := Case(prog, layout, seed, packets, 4, 4)
	var loaded []*Machine
	defer func() {
		for _, m := range loaded {
			m.Close()
		}
	}()
	newInterp := func() (interp.Target, error) { return interp.New(prog, interp.Options{Seed: seed}) }
	newKernel := func() (interp.Target, error) {
		m, err := Load(obj, layout, prog)
		if err != nil {
			return nil, err
		}
		loaded = append(loaded, m)
		return m, nil
	}
	d, err := interp.Diff(newInterp, newKernel, c, interp.RegisterCells(prog))
	if err != nil {
		return nil, fmt.Errorf("differential run: %w", err)
	}
	return d, nil
}
