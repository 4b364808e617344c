package frontend

import (
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/diag"
)

// call checks a call expression and returns the type of its result.
func (c *checker) call(e *CallExpr) Type {
	// A constructor call: MyParser(), Register<bit<32>, bit<10>>(1024).
	if sym := c.typeNameOf(e.Fn); sym != nil {
		return c.construct(e, sym, e.TypeArgs, e.Args)
	}
	if n, ok := e.Fn.(*NameExpr); ok {
		c.resolveCallee(n, e.Args)
	}
	if m, ok := e.Fn.(*MemberExpr); ok {
		if ft := c.builtinMethod(m); ft != nil {
			return c.builtinCall(e, ft)
		}
	}
	ft := c.expr(e.Fn, nil)
	for _, a := range e.TypeArgs {
		c.resolveType(a)
	}
	switch t := ft.(type) {
	case InvalidType:
		c.checkArgsLoosely(e.Args)
		return tInvalid
	case *FuncType:
		if t.Builtin != "" {
			return c.builtinCall(e, t)
		}
		return c.funcCall(e, t)
	case *ActionType:
		if len(e.TypeArgs) > 0 {
			c.errorf(e, diag.WrongArgumentCount, "an action takes no type arguments")
		}
		c.actionCall(e, t.Decl)
		return tVoid
	}
	c.errorf(e.Fn, diag.NotCallable, "%s is not a function, method or action (its type is %s)", describe(e.Fn), ft)
	c.checkArgsLoosely(e.Args)
	return tInvalid
}

// resolveCallee resolves the name a call calls as p4c does, by name and
// number of arguments: the innermost declaration of the name that takes
// that many, so an action hash() may call the extern hash(a, b, c, d, e).
// With none that fits, the innermost declaration stands (and the call's
// check reports the mismatch).
func (c *checker) resolveCallee(n *NameExpr, args []*Arg) {
	if n.Global {
		return
	}
	for s := c.scope; s != nil; s = s.parent {
		sym, ok := s.syms[n.Name]
		if !ok {
			continue
		}
		fits := false
		switch t := sym.Type.(type) {
		case *FuncType:
			for _, p := range t.Protos {
				fits = fits || arityFits(p.Params, args)
			}
		case *ActionType:
			fits = len(args) == len(t.Decl.Params)
		}
		if fits {
			c.out.Uses[n] = sym
			c.out.Types[n] = sym.Type
			return
		}
	}
}

func (c *checker) checkArgsLoosely(args []*Arg) {
	for _, a := range args {
		if a.Value != nil {
			c.expr(a.Value, nil)
		}
	}
}

// describe names an expression in a message: its source text when it is
// short (a name, a field, a literal), else "the expression".
func describe(e Expr) string {
	if text := exprText(e); text != "key" && len(text) <= 40 {
		return text
	}
	return "the expression"
}

// sizeMethods are the built-in methods giving a type's size, and whether
// each counts a varbit field at its largest.
var sizeMethods = map[string]bool{"minSizeInBits": false, "minSizeInBytes": false, "maxSizeInBits": true, "maxSizeInBytes": true}

// builtinMethod returns the built-in method a call of x.name calls when x
// is a header, header union or struct: the method wins over a field of the
// same name, as in p4c. It returns nil for anything else.
func (c *checker) builtinMethod(m *MemberExpr) *FuncType {
	name := m.Name.Name
	_, size := sizeMethods[name]
	if !size && name != "isValid" && name != "setValid" && name != "setInvalid" {
		return nil
	}
	if sym := c.typeNameOf(m.X); sym != nil {
		if !size {
			return nil
		}
	} else {
		switch t := c.expr(m.X, nil).(type) {
		case *ObjectType, *TableType:
			return nil // an extern's own method of that name
		case *StructType:
			if !size && t.Kind == KindStruct {
				return nil
			}
		default:
			if !size {
				return nil
			}
		}
	}
	// The sizes are those of any type, named or of a value.
	ft := &FuncType{Name: name, Builtin: name, Self: m.X}
	c.out.Types[m] = ft
	return ft
}

// sizeOf is the size in bits of a value of type t, counting varbit fields
// as empty (min) or full (max).
func sizeOf(t Type, max bool) int {
	switch t := t.(type) {
	case *VarbitType:
		if !max {
			return 0
		}
	case *StructType:
		w := 0
		for _, f := range t.Fields {
			w += sizeOf(f.Type, max)
		}
		return w
	case *StackType:
		return sizeOf(t.Elem, max) * t.Size
	}
	return widthOf(t)
}

// builtinCall checks a built-in method: isValid, setValid, setInvalid,
// the sizes, push_front, pop_front, apply.
func (c *checker) builtinCall(e *CallExpr, t *FuncType) Type {
	if max, ok := sizeMethods[t.Builtin]; ok {
		if len(e.Args) != 0 {
			c.errorf(e, diag.WrongArgumentCount, "%s takes no arguments", t.Builtin)
		}
		w := sizeOf(c.out.Types[t.Self], max)
		if t.Builtin == "minSizeInBytes" || t.Builtin == "maxSizeInBytes" {
			w = (w + 7) / 8
		}
		c.setValue(e, big.NewInt(int64(w)))
		return tInt
	}
	switch t.Builtin {
	case "isValid", "setValid", "setInvalid":
		if len(e.Args) != 0 {
			c.errorf(e, diag.WrongArgumentCount, "%s takes no arguments", t.Builtin)
		}
		if t.Builtin == "isValid" {
			return tBool
		}
		if c.parser == nil && c.control == nil && c.action == nil && c.function == nil {
			return tVoid
		}
		c.checkLvalue(t.Self, "change the validity of")
		return tVoid
	case "push_front", "pop_front":
		if len(e.Args) != 1 || e.Args[0].Value == nil {
			c.errorf(e, diag.WrongArgumentCount, "%s takes one argument, the number of elements", t.Builtin)
			return tVoid
		}
		n, ok := c.constInt(e.Args[0].Value, t.Builtin+" count")
		if ok && n < 0 {
			c.errorf(e.Args[0].Value, diag.TypeMismatch, "%s count must not be negative", t.Builtin)
		}
		c.checkLvalue(t.Self, "shift")
		return tVoid
	case "apply":
		return c.applyCall(e, t)
	}
	return tInvalid
}

func (c *checker) applyCall(e *CallExpr, t *FuncType) Type {
	if c.parser == nil && c.control == nil {
		c.errorf(e, diag.NotCallable, "apply may be called only inside a parser or control")
	} else if c.action != nil || c.function != nil {
		c.errorf(e, diag.NotCallable, "tables and controls cannot be applied inside an action or function")
	}
	switch st := c.out.Types[t.Self].(type) {
	case *TableType:
		if len(e.Args) != 0 {
			c.errorf(e, diag.WrongArgumentCount, "apply of table %s takes no arguments", st.Decl.Name.Name)
		}
		return &ApplyResultType{Table: st.Decl}
	case *ObjectType:
		// A sub-parser or sub-control instance: arguments as its apply
		// parameters, whose types may name the block's type parameters,
		// bound by the instance's type arguments or inferred here.
		scope, bindings := c.typeParamScope(st)
		c.bindArgs(e, fmt.Sprintf("%s.apply", describe(t.Self)), blockParams(st.Decl), bindings, scope, true)
		return tVoid
	}
	return tInvalid
}

// typeParamScope returns a scope where the type parameters of a generic
// block or extern are bound to the object type's arguments, and the
// bindings of those still free (for inference).
func (c *checker) typeParamScope(obj *ObjectType) (*Scope, map[*TypeVar]Type) {
	scope := newScope(c.scope.root())
	bindings := map[*TypeVar]Type{}
	for i, tp := range typeParamsOf(obj.Decl) {
		var bound Type
		if i < len(obj.Args) {
			bound = obj.Args[i]
		}
		if tv, free := bound.(*TypeVar); bound == nil || free && tv.Decl == tp {
			tv := &TypeVar{Name: tp.Name, Decl: tp}
			bindings[tv] = nil
			bound = tv
		}
		scope.syms[tp.Name] = &Symbol{Name: tp.Name, Kind: SymType, Type: bound}
	}
	return scope, bindings
}

// funcCall checks a call of a function, extern function or extern method,
// choosing among overloads by the number of arguments.
func (c *checker) funcCall(e *CallExpr, t *FuncType) Type {
	var candidates []*FuncProto
	for _, p := range t.Protos {
		if arityFits(p.Params, e.Args) && namesFit(p.Params, e.Args) {
			candidates = append(candidates, p)
		}
	}
	if len(candidates) == 0 {
		p := t.Protos[0]
		c.errorf(e, diag.WrongArgumentCount, "%s takes %s, got %d", t.Name, countParams(p.Params), len(e.Args))
		c.checkArgsLoosely(e.Args)
		return tInvalid
	}
	proto := candidates[0]
	if a := proto.Annos.Find("deprecated"); a != nil {
		d := c.diags.Warnf(e, diag.Deprecated, "%s is deprecated", t.Name)
		if len(a.Exprs) == 1 {
			if s, ok := a.Exprs[0].(*StringLit); ok {
				d.Msg += ": " + s.Value
			}
		}
	}
	// Type parameters: the receiver's are bound by its type arguments; the
	// prototype's are free, fixed by explicit type arguments or inferred.
	scope := newScope(c.scope.root())
	bindings := map[*TypeVar]Type{}
	if t.Receiver != nil {
		for i, tp := range typeParamsOf(t.Receiver.Decl) {
			var bound Type = tInvalid
			if i < len(t.Receiver.Args) {
				bound = t.Receiver.Args[i]
			}
			scope.syms[tp.Name] = &Symbol{Name: tp.Name, Kind: SymType, Type: bound}
		}
	}
	free := map[string]*TypeVar{}
	for _, tp := range proto.TypeParams {
		tv := &TypeVar{Name: tp.Name, Decl: tp}
		free[tp.Name] = tv
		scope.syms[tp.Name] = &Symbol{Name: tp.Name, Kind: SymType, Type: tv}
		bindings[tv] = nil
	}
	if len(e.TypeArgs) > 0 {
		if len(e.TypeArgs) != len(proto.TypeParams) {
			c.errorf(e, diag.WrongArgumentCount, "%s takes %d type arguments, got %d", t.Name, len(proto.TypeParams), len(e.TypeArgs))
		} else {
			for i, tp := range proto.TypeParams {
				bindings[free[tp.Name]] = c.out.TypeOf[e.TypeArgs[i]]
			}
		}
	}
	c.bindArgs(e, t.Name, proto.Params, bindings, scope, false)
	c.inferredWidths(e, proto, bindings)
	if t.Self == nil && t.Name == "static_assert" {
		c.staticAssert(e)
	}
	if t.Self == nil && t.Name == "verify" && c.parser == nil && !isInvalid(c.out.Types[e.Fn]) {
		c.errorf(e, diag.NotCallable, "verify may be called only in a parser")
	}
	if recv := t.Receiver; recv != nil && recv.Name == "packet_in" {
		c.packetInCall(e, t.Name, proto, bindings)
	}
	ret := c.typeIn(scope, proto.Return)
	ret = substitute(ret, bindings)
	if tv, ok := ret.(*TypeVar); ok && bindings[tv] == nil && free[tv.Name] == tv {
		c.errorf(e, diag.TypeMismatch, "cannot infer the type %s that %s returns; give it as %s<T>(...)", tv.Name, t.Name, t.Name)
		return tInvalid
	}
	return ret
}

// inferredWidths reports a type parameter inferred from an unsized
// integer (f(255) for T f<T>(T x)): the value has no width to give it.
func (c *checker) inferredWidths(e *CallExpr, proto *FuncProto, bindings map[*TypeVar]Type) {
	for tv, t := range bindings {
		if t != tInt || !isTypeParamOf(tv, &ExternDecl{TypeParams: proto.TypeParams}) && !isTypeParamOf(tv, &FuncDecl{Proto: proto}) {
			continue
		}
		for _, a := range e.Args {
			if a.Value != nil && c.out.Types[a.Value] == tInt {
				c.errorf(a.Value, diag.TypeMismatch, "%s: could not infer a width for the type %s; give the value one (8w%s)", describe(a.Value), tv.Name, describe(a.Value))
				return
			}
		}
	}
}

// packetInCall checks packet_in's extract and lookahead (P4-16 §12.8):
// extract takes a header, the two-argument form one with a varbit field,
// the other without; lookahead takes a fixed-width type.
func (c *checker) packetInCall(e *CallExpr, name string, proto *FuncProto, bindings map[*TypeVar]Type) {
	var t Type
	for tv, b := range bindings {
		if len(proto.TypeParams) == 1 && tv.Decl == proto.TypeParams[0] {
			t = b
		}
	}
	if t == nil || isInvalid(t) {
		if name == "extract" && len(e.Args) > 0 && e.Args[0].Value == nil {
			c.errorf(e.Args[0], diag.TypeMismatch, "extract: could not infer the type of _; extract into a header")
		}
		return
	}
	switch name {
	case "extract":
		st, ok := t.(*StructType)
		if !ok || st.Kind != KindHeader {
			c.errorf(e.Args[0], diag.TypeMismatch, "extract: %s is not a header", t)
			return
		}
		varbits := 0
		for _, f := range st.Fields {
			if _, v := f.Type.(*VarbitType); v {
				varbits++
			}
		}
		varbit := varbits > 0
		switch {
		case varbits > 1:
			c.errorf(e.Args[0], diag.TypeMismatch, "extract: header %s has %d varbit fields; extract takes one size", st.Name, varbits)
		case len(e.Args) == 1 && varbit:
			c.errorf(e.Args[0], diag.TypeMismatch, "extract: header %s has a varbit field; give its size, extract(h, bits)", st.Name)
		case len(e.Args) == 2 && !varbit:
			c.errorf(e.Args[0], diag.TypeMismatch, "extract: header %s has no varbit field to give a size to", st.Name)
		}
	case "lookahead":
		if t == tVoid || !fixedWidth(t) {
			c.errorf(e, diag.TypeMismatch, "lookahead: %s is not a fixed-width type", t)
		}
	}
}

// fixedWidth reports whether t has a width known at compile time.
func fixedWidth(t Type) bool {
	switch t := t.(type) {
	case *BitsType, BoolType, *NewType:
		return true
	case *EnumType:
		return t.Underlying != nil
	case *StructType:
		for _, f := range t.Fields {
			if !fixedWidth(f.Type) {
				return false
			}
		}
		return true
	case *StackType:
		return fixedWidth(t.Elem)
	}
	return false
}

// staticAssert evaluates static_assert(check[, message]) of core.p4: the
// check must be a compile-time constant and true; the call's value is
// true.
func (c *checker) staticAssert(e *CallExpr) {
	if len(e.Args) == 0 || e.Args[0].Value == nil {
		return
	}
	check := e.Args[0].Value
	v, ok := c.out.Values[check].(bool)
	switch {
	case isInvalid(c.out.Types[check]):
	case !ok:
		c.errorf(check, diag.NotConstant, "static_assert needs a compile-time constant condition")
	case !v:
		msg := "static assertion failed"
		if len(e.Args) > 1 && e.Args[1].Value != nil {
			if m, ok := c.out.Values[e.Args[1].Value].(string); ok {
				msg += ": " + m
			}
		}
		c.errorf(e, diag.AssertionFailed, "%s", msg)
	default:
		c.setValue(e, true)
	}
}

// typeIn resolves a type expression in the given scope (for prototypes,
// whose type parameters are bound per call).
func (c *checker) typeIn(scope *Scope, te TypeExpr) Type {
	if te == nil {
		return tVoid
	}
	saved := c.scope
	c.scope = scope
	defer func() { c.scope = saved }()
	return c.resolveType1(te)
}

func arityFits(params []*Param, args []*Arg) bool {
	required := 0
	for _, p := range params {
		if !mayOmit(p) {
			required++
		}
	}
	return len(args) >= required && len(args) <= len(params)
}

// namesFit reports whether every named argument names a parameter.
func namesFit(params []*Param, args []*Arg) bool {
	for _, a := range args {
		if a.Name == nil {
			continue
		}
		found := false
		for _, p := range params {
			found = found || p.Name.Name == a.Name.Name
		}
		if !found {
			return false
		}
	}
	return true
}

// mayOmit reports whether a call may leave out a parameter: it has a
// default value, or is @optional (P4-16 §14.1.1).
func mayOmit(p *Param) bool {
	return p.Default != nil || p.Annos.Find("optional") != nil
}

func countParams(params []*Param) string {
	switch len(params) {
	case 0:
		return "no arguments"
	case 1:
		return "1 argument"
	}
	return fmt.Sprintf("%d arguments", len(params))
}

// bindArgs checks arguments against parameters: names, count, types and
// directions. Parameter types are resolved in scope, with type variables
// in bindings inferred from the arguments.
func (c *checker) bindArgs(e *CallExpr, what string, params []*Param, bindings map[*TypeVar]Type, scope *Scope, exact bool) {
	ordered, ok := c.orderArgs(e, what, params, e.Args)
	if !ok {
		return
	}
	for i, p := range params {
		a := ordered[i]
		if a == nil {
			if !mayOmit(p) && exact {
				c.errorf(e, diag.WrongArgumentCount, "%s: missing argument for parameter %s", what, p.Name.Name)
			}
			continue
		}
		pt := c.typeIn(scope, p.Type)
		if a.Value == nil { // _: only for out parameters
			if p.Dir != DirOut {
				c.errorf(a, diag.WrongDirection, "%s: _ may be passed only to an out parameter, and %s is %s", what, p.Name.Name, dirName(p.Dir))
			}
			continue
		}
		if _, free := substitute(pt, bindings).(*TypeVar); free {
			if _, ok := a.Value.(*StructExpr); ok {
				c.errorf(a.Value, diag.TypeMismatch, "%s: cannot infer the type of a structure expression for %s; cast it", what, p.Name.Name)
				continue
			}
		}
		at := c.expr(a.Value, substitute(pt, bindings))
		if !c.passable(a.Value, at, what, exact) {
			continue
		}
		if at == tString && p.Dir != DirNone {
			c.errorf(a.Value, diag.WrongDirection, "%s: %s has a direction, so it cannot be a string", what, p.Name.Name)
		}
		if w, g, ok := blockTypes(substitute(pt, bindings), at); ok && w.Decl != g.Decl {
			// A parser or control of its own declaration passed where
			// a parser or control type is wanted: it must fit the type.
			c.matchBlock(a.Value, p.Name.Name, w, g, bindings, scope)
			continue
		}
		if !unify(pt, at, bindings) {
			if c.convertible(a.Value, at, substitute(pt, bindings)) {
				continue
			}
			c.errorf(a.Value, diag.TypeMismatch, "%s: argument for %s has type %s, want %s", what, p.Name.Name, at, substitute(pt, bindings))
			continue
		}
		want := substitute(pt, bindings)
		if _, isVar := want.(*TypeVar); !isVar {
			c.convertible(a.Value, at, want)
		}
		if p.Dir == DirOut || p.Dir == DirInOut {
			c.checkLvalue(a.Value, "pass as "+dirName(p.Dir)+" argument")
		}
	}
}

func dirName(d Direction) string {
	if d == DirNone {
		return "directionless"
	}
	return d.String()
}

// orderArgs matches arguments to parameters by position or by name.
func (c *checker) orderArgs(e *CallExpr, what string, params []*Param, args []*Arg) ([]*Arg, bool) {
	ordered := make([]*Arg, len(params))
	if len(args) > len(params) {
		c.errorf(e, diag.WrongArgumentCount, "%s takes %s, got %d", what, countParams(params), len(args))
		c.checkArgsLoosely(args)
		return nil, false
	}
	named := len(args) > 0 && args[0].Name != nil
	for i, a := range args {
		if (a.Name != nil) != named {
			c.errorf(a, diag.WrongArgumentCount, "%s: arguments must be all named or all positional", what)
			return nil, false
		}
		if !named {
			ordered[i] = a
			continue
		}
		found := false
		for j, p := range params {
			if p.Name.Name == a.Name.Name {
				if ordered[j] != nil {
					c.errorf(a.Name, diag.WrongArgumentCount, "%s: argument %s is given twice", what, a.Name.Name)
				}
				ordered[j] = a
				found = true
			}
		}
		if !found {
			c.errorf(a.Name, diag.WrongArgumentCount, "%s has no parameter %s", what, a.Name.Name)
			return nil, false
		}
	}
	return ordered, true
}

// actionCall checks a direct call of an action: every parameter, including
// the directionless ones, needs an argument.
func (c *checker) actionCall(e *CallExpr, a *ActionDecl) {
	if c.parser != nil {
		c.errorf(e, diag.NotCallable, "actions cannot be called in a parser")
	}
	if c.function != nil {
		c.errorf(e, diag.NotCallable, "actions cannot be called in a function")
	}
	c.bindArgs(e, "action "+a.Name.Name, a.Params, map[*TypeVar]Type{}, c.scope, true)
}

// construct checks a constructor call (extern instantiation, or a parser
// or control passed to a package) and returns the object's type.
func (c *checker) construct(at diag.Spanned, sym *Symbol, typeArgs []TypeExpr, args []*Arg) Type {
	obj, ok := sym.Type.(*ObjectType)
	if !ok {
		c.errorf(at, diag.NotCallable, "%s is a type with no constructor", sym.Name)
		c.checkArgsLoosely(args)
		return tInvalid
	}
	spec := *obj
	tps := typeParamsOf(obj.Decl)
	bindings := map[*TypeVar]Type{}
	scope := newScope(c.scope.root())
	vars := make([]*TypeVar, len(tps))
	for i, tp := range tps {
		vars[i] = &TypeVar{Name: tp.Name, Decl: tp}
		scope.syms[tp.Name] = &Symbol{Name: tp.Name, Kind: SymType, Type: vars[i]}
		bindings[vars[i]] = nil
	}
	if len(typeArgs) > 0 {
		if len(obj.Args) > 0 {
			c.errorf(at, diag.TypeMismatch, "%s is already specialized (%s); it takes no more type arguments", sym.Name, obj)
			return tInvalid
		}
		if len(typeArgs) != len(tps) {
			c.errorf(at, diag.WrongArgumentCount, "%s takes %d type arguments, got %d", sym.Name, len(tps), len(typeArgs))
			return tInvalid
		}
		for i, ta := range typeArgs {
			bindings[vars[i]] = c.resolveType(ta)
			if containsSelf(bindings[vars[i]], obj.Decl) {
				c.errorf(ta, diag.TypeMismatch, "%s contains itself as a type argument", sym.Name)
				return tInvalid
			}
		}
	} else if len(obj.Args) == len(vars) {
		// A typedef of a specialized type (typedef R<bit<8>> R8) brings
		// its type arguments.
		for i, a := range obj.Args {
			if _, free := a.(*TypeVar); !free {
				bindings[vars[i]] = a
			}
		}
	}
	for v, t := range bindings {
		if _, dontCare := t.(DontCareType); dontCare {
			bindings[v] = nil // _ as a type argument: inferred
		}
	}
	call := &CallExpr{At: At{at.Span()}, Args: args}
	switch d := obj.Decl.(type) {
	case *ExternDecl:
		if _, inExpr := at.(*CallExpr); inExpr && hasAbstract(d) {
			c.errorf(at, diag.NotCallable, "%s has abstract methods: instantiate it with an initializer that implements them", sym.Name)
		}
		var ctors []*FuncProto
		for _, m := range d.Methods {
			if m.Constructor && arityFits(m.Params, args) && namesFit(m.Params, args) {
				ctors = append(ctors, m)
			}
		}
		if len(ctors) == 0 {
			c.errorf(at, diag.WrongArgumentCount, "no constructor of %s takes %d arguments", sym.Name, len(args))
			c.checkArgsLoosely(args)
			return tInvalid
		}
		c.bindArgs(call, sym.Name, ctors[0].Params, bindings, scope, true)
	case *ParserDecl:
		c.bindArgs(call, sym.Name, d.CtorParams, bindings, scope, true)
	case *ControlDecl:
		c.bindArgs(call, sym.Name, d.CtorParams, bindings, scope, true)
	case *PackageDecl:
		c.packageArgs(call, d, bindings, scope)
	}
	spec.Args = make([]Type, len(vars))
	_, isExtern := obj.Decl.(*ExternDecl)
	pkg, isPackage := obj.Decl.(*PackageDecl)
	for i, v := range vars {
		spec.Args[i] = bindings[v]
		if spec.Args[i] == nil {
			spec.Args[i] = v
			// A package's type parameters may stay free only through
			// @optional parameters left out (TNA's Switch).
			if len(typeArgs) == 0 && (isExtern || isPackage && !omitsOptional(pkg.Params, args)) {
				c.errorf(at, diag.TypeMismatch, "could not infer a type for %s's type parameter %s; give it, as %s<...>(...)", sym.Name, v.Name, sym.Name)
			}
		}
	}
	c.constantArgs(args)
	return &spec
}

func hasAbstract(d *ExternDecl) bool {
	for _, m := range d.Methods {
		if m.Abstract && m.Annos.Find("optional") == nil {
			return true
		}
	}
	return false
}

// omitsOptional reports whether a call leaves out an @optional parameter.
func omitsOptional(params []*Param, args []*Arg) bool {
	ordered := orderArgs(params, args)
	for i, p := range params {
		if ordered[i] == nil && p.Annos.Find("optional") != nil {
			return true
		}
	}
	return false
}

// constantArgs reports a constructor argument whose value is not known at
// compile time (P4-16 §10.3): a constant, a constructor parameter, or an
// object.
func (c *checker) constantArgs(args []*Arg) {
	for _, a := range args {
		if a.Value == nil {
			continue
		}
		if t := c.out.Types[a.Value]; t == nil || isInvalid(t) || c.knownAtCompileTime(a.Value) {
			continue
		}
		c.errorf(a.Value, diag.NotConstant, "%s: a constructor argument must be a compile-time constant", describe(a.Value))
	}
}

// knownAtCompileTime reports whether e is a constant, an object (an
// instance, a constructor call), or made of constructor parameters.
func (c *checker) knownAtCompileTime(e Expr) bool {
	if _, ok := c.out.Values[e]; ok {
		return true
	}
	switch x := e.(type) {
	case *InvalidExpr, *DotsExpr:
		return true
	case *NameExpr:
		sym := c.out.Uses[x]
		if sym != nil && sym.Kind == SymParam && sym.Dir != DirNone {
			_, obj := sym.Type.(*ObjectType)
			return obj // an extern object passed as a parameter
		}
		return sym != nil && (sym.Kind == SymParam || sym.Kind == SymConst || sym.Kind == SymInstance)
	case *UnaryExpr:
		return c.knownAtCompileTime(x.X)
	case *BinaryExpr:
		return c.knownAtCompileTime(x.X) && c.knownAtCompileTime(x.Y)
	case *CastExpr:
		return c.knownAtCompileTime(x.X)
	case *ListExpr:
		for _, y := range x.Elems {
			if !c.knownAtCompileTime(y) {
				return false
			}
		}
		return true
	case *StructExpr:
		for _, kv := range x.Fields {
			if !c.knownAtCompileTime(kv.Value) {
				return false
			}
		}
		return true
	case *MemberExpr:
		return c.knownAtCompileTime(x.X)
	case *CallExpr:
		if _, ctor := c.out.Types[e].(*ObjectType); ctor && c.typeNameOf(x.Fn) != nil {
			return true // an instance built in place
		}
		// An extern function (a factory, or @pure) of known arguments.
		if ft, ok := c.out.Types[x.Fn].(*FuncType); !ok || ft.Self != nil || len(ft.Protos) == 0 || c.out.FuncOf[ft.Protos[0]] != nil {
			return false
		}
		for _, a := range x.Args {
			if a.Value != nil && !c.knownAtCompileTime(a.Value) {
				return false
			}
		}
		return true
	}
	return false
}

// packageArgs checks the blocks passed to a package (V1Switch(MyParser(), ...)):
// each must be a parser or control whose apply parameters match the
// package parameter's type, which fixes the package's type variables.
func (c *checker) packageArgs(call *CallExpr, d *PackageDecl, bindings map[*TypeVar]Type, scope *Scope) {
	ordered, ok := c.orderArgs(call, d.Name.Name, d.Params, call.Args)
	if !ok {
		return
	}
	for i, p := range d.Params {
		a := ordered[i]
		isDefault := a == nil && p.Default != nil
		if isDefault {
			// The default binds the types as an argument would; it is
			// written in the package's scope (EmptyChecksum<H, M>()).
			a = &Arg{At: At{p.Default.Span()}, Value: p.Default}
			saved := c.scope
			c.scope = newScope(scope)
			c.expr(p.Default, nil)
			c.scope = saved
		}
		if a == nil {
			if !mayOmit(p) {
				c.errorf(call, diag.WrongArgumentCount, "%s: missing argument for parameter %s", d.Name.Name, p.Name.Name)
			}
			continue
		}
		want := c.typeIn(scope, p.Type)
		if _, isObj := want.(*ObjectType); !isObj {
			// A value (a bool, a number) rather than a block.
			c.expr(a.Value, substitute(want, bindings))
			c.convert(a.Value, substitute(want, bindings), d.Name.Name+": argument for "+p.Name.Name)
			continue
		}
		got := c.expr(a.Value, nil)
		if isInvalid(got) || isInvalid(want) {
			continue
		}
		wantObj, ok1 := want.(*ObjectType)
		gotObj, ok2 := got.(*ObjectType)
		if !ok1 || !ok2 || wantObj.Kind != gotObj.Kind {
			c.errorf(a.Value, diag.BadArchitecture, "%s: parameter %s needs a %s, got %s", d.Name.Name, p.Name.Name, want, got)
			continue
		}
		if gotObj.Decl == wantObj.Decl {
			if !unify(want, got, bindings) {
				c.errorf(a.Value, diag.BadArchitecture, "%s: parameter %s needs %s, got %s", d.Name.Name, p.Name.Name, substitute(want, bindings), got)
			}
			continue
		}
		c.matchBlock(a.Value, p.Name.Name, wantObj, gotObj, bindings, scope)
	}
}

// matchBlock checks that a parser or control declaration fits the
// parser or control type a package parameter names.
func (c *checker) matchBlock(at Expr, param string, want, got *ObjectType, bindings map[*TypeVar]Type, scope *Scope) {
	wantParams, gotParams := blockParams(want.Decl), blockParams(got.Decl)
	name := got.Name
	// A block may leave out the type's trailing @optional parameters.
	needed := len(wantParams)
	for needed > 0 && mayOmit(wantParams[needed-1]) {
		needed--
	}
	if len(gotParams) < needed || len(gotParams) > len(wantParams) {
		c.errorf(at, diag.BadArchitecture, "%s has %d parameters, but %s (parameter %s) needs %s", name, len(gotParams), want, param, paramRange(needed, len(wantParams)))
		return
	}
	// The package parameter type's own type parameters (Parser<H, M>) are
	// bound to the package's type arguments.
	inner := newScope(scope)
	for i, tp := range typeParamsOf(want.Decl) {
		var bound Type = tInvalid
		if i < len(want.Args) {
			bound = want.Args[i]
		}
		inner.syms[tp.Name] = &Symbol{Name: tp.Name, Kind: SymType, Type: bound}
	}
	for i, wp := range wantParams[:len(gotParams)] {
		gp := gotParams[i]
		wt := c.typeIn(inner, wp.Type)
		gt := c.out.TypeOf[gp.Type]
		if gt == nil {
			gt = c.typeIn(c.scope.root(), gp.Type)
		}
		gt = bindBlockTypeParams(gt, got)
		if tv, ok := gt.(*TypeVar); ok && isTypeParamOf(tv, got.Decl) {
			continue // a type parameter of the block passed: inferred from the package's
		}
		// The mistake is where the block is passed (its own declaration
		// may be right for another place): report there, once.
		if wp.Dir != gp.Dir {
			c.errorf(at, diag.BadArchitecture, "%s does not fit %s (parameter %s): its parameter %d is %s, but %s needs %s", name, want.Name, param, i+1, dirName(gp.Dir), want.Name, dirName(wp.Dir))
			return
		}
		if !unify(wt, gt, bindings) {
			c.errorf(at, diag.BadArchitecture, "%s does not fit %s (parameter %s): its parameter %d has type %s, but %s needs %s", name, want.Name, param, i+1, gt, want.Name, substitute(wt, bindings))
			return
		}
	}
}

// bindBlockTypeParams replaces, in the type of a parameter of a generic
// block's declaration, the block's type parameters by the type arguments
// of the instance passed (p1<bit<2>>()), where those are known.
func bindBlockTypeParams(t Type, obj *ObjectType) Type {
	b := map[*TypeVar]Type{}
	var walk func(Type)
	walk = func(t Type) {
		switch t := t.(type) {
		case *TypeVar:
			for i, tp := range typeParamsOf(obj.Decl) {
				if t.Decl == tp && i < len(obj.Args) {
					if _, free := obj.Args[i].(*TypeVar); !free {
						b[t] = obj.Args[i]
					}
				}
			}
		case *TupleType:
			for _, e := range t.Elems {
				walk(e)
			}
		case *ObjectType:
			for _, a := range t.Args {
				walk(a)
			}
		}
	}
	walk(t)
	return substitute(t, b)
}

func isTypeParamOf(tv *TypeVar, d Decl) bool {
	for _, tp := range typeParamsOf(d) {
		if tv.Decl == tp {
			return true
		}
	}
	return false
}

// passable reports a value that cannot be an argument of a function,
// method or action: a table, or a parser or control instance (those go to
// constructors, as blocks).
func (c *checker) passable(x Expr, t Type, what string, ctor bool) bool {
	switch t := t.(type) {
	case *TableType:
		c.errorf(x, diag.TypeMismatch, "%s: a table cannot be an argument", what)
		return false
	case *ObjectType:
		if (t.Kind == ObjParser || t.Kind == ObjControl) && !ctor {
			c.errorf(x, diag.TypeMismatch, "%s: an argument cannot be a %s", what, objectKindName(t.Kind))
			return false
		}
	}
	return true
}

// blockTypes returns want and got as object types when both are parsers
// or both controls.
func blockTypes(want, got Type) (*ObjectType, *ObjectType, bool) {
	w, ok1 := want.(*ObjectType)
	g, ok2 := got.(*ObjectType)
	if !ok1 || !ok2 || w.Kind != g.Kind || w.Kind != ObjParser && w.Kind != ObjControl {
		return nil, nil, false
	}
	return w, g, true
}

func paramRange(lo, hi int) string {
	if lo == hi {
		return fmt.Sprint(hi)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

func blockParams(d Decl) []*Param {
	switch d := d.(type) {
	case *ParserDecl:
		return d.Params
	case *ControlDecl:
		return d.Params
	}
	return nil
}

// instance checks T(args) name; and declares name.
func (c *checker) instance(d *Instance) {
	c.checkAnnotations(d.Annos, "an instance")
	var t Type = tInvalid
	typeName, typeArgs := d.Type, []TypeExpr(nil)
	if nt, ok := typeName.(*NamedType); ok {
		typeArgs = nt.Args
		scope := c.scope
		if nt.Global {
			scope = scope.root()
		}
		sym := scope.Lookup(nt.Name.Name)
		switch {
		case sym == nil:
			c.errorf(nt.Name, diag.UndeclaredName, "undeclared type %s", nt.Name.Name)
			c.checkArgsLoosely(d.Args)
		case sym.Kind != SymType:
			c.errorf(nt.Name, diag.NotAType, "%s is not a type", nt.Name.Name)
		default:
			t = c.construct(d, sym, typeArgs, d.Args)
			c.out.TypeOf[d.Type] = t
		}
	} else {
		c.errorf(d.Type, diag.NotCallable, "%s cannot be instantiated", c.resolveType(d.Type))
	}
	c.instanceRules(d, t)
	if len(d.Init) > 0 {
		c.abstractMethods(d, t)
	}
	if d.Size != nil {
		// An array of instances, each built with the same arguments.
		if n, ok := c.constInt(d.Size, "instance array size"); ok && n > 0 {
			t = &StackType{Elem: t, Size: n}
		} else {
			if ok {
				c.errorf(d.Size, diag.BadWidth, "instance array size %d must be positive", n)
			}
			t = tInvalid
		}
	}
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymInstance, Decl: d, Type: t, ReadOnly: true})
}

// instanceRules applies what P4-16 requires of an instance beyond its
// constructor's arguments: a parser or control is instantiated inside a
// block (of its kind, for a parser), never itself; only an extern takes an
// initializer, and one with abstract methods needs them all.
func (c *checker) instanceRules(d *Instance, t Type) {
	obj, ok := t.(*ObjectType)
	if !ok {
		return
	}
	switch obj.Kind {
	case ObjParser, ObjControl:
		switch {
		case c.parser == nil && c.control == nil:
			c.errorf(d.Name, diag.BadArchitecture, "%s: a %s cannot be instantiated at the top level; pass it to a package or instantiate it in a block", d.Name.Name, objectKindName(obj.Kind))
		case obj.Kind == ObjParser && c.parser == nil:
			c.errorf(d.Name, diag.BadArchitecture, "%s: a parser cannot be instantiated in a control", d.Name.Name)
		case c.parser != nil && Decl(c.parser) == obj.Decl || c.control != nil && Decl(c.control) == obj.Decl:
			c.errorf(d.Type, diag.TypeMismatch, "self-referencing types are not supported: %s within %s", obj.Name, obj.Name)
		}
	}
	if d.HasInit && obj.Kind != ObjExtern {
		c.errorf(d, diag.NotCallable, "%s: only extern instances take an initializer", d.Name.Name)
		return
	}
	ext, ok := obj.declExtern()
	if !ok {
		return
	}
	for _, m := range ext.Methods {
		if m.Abstract && m.Annos.Find("optional") == nil && !implements(d.Init, m.Name.Name) {
			c.errorf(d.Name, diag.UnknownMember, "%s: abstract method %s of %s is not implemented", d.Name.Name, m.Name.Name, ext.Name.Name)
		}
	}
}

func implements(init []Decl, name string) bool {
	for _, d := range init {
		if fd, ok := d.(*FuncDecl); ok && fd.Proto.Name.Name == name {
			return true
		}
	}
	return false
}

// abstractMethods checks the bodies given for an extern's abstract methods.
func (c *checker) abstractMethods(d *Instance, t Type) {
	obj, _ := t.(*ObjectType)
	ext, _ := obj.declExtern()
	c.push() // instances declared in the initializer are its own
	defer c.pop()
	for _, init := range d.Init {
		fd, ok := init.(*FuncDecl)
		if !ok {
			if inst, ok := init.(*Instance); ok {
				c.instance(inst)
			}
			continue
		}
		var proto *FuncProto
		if ext != nil {
			for _, m := range ext.Methods {
				if m.Abstract && m.Name.Name == fd.Proto.Name.Name {
					proto = m
				}
			}
		}
		if proto == nil {
			c.errorf(fd.Proto.Name, diag.UnknownMember, "%s has no abstract method %s", t, fd.Proto.Name.Name)
			continue
		}
		scope := newScope(c.scope)
		for i, tp := range ext.TypeParams {
			if i < len(obj.Args) {
				scope.syms[tp.Name] = &Symbol{Name: tp.Name, Kind: SymType, Type: obj.Args[i]}
			}
		}
		saved, savedThis := c.scope, c.this
		c.scope, c.this = scope, obj
		c.funcBody(fd)
		c.matchAbstract(fd, proto)
		c.scope, c.this = saved, savedThis
	}
}

// matchAbstract checks that an abstract method's body has the prototype's
// parameters (count, directions, types) and return type, in the scope that
// binds the extern's type parameters.
func (c *checker) matchAbstract(fd *FuncDecl, proto *FuncProto) {
	impl := fd.Proto
	same := func(a, b TypeExpr) bool {
		return sameType(c.typeIn(c.scope, a), c.typeIn(c.scope, b))
	}
	// The body may leave out trailing @optional parameters.
	needed := len(proto.Params)
	for needed > 0 && mayOmit(proto.Params[needed-1]) {
		needed--
	}
	if len(impl.Params) < needed || len(impl.Params) > len(proto.Params) {
		c.errorf(impl.Name, diag.TypeMismatch, "%s takes %s, as declared; this body takes %d", impl.Name.Name, countParams(proto.Params), len(impl.Params))
		return
	}
	for i, p := range proto.Params[:len(impl.Params)] {
		q := impl.Params[i]
		if p.Dir != q.Dir || !same(p.Type, q.Type) {
			c.errorf(q, diag.TypeMismatch, "%s: parameter %s does not match the abstract method's (%s %s)", impl.Name.Name, q.Name.Name, dirName(p.Dir), c.typeIn(c.scope, p.Type))
		}
	}
	if !same(proto.Return, impl.Return) {
		c.errorf(impl.Name, diag.TypeMismatch, "%s returns %s; the abstract method returns %s", impl.Name.Name, c.typeIn(c.scope, impl.Return), c.typeIn(c.scope, proto.Return))
	}
}

func (o *ObjectType) declExtern() (*ExternDecl, bool) {
	if o == nil {
		return nil, false
	}
	e, ok := o.Decl.(*ExternDecl)
	return e, ok
}
