package interp

import (
	"errors"
	"fmt"
	"maps"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// PreconditionError is a packet on which an assume(C) or assert(C) of
// the program does not hold where it is reached. BMv2 stops on it; for
// p4hls the condition is what the programmer says every packet meets,
// and a compiled program need be right only on those (synth's
// preconditions), so differential tests draw only packets that meet it.
type PreconditionError struct {
	Span diag.Span
	Kind string // "assume" or "assert"
}

func (e *PreconditionError) Error() string { return fmt.Sprintf("%s: %s failed", e.Span, e.Kind) }

// HasPreconditions reports whether a program states assume or assert
// anywhere in its controls, actions or functions.
func HasPreconditions(prog *ir.Program) bool {
	var stmts func([]ir.Stmt) bool
	stmts = func(ss []ir.Stmt) bool {
		for _, st := range ss {
			switch st := st.(type) {
			case *ir.CallStmt:
				if e := st.Call.Callee.Extern; e == "assume" || e == "assert" {
					return true
				}
			case *ir.If:
				if stmts(st.Then) || stmts(st.Else) {
					return true
				}
			case *ir.Block:
				if stmts(st.Body) {
					return true
				}
			case *ir.SwitchAction:
				for _, c := range st.Cases {
					if stmts(c.Body) {
						return true
					}
				}
			case *ir.Switch:
				for _, c := range st.Cases {
					if stmts(c.Body) {
						return true
					}
				}
			case *ir.For:
				if stmts(st.Body) {
					return true
				}
			}
		}
		return false
	}
	actions := func(as []*ir.Action) bool {
		for _, a := range as {
			if stmts(a.Body) {
				return true
			}
		}
		return false
	}
	if actions(prog.Actions) {
		return true
	}
	for _, f := range prog.Functions {
		if stmts(f.Body) {
			return true
		}
	}
	for _, c := range prog.Controls {
		if actions(c.Actions) || stmts(c.Body) {
			return true
		}
	}
	return false
}

// maxDraws bounds the packets drawn for one place of a case whose
// program states preconditions.
const maxDraws = 64

// meetsPreconditions returns a filter that runs each packet it is given
// on the program, from the case's state and the packets it accepted
// before, and accepts it when no assume or assert fails; a packet it
// refuses leaves the state as it was. It returns nil when the program
// states no precondition (every packet is fine).
func (g *Generator) meetsPreconditions(c *Case) func(PacketIn) bool {
	if !HasPreconditions(g.prog) {
		return nil
	}
	sw, err := New(g.prog, Options{})
	if err != nil {
		return nil // the differential test reports it
	}
	for _, e := range c.Entries {
		if sw.AddEntry(e.Table, e.Entry) != nil {
			return nil
		}
	}
	for _, r := range c.Registers {
		if sw.RegisterWrite(r.Register, r.Index, r.Value) != nil {
			return nil
		}
	}
	return func(p PacketIn) bool {
		saved := sw.saveState()
		_, err := sw.Process(p.Port, p.Data)
		var pre *PreconditionError
		if errors.As(err, &pre) {
			sw.restoreState(saved)
			return false
		}
		return true
	}
}

// switchState is what a packet changes in a switch: register cells,
// counters and the digests sent.
type switchState struct {
	registers map[*ir.Instance][]Value
	counters  map[*ir.Instance][]Counter
	digests   int
}

func (sw *Switch) saveState() switchState {
	s := switchState{registers: map[*ir.Instance][]Value{}, counters: map[*ir.Instance][]Counter{}, digests: len(sw.Digests)}
	for inst, vals := range sw.registers {
		cp := make([]Value, len(vals))
		for i, v := range vals {
			cp[i] = copyValue(v)
		}
		s.registers[inst] = cp
	}
	for inst, cs := range sw.counters {
		s.counters[inst] = append([]Counter(nil), cs...)
	}
	return s
}

func (sw *Switch) restoreState(s switchState) {
	maps.Copy(sw.registers, s.registers)
	maps.Copy(sw.counters, s.counters)
	sw.Digests = sw.Digests[:s.digests]
}
