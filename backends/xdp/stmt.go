package xdp

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

func (g *gen) block(ss []ir.Stmt) {
	for _, s := range ss {
		g.stmt(s)
	}
}

// nested writes ss in a C block of its own (locals stay in their scope).
func (g *gen) nested(ss []ir.Stmt) {
	g.line("{")
	g.ind++
	g.block(ss)
	g.ind--
	g.line("}")
}

func (g *gen) stmt(s ir.Stmt) {
	defer g.writing(s.Span())()
	switch s := s.(type) {
	case *ir.Assign:
		g.assign(s.LHS, s.RHS)
	case *ir.If:
		c := g.expr(s.Cond)
		g.line("if (%s) {", c)
		g.ind++
		g.block(s.Then)
		g.ind--
		if len(s.Else) > 0 {
			g.line("} else {")
			g.ind++
			g.block(s.Else)
			g.ind--
		}
		g.line("}")
	case *ir.Block:
		if s.Atomic && g.inAtomic == nil {
			g.atomic(s)
			return
		}
		g.nested(s.Body)
	case *ir.Declare:
		if s.Init != nil {
			if _, ok := s.Init.(*ir.List); !ok {
				v := g.expr(s.Init)
				g.line("%s %s = %s;", g.typeName(s.Var.Type, s.Span()), g.varName(s.Var), v)
				return
			}
		}
		g.declare(s.Var)
		if s.Init != nil {
			g.assign(&ir.VarRef{Pos: ir.Pos{Sp: s.Span()}, Var: s.Var}, s.Init)
		}
	case *ir.CallAction:
		g.callAction(s.Call)
	case *ir.ApplyTable:
		g.applyTable(s.Table, "", "")
	case *ir.SwitchAction:
		g.switchAction(s)
	case *ir.Switch:
		g.switchValue(s)
	case *ir.CallStmt:
		g.callStmt(s.Call)
	case *ir.SetValid:
		g.setValid(s.X, s.Valid)
	case *ir.Exit:
		if g.actionExit != "" { // the action's out arguments are copied back first
			g.line("%s = 1;", g.actionExit)
			g.leave(s, g.returnLabel, "exit")
			break
		}
		g.leave(s, g.exitLabel, "exit")
	case *ir.Return:
		if s.Value != nil && g.returnVar != "" {
			g.line("%s = %s;", g.returnVar, g.expr(s.Value))
		}
		g.leave(s, g.returnLabel, "return")
	case *ir.For:
		g.forLoop(s)
	case *ir.Break:
		g.line("break;")
	case *ir.Continue:
		if n := len(g.continues); n > 0 && g.continues[n-1] != "" {
			g.line("goto %s;", g.continues[n-1]) // the loop's update comes first
			break
		}
		g.line("continue;")
	case *ir.StackShift:
		g.stackShift(s)
	case *ir.ApplyBlock:
		g.fail(s.Span(), "applying a sub-parser or sub-control is not supported by the xdp target")
	default:
		g.fail(s.Span(), "this statement is not supported by the xdp target")
	}
}

// setValid writes h.setValid() or h.setInvalid().
func (g *gen) setValid(h ir.Expr, valid bool) {
	g.revalidates = true
	if d := dynElem(h); d != nil {
		g.dynWrite(h, d, func(l ir.Expr) { g.setValid(l, valid) })
		return
	}
	x := g.lvalue(h)
	if valid {
		// A union's header made valid: every header of the union is made
		// invalid first, this one too (its fields 0), as interp does.
		g.invalidateUnion(h)
		g.line("%s.valid_ = 1;", x)
		return
	}
	g.invalidate(x)
}

// invalidate makes header x (an lvalue) invalid. interp: an invalid
// header's fields read as 0. It is no longer what the parser found.
func (g *gen) invalidate(x string) {
	g.line("__builtin_memset(&%s, 0, sizeof(%s));", x, x)
	if hv, ok := g.extractedAt[x]; ok {
		g.line("%s = %s;", hv, noOffset)
	}
}

// invalidateUnion makes every header of h's union invalid, when h is a
// header of a union.
func (g *gen) invalidateUnion(h ir.Expr) {
	m, ok := h.(*ir.Member)
	if !ok {
		return
	}
	u, ok := m.X.Type().(*ir.Struct)
	if !ok || u.Kind != ir.KindHeaderUnion {
		return
	}
	// The others may have been extracted: a header the parser found is
	// no longer valid (gen.inPlace).
	g.revalidates = true
	ul := g.lvalue(m.X)
	for _, f := range u.Fields {
		g.invalidate(ul + ".f_" + f.Name)
	}
}

// leave jumps out of a control, action or function. Inside an @atomic
// block it would leave with the spin lock held, which the verifier
// rejects: refused.
func (g *gen) leave(s ir.Stmt, label, what string) {
	if g.inAtomic != nil {
		g.fail(s.Span(), "%s inside an @atomic block is not supported by the xdp target (the block's spin lock must be released)", what)
	}
	if label == "" {
		g.fail(s.Span(), "%s is not supported here by the xdp target", what)
		return
	}
	g.line("goto %s;", label)
}

func (g *gen) assign(lhs, rhs ir.Expr) {
	if d := dynElem(lhs); d != nil {
		g.dynWrite(lhs, d, func(l ir.Expr) { g.assign(l, rhs) })
		return
	}
	if l, ok := rhs.(*ir.List); ok {
		if tt, ok := lhs.Type().(*ir.Tuple); ok && len(l.Elems) == len(tt.Elems) {
			for i, el := range tt.Elems {
				g.assign(part(lhs, i, fmt.Sprint(i), el), l.Elems[i])
			}
			return
		}
		st, ok := lhs.Type().(*ir.Struct)
		if !ok || len(l.Elems) != len(st.Fields) {
			g.fail(rhs.Span(), "this list assignment is not supported by the xdp target")
			return
		}
		dst := g.lvalue(lhs)
		if st.Kind == ir.KindHeader {
			// Valid first: a field of an invalid header ignores writes.
			g.revalidates = true
			g.line("%s.valid_ = 1;", dst)
		}
		for i, f := range st.Fields {
			g.assign(&ir.Member{Pos: ir.Pos{Sp: rhs.Span()}, X: lhs, Name: f.Name, Index: i, T: f.Type}, l.Elems[i])
		}
		return
	}
	if m, ok := lhs.(*ir.Member); ok && m.Name == "mcast_grp" {
		if s, ok := m.X.Type().(*ir.Struct); ok && s.Name == "standard_metadata_t" {
			g.fail(lhs.Span(), "multicast (standard_metadata.mcast_grp) is not supported by the xdp target: XDP sends a packet to one port")
		}
	}
	v := g.expr(rhs)
	g.write(lhs, v)
}

func (g *gen) switchValue(s *ir.Switch) {
	x := fmt.Sprintf("sw%d", g.label())
	g.line("u64 %s = %s;", x, g.expr(s.X))
	var arms []arm
	var dflt []ir.Stmt
	for _, c := range s.Cases {
		if c.Default {
			dflt = c.Body
			continue
		}
		var conds []string
		for _, v := range c.Values {
			conds = append(conds, fmt.Sprintf("%s == %s", x, g.expr(v)))
		}
		if len(conds) > 0 {
			arms = append(arms, arm{strings.Join(conds, " || "), c.Body})
		}
	}
	g.ifChain(arms, dflt)
}

// arm is a case of a switch as C: its condition and its statements.
type arm struct {
	cond string
	body []ir.Stmt
}

// ifChain writes arms as an if / else if chain, dflt (nil: none) last.
func (g *gen) ifChain(arms []arm, dflt []ir.Stmt) {
	for i, a := range arms {
		if i == 0 {
			g.line("if (%s) {", a.cond)
		} else {
			g.line("} else if (%s) {", a.cond)
		}
		g.ind++
		g.block(a.body)
		g.ind--
	}
	switch {
	case len(arms) == 0:
		if dflt != nil {
			g.nested(dflt)
		}
		return
	case dflt != nil:
		g.line("} else {")
		g.ind++
		g.block(dflt)
		g.ind--
	}
	g.line("}")
}

func (g *gen) forLoop(s *ir.For) {
	g.line("{")
	g.ind++
	g.block(s.Init)
	cond := "1"
	if s.Cond != nil {
		cond = g.expr(s.Cond)
	}
	g.line("for (int it_ = 0; it_ < %d && (%s); it_++) {", maxLoop, cond)
	g.ind++
	g.loops++
	// C's continue goes to the loop's header, past P4's update
	// statements: a continue goes to them instead.
	next := ""
	if len(s.Update) > 0 {
		next = fmt.Sprintf("next%d", g.label())
	}
	g.continues = append(g.continues, next)
	g.block(s.Body)
	g.continues = g.continues[:len(g.continues)-1]
	g.loops--
	if next != "" {
		g.line("%s:;", next)
	}
	g.block(s.Update)
	g.ind--
	g.line("}")
	g.ind--
	g.line("}")
}

// maxLoop bounds every for loop, so the verifier sees it end.
const maxLoop = 1024

// callAction runs an action written in the program: in and inout
// arguments are copied in, out and inout ones copied back (P4-16 §6.8).
func (g *gen) callAction(call *ir.ActionCall) {
	a := call.Action
	g.line("{")
	g.ind++
	var back []func()
	for i, p := range a.Params {
		if i >= len(call.Args) || call.Args[i] == nil {
			g.declare(p)
			continue
		}
		arg := call.Args[i]
		if p.Dir == ir.DirOut {
			g.declare(p)
		} else if l, ok := arg.(*ir.List); ok {
			g.declare(p)
			g.assign(&ir.VarRef{Pos: ir.Pos{Sp: l.Span()}, Var: p}, l)
		} else {
			v := g.expr(arg)
			g.line("%s %s = %s;", g.typeName(p.Type, p.Span), g.varName(p), v)
		}
		if p.Dir == ir.DirOut || p.Dir == ir.DirInOut {
			dst, name := arg, g.varName(p)
			back = append(back, func() { g.write(dst, name) })
		}
	}
	exited := g.actionBody(a)
	for _, f := range back {
		f()
	}
	exited()
	g.ind--
	g.line("}")
}

// actionBody writes an action's statements with its parameters already
// declared; return jumps to its end, and so does exit, which also sets
// a flag. exited writes the exit itself, for after the out and inout
// arguments are copied back: P4-16 copies them out of an action that
// exits too.
func (g *gen) actionBody(a *ir.Action) (exited func()) {
	saved, savedExit := g.returnLabel, g.actionExit
	g.returnLabel = fmt.Sprintf("ret%d", g.label())
	g.actionExit = fmt.Sprintf("ex%d", g.label())
	flag := g.actionExit
	g.line("u8 %s = 0;", flag)
	g.block(a.Body)
	g.line("%s: ;", g.returnLabel)
	g.returnLabel, g.actionExit = saved, savedExit
	return func() {
		if g.exitLabel != "" {
			g.line("if (%s) goto %s;", flag, g.exitLabel)
		}
	}
}

func (g *gen) switchAction(s *ir.SwitchAction) {
	ran := fmt.Sprintf("ran%d", g.label())
	g.line("u32 %s = 0;", ran)
	g.applyTable(s.Table, "", ran)
	ids := g.tableInfo(s.Table).ids
	var arms []arm
	var dflt []ir.Stmt
	for _, c := range s.Cases {
		if c.Default {
			dflt = c.Body
			continue
		}
		var conds []string
		for _, a := range c.Actions {
			conds = append(conds, fmt.Sprintf("%s == %d", ran, ids[a]))
		}
		arms = append(arms, arm{strings.Join(conds, " || "), c.Body})
	}
	g.ifChain(arms, dflt)
}

// callFunction inlines a function: arguments copied in, out and inout
// ones copied back; its value is in a local the call's expression reads.
func (g *gen) callFunction(c *ir.Call) string {
	f := c.Callee.Func
	ret := ""
	if f.Return != nil {
		ret = fmt.Sprintf("fr%d", g.label())
		g.line("%s %s = %s;", g.typeName(f.Return, c.Span()), ret, zeroInit(f.Return))
	}
	g.line("{")
	g.ind++
	var back []func()
	for i, p := range f.Params {
		if i >= len(c.Args) || c.Args[i].Value == nil {
			g.declare(p)
			continue
		}
		arg := c.Args[i].Value
		if p.Dir == ir.DirOut {
			g.declare(p)
		} else {
			v := g.expr(arg)
			g.line("%s %s = %s;", g.typeName(p.Type, p.Span), g.varName(p), v)
		}
		if p.Dir == ir.DirOut || p.Dir == ir.DirInOut {
			dst, name := arg, g.varName(p)
			back = append(back, func() { g.write(dst, name) })
		}
	}
	savedLabel, savedVar := g.returnLabel, g.returnVar
	g.returnLabel, g.returnVar = fmt.Sprintf("fret%d", g.label()), ret
	g.block(f.Body)
	g.line("%s: ;", g.returnLabel)
	g.returnLabel, g.returnVar = savedLabel, savedVar
	for _, b := range back {
		b()
	}
	g.ind--
	g.line("}")
	return ret
}
