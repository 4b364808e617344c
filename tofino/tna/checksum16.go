package tna

import (
	"fmt"
	"slices"

	"github.com/p4hls/p4hls/ir"
)

// v1model's Checksum16 extern computes the Internet checksum of fields in
// the ingress; a Tofino control has no checksum unit, only the parser and
// the deparser do. So F = ck.get(L) is computed by the ingress deparser,
// over the same fields, when the deparser sees what the call saw: the
// call is the last statement of the ingress's apply block, the egress
// does nothing, and F and L are header fields.

// deparserSum is one Checksum16 call, moved to the ingress deparser.
type deparserSum struct {
	stmt      *ir.Assign
	dst, data ir.Expr
}

// moved reports whether s is a Checksum16 call the ingress deparser
// computes (planChecksum16 took it).
func (e *emitter) moved(s *ir.Assign) bool {
	for _, sum := range e.sums {
		if sum.stmt == s {
			return true
		}
	}
	return false
}

// checksum16Call reports whether s is F = ck.get(L) for a Checksum16
// instance.
func checksum16Call(s ir.Stmt) (*ir.Assign, bool) {
	a, ok := s.(*ir.Assign)
	if !ok {
		return nil, false
	}
	c, ok := a.RHS.(*ir.Call)
	if !ok || c.Callee.Method != "get" || len(c.Args) != 1 {
		return nil, false
	}
	ref, ok := c.Callee.Recv.(*ir.InstanceRef)
	return a, ok && ref.Inst.Type.Name == "Checksum16"
}

// planChecksum16 finds the ingress's Checksum16 calls and refuses those
// the deparser cannot compute as the ingress would.
func (e *emitter) planChecksum16() error {
	body := e.ingress.Body
	hdr := e.ingress.Params[0].Name
	var err error
	for i, s := range body {
		a, ok := checksum16Call(s)
		if !ok {
			continue
		}
		switch {
		case i != len(body)-1:
			err = errorAt(s.Span(), "%s: the Tofino backend computes a Checksum16 in the ingress deparser, so the call must be the ingress's last statement", stmtWithoutSemicolon(s))
		case e.bridge != nil:
			err = errorAt(s.Span(), "%s: the Tofino backend computes a Checksum16 in the ingress deparser, which runs before the egress; the egress must do nothing", stmtWithoutSemicolon(s))
		case !rootedAt(a.LHS, hdr) || !rootedAt(a.RHS.(*ir.Call).Args[0].Value, hdr):
			err = errorAt(s.Span(), "%s: the Tofino backend computes a Checksum16 in the ingress deparser, which sees the headers only", stmtWithoutSemicolon(s))
		}
		if err != nil {
			return err
		}
		e.sums = append(e.sums, deparserSum{stmt: a, dst: a.LHS, data: a.RHS.(*ir.Call).Args[0].Value})
	}
	var nested ir.Stmt
	visit := func(ss []ir.Stmt, top bool) {
		eachStmt(ss, func(s ir.Stmt) {
			if _, ok := checksum16Call(s); ok && nested == nil && !(top && slices.Contains(body, s)) {
				nested = s
			}
		})
	}
	visit(body, true)
	for _, a := range e.ingress.Actions {
		visit(a.Body, false)
	}
	if nested != nil {
		return errorAt(nested.Span(), "%s: the Tofino backend computes a Checksum16 in the ingress deparser, so the call must be a statement of the ingress's apply block, its last", stmtWithoutSemicolon(nested))
	}
	return nil
}

// deparserSums are the Checksum16 calls as the ingress deparser computes
// them, over its headers hdr, and their units.
func (e *emitter) deparserSums(hdr *ir.Var) ([]ir.Stmt, []*ir.Instance) {
	var out []ir.Stmt
	var units []*ir.Instance
	from := e.ingress.Params[0].Name
	for i, s := range e.sums {
		unit := &ir.Instance{Name: fmt.Sprintf("p4hls_sum%d", i), Type: &ir.Extern{Name: "Checksum"}}
		units = append(units, unit)
		sum := &ir.Call{Callee: ir.Callee{Recv: &ir.InstanceRef{Inst: unit}, Method: "update"},
			Args: []*ir.Arg{{Value: renameRoot(s.data, from, hdr)}}, T: s.dst.Type()}
		out = append(out, &ir.Assign{LHS: renameRoot(s.dst, from, hdr), RHS: sum})
	}
	return out, units
}

// rootedAt reports whether every variable x reads is the one named v.
func rootedAt(x ir.Expr, v string) bool {
	ok := true
	renameRootFunc(x, func(r *ir.VarRef) ir.Expr {
		ok = ok && r.Var.Name == v
		return r
	})
	return ok
}

// renameRoot is x with the variable named from read from to instead.
func renameRoot(x ir.Expr, from string, to *ir.Var) ir.Expr {
	return renameRootFunc(x, func(r *ir.VarRef) ir.Expr {
		if r.Var.Name == from {
			return &ir.VarRef{Pos: r.Pos, Var: to}
		}
		return r
	})
}

// renameRootFunc copies x with each variable reference replaced by what
// fn returns for it.
func renameRootFunc(x ir.Expr, fn func(*ir.VarRef) ir.Expr) ir.Expr {
	return mapExpr(x, func(y ir.Expr) ir.Expr {
		if r, ok := y.(*ir.VarRef); ok {
			return fn(r)
		}
		return y
	})
}

// mapExpr copies x bottom up, each node replaced by what fn returns for
// it (its operands already mapped).
func mapExpr(x ir.Expr, fn func(ir.Expr) ir.Expr) ir.Expr {
	rec := func(y ir.Expr) ir.Expr { return mapExpr(y, fn) }
	switch x := x.(type) {
	case *ir.Member:
		c := *x
		c.X = rec(x.X)
		return fn(&c)
	case *ir.StackElem:
		c := *x
		c.X, c.Index = rec(x.X), rec(x.Index)
		return fn(&c)
	case *ir.Slice:
		c := *x
		c.X = rec(x.X)
		return fn(&c)
	case *ir.Unary:
		c := *x
		c.X = rec(x.X)
		return fn(&c)
	case *ir.Binary:
		c := *x
		c.X, c.Y = rec(x.X), rec(x.Y)
		return fn(&c)
	case *ir.Cast:
		c := *x
		c.X = rec(x.X)
		return fn(&c)
	case *ir.IsValid:
		c := *x
		c.X = rec(x.X)
		return fn(&c)
	case *ir.StackOp:
		c := *x
		c.X = rec(x.X)
		return fn(&c)
	case *ir.Cond:
		c := *x
		c.C, c.Then, c.Else = rec(x.C), rec(x.Then), rec(x.Else)
		return fn(&c)
	case *ir.List:
		c := *x
		c.Elems = nil
		for _, el := range x.Elems {
			c.Elems = append(c.Elems, rec(el))
		}
		return fn(&c)
	case nil:
		return nil
	}
	return fn(x)
}
