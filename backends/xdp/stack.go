package xdp

import (
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// Header stacks (and arrays of scalars). A stack is a C struct of its
// elements, e[Size], and next_, its nextIndex. An element of a constant
// index is e[k]. An element whose index is known only at run time (s[i],
// s.next, s.last) is a chain over the constant ones, k from 0 to Size-1,
// picking the one the index names: a read out of range is 0 (an invalid
// header), a write out of range does nothing, as interp runs them; next
// and last out of range are error.StackOutOfBounds, in the parser only.
// The chain keeps every stack access at a constant offset, which the
// verifier and hXDP's analysis follow, at the price of Size copies of the
// access.

// dynElem finds on e's storage path the element (a StackElem of an index
// that is not constant, or a StackOp next or last) whose index is known
// only at run time, innermost first; nil when there is none.
func dynElem(e ir.Expr) ir.Expr {
	switch x := e.(type) {
	case *ir.Member:
		return dynElem(x.X)
	case *ir.IsValid:
		return dynElem(x.X)
	case *ir.Slice:
		return dynElem(x.X)
	case *ir.StackElem:
		if d := dynElem(x.X); d != nil {
			return d
		}
		if _, ok := x.Index.(*ir.Const); !ok {
			return x
		}
	case *ir.StackOp:
		if d := dynElem(x.X); d != nil {
			return d
		}
		if x.Op == "next" || x.Op == "last" {
			return x
		}
	}
	return nil
}

// withIndex copies e's storage path with the element d made the constant
// element k.
func withIndex(e, d ir.Expr, k int) ir.Expr {
	if e == d {
		var stack ir.Expr
		switch x := d.(type) {
		case *ir.StackElem:
			stack = x.X
		case *ir.StackOp:
			stack = x.X
		}
		return &ir.StackElem{Pos: ir.Pos{Sp: d.Span()}, X: stack,
			Index: &ir.Const{Pos: ir.Pos{Sp: d.Span()}, T: &ir.Bits{Width: 32}, Value: big.NewInt(int64(k))}}
	}
	switch x := e.(type) {
	case *ir.Member:
		c := *x
		c.X = withIndex(x.X, d, k)
		return &c
	case *ir.IsValid:
		c := *x
		c.X = withIndex(x.X, d, k)
		return &c
	case *ir.Slice:
		c := *x
		c.X = withIndex(x.X, d, k)
		return &c
	case *ir.StackElem:
		c := *x
		c.X = withIndex(x.X, d, k)
		return &c
	case *ir.StackOp:
		c := *x
		c.X = withIndex(x.X, d, k)
		return &c
	}
	return e
}

// dynIndex writes the run-time index of element d into a new variable and
// returns it with the stack's size. s.next and s.last out of range are a
// parser error.
func (g *gen) dynIndex(d ir.Expr) (string, int) {
	ix := fmt.Sprintf("ix%d", g.label())
	var stack ir.Expr
	switch x := d.(type) {
	case *ir.StackElem:
		stack = x.X
		g.line("u64 %s = %s;", ix, g.expr(x.Index))
	case *ir.StackOp:
		stack = x.X
		if g.rejectLabel == "" {
			g.fail(d.Span(), "%s.%s outside the parser is not supported by the xdp target", ir.Format(x.X), x.Op)
			return ix, 0
		}
		st := g.lvalue(x.X)
		if x.Op == "next" {
			g.line("u64 %s = %s.next_;", ix, st)
		} else {
			g.line("u64 %s = (u64)%s.next_ - 1;", ix, st)
		}
		size := stackSize(stack)
		g.line("if (%s >= %d) { perr = %d; goto %s; }", ix, size, g.errorIndex("StackOutOfBounds"), g.rejectLabel)
	}
	return ix, stackSize(stack)
}

func stackSize(e ir.Expr) int {
	if t, ok := e.Type().(*ir.Stack); ok {
		return t.Size
	}
	return 0
}

// dynRead writes a read of e through its run-time element d: the chain of
// the constant elements' reads, 0 out of range.
func (g *gen) dynRead(e, d ir.Expr) string {
	ix, size := g.dynIndex(d)
	out := "0"
	if s, ok := e.Type().(*ir.Struct); ok {
		out = fmt.Sprintf("((struct s_%s){})", s.Name)
	} else if width(e.Type()) == 0 {
		g.fail(e.Span(), "%s: reading this through a run-time stack index is not supported by the xdp target", ir.Format(e))
		return "0"
	}
	vals := make([]string, size)
	for k := range size {
		vals[k] = g.expr(withIndex(e, d, k))
	}
	for k := size - 1; k >= 0; k-- {
		out = fmt.Sprintf("(%s == %d ? %s : %s)", ix, k, vals[k], out)
	}
	return out
}

// dynWrite writes do(e') for the constant element e' that e's run-time
// element d names, nothing out of range.
func (g *gen) dynWrite(e, d ir.Expr, do func(ir.Expr)) {
	ix, size := g.dynIndex(d)
	for k := range size {
		if k == 0 {
			g.line("if (%s == %d) {", ix, k)
		} else {
			g.line("} else if (%s == %d) {", ix, k)
		}
		g.ind++
		do(withIndex(e, d, k))
		g.ind--
	}
	if size > 0 {
		g.line("}")
	}
}

// elemLvalue is the C storage of a stack's element of a constant index.
func (g *gen) elemLvalue(e *ir.StackElem) string {
	c, ok := e.Index.(*ir.Const)
	size := stackSize(e.X)
	if !ok {
		g.fail(e.Span(), "%s: a stack element of a run-time index cannot be written here by the xdp target", ir.Format(e))
		return "x"
	}
	if !c.Value.IsInt64() || c.Value.Int64() < 0 || c.Value.Int64() >= int64(size) {
		g.fail(e.Span(), "%s: index %s is out of the stack's %d elements", ir.Format(e), c.Value, size)
		return "x"
	}
	return fmt.Sprintf("%s.e[%d]", g.lvalue(e.X), c.Value.Int64())
}

// stackOp writes s.size, s.lastIndex, s.nextIndex, or a read of s.next or
// s.last.
func (g *gen) stackOp(e *ir.StackOp) string {
	switch e.Op {
	case "size":
		return fmt.Sprintf("%dULL", stackSize(e.X))
	case "lastIndex":
		return fmt.Sprintf("(((u64)%s.next_ - 1) & 0xffffffffULL)", g.lvalue(e.X))
	case "nextIndex":
		return fmt.Sprintf("((u64)%s.next_)", g.lvalue(e.X))
	}
	return g.dynRead(e, e)
}

// stackShift writes s.push_front(n) or s.pop_front(n): the elements move,
// the ones left empty become invalid (zero), nextIndex moves with them.
// The whole stack counts as written: its elements are no longer where the
// parser found them.
func (g *gen) stackShift(s *ir.StackShift) {
	st := g.lvalue(s.X)
	t, _ := s.X.Type().(*ir.Stack)
	if t == nil {
		g.fail(s.Span(), "push_front and pop_front apply to stacks")
		return
	}
	g.dirty(s.X)
	g.revalidates = true
	n, size := s.Count, t.Size
	zero := func(i int) {
		if _, ok := t.Elem.(*ir.Struct); ok {
			g.line("__builtin_memset(&%s.e[%d], 0, sizeof(%s.e[%d]));", st, i, st, i)
		} else {
			g.line("%s.e[%d] = 0;", st, i)
		}
	}
	if s.Push {
		for i := size - 1; i >= 0; i-- {
			if i >= n {
				g.line("%s.e[%d] = %s.e[%d];", st, i, st, i-n)
			} else {
				zero(i)
			}
		}
		g.line("%s.next_ = %s.next_ + %d > %d ? %d : %s.next_ + %d;", st, st, n, size, size, st, n)
		return
	}
	for i := 0; i < size; i++ {
		if i+n < size {
			g.line("%s.e[%d] = %s.e[%d];", st, i, st, i+n)
		} else {
			zero(i)
		}
	}
	g.line("%s.next_ = %s.next_ < %d ? 0 : %s.next_ - %d;", st, st, n, st, n)
}

// extractNext writes packet.extract(s.next): past the stack's end is
// error.StackOutOfBounds, then the element nextIndex names is extracted
// and nextIndex moves on.
func (g *gen) extractNext(op *ir.StackOp, s *ir.Struct, sp ir.Expr) {
	st := g.lvalue(op.X)
	size := stackSize(op.X)
	g.line("if (%s.next_ >= %d) { perr = %d; goto %s; }", st, size, g.errorIndex("StackOutOfBounds"), g.rejectLabel)
	for k := range size {
		if k == 0 {
			g.line("if (%s.next_ == %d) {", st, k)
		} else {
			g.line("} else if (%s.next_ == %d) {", st, k)
		}
		g.ind++
		g.extractInto(fmt.Sprintf("%s.e[%d]", st, k), s, sp, nil)
		g.ind--
	}
	g.line("}")
	g.line("%s.next_++;", st)
}

// stackExtracts says whether a parser state's body extracts into a
// stack's next element (at its top level: every run of the state does).
func stackExtracts(st *ir.State) bool {
	for _, s := range st.Body {
		c, ok := s.(*ir.CallStmt)
		if !ok || c.Call.Callee.Method != "extract" || len(c.Call.Args) != 1 {
			continue
		}
		if op, ok := c.Call.Args[0].Value.(*ir.StackOp); ok && op.Op == "next" {
			return true
		}
	}
	return false
}
