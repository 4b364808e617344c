package frontend

import (
	"fmt"
	"math/big"
	"slices"

	"github.com/p4hls/p4hls/ir"
)

// expr lowers a checked expression. Compile-time constants become ir.Const
// (this is where constant folding lands); everything else keeps its shape.
func (l *lowerer) expr(e Expr) ir.Expr {
	t := l.c.Types[e]
	sp := ir.Pos{Sp: e.Span()}
	if v, ok := l.c.Values[e]; ok {
		if c := l.constant(v, t, sp); c != nil {
			return c
		}
	}
	switch e := e.(type) {
	case *NameExpr:
		return l.name(e, sp)
	case *MemberExpr:
		return l.member(e, sp)
	case *IndexExpr:
		x := l.expr(e.X)
		switch xt := x.Type().(type) {
		case *ir.Stack:
			return &ir.StackElem{Pos: sp, X: x, Index: l.expr(e.Index)}
		case *ir.Tuple:
			i := int(l.constInt(e.Index).Int64())
			return &ir.Member{Pos: sp, X: x, Name: fmt.Sprint(i), Index: i, T: xt.Elems[i]}
		}
	case *SliceExpr:
		hi, lo := l.constInt(e.Hi), l.constInt(e.Lo)
		return &ir.Slice{Pos: sp, X: l.expr(e.X), Hi: int(hi.Int64()), Lo: int(lo.Int64())}
	case *PlusSliceExpr:
		return l.plusSlice(e, sp)
	case *CallExpr:
		return l.callExpr(e, sp)
	case *UnaryExpr:
		if e.Op == ir.Plus {
			return l.expr(e.X)
		}
		return &ir.Unary{Pos: sp, Op: e.Op, X: l.expr(e.X), T: l.typ(t)}
	case *BinaryExpr:
		x, y := l.expr(e.X), l.expr(e.Y)
		if e.Op != ir.Shl && e.Op != ir.Shr && e.Op != ir.Concat {
			x, y = l.operand(e.X, x), l.operand(e.Y, y)
		}
		return &ir.Binary{Pos: sp, Op: e.Op, X: x, Y: y, T: l.typ(t)}
	case *CastExpr:
		return &ir.Cast{Pos: sp, T: l.typ(t), X: l.expr(e.X)}
	case *CondExpr:
		return &ir.Cond{Pos: sp, C: l.expr(e.Cond), Then: l.expr(e.Then), Else: l.expr(e.Else)}
	case *ListExpr:
		list := &ir.List{Pos: sp, T: l.typ(t)}
		for _, x := range e.Elems {
			list.Elems = append(list.Elems, l.expr(x))
		}
		return list
	case *StructExpr:
		return l.structLit(e, t, sp)
	}
	l.unsupported(e, "this expression")
	return ir.BoolConst(false, e.Span())
}

// plusSlice lowers x[lo +: w]: a slice when lo is constant; else, for a
// value read, (x >> lo)[w-1:0].
func (l *lowerer) plusSlice(e *PlusSliceExpr, sp ir.Pos) ir.Expr {
	w := int(l.constInt(e.Width).Int64())
	x := l.expr(e.X)
	if _, ok := l.c.Values[e.Lo]; ok {
		lo := int(l.constInt(e.Lo).Int64())
		return &ir.Slice{Pos: sp, X: x, Hi: lo + w - 1, Lo: lo}
	}
	shifted := &ir.Binary{Pos: sp, Op: ir.Shr, X: x, Y: l.expr(e.Lo), T: x.Type()}
	return &ir.Slice{Pos: sp, X: shifted, Hi: w - 1, Lo: 0}
}

// operand inserts the cast the checker applied implicitly when a
// serializable enum met its underlying type.
func (l *lowerer) operand(e Expr, x ir.Expr) ir.Expr {
	want := l.typ(l.c.Types[e])
	if _, isEnum := x.Type().(*ir.Enum); isEnum {
		if _, isBits := want.(*ir.Bits); isBits {
			return &ir.Cast{Pos: ir.Pos{Sp: e.Span()}, T: want, X: x}
		}
	}
	return x
}

// constant turns a folded value into an IR constant, or nil when the value
// has no IR constant form (strings stay StringConst, tuples stay lists).
func (l *lowerer) constant(v any, t Type, sp ir.Pos) ir.Expr {
	switch v := v.(type) {
	case *big.Int:
		switch t.(type) {
		case *BitsType, IntType, *NewType:
			return &ir.Const{Pos: sp, T: l.typ(t), Value: v}
		}
	case bool:
		return ir.BoolConst(v, sp.Sp)
	case string:
		return &ir.StringConst{Pos: sp, Value: v}
	case enumMember:
		return &ir.EnumConst{Pos: sp, Enum: l.typ(v.Enum).(*ir.Enum), Member: v.Name}
	case errorMember:
		return &ir.ErrorConst{Pos: sp, Name: string(v)}
	case aggregate:
		return l.aggregateConst(v, t, sp)
	}
	return nil
}

// aggregateConst is the IR of a constant struct or tuple: a list of its
// elements' constants (nil when one has no constant form).
func (l *lowerer) aggregateConst(v aggregate, t Type, sp ir.Pos) ir.Expr {
	var elemTypes []Type
	switch t := t.(type) {
	case *StructType:
		if t.Kind != KindStruct {
			return nil
		}
		for _, f := range t.Fields {
			elemTypes = append(elemTypes, f.Type)
		}
	case *TupleType:
		elemTypes = t.Elems
	}
	if len(elemTypes) != len(v) {
		return nil
	}
	list := &ir.List{Pos: sp, T: l.typ(t)}
	for i, x := range v {
		c := l.constant(x, elemTypes[i], sp)
		if c == nil {
			return nil
		}
		list.Elems = append(list.Elems, c)
	}
	return list
}

func (l *lowerer) name(e *NameExpr, sp ir.Pos) ir.Expr {
	sym := l.c.Uses[e]
	if sym == nil {
		l.unsupported(e, "the name %s here", e.Name)
		return ir.BoolConst(false, e.Span())
	}
	switch sym.Kind {
	case SymVar, SymParam:
		if x := l.scope.boundTo(sym.Decl); x != nil {
			return x
		}
		if v, ok := l.scope.lookup(sym.Decl).(*ir.Var); ok {
			return &ir.VarRef{Pos: sp, Var: v}
		}
	case SymInstance:
		if inst, ok := l.scope.lookup(sym.Decl).(*ir.Instance); ok {
			return &ir.InstanceRef{Pos: sp, Inst: inst}
		}
	}
	l.unsupported(e, "using %s as a value here", e.Name)
	return ir.BoolConst(false, e.Span())
}

func (l *lowerer) member(e *MemberExpr, sp ir.Pos) ir.Expr {
	// t.apply().hit and .miss.
	if call, ok := e.X.(*CallExpr); ok {
		if _, ok := l.c.Types[call].(*ApplyResultType); ok {
			table := l.appliedTable(call)
			if e.Name.Name == "action_run" {
				l.unsupported(e, "action_run outside a switch statement")
			}
			return &ir.TableHit{Pos: sp, Table: table, Miss: e.Name.Name == "miss"}
		}
	}
	x := l.expr(e.X)
	switch xt := x.Type().(type) {
	case *ir.Struct:
		f, i := xt.Field(e.Name.Name)
		if f != nil {
			return &ir.Member{Pos: sp, X: x, Name: e.Name.Name, Index: i, T: f.Type}
		}
	case *ir.Stack:
		return &ir.StackOp{Pos: sp, X: x, Op: e.Name.Name, T: l.typ(l.c.Types[e])}
	}
	l.unsupported(e, "member %s here", e.Name.Name)
	return ir.BoolConst(false, e.Span())
}

// appliedTable returns the table of t.apply().
func (l *lowerer) appliedTable(call *CallExpr) *ir.Table {
	m, ok := call.Fn.(*MemberExpr)
	if !ok {
		return nil
	}
	if tt, ok := l.c.Types[m.X].(*TableType); ok {
		t, _ := l.scope.lookup(tt.Decl).(*ir.Table)
		return t
	}
	return nil
}

func (l *lowerer) structLit(e *StructExpr, t Type, sp ir.Pos) ir.Expr {
	st, ok := t.(*StructType)
	if !ok {
		l.unsupported(e, "a struct expression whose type is not known")
		return ir.BoolConst(false, e.Span())
	}
	list := &ir.List{Pos: sp, T: l.typ(st)}
	for _, f := range st.Fields {
		for _, kv := range e.Fields {
			if kv.Key.Name == f.Name {
				list.Elems = append(list.Elems, l.expr(kv.Value))
			}
		}
	}
	return list
}

// callExpr lowers a call used as a value.
func (l *lowerer) callExpr(e *CallExpr, sp ir.Pos) ir.Expr {
	ft, ok := l.c.Types[e.Fn].(*FuncType)
	if ok && ft.Builtin == "isValid" {
		return &ir.IsValid{Pos: sp, X: l.expr(ft.Self)}
	}
	call := l.call(e)
	if call == nil {
		return ir.BoolConst(false, e.Span())
	}
	return call
}

// call lowers a call of an extern method, extern function or function.
func (l *lowerer) call(e *CallExpr) *ir.Call {
	ft, ok := l.c.Types[e.Fn].(*FuncType)
	if !ok || len(ft.Protos) == 0 {
		l.unsupported(e, "this call")
		return nil
	}
	out := &ir.Call{Pos: ir.Pos{Sp: e.Span()}, T: l.typ(l.c.Types[e])}
	if _, void := l.c.Types[e].(VoidType); void {
		out.T = nil
	}
	proto := ft.Protos[0]
	for _, p := range ft.Protos {
		if arityFits(p.Params, e.Args) && namesFit(p.Params, e.Args) {
			proto = p
			break
		}
	}
	switch {
	case ft.Self != nil:
		out.Callee = ir.Callee{Recv: l.expr(ft.Self), Method: ft.Name}
	case l.c.FuncOf[proto] != nil:
		out.Callee = ir.Callee{Func: l.funcs[l.c.FuncOf[proto]]}
	default:
		out.Callee = ir.Callee{Extern: ft.Name}
	}
	for _, ta := range e.TypeArgs {
		out.Callee.TypeArgs = append(out.Callee.TypeArgs, l.typ(l.c.TypeOf[ta]))
	}
	ordered := make([]*Arg, len(proto.Params))
	for i, a := range e.Args {
		if a.Name == nil {
			ordered[i] = a
			continue
		}
		for j, p := range proto.Params {
			if p.Name.Name == a.Name.Name {
				ordered[j] = a
			}
		}
	}
	for i, p := range proto.Params {
		arg := &ir.Arg{Dir: ir.Direction(p.Dir), Name: p.Name.Name}
		if a := ordered[i]; a != nil && a.Value != nil {
			arg.Value = l.expr(a.Value)
		} else if a == nil && p.Default != nil {
			arg.Value = l.expr(p.Default)
		}
		out.Args = append(out.Args, arg)
	}
	return out
}

// ------------------------------------------------------------------ statements

func (l *lowerer) stmts(ss []Stmt) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range ss {
		out = append(out, l.stmt(s)...)
	}
	return out
}

// body lowers a nested statement (a branch or loop body) to a list.
func (l *lowerer) body(s Stmt) []ir.Stmt {
	if b, ok := s.(*BlockStmt); ok && b.Annos.Find("atomic") == nil {
		return l.stmts(b.Stmts)
	}
	return l.stmt(s)
}

func (l *lowerer) stmt(s Stmt) []ir.Stmt {
	sp := ir.Pos{Sp: s.Span()}
	switch s := s.(type) {
	case *AssignStmt:
		if ps, ok := s.LHS.(*PlusSliceExpr); ok {
			if _, constant := l.c.Values[ps.Lo]; !constant {
				l.unsupported(s.LHS, "assigning to a slice whose low bit varies")
				return nil
			}
		}
		if isInvalidHeader(s.RHS) {
			// h = {#} makes h invalid.
			return []ir.Stmt{&ir.SetValid{Pos: sp, X: l.expr(s.LHS), Valid: false}}
		}
		// The left side is evaluated first, and once (P4-16 §8.1): an
		// index with side effects (a[f()] |= y), or one that a call on the
		// right may change (a[i] = f(i)), goes into a variable first.
		rhs := l.expr(s.RHS)
		pre, lhs := l.indexesOnce(l.expr(s.LHS), callsFunction(rhs), sp)
		if s.Op == ir.NoOp {
			rhs = l.operand(s.RHS, rhs)
		} else {
			rhs = &ir.Binary{Pos: sp, Op: s.Op, X: lhs, Y: rhs, T: lhs.Type()}
		}
		return append(pre, &ir.Assign{Pos: sp, LHS: lhs, RHS: rhs})
	case *CallStmt:
		return l.callStmt(s.Call, sp)
	case *IfStmt:
		st := &ir.If{Pos: sp, Cond: l.expr(s.Cond), Then: l.body(s.Then)}
		if s.Else != nil {
			st.Else = l.body(s.Else)
		}
		return []ir.Stmt{st}
	case *BlockStmt:
		return []ir.Stmt{&ir.Block{Pos: sp, Body: l.stmts(s.Stmts), Atomic: s.Annos.Find("atomic") != nil}}
	case *ExitStmt:
		return []ir.Stmt{&ir.Exit{Pos: sp}}
	case *ReturnStmt:
		r := &ir.Return{Pos: sp}
		if s.Value != nil {
			r.Value = l.expr(s.Value)
		}
		return []ir.Stmt{r}
	case *EmptyStmt:
		return nil
	case *BreakStmt:
		return []ir.Stmt{&ir.Break{Pos: sp}}
	case *ContinueStmt:
		return []ir.Stmt{&ir.Continue{Pos: sp}}
	case *SwitchStmt:
		return []ir.Stmt{l.switchStmt(s, sp)}
	case *ForInStmt:
		return l.forIn(s, sp)
	case *ForStmt:
		f := &ir.For{Pos: sp, Init: l.stmts(s.Init), Update: l.stmts(s.Update), Body: l.body(s.Body)}
		if s.Cond != nil {
			f.Cond = l.expr(s.Cond)
		}
		return []ir.Stmt{f}
	case *DeclStmt:
		switch d := s.Decl.(type) {
		case *VarDecl:
			// Prefixed like the scope's other declarations: an inlined
			// block's variable must not take the name of one it is
			// inlined into, nor of that block's parameters.
			v := &ir.Var{Name: l.scope.prefix + d.Name.Name, Type: l.typ(l.c.TypeOf[d.Type]), Span: d.Span()}
			l.scope.decls[d] = v
			decl := &ir.Declare{Pos: sp, Var: v}
			if d.Init != nil {
				decl.Init = l.operand(d.Init, l.expr(d.Init))
			}
			return []ir.Stmt{decl}
		case *ConstDecl:
			return nil // constants are folded into their uses
		}
	}
	l.unsupported(s, "this statement")
	return nil
}

// isInvalidHeader reports whether e is {#}, cast or not.
func isInvalidHeader(e Expr) bool {
	for {
		switch x := e.(type) {
		case *InvalidExpr:
			return true
		case *CastExpr:
			e = x.X
		default:
			return false
		}
	}
}

// forIn lowers for (T x in lo .. hi) body to a for loop that evaluates lo
// and hi once and stops after hi without x overflowing:
//
//	{ T hi' = hi; T x = lo; bool more = x <= hi';
//	  for (; more; more = x != hi', x = x + 1) body }
func (l *lowerer) forIn(s *ForInStmt, sp ir.Pos) []ir.Stmt {
	r, ok := s.Range.(*RangeExpr)
	if !ok {
		return l.forEach(s, sp)
	}
	t := l.typ(l.c.TypeOf[s.Type])
	x := &ir.Var{Name: s.Name.Name, Type: t, Span: s.Name.Span()}
	hi := &ir.Var{Name: s.Name.Name + "_last", Type: t, Span: r.Hi.Span()}
	more := &ir.Var{Name: s.Name.Name + "_more", Type: ir.Bool{}, Span: s.Span()}
	l.scope.decls[s] = x
	ref := func(v *ir.Var) ir.Expr { return &ir.VarRef{Pos: sp, Var: v} }
	cmp := func(op ir.Op, a, b ir.Expr) ir.Expr { return &ir.Binary{Pos: sp, Op: op, X: a, Y: b, T: ir.Bool{}} }
	loop := &ir.For{Pos: sp, Cond: ref(more), Body: l.body(s.Body), Update: []ir.Stmt{
		&ir.Assign{Pos: sp, LHS: ref(more), RHS: cmp(ir.Ne, ref(x), ref(hi))},
		&ir.Assign{Pos: sp, LHS: ref(x), RHS: &ir.Binary{Pos: sp, Op: ir.Add, X: ref(x), Y: &ir.Const{Pos: sp, T: t, Value: big.NewInt(1)}, T: t}},
	}}
	return []ir.Stmt{&ir.Block{Pos: sp, Body: []ir.Stmt{
		&ir.Declare{Pos: sp, Var: hi, Init: l.expr(r.Hi)},
		&ir.Declare{Pos: sp, Var: x, Init: l.expr(r.Lo)},
		&ir.Declare{Pos: sp, Var: more, Init: cmp(ir.Le, ref(x), ref(hi))},
		loop,
	}}}
}

// forEach lowers for (T x in c) body, c a list or a header stack, to a
// loop over the elements' indices. The elements are evaluated once,
// before the first iteration (as p4c does), into variables e0, e1, ...;
// each iteration binds x to one:
//
//	{ T e0 = c[0]; ...; bit<32> i = 0;
//	  for (; i < n; i = i + 1) { T x = i == 0 ? e0 : i == 1 ? e1 : ...; body } }
func (l *lowerer) forEach(s *ForInStmt, sp ir.Pos) []ir.Stmt {
	t := l.typ(l.c.TypeOf[s.Type])
	elems, ok := l.elements(l.expr(s.Range), sp)
	if !ok {
		l.unsupported(s.Range, "for-in loops over a value other than a list or a header stack")
		return nil
	}
	index := &ir.Var{Name: s.Name.Name + "_index", Type: &ir.Bits{Width: 32}, Span: s.Name.Span()}
	x := &ir.Var{Name: s.Name.Name, Type: t, Span: s.Name.Span()}
	l.scope.decls[s] = x
	ref := func(v *ir.Var) ir.Expr { return &ir.VarRef{Pos: sp, Var: v} }
	word := func(v int) ir.Expr { return &ir.Const{Pos: sp, T: index.Type, Value: big.NewInt(int64(v))} }
	block := &ir.Block{Pos: sp}
	var pick ir.Expr
	for k := len(elems) - 1; k >= 0; k-- {
		e := &ir.Var{Name: fmt.Sprintf("%s_%d", s.Name.Name, k), Type: t, Span: s.Range.Span()}
		block.Body = append(block.Body, &ir.Declare{Pos: sp, Var: e, Init: elems[k]})
		if pick == nil {
			pick = ref(e)
			continue
		}
		pick = &ir.Cond{Pos: sp, C: &ir.Binary{Pos: sp, Op: ir.Eq, X: ref(index), Y: word(k), T: ir.Bool{}}, Then: ref(e), Else: pick}
	}
	slices.Reverse(block.Body) // e0 first: the elements in order
	if pick == nil {
		return nil // no elements: the body never runs
	}
	body := append([]ir.Stmt{&ir.Declare{Pos: sp, Var: x, Init: pick}}, l.body(s.Body)...)
	block.Body = append(block.Body,
		&ir.Declare{Pos: sp, Var: index, Init: word(0)},
		&ir.For{Pos: sp, Cond: &ir.Binary{Pos: sp, Op: ir.Lt, X: ref(index), Y: word(len(elems)), T: ir.Bool{}}, Body: body,
			Update: []ir.Stmt{&ir.Assign{Pos: sp, LHS: ref(index), RHS: &ir.Binary{Pos: sp, Op: ir.Add, X: ref(index), Y: word(1), T: index.Type}}}})
	return []ir.Stmt{block}
}

// elements lists the elements of a list (a cast of one, too) or a header
// stack a for-in loop goes over.
func (l *lowerer) elements(c ir.Expr, sp ir.Pos) ([]ir.Expr, bool) {
	if cast, ok := c.(*ir.Cast); ok {
		if _, isList := cast.X.(*ir.List); isList {
			c = cast.X
		}
	}
	if list, ok := c.(*ir.List); ok {
		return list.Elems, true
	}
	if st, ok := c.Type().(*ir.Stack); ok {
		var out []ir.Expr
		for k := 0; k < st.Size; k++ {
			out = append(out, &ir.StackElem{Pos: sp, X: c, Index: &ir.Const{Pos: sp, T: &ir.Bits{Width: 32}, Value: big.NewInt(int64(k))}})
		}
		return out, true
	}
	return nil, false
}

// indexesOnce returns lvalue x with each stack index that calls a function
// (with all, every index not a constant) replaced by a variable, and the
// declarations that compute them.
func (l *lowerer) indexesOnce(x ir.Expr, all bool, sp ir.Pos) ([]ir.Stmt, ir.Expr) {
	switch e := x.(type) {
	case *ir.Member:
		pre, in := l.indexesOnce(e.X, all, sp)
		c := *e
		c.X = in
		return pre, &c
	case *ir.Slice:
		pre, in := l.indexesOnce(e.X, all, sp)
		c := *e
		c.X = in
		return pre, &c
	case *ir.StackElem:
		pre, in := l.indexesOnce(e.X, all, sp)
		c := *e
		c.X = in
		if _, constant := e.Index.(*ir.Const); !constant && (all || callsFunction(e.Index)) {
			l.temps++
			v := &ir.Var{Name: fmt.Sprintf("p4hls_index%d", l.temps), Type: e.Index.Type(), Span: e.Index.Span()}
			pre = append(pre, &ir.Declare{Pos: sp, Var: v, Init: e.Index})
			c.Index = &ir.VarRef{Pos: sp, Var: v}
		}
		return pre, &c
	}
	return nil, x
}

// callsFunction says whether evaluating e calls a function or method
// (which may have side effects).
func callsFunction(e ir.Expr) bool {
	return anyExpr(e, func(x ir.Expr) bool { _, ok := x.(*ir.Call); return ok })
}

// actionCall lowers a direct call of an action: an argument for each
// parameter, in the parameters' order (the IR's calls are positional):
// named arguments by their names, a parameter left out takes its default,
// and _ (an out value dropped) a variable of its own.
func (l *lowerer) actionCall(decl *ActionDecl, args []*Arg) (*ir.ActionCall, bool) {
	call := &ir.ActionCall{Action: l.action(decl)}
	for i, a := range orderArgs(decl.Params, args) {
		p := decl.Params[i]
		switch {
		case a != nil && a.Value != nil:
			call.Args = append(call.Args, l.expr(a.Value))
		case a == nil && p.Default != nil:
			call.Args = append(call.Args, l.expr(p.Default))
		default: // _, or an @optional parameter left out
			c := l.scope.control
			if c == nil {
				l.unsupported(p, "leaving out argument %s of action %s in a top-level action", p.Name.Name, decl.Name.Name)
				return nil, false
			}
			v := &ir.Var{Name: fmt.Sprintf("%sp4hls_unused%d", l.scope.prefix, len(c.Locals)), Type: l.typ(l.c.TypeOf[p.Type]), Span: p.Span()}
			c.Locals = append(c.Locals, v)
			call.Args = append(call.Args, &ir.VarRef{Pos: ir.Pos{Sp: p.Span()}, Var: v})
		}
	}
	return call, true
}

// callStmt lowers a call statement by what it calls.
func (l *lowerer) callStmt(e *CallExpr, sp ir.Pos) []ir.Stmt {
	switch ft := l.c.Types[e.Fn].(type) {
	case *ActionType:
		call, ok := l.actionCall(ft.Decl, e.Args)
		if !ok {
			return nil
		}
		return []ir.Stmt{&ir.CallAction{Pos: sp, Call: call}}
	case *FuncType:
		switch ft.Builtin {
		case "setValid", "setInvalid":
			return []ir.Stmt{&ir.SetValid{Pos: sp, X: l.expr(ft.Self), Valid: ft.Builtin == "setValid"}}
		case "push_front", "pop_front":
			n := l.constInt(e.Args[0].Value)
			return []ir.Stmt{&ir.StackShift{Pos: sp, X: l.expr(ft.Self), Count: int(n.Int64()), Push: ft.Builtin == "push_front"}}
		case "apply":
			if tt, ok := l.c.Types[ft.Self].(*TableType); ok {
				t, _ := l.scope.lookup(tt.Decl).(*ir.Table)
				return []ir.Stmt{&ir.ApplyTable{Pos: sp, Table: t}}
			}
			return l.applyControl(e, ft, sp)
		case "isValid":
			return nil // a value nobody reads
		}
		if ft.Self == nil && ft.Name == "static_assert" {
			return nil // checked when the program was
		}
		if call := l.call(e); call != nil {
			return []ir.Stmt{&ir.CallStmt{Pos: sp, Call: call}}
		}
		return nil
	}
	l.unsupported(e, "this call statement")
	return nil
}

func (l *lowerer) switchStmt(s *SwitchStmt, sp ir.Pos) ir.Stmt {
	if _, ok := l.c.Types[s.X].(*ActionRunType); ok {
		out := &ir.SwitchAction{Pos: sp}
		if m, ok := s.X.(*MemberExpr); ok {
			if call, ok := m.X.(*CallExpr); ok {
				out.Table = l.appliedTable(call)
			}
		}
		var pending []*ir.Action
		for _, cs := range s.Cases {
			ac := &ir.ActionCase{}
			if cs.Label == nil {
				ac.Default = true
			} else if n, ok := cs.Label.(*NameExpr); ok {
				if sym := l.c.Uses[n]; sym != nil {
					if at, ok := sym.Type.(*ActionType); ok {
						pending = append(pending, l.action(at.Decl))
					}
				}
			}
			if cs.Body == nil {
				continue // falls through: its label joins the next case
			}
			ac.Actions, pending = pending, nil
			ac.Body = l.stmts(cs.Body.Stmts)
			out.Cases = append(out.Cases, ac)
		}
		return out
	}
	out := &ir.Switch{Pos: sp, X: l.expr(s.X)}
	var pending []ir.Expr
	for _, cs := range s.Cases {
		sc := &ir.SwitchCase{}
		if cs.Label == nil {
			sc.Default = true
		} else {
			pending = append(pending, l.expr(cs.Label))
		}
		if cs.Body == nil {
			continue
		}
		sc.Values, pending = pending, nil
		sc.Body = l.stmts(cs.Body.Stmts)
		out.Cases = append(out.Cases, sc)
	}
	return out
}
