package transform

import (
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// Condition is one branch condition on the path to a node, for a
// backend that has no gateways and folds conditions into the keys of the
// tables they guard.
type Condition struct {
	// Expr holds (or does not, when Neg). It is nil for a case of a
	// switch on the action a table ran.
	Expr ir.Expr
	Neg  bool
	Span diag.Span
	// Changed is set when a node between the condition and the node it
	// guards may write what the condition reads: evaluated again at the
	// guarded node, the condition could give another answer.
	Changed bool
}

// Path returns the conditions that lead to n, outermost first.
func (cg *ControlGraph) Path(n *Node) []Condition {
	var out []Condition
	for _, c := range n.path.conds() {
		pc := Condition{Expr: c.expr, Neg: c.neg}
		if c.expr != nil {
			pc.Span = c.expr.Span()
		}
		for _, m := range cg.Nodes {
			if m.Order > c.at && m.Order < n.Order && anyOverlap(m.eff.writes, c.reads) {
				pc.Changed = true
			}
		}
		out = append(out, pc)
	}
	return out
}

// Actions lists the actions a table node may run, in the order
// allocation numbers them: the table's actions, then its default action
// when it is not one of them.
func (n *Node) Actions() []*ir.Action {
	if n.Kind != TableNode {
		return nil
	}
	var out []*ir.Action
	seen := map[*ir.Action]bool{}
	add := func(a *ir.Action) {
		if !seen[a] {
			seen[a] = true
			out = append(out, a)
		}
	}
	for _, r := range n.Table.Actions {
		add(r.Action)
	}
	if n.Table.Default != nil {
		add(n.Table.Default.Action)
	}
	return out
}
