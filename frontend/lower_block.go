package frontend

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// Blocks and their locals. The IR has one level of parsers and controls
// (the package's blocks), so a parser or control instantiated inside another
// block is inlined where it is applied, as p4c's inliner does: its locals,
// actions, tables and extern instances join the enclosing block's under the
// instance's name as a prefix (c1_t for table t of instance c1), its
// parameters become variables copied in before and out after (or stand for
// their argument, when they are extern objects or constructor parameters,
// or inout ones whose argument the block may use in place),
// and a sub-parser's states join the parser's, the applying state split in
// two around them.

// lowerScope maps the declarations of one block instance to their IR: the
// program's blocks share the top scope; each inlined instance has its own,
// whose lookups fall back to the enclosing scopes.
type lowerScope struct {
	parent *lowerScope
	// prefix is prepended to the names of the scope's declarations.
	prefix string
	// decls maps declarations to their IR: *ir.Var, *ir.Action,
	// *ir.Table, *ir.Instance, *ir.ValueSet.
	decls map[Node]any
	// bound maps the parameters that stand for their argument (extern
	// objects, constructor parameters) to the argument.
	bound map[Node]ir.Expr
	// subs holds the parser and control instances declared in the scope.
	subs map[Node]*subBlock
	// control or parser is the block being built, where the scope's
	// declarations go.
	control *ir.Control
	parser  *ir.Parser
	// accept is the state an inlined parser's accept goes to, and suffix
	// tells apart the copies of its states when it is applied more than
	// once; accept is "" at the top.
	accept, suffix string
}

func newLowerScope(parent *lowerScope, prefix string) *lowerScope {
	s := &lowerScope{parent: parent, prefix: prefix, decls: map[Node]any{}, bound: map[Node]ir.Expr{}, subs: map[Node]*subBlock{}}
	if parent != nil {
		s.control, s.parser = parent.control, parent.parser
	}
	return s
}

// lookup returns the IR of a declaration, from the innermost scope that has
// it.
func (s *lowerScope) lookup(n Node) any {
	for ; s != nil; s = s.parent {
		if x, ok := s.decls[n]; ok {
			return x
		}
	}
	return nil
}

// boundTo returns the argument a parameter stands for, or nil.
func (s *lowerScope) boundTo(n Node) ir.Expr {
	for ; s != nil; s = s.parent {
		if x, ok := s.bound[n]; ok {
			return x
		}
	}
	return nil
}

// stateName is the name in the IR of a state named in the scope's parser.
func (s *lowerScope) stateName(name string) string {
	switch {
	case s.accept == "":
		return name
	case name == ir.StateAccept:
		return s.accept
	case name == ir.StateReject:
		return name
	}
	return s.prefix + name + s.suffix
}

// subBlock is a parser or control instance declared in a block, or the
// anonymous instance a direct application (C.apply()) makes.
type subBlock struct {
	name  string
	obj   *ObjectType
	args  []*Arg // constructor arguments
	scope *lowerScope
	calls int
}

// declareVar lowers a local variable of the scope's block.
func (l *lowerer) declareVar(d *VarDecl) {
	v := &ir.Var{Name: l.scope.prefix + d.Name.Name, Type: l.typ(l.c.TypeOf[d.Type]), Span: d.Span()}
	l.scope.decls[d] = v
	if l.scope.parser != nil {
		l.scope.parser.Locals = append(l.scope.parser.Locals, v)
	} else {
		l.scope.control.Locals = append(l.scope.control.Locals, v)
	}
}

// declareInstance lowers an instance among a block's locals: an extern
// object joins the block's instances; a parser or control waits to be
// inlined where it is applied.
func (l *lowerer) declareInstance(d *Instance) {
	if t, ok := l.c.TypeOf[d.Type].(*ObjectType); ok && (t.Kind == ObjParser || t.Kind == ObjControl) && d.Size == nil {
		l.scope.subs[d] = &subBlock{name: d.Name.Name, obj: t, args: d.Args}
		return
	}
	if d.Size != nil {
		l.unsupported(d, "arrays of instances")
		return
	}
	inst := l.instance(d)
	switch {
	case inst == nil:
	case l.scope.parser != nil:
		l.scope.parser.Instances = append(l.scope.parser.Instances, inst)
	default:
		l.scope.control.Instances = append(l.scope.control.Instances, inst)
	}
}

// controlLocals lowers the locals of a control into the scope's control.
func (l *lowerer) controlLocals(d *ControlDecl) {
	for _, local := range d.Locals {
		switch x := local.(type) {
		case *VarDecl:
			l.declareVar(x)
		case *Instance:
			l.declareInstance(x)
		case *ActionDecl:
			l.scope.control.Actions = append(l.scope.control.Actions, l.newAction(x))
		case *TableDecl:
			l.scope.control.Tables = append(l.scope.control.Tables, l.table(x))
		}
	}
}

// parserLocals lowers the locals of a parser into the scope's parser.
func (l *lowerer) parserLocals(d *ParserDecl) {
	for _, local := range d.Locals {
		switch x := local.(type) {
		case *VarDecl:
			l.declareVar(x)
		case *Instance:
			l.declareInstance(x)
		case *ValueSetDecl:
			vs := &ir.ValueSet{Name: l.scope.prefix + x.Name.Name, Elem: l.typ(l.c.TypeOf[x.Elem])}
			vs.Span = x.Span()
			if _, ok := l.c.Values[x.Size]; ok {
				vs.Size = int(l.constInt(x.Size).Int64())
			}
			l.scope.decls[x] = vs
			l.scope.parser.ValueSets = append(l.scope.parser.ValueSets, vs)
		}
	}
}

// localInits returns the assignments of the initial values of a block's
// locals, which run each time the block does.
func (l *lowerer) localInits(locals []Decl) []ir.Stmt {
	var out []ir.Stmt
	for _, local := range locals {
		if d, ok := local.(*VarDecl); ok && d.Init != nil {
			if v, ok := l.scope.lookup(d).(*ir.Var); ok {
				sp := ir.Pos{Sp: d.Span()}
				out = append(out, &ir.Assign{Pos: sp, LHS: &ir.VarRef{Pos: sp, Var: v}, RHS: l.operand(d.Init, l.expr(d.Init))})
			}
		}
	}
	return out
}

// subBlockOf returns the instance an apply is called on: a declared one,
// or the anonymous one of a direct application, made at its first use.
func (l *lowerer) subBlockOf(self Expr) *subBlock {
	n, ok := self.(*NameExpr)
	if !ok {
		return nil
	}
	sym := l.c.Uses[n]
	if sym == nil {
		return nil
	}
	if sym.Kind == SymInstance || sym.Kind == SymParam {
		for s := l.scope; s != nil; s = s.parent {
			if sub := s.subs[sym.Decl]; sub != nil {
				return sub
			}
		}
		return nil
	}
	if sub := l.scope.subs[n]; sub != nil {
		return sub
	}
	obj, ok := l.c.Types[n].(*ObjectType)
	if !ok {
		return nil
	}
	sub := &subBlock{name: fmt.Sprintf("%s_%d", obj.Name, len(l.scope.subs)), obj: obj}
	l.scope.subs[n] = sub
	return sub
}

// enter returns a lowerer for the scope of sub, made at its first use: its
// constructor parameters stand for their arguments, lowered here.
func (l *lowerer) enter(sub *subBlock, ctorParams []*Param) *lowerer {
	child := *l
	if sub.scope == nil {
		sub.scope = newLowerScope(l.scope, l.scope.prefix+sub.name+"_")
		l.bindCtorParams(sub.scope, ctorParams, sub.args)
	}
	child.scope = sub.scope
	return &child
}

// orderArgs matches arguments (all positional or all named, as the
// checker made sure) to parameters; a parameter with none gets nil.
func orderArgs(params []*Param, args []*Arg) []*Arg {
	ordered := make([]*Arg, len(params))
	for i, a := range args {
		if a.Name == nil {
			if i < len(ordered) {
				ordered[i] = a
			}
			continue
		}
		for j, p := range params {
			if p.Name.Name == a.Name.Name {
				ordered[j] = a
			}
		}
	}
	return ordered
}

// bindParams passes a call's arguments to the parameters of an inlined
// block: an extern object (or a parameter without direction) stands for
// its argument, and so does an inout parameter whose argument may be read
// and written in place (inPlace); the others become variables of the
// enclosing block, copied in before the block runs (in, inout) and out
// after (out, inout). Arguments are lowered in l's scope, the parameters'
// variables made in child's.
func (l *lowerer) bindParams(child *lowerer, params []*Param, args []*Arg, sp ir.Pos) (pre, post []ir.Stmt) {
	ordered := orderArgs(params, args)
	lowered := make([]ir.Expr, len(params))
	for i, p := range params {
		if a := ordered[i]; a != nil && a.Value != nil {
			lowered[i] = l.expr(a.Value)
		} else if a == nil && p.Default != nil {
			lowered[i] = l.expr(p.Default)
		}
	}
	for i, p := range params {
		arg := lowered[i]
		delete(child.scope.bound, p) // an earlier application's
		if _, isObj := l.c.TypeOf[p.Type].(*ObjectType); isObj || p.Dir == DirNone || p.Dir == DirInOut && inPlace(i, params, lowered) {
			if arg != nil {
				child.scope.bound[p] = arg
			}
			continue
		}
		v, ok := child.scope.decls[p].(*ir.Var)
		if !ok {
			v = &ir.Var{Name: child.scope.prefix + p.Name.Name, Type: l.typ(l.c.TypeOf[p.Type]), Span: p.Span()}
			child.scope.decls[p] = v
			if child.scope.parser != nil {
				child.scope.parser.Locals = append(child.scope.parser.Locals, v)
			} else {
				child.scope.control.Locals = append(child.scope.control.Locals, v)
			}
		}
		if arg == nil {
			continue // _ for an out parameter: its value is dropped
		}
		if p.Dir == DirIn || p.Dir == DirInOut {
			pre = append(pre, &ir.Assign{Pos: sp, LHS: &ir.VarRef{Pos: sp, Var: v}, RHS: arg})
		}
		if p.Dir == DirOut || p.Dir == DirInOut {
			post = append(post, &ir.Assign{Pos: sp, LHS: arg, RHS: &ir.VarRef{Pos: sp, Var: v}})
		}
	}
	return pre, post
}

// inPlace says whether inout parameter i may stand for its argument
// instead of a copy: the argument is a path whose place the block cannot
// move (no index but a constant), and no other argument the block writes
// overlaps it, so writing in place ends as the copy out would. A block
// that takes the headers or the standard metadata inout, as most
// sub-controls do, would otherwise copy all of them in and out, and every
// later statement would depend on the copies.
func inPlace(i int, params []*Param, args []ir.Expr) bool {
	if args[i] == nil || !fixedPath(args[i]) {
		return false
	}
	at := ir.Format(args[i])
	for j, p := range params {
		if j == i || args[j] == nil || p.Dir != DirOut && p.Dir != DirInOut {
			continue
		}
		other := ir.Format(args[j])
		if overlaps(at, other) {
			return false
		}
	}
	return true
}

// fixedPath says whether x is a variable, or a field or constant-index
// element of one.
func fixedPath(x ir.Expr) bool {
	switch x := x.(type) {
	case *ir.VarRef:
		return true
	case *ir.Member:
		return fixedPath(x.X)
	case *ir.StackElem:
		_, constant := x.Index.(*ir.Const)
		return constant && fixedPath(x.X)
	}
	return false
}

// overlaps says whether two paths (as ir.Format prints them) share
// storage: one is the other or inside it.
func overlaps(a, b string) bool {
	inside := func(x, y string) bool {
		return strings.HasPrefix(x, y) && (len(x) == len(y) || x[len(y)] == '.' || x[len(y)] == '[')
	}
	return inside(a, b) || inside(b, a)
}

// applyControl inlines the application of a sub-control.
func (l *lowerer) applyControl(e *CallExpr, ft *FuncType, sp ir.Pos) []ir.Stmt {
	obj, _ := l.c.Types[ft.Self].(*ObjectType)
	sub := l.subBlockOf(ft.Self)
	if sub != nil {
		obj = sub.obj // a parameter of a control type stands for its argument's control
	}
	d, ok := obj.declControl()
	switch {
	case !ok && obj != nil && obj.Kind == ObjParser:
		l.unsupported(e, "applying a sub-parser inside a statement; apply it directly in a state")
		return nil
	case !ok || sub == nil || d.Apply == nil:
		l.unsupported(e, "this application")
		return nil
	case len(d.TypeParams) > 0:
		l.unsupported(e, "applying a generic control inside another block")
		return nil
	}
	child := l.enter(sub, d.CtorParams)
	pre, post := l.bindParams(child, d.Params, e.Args, sp)
	if sub.calls == 0 {
		child.controlLocals(d)
	}
	sub.calls++
	body := append(pre, child.localInits(d.Locals)...)
	apply := child.stmts(d.Apply.Stmts)
	if returnsFrom(d.Apply) {
		apply = child.guardReturns(apply, sp)
	}
	body = append(body, apply...)
	return []ir.Stmt{&ir.Block{Pos: sp, Body: append(body, post...)}}
}

// guardReturns rewrites an inlined apply block that returns: a flag,
// cleared first, is set where it returned, and the statements after a
// return that may have run are skipped when it is set (a return in a loop
// also leaves the loop).
func (l *lowerer) guardReturns(body []ir.Stmt, sp ir.Pos) []ir.Stmt {
	done := &ir.Var{Name: l.scope.prefix + "returned", Type: ir.Bool{}, Span: sp.Sp}
	l.scope.control.Locals = append(l.scope.control.Locals, done)
	set := func(v bool) ir.Stmt {
		return &ir.Assign{Pos: sp, LHS: &ir.VarRef{Pos: sp, Var: done}, RHS: ir.BoolConst(v, sp.Sp)}
	}
	notDone := &ir.Unary{Pos: sp, Op: ir.LNot, X: &ir.VarRef{Pos: sp, Var: done}, T: ir.Bool{}}
	var list func(ss []ir.Stmt, inLoop bool) ([]ir.Stmt, bool)
	var one func(s ir.Stmt, inLoop bool) (ir.Stmt, bool)
	list = func(ss []ir.Stmt, inLoop bool) ([]ir.Stmt, bool) {
		var out []ir.Stmt
		anyReturn := false
		for i, s := range ss {
			s, returns := one(s, inLoop)
			out = append(out, s)
			anyReturn = anyReturn || returns
			if returns && i < len(ss)-1 {
				rest, _ := list(ss[i+1:], inLoop)
				return append(out, &ir.If{Pos: sp, Cond: notDone, Then: rest}), true
			}
		}
		return out, anyReturn
	}
	one = func(s ir.Stmt, inLoop bool) (ir.Stmt, bool) {
		var r1, r2 bool
		switch s := s.(type) {
		case *ir.Return:
			if inLoop {
				return &ir.Block{Pos: sp, Body: []ir.Stmt{set(true), &ir.Break{Pos: sp}}}, true
			}
			return set(true), true
		case *ir.If:
			s.Then, r1 = list(s.Then, inLoop)
			s.Else, r2 = list(s.Else, inLoop)
		case *ir.Block:
			s.Body, r1 = list(s.Body, inLoop)
		case *ir.For:
			s.Body, r1 = list(s.Body, true)
		case *ir.Switch:
			for _, c := range s.Cases {
				var r bool
				c.Body, r = list(c.Body, inLoop)
				r1 = r1 || r
			}
		case *ir.SwitchAction:
			for _, c := range s.Cases {
				var r bool
				c.Body, r = list(c.Body, inLoop)
				r1 = r1 || r
			}
		}
		return s, r1 || r2
	}
	out, _ := list(body, false)
	return append([]ir.Stmt{set(false)}, out...)
}

func (o *ObjectType) declControl() (*ControlDecl, bool) {
	if o == nil {
		return nil, false
	}
	d, ok := o.Decl.(*ControlDecl)
	return d, ok
}

// returnsFrom reports whether a statement holds a return outside the
// actions and functions it may declare (which have their own).
func returnsFrom(s Stmt) bool {
	switch s := s.(type) {
	case *ReturnStmt:
		return true
	case *BlockStmt:
		for _, st := range s.Stmts {
			if returnsFrom(st) {
				return true
			}
		}
	case *IfStmt:
		return returnsFrom(s.Then) || s.Else != nil && returnsFrom(s.Else)
	case *SwitchStmt:
		for _, c := range s.Cases {
			if c.Body != nil && returnsFrom(c.Body) {
				return true
			}
		}
	case *ForStmt:
		return returnsFrom(s.Body)
	case *ForInStmt:
		return returnsFrom(s.Body)
	}
	return false
}

// state lowers a parser state. A sub-parser applied in it splits it: the
// statements before and the copy-in go to the state, which goes on to the
// sub-parser's start; the sub-parser's accept goes to a new state with the
// copy-out, the statements after and the original transition.
func (l *lowerer) state(s *ParserState) []*ir.State {
	name := l.scope.stateName(s.Name.Name)
	cur := &ir.State{Name: name, Next: ir.StateReject, Span: s.Span()}
	out := []*ir.State{cur}
	for _, st := range s.Body {
		call, ft, ok := l.subParserApply(st)
		if !ok {
			cur.Body = append(cur.Body, l.stmt(st)...)
			continue
		}
		cont := fmt.Sprintf("%s_after%d", name, len(out))
		pre, start, states, post := l.inlineParser(call, ft, cont, ir.Pos{Sp: st.Span()})
		cur.Body = append(cur.Body, pre...)
		cur.Next = start
		out = append(out, states...)
		cur = &ir.State{Name: cont, Next: ir.StateReject, Span: s.Span(), Body: post}
		out = append(out, cur)
	}
	if t := s.Transition; t != nil {
		if t.Next != nil {
			cur.Next = l.scope.stateName(t.Next.Name)
		} else {
			cur.Select = l.selectExpr(t.Select)
		}
	}
	return out
}

// subParserApply recognizes p.apply(...) of a sub-parser as a statement.
func (l *lowerer) subParserApply(s Stmt) (*CallExpr, *FuncType, bool) {
	cs, ok := s.(*CallStmt)
	if !ok {
		return nil, nil, false
	}
	ft, ok := l.c.Types[cs.Call.Fn].(*FuncType)
	if !ok || ft.Builtin != "apply" {
		return nil, nil, false
	}
	obj, ok := l.c.Types[ft.Self].(*ObjectType)
	return cs.Call, ft, ok && obj.Kind == ObjParser
}

// inlineParser lowers one application of a sub-parser whose accept goes
// to state cont. It returns the copy-in (with the sub-parser's local
// initializers), the name of the sub-parser's start state, its states, and
// the copy-out.
func (l *lowerer) inlineParser(e *CallExpr, ft *FuncType, cont string, sp ir.Pos) (pre []ir.Stmt, start string, states []*ir.State, post []ir.Stmt) {
	obj := l.c.Types[ft.Self].(*ObjectType)
	sub := l.subBlockOf(ft.Self)
	if sub != nil {
		obj = sub.obj
	}
	d, ok := obj.Decl.(*ParserDecl)
	switch {
	case !ok || sub == nil || !d.HasBody:
		l.unsupported(e, "this application")
		return nil, ir.StateReject, nil, nil
	case len(d.TypeParams) > 0:
		l.unsupported(e, "applying a generic parser inside another parser")
		return nil, ir.StateReject, nil, nil
	}
	child := l.enter(sub, d.CtorParams)
	pre, post = l.bindParams(child, d.Params, e.Args, sp)
	if sub.calls == 0 {
		child.parserLocals(d)
	}
	sub.calls++
	child.scope.accept = cont
	child.scope.suffix = ""
	if sub.calls > 1 {
		child.scope.suffix = fmt.Sprintf("_%d", sub.calls)
	}
	pre = append(pre, child.localInits(d.Locals)...)
	for _, s := range d.States {
		states = append(states, child.state(s)...)
	}
	return pre, child.scope.stateName("start"), states, post
}

// withCtorArgs returns a lowerer for a block instantiated by the
// constructor call inst (a package's argument), whose constructor
// parameters stand for the call's arguments.
func (l *lowerer) withCtorArgs(params []*Param, inst Expr) *lowerer {
	child := *l
	child.scope = newLowerScope(l.scope, "")
	if call, ok := inst.(*CallExpr); ok {
		l.bindCtorParams(child.scope, params, call.Args)
	}
	return &child
}

// bindCtorParams makes the constructor parameters of a block instance
// stand for their arguments, lowered in l's scope: a value for a value, an
// instance to inline for a parser or control.
func (l *lowerer) bindCtorParams(scope *lowerScope, params []*Param, args []*Arg) {
	ordered := orderArgs(params, args)
	for i, p := range params {
		var value Expr
		switch {
		case ordered[i] != nil && ordered[i].Value != nil:
			value = ordered[i].Value
		case p.Default != nil:
			value = p.Default
		default:
			continue
		}
		if obj, ok := l.c.Types[value].(*ObjectType); ok && (obj.Kind == ObjParser || obj.Kind == ObjControl) {
			scope.subs[p] = l.blockArg(p, obj, value)
			continue
		}
		scope.bound[p] = l.expr(value)
	}
}

// blockArg is the instance a parser- or control-typed constructor
// parameter stands for: one its argument makes (C1()) or one declared
// where the argument was written.
func (l *lowerer) blockArg(p *Param, obj *ObjectType, value Expr) *subBlock {
	switch v := value.(type) {
	case *CallExpr:
		return &subBlock{name: p.Name.Name, obj: obj, args: v.Args}
	case *NameExpr:
		if sub := l.subBlockOf(v); sub != nil {
			return sub
		}
	}
	return &subBlock{name: p.Name.Name, obj: obj}
}

// propertyInstance lowers an extern instantiated in a table property
// (counters = direct_counter(CounterType.packets)): an instance of the
// table's control named after the table and the property.
func (l *lowerer) propertyInstance(t *ir.Table, p *TableProp) *ir.Instance {
	call, ok := p.Value.(*CallExpr)
	if !ok {
		return nil
	}
	obj, ok := l.c.Types[call].(*ObjectType)
	if !ok || obj.Kind != ObjExtern || l.scope.control == nil {
		return nil
	}
	inst := &ir.Instance{Name: t.Name + "_" + p.Name.Name, Type: l.typ(obj).(*ir.Extern), Span: p.Span()}
	for _, a := range call.Args {
		if a.Value != nil {
			inst.Args = append(inst.Args, l.expr(a.Value))
		}
	}
	l.scope.control.Instances = append(l.scope.control.Instances, inst)
	return inst
}
