package frontend

import (
	"math/big"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// ------------------------------------------------------------------ functions, actions

func (c *checker) funcDecl(d *FuncDecl) {
	c.checkAnnotations(d.Proto.Annos, "a function")
	c.checkProto(d.Proto, nil, roleFunction)
	c.out.FuncOf[d.Proto] = d
	// Declared after its body: a function may not call itself (P4-16
	// §10: no recursion).
	c.funcBody(d)
	c.declare(&Symbol{Name: d.Proto.Name.Name, Kind: SymFunc, Decl: d, Type: &FuncType{Name: d.Proto.Name.Name, Protos: []*FuncProto{d.Proto}}})
}

func (c *checker) funcBody(d *FuncDecl) {
	// A function (or an abstract method's body inside a parser or
	// control) is a context of its own.
	saved, parser, control, action := c.function, c.parser, c.control, c.action
	c.function, c.parser, c.control, c.action = d.Proto, nil, nil, nil
	defer func() { c.function, c.parser, c.control, c.action = saved, parser, control, action }()
	c.push()
	defer c.pop()
	c.declareTypeParams(d.Proto.TypeParams)
	c.declareParams(d.Proto.Params, false)
	c.blockBody(d.Body)
	if ret := c.resolveType(d.Proto.Return); ret != tVoid && !isInvalid(ret) && !alwaysReturns(d.Body) {
		c.errorf(d.Proto.Name, diag.MissingReturn, "function %s can end without returning a value", d.Proto.Name.Name)
	}
}

// alwaysReturns reports whether every path through s ends in return or exit.
func alwaysReturns(s Stmt) bool {
	switch s := s.(type) {
	case *ReturnStmt, *ExitStmt:
		return true
	case *BlockStmt:
		for _, st := range s.Stmts {
			if alwaysReturns(st) {
				return true
			}
		}
	case *IfStmt:
		return s.Else != nil && alwaysReturns(s.Then) && alwaysReturns(s.Else)
	}
	return false
}

// declareParams declares parameters; actionParams marks directionless ones
// read-only (they are action data).
func (c *checker) declareParams(params []*Param, actionParams bool) {
	for _, p := range params {
		t := c.resolveType(p.Type)
		if p.Default != nil {
			c.expr(p.Default, t)
			if c.convert(p.Default, t, "default value of "+p.Name.Name) && !c.knownAtCompileTime(p.Default) {
				c.errorf(p.Default, diag.NotConstant, "the default value of %s must be a compile-time constant", p.Name.Name)
			}
		}
		readOnly := p.Dir == DirIn || (p.Dir == DirNone && actionParams)
		if p.Dir == DirNone && !actionParams {
			// Constructor parameters and extern arguments: compile-time values.
			readOnly = true
		}
		c.declare(&Symbol{Name: p.Name.Name, Kind: SymParam, Decl: p, Type: t, Dir: p.Dir, ReadOnly: readOnly})
	}
}

func (c *checker) actionDecl(d *ActionDecl) {
	c.checkAnnotations(d.Annos, "an action")
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymAction, Decl: d, Type: &ActionType{Decl: d}})
	saved := c.action
	c.action = d
	defer func() { c.action = saved }()
	c.push()
	defer c.pop()
	seenDirless := false
	for _, p := range d.Params {
		if p.Dir == DirNone {
			seenDirless = true
		} else if seenDirless {
			c.errorf(p, diag.WrongDirection, "parameter %s of action %s has a direction but follows a directionless one; directionless parameters come last", p.Name.Name, d.Name.Name)
		}
	}
	c.declareParams(d.Params, true)
	c.checkParams(d.Params, roleAction)
	c.blockBody(d.Body)
}

// ------------------------------------------------------------------ parsers

func (c *checker) parserBody(d *ParserDecl) {
	saved := c.parser
	c.parser = d
	defer func() { c.parser = saved }()
	c.push()
	defer c.pop()
	c.declareTypeParams(d.TypeParams)
	c.declareParams(d.Params, false)
	c.declareParams(d.CtorParams, false)
	c.checkParams(d.Params, roleBlockApply)
	c.checkParams(d.CtorParams, roleParserCtor)
	// Locals may shadow parameters (p4c warns): a scope of their own.
	c.push()
	defer c.pop()
	for _, l := range d.Locals {
		c.localDecl(l)
	}
	states := map[string]*ParserState{}
	for _, s := range d.States {
		if s.Name.Name == "accept" || s.Name.Name == "reject" {
			c.errorf(s.Name, diag.BadParser, "state %s is built in and cannot be declared", s.Name.Name)
			continue
		}
		if states[s.Name.Name] != nil {
			c.errorf(s.Name, diag.Redeclared, "state %s is declared twice in parser %s", s.Name.Name, d.Name.Name)
			continue
		}
		states[s.Name.Name] = s
		c.declare(&Symbol{Name: s.Name.Name, Kind: SymState, Decl: s, Type: tState})
	}
	if states["start"] == nil {
		c.errorf(d.Name, diag.BadParser, "parser %s has no start state", d.Name.Name)
	}
	for _, s := range d.States {
		c.parserState(s)
	}
	c.reachableStates(d, states)
}

func (c *checker) parserState(s *ParserState) {
	c.checkAnnotations(s.Annos, "a parser state")
	c.push()
	for _, st := range s.Body {
		c.stmt(st)
	}
	if t := s.Transition; t != nil {
		if t.Next != nil {
			c.stateName(t.Next)
		} else {
			c.selectExpr(t.Select)
		}
	}
	c.pop()
}

func (c *checker) stateName(id *Ident) {
	sym := c.scope.Lookup(id.Name)
	if sym == nil {
		c.errorf(id, diag.BadParser, "transition to undeclared state %s", id.Name)
		return
	}
	if sym.Kind != SymState {
		c.errorf(id, diag.BadParser, "%s is not a parser state", id.Name)
	}
}

func (c *checker) selectExpr(s *SelectExpr) {
	types := make([]Type, len(s.Exprs))
	for i, e := range s.Exprs {
		types[i] = c.expr(e, nil)
		switch types[i].(type) {
		case *BitsType, BoolType, *EnumType, ErrorType, InvalidType, *NewType, *TupleType:
		case IntType:
			c.errorf(e, diag.TypeMismatch, "a select expression needs a width; cast the integer")
		default:
			c.errorf(e, diag.TypeMismatch, "cannot select on a value of type %s", types[i])
		}
	}
	for _, sc := range s.Cases {
		c.keysets(sc.Keys, types, "select case")
		c.stateName(sc.State)
	}
}

// keysets checks keyset expressions against the types of the select
// expressions or table keys they match.
func (c *checker) keysets(keys []Expr, types []Type, what string) {
	if len(keys) == 1 {
		switch keys[0].(type) {
		case *DefaultExpr, *DontCareExpr:
			return
		}
		if len(types) > 1 {
			if vs := c.valueSet(keys[0]); vs != nil {
				return
			}
		}
	}
	if len(keys) != len(types) {
		c.errorf(keys[0], diag.WrongArgumentCount, "%s has %d values, but there are %d keys", what, len(keys), len(types))
		return
	}
	for i, k := range keys {
		c.keyset(k, types[i])
	}
}

func (c *checker) valueSet(e Expr) *Symbol {
	n, ok := e.(*NameExpr)
	if !ok {
		return nil
	}
	sym := c.lookup(n)
	if sym == nil || sym.Kind != SymValueSet {
		return nil
	}
	c.out.Uses[n] = sym
	c.out.Types[n] = sym.Type
	return sym
}

func (c *checker) keyset(k Expr, t Type) {
	constant := func(e Expr) {
		c.expr(e, t)
		if en, ok := t.(*EnumType); ok && en.Underlying != nil {
			// An integer keyset matches a serializable enum by value.
			if v, ok := c.out.Values[e].(*big.Int); ok && c.out.Types[e] == tInt {
				c.out.Types[e] = en.Underlying
				c.out.Values[e] = wrap(v, en.Underlying)
				return
			}
		}
		if !c.convert(e, t, "keyset value") {
			return
		}
		if _, ok := c.out.Values[e]; !ok && !isInvalid(c.out.Types[e]) {
			c.errorf(e, diag.NotConstant, "a keyset value must be a compile-time constant")
		}
	}
	switch k := k.(type) {
	case *DefaultExpr, *DontCareExpr:
	case *MaskExpr:
		constant(k.Value)
		constant(k.Mask)
	case *RangeExpr:
		constant(k.Lo)
		constant(k.Hi)
	default:
		if vs := c.valueSet(k); vs != nil {
			return
		}
		constant(k)
	}
}

// reachableStates warns about states no transition reaches.
func (c *checker) reachableStates(d *ParserDecl, states map[string]*ParserState) {
	seen := map[string]bool{}
	var visit func(name string)
	visit = func(name string) {
		s := states[name]
		if s == nil || seen[name] {
			return
		}
		seen[name] = true
		if s.Transition == nil {
			return
		}
		if s.Transition.Next != nil {
			visit(s.Transition.Next.Name)
			return
		}
		for _, sc := range s.Transition.Select.Cases {
			visit(sc.State.Name)
		}
	}
	visit("start")
	ends := false // some reachable state can end the parser
	for name := range seen {
		t := states[name].Transition
		ends = ends || t == nil || t.Select != nil || t.Next.Name == "accept" || t.Next.Name == "reject" || states[t.Next.Name] == nil
	}
	if states["start"] != nil && !ends {
		c.errorf(d.Name, diag.BadParser, "parser %s never reaches accept or reject", d.Name.Name)
	}
	for _, s := range d.States {
		if states[s.Name.Name] == s && !seen[s.Name.Name] && states["start"] != nil {
			c.diags.Warnf(s.Name, diag.BadParser, "state %s is unreachable from start", s.Name.Name)
		}
	}
}

// ------------------------------------------------------------------ controls

func (c *checker) controlBody(d *ControlDecl) {
	saved := c.control
	c.control = d
	defer func() { c.control = saved }()
	c.push()
	defer c.pop()
	c.declareTypeParams(d.TypeParams)
	c.declareParams(d.Params, false)
	c.declareParams(d.CtorParams, false)
	c.checkParams(d.Params, roleBlockApply)
	c.checkParams(d.CtorParams, roleControlCtor)
	// Locals may shadow parameters (p4c warns): a scope of their own.
	c.push()
	defer c.pop()
	for _, l := range d.Locals {
		c.localDecl(l)
	}
	c.blockBody(d.Apply)
}

// localDecl checks a declaration inside a parser, control or block.
func (c *checker) localDecl(d Decl) {
	switch d := d.(type) {
	case *ConstDecl:
		c.constDecl(d)
	case *VarDecl:
		c.varDecl(d)
	case *Instance:
		c.instance(d)
	case *ActionDecl:
		c.actionDecl(d)
	case *TableDecl:
		c.tableDecl(d)
	case *ValueSetDecl:
		elem := c.resolveType(d.Elem)
		if !isInvalid(elem) && !isValueSetElem(elem) {
			c.errorf(d.Elem, diag.TypeMismatch, "%s: illegal type for a value_set's elements", elem)
		}
		size, _ := c.constInt(d.Size, "value_set size")
		c.declare(&Symbol{Name: d.Name.Name, Kind: SymValueSet, Decl: d, Type: &ValueSetType{Elem: elem, Size: size}, ReadOnly: true})
	default:
		c.errorf(d, diag.Unsupported, "this declaration is not allowed here")
	}
}

func (c *checker) varDecl(d *VarDecl) {
	c.checkAnnotations(d.Annos, "a variable")
	t := c.resolveType(d.Type)
	if d.Init != nil {
		c.expr(d.Init, t)
		c.convert(d.Init, t, "initializer of "+d.Name.Name)
	}
	switch t.(type) {
	case *ObjectType, VoidType, MatchKindType, StringType, IntType:
		c.errorf(d.Type, diag.TypeMismatch, "a variable cannot have type %s", t)
	}
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymVar, Decl: d, Type: t})
}

// isValueSetElem reports whether a value_set may hold values of type t:
// bits and what is made of bits.
func isValueSetElem(t Type) bool {
	switch t := t.(type) {
	case *StructType:
		return t.Kind == KindStruct
	case *TupleType:
		for _, e := range t.Elems {
			if !isValueSetElem(e) {
				return false
			}
		}
		return true
	}
	return isSerializable(t)
}

// ------------------------------------------------------------------ tables

// matchKindsAllowed are the key types each match kind accepts beyond bit<W>.
func (c *checker) tableDecl(d *TableDecl) {
	c.checkAnnotations(d.Annos, "a table")
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymTable, Decl: d, Type: &TableType{Decl: d}})
	seen := map[string]*TableProp{}
	var keyTypes []Type
	actions := map[string]*ActionDecl{}
	var entries []*TableProp
	for _, p := range d.Props {
		if prev := seen[p.Name.Name]; prev != nil {
			c.errorf(p.Name, diag.BadTable, "table %s has two %s properties", d.Name.Name, p.Name.Name).Note(prev.Name, "the first is here")
			continue
		}
		seen[p.Name.Name] = p
		switch p.Name.Name {
		case "key":
			keyTypes = c.tableKeys(d, p)
		case "actions":
			for _, ar := range p.Actions {
				if a := c.actionRef(ar, false); a != nil {
					if actions[a.Name.Name] != nil {
						c.errorf(ar.Name, diag.BadTable, "action %s is listed twice in table %s", a.Name.Name, d.Name.Name)
					}
					actions[a.Name.Name] = a
				}
			}
		case "entries":
			entries = append(entries, p)
		case "default_action":
			c.defaultAction(d, p, actions)
		case "size":
			t := c.expr(p.Value, nil)
			if v, ok := c.out.Values[p.Value].(*big.Int); ok && v.Sign() < 0 {
				c.errorf(p.Value, diag.BadTable, "size of table %s must not be negative", d.Name.Name)
			} else if _, isInt := stripNewTypes(t).(*BitsType); !ok && !isInt && t != tInt && !isInvalid(t) {
				c.errorf(p.Value, diag.BadTable, "size of table %s must be an integer, not %s", d.Name.Name, t)
			}
		default:
			if p.Value != nil {
				c.expr(p.Value, nil)
			}
		}
	}
	if seen["actions"] == nil {
		c.errorf(d.Name, diag.BadTable, "table %s has no actions property", d.Name.Name)
	}
	defer c.tableRules(d, seen) // after the entries are checked
	for _, p := range entries {
		if seen["key"] == nil && len(p.Entries) > 0 {
			c.errorf(p.Name, diag.BadTable, "table %s has entries but no key", d.Name.Name)
			continue
		}
		for _, e := range p.Entries {
			c.tableEntry(d, e, keyTypes, actions)
		}
	}
}

func (c *checker) tableKeys(d *TableDecl, p *TableProp) []Type {
	var types []Type
	for _, k := range p.Keys {
		t := c.expr(k.Expr, nil)
		types = append(types, t)
		sym := c.scope.Lookup(k.Match.Name)
		if sym == nil || sym.Kind != SymMatchKind {
			c.errorf(k.Match, diag.BadTable, "%s is not a match kind (declared: %s)", k.Match.Name, joinNames(c.out.MatchKinds))
			continue
		}
		switch t.(type) {
		case *BitsType, BoolType, *EnumType, ErrorType, InvalidType, *NewType:
		default:
			c.errorf(k.Expr, diag.TypeMismatch, "a table key must be bit<W>, int<W>, bool, an enum or error, not %s", t)
		}
		if _, isBits := stripNewTypes(t).(*BitsType); (k.Match.Name == "lpm" || k.Match.Name == "range") && !isBits && !isInvalid(t) {
			c.errorf(k.Expr, diag.TypeMismatch, "%s matching needs a bit<W> or int<W> key, not %s", k.Match.Name, t)
		}
	}
	return types
}

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

// actionRef resolves an action named in a table. Arguments, when given,
// bind its parameters with directions; full is set where every parameter
// needs a value (default_action, entries).
func (c *checker) actionRef(ar *ActionRef, full bool) *ActionDecl {
	scope := c.scope
	if ar.Global {
		scope = scope.root()
	}
	sym := scope.Lookup(ar.Name.Name)
	if sym == nil {
		c.errorf(ar.Name, diag.UndeclaredName, "undeclared action %s", ar.Name.Name)
		return nil
	}
	at, ok := sym.Type.(*ActionType)
	if !ok {
		c.errorf(ar.Name, diag.BadTable, "%s is not an action", ar.Name.Name)
		return nil
	}
	a := at.Decl
	c.out.ActionOf[ar] = a
	call := &CallExpr{At: ar.At, Args: ar.Args}
	if full {
		c.bindArgs(call, "action "+a.Name.Name, a.Params, map[*TypeVar]Type{}, c.scope, true)
		return a
	}
	var directional []*Param
	for _, p := range a.Params {
		if p.Dir != DirNone {
			directional = append(directional, p)
		}
	}
	if !ar.HasArgs && len(directional) > 0 {
		c.errorf(ar.Name, diag.WrongArgumentCount, "action %s has parameters with directions; bind them here, as %s(...)", a.Name.Name, a.Name.Name)
		return a
	}
	if ar.HasArgs {
		c.bindArgs(call, "action "+a.Name.Name, directional, map[*TypeVar]Type{}, c.scope, true)
	}
	return a
}

func (c *checker) defaultAction(d *TableDecl, p *TableProp, actions map[string]*ActionDecl) {
	ar := exprToActionRef(p.Value)
	if ar == nil {
		c.errorf(p.Value, diag.BadTable, "default_action of table %s must name an action, as a() or a(args)", d.Name.Name)
		return
	}
	a := c.actionRef(ar, true)
	if a != nil {
		c.out.ActionOf[p.Value] = a
	}
	if a != nil && actions[a.Name.Name] != a {
		c.errorf(p.Value, diag.BadTable, "default action %s is not in the actions of table %s (another action of that name is)", a.Name.Name, d.Name.Name)
	}
}

// exprToActionRef reads `a` or `a(args)` written as an expression.
func exprToActionRef(e Expr) *ActionRef {
	switch x := e.(type) {
	case *NameExpr:
		return &ActionRef{At: x.At, Name: &Ident{At: x.At, Name: x.Name}, Global: x.Global}
	case *CallExpr:
		if n, ok := x.Fn.(*NameExpr); ok {
			return &ActionRef{At: x.At, Name: &Ident{At: n.At, Name: n.Name}, Global: n.Global, Args: x.Args, HasArgs: true}
		}
	}
	return nil
}

func (c *checker) tableEntry(d *TableDecl, e *Entry, keyTypes []Type, actions map[string]*ActionDecl) {
	if e.Priority != nil {
		c.expr(e.Priority, nil)
		if v, ok := c.out.Values[e.Priority].(*big.Int); !ok || v.Sign() < 0 {
			c.errorf(e.Priority, diag.BadTable, "an entry priority must be a non-negative integer constant")
		}
	}
	c.keysets(e.Keys, keyTypes, "entry")
	a := c.actionRef(e.Action, true)
	if a != nil && actions[a.Name.Name] == nil {
		c.errorf(e.Action.Name, diag.BadTable, "action %s of this entry is not in the actions of table %s", a.Name.Name, d.Name.Name)
	}
}

// ------------------------------------------------------------------ statements

// blockBody checks a block's statements in a new scope.
func (c *checker) blockBody(b *BlockStmt) {
	c.push()
	defer c.pop()
	c.blockAnnotations(b)
	for _, s := range b.Stmts {
		c.stmt(s)
	}
}

func (c *checker) blockAnnotations(b *BlockStmt) {
	if a := b.Annos.Find("atomic"); a != nil && c.parser != nil {
		c.errorf(a, diag.MisplacedAtomic, "@atomic blocks are not allowed in a parser; put the block in an action")
	}
}

func (c *checker) stmt(s Stmt) {
	switch s := s.(type) {
	case *AssignStmt:
		c.assign(s)
	case *CallStmt:
		c.expr(s.Call, nil)
	case *ExprStmt:
		c.expr(s.X, nil)
		c.errorf(s, diag.BadStatement, "this expression is not a statement; only calls and assignments are")
	case *IfStmt:
		t := c.expr(s.Cond, tBool)
		if !isInvalid(t) && t != tBool {
			c.errorf(s.Cond, diag.TypeMismatch, "an if condition must be bool, not %s", t)
		}
		c.nested(s.Then)
		if s.Else != nil {
			c.nested(s.Else)
		}
	case *BlockStmt:
		c.blockBody(s)
	case *ExitStmt:
		if c.parser != nil || c.function != nil {
			c.errorf(s, diag.BadStatement, "exit is allowed only in controls and actions")
		}
	case *ReturnStmt:
		c.returnStmt(s)
	case *EmptyStmt:
	case *BreakStmt, *ContinueStmt:
		if c.loops == 0 {
			c.errorf(s, diag.BadStatement, "break and continue are allowed only in a loop")
		}
	case *SwitchStmt:
		c.switchStmt(s)
	case *ForStmt:
		c.forStmt(s)
	case *ForInStmt:
		c.forInStmt(s)
	case *DeclStmt:
		switch d := s.Decl.(type) {
		case *VarDecl:
			c.shadowsParam(d.Name)
			c.varDecl(d)
		case *ConstDecl:
			c.constDecl(d)
		case *Instance:
			c.errorf(d, diag.BadStatement, "instances must be declared before apply, with the control's other declarations")
		}
	}
}

// shadowsParam reports a variable declared among statements with the name
// of a parameter of its parser, control or action, which p4c refuses.
func (c *checker) shadowsParam(id *Ident) {
	var params []*Param
	switch {
	case c.action != nil:
		params = c.action.Params
	case c.control != nil:
		params = c.control.Params
	case c.parser != nil:
		params = c.parser.Params
	}
	for _, p := range params {
		if p.Name.Name == id.Name {
			c.errorf(id, diag.Redeclared, "the declaration of %s shadows a parameter", id.Name)
		}
	}
}

// nested checks a statement that forms its own scope (if branches, loop
// bodies). A block makes its scope itself, and an if declares nothing in
// one, so neither gets another: a chain of else ifs stays a scope or two
// deep, and a name's lookup does not walk a scope for every arm before it.
func (c *checker) nested(s Stmt) {
	switch s.(type) {
	case *BlockStmt, *IfStmt:
		c.stmt(s)
		return
	}
	c.push()
	c.stmt(s)
	c.pop()
}

func (c *checker) assign(s *AssignStmt) {
	lt := c.expr(s.LHS, nil)
	c.checkLvalue(s.LHS, "assign to")
	if isInvalid(lt) {
		c.expr(s.RHS, nil)
		return
	}
	if s.Op == ir.NoOp {
		c.expr(s.RHS, lt)
		c.convert(s.RHS, lt, "assignment")
		return
	}
	// a op= b means a = a op b.
	rhs := &BinaryExpr{At: s.At, Op: s.Op, X: s.LHS, Y: s.RHS}
	t := c.expr(rhs, lt)
	if !isInvalid(t) && !sameType(t, lt) {
		c.errorf(s, diag.TypeMismatch, "%s= gives %s, which cannot be assigned to %s", s.Op, t, lt)
	}
}

func (c *checker) returnStmt(s *ReturnStmt) {
	if c.parser != nil {
		c.errorf(s, diag.BadStatement, "return is not allowed in a parser; use transition accept or reject")
		return
	}
	if c.function == nil {
		if s.Value != nil {
			c.errorf(s.Value, diag.BadStatement, "an action or control cannot return a value")
		}
		return
	}
	ret := c.resolveType(c.function.Return)
	if s.Value == nil {
		if ret != tVoid && !isInvalid(ret) {
			c.errorf(s, diag.BadStatement, "function %s must return a value of type %s", c.function.Name.Name, ret)
		}
		return
	}
	if ret == tVoid {
		c.errorf(s.Value, diag.BadStatement, "function %s returns void; it cannot return a value", c.function.Name.Name)
		return
	}
	c.expr(s.Value, ret)
	c.convert(s.Value, ret, "return value")
}

func (c *checker) switchStmt(s *SwitchStmt) {
	t := c.expr(s.X, nil)
	seen := map[string]bool{}
	for i, cs := range s.Cases {
		if cs.Label == nil {
			if seen["default"] {
				c.errorf(cs, diag.BadStatement, "switch has two default cases")
			}
			seen["default"] = true
			if i != len(s.Cases)-1 {
				c.errorf(cs, diag.BadStatement, "default must be the last case of a switch")
			}
		} else {
			c.switchLabel(cs.Label, t, seen)
		}
		if cs.Body != nil {
			c.blockBody(cs.Body)
		}
	}
}

func (c *checker) switchLabel(label Expr, t Type, seen map[string]bool) {
	key := ""
	switch st := t.(type) {
	case InvalidType:
		return
	case *ActionRunType:
		n, ok := label.(*NameExpr)
		if !ok || !tableHasAction(st.Table, n.Name) {
			c.errorf(label, diag.BadStatement, "switch on %s.apply().action_run: case %s is not an action of the table", st.Table.Name.Name, describe(label))
			return
		}
		c.out.Uses[n] = c.lookup(n)
		key = n.Name
	case *BitsType, *EnumType, ErrorType:
		c.expr(label, t)
		c.convert(label, t, "switch case")
		v, ok := c.out.Values[label]
		if !ok {
			c.errorf(label, diag.NotConstant, "a switch case must be a compile-time constant")
			return
		}
		key = valueKey(v)
	default:
		c.errorf(label, diag.TypeMismatch, "cannot switch on a value of type %s", t)
		return
	}
	if seen[key] {
		c.errorf(label, diag.BadStatement, "case %s appears twice in this switch", describe(label))
	}
	seen[key] = true
}

func valueKey(v any) string {
	switch v := v.(type) {
	case *big.Int:
		return v.String()
	case enumMember:
		return v.Name
	case errorMember:
		return string(v)
	}
	return ""
}

func tableHasAction(t *TableDecl, name string) bool {
	for _, p := range t.Props {
		for _, a := range p.Actions {
			if a.Name.Name == name {
				return true
			}
		}
	}
	return false
}

// forInStmt checks for (T x in lo .. hi) and for (T x in collection)
// (P4-16 §12.15): the range's bounds convert to T; a collection is a header
// stack, array or list whose elements are Ts.
func (c *checker) forInStmt(s *ForInStmt) {
	c.push()
	defer c.pop()
	t := c.resolveType(s.Type)
	if r, ok := s.Range.(*RangeExpr); ok {
		for _, bound := range []Expr{r.Lo, r.Hi} {
			c.expr(bound, t)
			c.convert(bound, t, "bound of the loop's range")
		}
		if _, isBits := t.(*BitsType); !isBits && !isInvalid(t) {
			c.errorf(s.Type, diag.TypeMismatch, "a loop over a range needs a bit<W> or int<W> variable, not %s", t)
		}
	} else if _, literal := s.Range.(*ListExpr); literal && !isInvalid(t) {
		// { a, b, ... }: a list of the loop variable's type, its elements
		// converted to it as a list<T>'s are.
		c.convert(s.Range, &ListType{Elem: t}, "the loop's list")
	} else {
		ct := c.expr(s.Range, nil)
		var elem Type = tInvalid
		switch x := ct.(type) {
		case *StackType:
			elem = x.Elem
		case *TupleType:
			if len(x.Elems) > 0 {
				elem = x.Elems[0]
			}
		case *ListType:
			elem = x.Elem
		case InvalidType:
		default:
			c.errorf(s.Range, diag.TypeMismatch, "cannot loop over a value of type %s", ct)
		}
		if !isInvalid(elem) && !isInvalid(t) && !sameType(elem, t) {
			c.errorf(s.Type, diag.TypeMismatch, "the loop variable has type %s, but the elements are %s", t, elem)
		}
	}
	c.declare(&Symbol{Name: s.Name.Name, Kind: SymVar, Decl: s, Type: t})
	c.loops++
	c.nested(s.Body)
	c.loops--
}

func (c *checker) forStmt(s *ForStmt) {
	c.push()
	defer c.pop()
	for _, st := range s.Init {
		c.stmt(st)
	}
	if s.Cond != nil {
		t := c.expr(s.Cond, tBool)
		if !isInvalid(t) && t != tBool {
			c.errorf(s.Cond, diag.TypeMismatch, "a loop condition must be bool, not %s", t)
		}
	}
	for _, st := range s.Update {
		c.stmt(st)
	}
	c.loops++
	c.nested(s.Body)
	c.loops--
}
