package frontend

import (
	"fmt"

	"github.com/p4hls/p4hls/ir"
)

// hoistTableHits rewrites a control's apply block so that a table is
// applied only where a statement does nothing else with it: t.apply(),
// if (t.apply().hit) (or .miss, or their negation), a switch on its
// action. A table applied inside a larger expression (bool h =
// t.apply().hit; if (x || t.apply().miss) ...) becomes such an if before
// the statement, which then reads a variable set there. The rewrite keeps
// P4's order of evaluation: operands left to right, and && || ?: apply a
// table only when their value depends on it (P4-16 §8.6). The phases
// after the front end place a table by the statement that applies it.
//
// A call of one of the program's functions inside a larger expression
// (x + f(x), c ? f(a) : f(b), a && f(b)) moves before the statement the
// same way, into a variable: the function may write its out and inout
// arguments, and a backend that runs the call before the expression
// around it (xdp inlines it as statements) would otherwise read x after
// f wrote it, or run both arms.
func hoistTableHits(c *ir.Control) {
	h := &hoister{}
	c.Body = h.stmts(c.Body)
	for _, a := range c.Actions {
		a.Body = h.stmts(a.Body)
	}
}

// hoister makes the variables of one control's rewrite.
type hoister struct{ temps int }

func (h *hoister) stmts(ss []ir.Stmt) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range ss {
		out = append(out, h.stmt(s)...)
	}
	return out
}

func (h *hoister) stmt(s ir.Stmt) []ir.Stmt {
	switch s := s.(type) {
	case *ir.Declare:
		pre, init := h.whole(s.Init)
		c := *s
		c.Init = init
		return append(pre, &c)
	case *ir.Assign:
		pre, rhs := h.whole(s.RHS)
		c := *s
		c.RHS = rhs
		return append(pre, &c)
	case *ir.If:
		c := *s
		c.Then, c.Else = h.stmts(s.Then), h.stmts(s.Else)
		if ir.HitTest(s.Cond) != nil { // the phases place it as the table's choice
			return []ir.Stmt{&c}
		}
		pre, cond := h.whole(s.Cond)
		c.Cond = cond
		return append(pre, &c)
	case *ir.Switch:
		pre, x := h.whole(s.X)
		c := *s
		c.X = x
		c.Cases = nil
		for _, k := range s.Cases {
			kc := *k
			kc.Body = h.stmts(k.Body)
			c.Cases = append(c.Cases, &kc)
		}
		return append(pre, &c)
	case *ir.SwitchAction:
		c := *s
		c.Cases = nil
		for _, k := range s.Cases {
			kc := *k
			kc.Body = h.stmts(k.Body)
			c.Cases = append(c.Cases, &kc)
		}
		return []ir.Stmt{&c}
	case *ir.Block:
		c := *s
		c.Body = h.stmts(s.Body)
		return []ir.Stmt{&c}
	}
	return []ir.Stmt{s}
}

// expr returns the statements that apply the tables e applies, and e
// reading their results instead. Expressions of other kinds than these
// are left as they are.
func (h *hoister) expr(e ir.Expr) ([]ir.Stmt, ir.Expr) {
	if !hoisted(e) {
		return nil, e
	}
	switch e := e.(type) {
	case *ir.TableHit:
		v, decl := h.temp(ir.Bool{}, ir.BoolConst(false, e.Span()), e.Pos)
		set := &ir.Assign{Pos: e.Pos, LHS: ref(v, e.Pos), RHS: ir.BoolConst(true, e.Span())}
		return []ir.Stmt{decl, &ir.If{Pos: e.Pos, Cond: e, Then: []ir.Stmt{set}}}, ref(v, e.Pos)
	case *ir.Unary:
		pre, x := h.expr(e.X)
		c := *e
		c.X = x
		return pre, &c
	case *ir.Cast:
		pre, x := h.expr(e.X)
		c := *e
		c.X = x
		return pre, &c
	case *ir.Binary:
		if e.Op == ir.LAnd || e.Op == ir.LOr {
			return h.shortCircuit(e)
		}
		pre, x := h.expr(e.X)
		preY, y := h.expr(e.Y)
		if len(preY) > 0 { // y's tables may change what x reads: x first
			v, decl := h.temp(x.Type(), x, e.Pos)
			pre, x = append(pre, decl), ref(v, e.Pos)
		}
		c := *e
		c.X, c.Y = x, y
		return append(pre, preY...), &c
	case *ir.Call:
		pre, c := h.call(e)
		if e.Callee.Func == nil || e.Callee.Func.Return == nil {
			return pre, c
		}
		v, decl := h.temp(e.Type(), c, e.Pos)
		return append(pre, decl), ref(v, e.Pos)
	case *ir.Cond:
		pre, cond := h.expr(e.C)
		preT, then := h.expr(e.Then)
		preE, els := h.expr(e.Else)
		if len(preT) == 0 && len(preE) == 0 {
			c := *e
			c.C = cond
			return pre, &c
		}
		v, decl := h.temp(e.Type(), nil, e.Pos)
		pick := &ir.If{Pos: e.Pos, Cond: cond,
			Then: append(preT, &ir.Assign{Pos: e.Pos, LHS: ref(v, e.Pos), RHS: then}),
			Else: append(preE, &ir.Assign{Pos: e.Pos, LHS: ref(v, e.Pos), RHS: els})}
		return append(pre, decl, pick), ref(v, e.Pos)
	}
	return nil, e
}

// whole is expr for an expression a statement reads whole: a call of a
// function there stays, with its arguments hoisted, as nothing else in
// the statement is evaluated around it.
func (h *hoister) whole(e ir.Expr) ([]ir.Stmt, ir.Expr) {
	if c, ok := e.(*ir.Call); ok && c.Callee.Func != nil {
		return h.call(c)
	}
	return h.expr(e)
}

// call hoists the arguments of a call whose parameters all read their
// arguments (one that writes an argument is left as it is), left to
// right: an argument read before a later one applies its tables.
func (h *hoister) call(e *ir.Call) ([]ir.Stmt, ir.Expr) {
	for _, a := range e.Args {
		if a.Dir != ir.DirIn && a.Dir != ir.DirNone {
			return nil, e
		}
	}
	c := *e
	c.Args = nil
	var pre []ir.Stmt
	for i, a := range e.Args {
		ac := *a
		if a.Value != nil {
			var p []ir.Stmt
			p, ac.Value = h.expr(a.Value)
			if len(p) > 0 {
				for _, b := range c.Args[:i] { // read before p runs
					v, decl := h.temp(b.Value.Type(), b.Value, e.Pos)
					pre, b.Value = append(pre, decl), ref(v, e.Pos)
				}
			}
			pre = append(pre, p...)
		}
		c.Args = append(c.Args, &ac)
	}
	return pre, &c
}

// shortCircuit hoists x && y or x || y: y's tables are applied only when
// x does not decide the value.
func (h *hoister) shortCircuit(e *ir.Binary) ([]ir.Stmt, ir.Expr) {
	pre, x := h.expr(e.X)
	preY, y := h.expr(e.Y)
	if len(preY) == 0 {
		c := *e
		c.X, c.Y = x, y
		return pre, &c
	}
	v, decl := h.temp(ir.Bool{}, x, e.Pos)
	var undecided ir.Expr = ref(v, e.Pos) // x && y needs y when x holds
	if e.Op == ir.LOr {
		undecided = &ir.Unary{Pos: e.Pos, Op: ir.LNot, X: ref(v, e.Pos), T: ir.Bool{}}
	}
	rest := &ir.If{Pos: e.Pos, Cond: undecided, Then: append(preY, &ir.Assign{Pos: e.Pos, LHS: ref(v, e.Pos), RHS: y})}
	return append(pre, decl, rest), ref(v, e.Pos)
}

// temp declares a variable of the rewrite, initialized to init (nil for
// none).
func (h *hoister) temp(t ir.Type, init ir.Expr, at ir.Pos) (*ir.Var, ir.Stmt) {
	h.temps++
	v := &ir.Var{Name: fmt.Sprintf("p4hls_applied%d", h.temps), Type: t, Span: at.Span()}
	return v, &ir.Declare{Pos: at, Var: v, Init: init}
}

func ref(v *ir.Var, at ir.Pos) ir.Expr { return &ir.VarRef{Pos: at, Var: v} }

// hoisted says whether evaluating e applies a table or calls one of the
// program's functions: what moves before the statement.
func hoisted(e ir.Expr) bool {
	return anyExpr(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.TableHit:
			return true
		case *ir.Call:
			return x.Callee.Func != nil
		}
		return false
	})
}

// anyExpr says whether e or an expression inside it satisfies p.
func anyExpr(e ir.Expr, p func(ir.Expr) bool) bool {
	if e == nil {
		return false
	}
	if p(e) {
		return true
	}
	switch e := e.(type) {
	case *ir.Unary:
		return anyExpr(e.X, p)
	case *ir.Cast:
		return anyExpr(e.X, p)
	case *ir.Binary:
		return anyExpr(e.X, p) || anyExpr(e.Y, p)
	case *ir.Cond:
		return anyExpr(e.C, p) || anyExpr(e.Then, p) || anyExpr(e.Else, p)
	case *ir.Member:
		return anyExpr(e.X, p)
	case *ir.Slice:
		return anyExpr(e.X, p)
	case *ir.StackElem:
		return anyExpr(e.X, p) || anyExpr(e.Index, p)
	case *ir.Call:
		for _, a := range e.Args {
			if anyExpr(a.Value, p) {
				return true
			}
		}
	}
	return false
}
