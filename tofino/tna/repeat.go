package tna

import (
	"fmt"

	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/transform"
)

// A table applied more than once (exit_return.p4's steps, applied
// three times) is, on Tofino, a table per application, each pinned to
// its stage: the later applications print as copies named T__2, T__3,
// ..., and each apply statement names its own. A copy holds the table's
// const entries; entries the control plane installs would have to go to
// every copy, which p4hls does not arrange yet, so a repeated table must
// be keyless or have const entries.

// tableNodes returns a control graph's table nodes, a repeated table's
// later applications with a copy of the table, and records which table
// each apply statement names.
func (e *emitter) tableNodes(g *transform.ControlGraph) ([]*transform.Node, error) {
	if g == nil {
		return nil, nil
	}
	count := map[*ir.Table]int{}
	for _, n := range g.Nodes {
		if n.Kind == transform.TableNode {
			count[n.Table]++
		}
	}
	seen := map[*ir.Table]int{}
	var out []*transform.Node
	for _, n := range g.Nodes {
		if a := placement.SynthesizedCall(n); a != nil {
			t, err := e.callTable(n, a)
			if err != nil {
				return nil, err
			}
			nc := *n
			nc.Kind, nc.Table, nc.Stmts = transform.TableNode, t, nil
			e.appliedAs[n.Span] = t
			out = append(out, &nc)
			continue
		}
		if n.Kind != transform.TableNode {
			continue
		}
		t := n.Table
		if count[t] > 1 {
			if len(t.Keys) > 0 && len(t.Entries) == 0 {
				return nil, errorAt(n.Span, "table %s is applied %d times: on Tofino each application is a table of its own, and p4hls does not install control-plane entries into copies yet (const entries or no key would do)", t.Name, count[t])
			}
			seen[t]++
			if seen[t] > 1 {
				c := *t
				c.Name = fmt.Sprintf("%s__%d", t.Name, seen[t])
				nc := *n
				nc.Table = &c
				n = &nc
			}
		}
		e.appliedAs[n.Span] = n.Table
		out = append(out, n)
	}
	return out, nil
}

// callTable is the keyless table that runs a direct call of synthesized
// action a (node n), as p4c writes a call in an apply block: the call's
// arguments are its const default action's, so they must be constants.
func (e *emitter) callTable(n *transform.Node, a *ir.Action) (*ir.Table, error) {
	call := n.Stmts[0].(*ir.CallAction).Call
	for _, x := range call.Args {
		if _, ok := x.(*ir.Const); !ok {
			return nil, errorAt(n.Span, "a call of action %s with argument %s: on Tofino the call is a keyless table whose default action it is, and a default action's data must be constants", a.Name, ir.Format(x))
		}
	}
	return &ir.Table{Name: "p4hls_call_" + a.Name, Actions: []*ir.ActionRef{{Action: a}}, Default: &ir.ActionCall{Action: a, Args: call.Args},
		DefaultConst: true, Span: n.Span}, nil
}

// appliedTable is the table an apply statement at sp names in the
// output: the copy of a repeated table for its later applications.
func (e *emitter) appliedTable(sp diag.Span, t *ir.Table) *ir.Table {
	if c, ok := e.appliedAs[sp]; ok {
		return c
	}
	return t
}
