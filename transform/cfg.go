package transform

import (
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// NodeKind says what a control-flow node costs the hardware.
type NodeKind int

const (
	// TableNode is a match-action table application.
	TableNode NodeKind = iota
	// GatewayNode is an if condition (or a switch on a value) that the
	// hardware evaluates in a gateway.
	GatewayNode
	// DefaultNode is a run of statements outside tables, which a P4
	// compiler puts in a keyless table of its own (p4c's default tables).
	DefaultNode
)

func (k NodeKind) String() string { return [...]string{"table", "gateway", "default table"}[k] }

// Node is one node of a control's control-flow graph.
type Node struct {
	Kind NodeKind
	// Table is the table a TableNode applies.
	Table *ir.Table
	// Stmts are a DefaultNode's statements, or a GatewayNode's one If or
	// Switch.
	Stmts []ir.Stmt
	Span  diag.Span
	// Order is the node's place in program order, from 0: every
	// dependency goes from a smaller Order to a larger one.
	Order int
	// Parent is the gateway or table whose outcome decides whether the
	// node runs (nil at the top of the apply block).
	Parent *Node
	// path is the conjunction of the branch conditions that lead here:
	// the innermost, whose up pointers lead out (nil at the top of the
	// apply block).
	path *branch
	// match is what the node's lookup reads (a table's keys, a gateway's
	// condition); eff is what its actions read and write.
	match []loc
	eff   effects
}

// cond is one branch condition on a path: expr holds (or does not, when
// neg), or, for a case of switch (t.apply().action_run), table run ran
// one of actions (one of none of others, for the default case).
type cond struct {
	expr ir.Expr
	neg  bool
	run  *actionRun
	// at is the Order of the node that evaluates the condition; reads are
	// the locations it reads.
	at    int
	reads []loc
	// first is the Order of the first node of the branch the condition
	// leads into: the nodes from at+1 to first-1 are in the earlier
	// branches of the same gateway, which no packet runs with this one.
	first int
}

// branch is one condition of a path and the path it extends. Paths share
// their prefixes: copied, the paths of an else-if chain of n arms would
// hold n²/2 conditions (gigabytes at 10,000 arms).
type branch struct {
	cond
	up    *branch
	depth int
}

// conds lists the conditions of the path that ends at b, outermost
// first.
func (b *branch) conds() []cond {
	if b == nil {
		return nil
	}
	out := make([]cond, b.depth)
	for x := b; x != nil; x = x.up {
		out[x.depth-1] = x.cond
	}
	return out
}

func (b *branch) len() int {
	if b == nil {
		return 0
	}
	return b.depth
}

// actionRun is a case of a switch on the action a table ran.
type actionRun struct {
	table   *ir.Table
	actions []*ir.Action
	// others are the labels of the switch's other cases, for a default
	// case (which runs when none of them ran).
	others []*ir.Action
	dflt   bool
}

// graph builds a control's nodes.
type graph struct {
	nodes []*Node
	scope scope
}

func buildGraph(c *ir.Control, names *namer) *graph {
	g := &graph{scope: scope{names: names}}
	g.stmts(c.Body, nil, nil)
	return g
}

func (g *graph) add(n *Node, path *branch, parent *Node) *Node {
	n.Order = len(g.nodes)
	n.path = path
	n.Parent = parent
	g.nodes = append(g.nodes, n)
	return n
}

// with returns path extended by c, the condition of a branch whose
// first node is the next one added.
func (g *graph) with(path *branch, c cond) *branch {
	c.first = len(g.nodes)
	return &branch{cond: c, up: path, depth: path.len() + 1}
}

func (g *graph) stmts(ss []ir.Stmt, path *branch, parent *Node) {
	var run []ir.Stmt
	flush := func() {
		if len(run) > 0 {
			g.add(&Node{Kind: DefaultNode, Stmts: run, Span: run[0].Span().Join(run[len(run)-1].Span()), eff: g.scope.stmts(run)}, path, parent)
			run = nil
		}
	}
	for _, st := range ss {
		switch st := st.(type) {
		case *ir.If:
			flush()
			g.ifStmt(st, path, parent)
		case *ir.ApplyTable:
			flush()
			g.table(st.Table, st.Span(), path, parent)
		case *ir.SwitchAction:
			flush()
			g.switchAction(st, path, parent)
		case *ir.Switch:
			flush()
			g.switchValue(st, path, parent)
		case *ir.Block:
			if st.Atomic {
				run = append(run, st)
				continue
			}
			flush()
			g.stmts(st.Body, path, parent)
		case *ir.CallAction:
			// A call of an action synthesis maps is a keyless table of its
			// own, as p4c makes a direct call: its ALUs need stages, which
			// placement gives a table's actions.
			if st.Call.Action.Synthesized() {
				flush()
				run = append(run, st)
				flush()
				continue
			}
			run = append(run, st)
		default:
			run = append(run, st)
		}
	}
	flush()
}

func (g *graph) table(t *ir.Table, sp diag.Span, path *branch, parent *Node) *Node {
	return g.add(&Node{Kind: TableNode, Table: t, Span: sp, match: g.scope.keys(t), eff: g.scope.table(t)}, path, parent)
}

// ifStmt adds an if: the tables its condition applies, a gateway unless
// the condition only tests whether a table hit (the table's next-table
// choice does that), and its branches.
func (g *graph) ifStmt(st *ir.If, path *branch, parent *Node) {
	for _, h := range tableHits(st.Cond) {
		parent = g.table(h.Table, h.Span(), path, parent)
	}
	at := parent
	if ir.HitTest(st.Cond) == nil {
		ev := g.scope.expr(st.Cond)
		at = g.add(&Node{Kind: GatewayNode, Stmts: []ir.Stmt{st}, Span: st.Cond.Span(), match: ev.reads,
			eff: effects{writes: ev.writes}}, path, parent)
	}
	c := cond{expr: st.Cond, at: at.Order, reads: g.scope.expr(st.Cond).reads}
	g.stmts(st.Then, g.with(path, c), at)
	c.neg = true
	g.stmts(st.Else, g.with(path, c), at)
}

func (g *graph) switchAction(st *ir.SwitchAction, path *branch, parent *Node) {
	t := g.table(st.Table, st.Span(), path, parent)
	var labels []*ir.Action
	for _, c := range st.Cases {
		labels = append(labels, c.Actions...)
	}
	for _, c := range st.Cases {
		r := &actionRun{table: st.Table, actions: c.Actions, dflt: c.Default}
		if c.Default {
			r.others = labels
		}
		g.stmts(c.Body, g.with(path, cond{run: r, at: t.Order, reads: []loc{hitLoc(st.Table)}}), t)
	}
}

// switchValue adds a switch on a value as a gateway whose cases are
// conditions X == v1 || X == v2 ... (the default case: none of the labels).
func (g *graph) switchValue(st *ir.Switch, path *branch, parent *Node) {
	ev := g.scope.expr(st.X)
	gw := g.add(&Node{Kind: GatewayNode, Stmts: []ir.Stmt{st}, Span: st.X.Span(), match: ev.reads, eff: effects{writes: ev.writes}}, path, parent)
	var all []ir.Expr
	for _, c := range st.Cases {
		all = append(all, c.Values...)
	}
	for _, c := range st.Cases {
		e, neg := anyEqual(st.X, c.Values), false
		if c.Default {
			e, neg = anyEqual(st.X, all), true
		}
		g.stmts(c.Body, g.with(path, cond{expr: e, neg: neg, at: gw.Order, reads: ev.reads}), gw)
	}
}

// anyEqual is x == v1 || x == v2 || ... (false for no values).
func anyEqual(x ir.Expr, values []ir.Expr) ir.Expr {
	var out ir.Expr = ir.BoolConst(false, x.Span())
	for i, v := range values {
		eq := &ir.Binary{Pos: ir.Pos{Sp: v.Span()}, Op: ir.Eq, X: x, Y: v, T: ir.Bool{}}
		if i == 0 {
			out = eq
		} else {
			out = &ir.Binary{Pos: ir.Pos{Sp: v.Span()}, Op: ir.LOr, X: out, Y: eq, T: ir.Bool{}}
		}
	}
	return out
}

// tableHits lists the table applications inside a condition, in
// evaluation order.
func tableHits(e ir.Expr) []*ir.TableHit {
	var out []*ir.TableHit
	var walk func(ir.Expr)
	walk = func(e ir.Expr) {
		switch e := e.(type) {
		case *ir.TableHit:
			out = append(out, e)
		case *ir.Unary:
			walk(e.X)
		case *ir.Binary:
			walk(e.X)
			walk(e.Y)
		case *ir.Cond:
			walk(e.C)
			walk(e.Then)
			walk(e.Else)
		}
	}
	walk(e)
	return out
}
