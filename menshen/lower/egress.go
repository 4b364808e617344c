package lower

import (
	"fmt"
	"sort"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/transform"
)

// The egress decision. In v1model the last write to egress_spec decides:
// 511 drops, anything else is the port. Menshen's metadata ALU sets the
// port or the discard flag, one per stage, and a port does not clear an
// earlier discard (FORMAT.md §A.13). When a table may set the port after
// an earlier one dropped the packet, the writes go to the port's
// container only, and a table after the last of them matches it: 511
// discards, any other value sets the port.

// portAfterDrop finds whether a node may set the egress port after an
// earlier node dropped the packet; then it defers the decision.
func (l *lowering) portAfterDrop() error {
	dropped := false
	var std ir.Expr
	for _, n := range l.in.Ingress.Nodes {
		var bodies [][]ir.Stmt
		if n.Kind == transform.TableNode {
			for _, a := range n.Actions() {
				bodies = append(bodies, a.Body)
			}
		} else if n.Kind == transform.DefaultNode {
			bodies = append(bodies, n.Stmts)
		}
		drops := false
		for _, b := range bodies {
			d, port, s := egressWrites(b)
			drops = drops || d
			if s != nil {
				std = s
			}
			if port && dropped {
				l.deferPort = true
			}
		}
		dropped = dropped || drops
	}
	if !l.deferPort {
		return nil
	}
	_, err := l.cs.place(&ir.Member{X: std, Name: "egress_spec", T: &ir.Bits{Width: 9}})
	return err
}

// egressWrites reports whether statements drop the packet or set the
// egress port, and the standard metadata they name.
func egressWrites(body []ir.Stmt) (drops, port bool, std ir.Expr) {
	for _, s := range body {
		switch s := s.(type) {
		case *ir.CallStmt:
			if s.Call.Callee.Extern == "mark_to_drop" && len(s.Call.Args) == 1 {
				drops, std = true, s.Call.Args[0].Value
			}
		case *ir.Assign:
			if f, ok := stdField(s.LHS); ok && f == "egress_spec" {
				port, std = true, s.LHS.(*ir.Member).X
			}
		case *ir.CallAction:
			d, p, st := egressWrites(s.Call.Action.Body)
			drops, port = drops || d, port || p
			if st != nil {
				std = st
			}
		}
	}
	return drops, port, std
}

// egressTable adds the table that decides: it matches the port's
// container in the stage after the last that writes it, with an entry
// for every value the configuration writes there.
func (l *lowering) egressTable() error {
	var p *place
	for _, q := range l.cs.fields {
		if f, ok := stdField(l.cs.exprs[q.field]); ok && f == "egress_spec" {
			p = q
		}
	}
	if p == nil || l.portStage < 0 {
		return nil
	}
	c := p.chunks[0].container
	values := map[uint32]bool{}
	for _, tb := range l.tables {
		for _, a := range tb.Actions {
			if s, ok := a.Slots[c]; ok && s.Opcode == 0x0E {
				values[s.Imm>>uint(p.shift())] = true
			}
		}
	}
	s := l.portStage + 1
	if s >= 6 || l.subUnits[s] >= 8 {
		return fmt.Errorf("the program may set the egress port after dropping the packet; Menshen decides between them in a table after the last that sets the port, and stage %d has no room for it", s)
	}
	tb := menshen.Table{Stage: s, Sub: l.subUnits[s], Key: []int{c}, Ignore: []uint32{^(uint32(1<<9-1) << uint(p.shift()))}}
	notes := menshen.TableNotes{Name: "the egress decision, after the last table that sets " + p.field}
	l.subUnits[s]++
	var sorted []uint32
	for v := range values {
		sorted = append(sorted, v)
	}
	sort.Slice(sorted, func(i, j int) bool { return sorted[i] < sorted[j] })
	for _, v := range sorted {
		var a menshen.Action
		what := fmt.Sprintf("port %d (the RTL's port %d)", v, v^portXor)
		switch {
		case v == 0:
			continue // the default port: nothing to do
		case v == dropPort:
			a.Discard, what = true, "drop"
		case v > 255:
			return fmt.Errorf("egress port %d: Menshen's ports are 8 bits", v)
		default:
			port := uint8(v) ^ portXor
			a.Port = &port
		}
		tb.Entries = append(tb.Entries, menshen.Entry{Key: []uint32{v << uint(p.shift())}, Action: len(tb.Actions)})
		tb.Actions = append(tb.Actions, a)
		notes.Entries = append(notes.Entries, fmt.Sprintf("%s == %d", p.field, v))
		notes.Actions = append(notes.Actions, what)
	}
	l.tables = append(l.tables, tb)
	l.tableNotes[menshen.SubUnit{Stage: tb.Stage, Sub: tb.Sub}] = notes
	return nil
}
