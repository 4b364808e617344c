package frontend

import (
	"math/big"
	"strings"

	"github.com/p4hls/p4hls/diag"
)

// resolveType returns the type a type expression denotes, reporting bad
// ones (and returning InvalidType for them).
func (c *checker) resolveType(te TypeExpr) Type {
	t := c.resolveType1(te)
	c.out.TypeOf[te] = t
	return t
}

func (c *checker) resolveType1(te TypeExpr) Type {
	switch te := te.(type) {
	case *BaseType:
		return c.baseType(te)
	case *NamedType:
		return c.namedType(te)
	case *TupleTypeExpr:
		if te.List {
			if len(te.Elems) != 1 {
				c.errorf(te, diag.WrongArgumentCount, "list takes 1 type argument, got %d", len(te.Elems))
				return tInvalid
			}
			elem := c.resolveType(te.Elems[0])
			c.checkTupleElem(te.Elems[0], elem)
			return &ListType{Elem: elem}
		}
		elems := make([]Type, len(te.Elems))
		for i, e := range te.Elems {
			elems[i] = c.resolveType(e)
			c.checkTupleElem(e, elems[i])
		}
		return &TupleType{Elems: elems}
	case *StackTypeExpr:
		elem := c.resolveType(te.Elem)
		n, ok := c.constInt(te.Size, "header stack size")
		if !ok {
			return tInvalid
		}
		if n < 0 || n > 1<<16 {
			c.errorf(te.Size, diag.BadWidth, "stack size %d is out of range (0 to 65536)", n)
			return tInvalid
		}
		return &StackType{Elem: elem, Size: n}
	}
	return tInvalid
}

func (c *checker) baseType(te *BaseType) Type {
	switch te.Kind {
	case BaseBool:
		return tBool
	case BaseError:
		return tError
	case BaseMatchKind:
		return tMatchKind
	case BaseString:
		return tString
	case BaseVoid:
		return tVoid
	case BaseDontCare:
		return tDontCare
	case BaseInt:
		return tInt
	}
	width := 1
	if te.Width != nil {
		n, ok := c.constInt(te.Width, "width")
		if !ok {
			return tInvalid
		}
		min := 1
		if te.Kind == BaseBit || te.Kind == BaseVarbit {
			min = 0
		}
		if n < min || n > maxWidth {
			c.errorf(te.Width, diag.BadWidth, "width %d is out of range (%d to %d)", n, min, maxWidth)
			return tInvalid
		}
		width = n
	}
	switch te.Kind {
	case BaseSigned:
		return &BitsType{Width: width, Signed: true}
	case BaseVarbit:
		return &VarbitType{Max: width}
	}
	return &BitsType{Width: width} // bit<0> has one value, 0 (p4c accepts it)
}

func (c *checker) namedType(te *NamedType) Type {
	scope := c.scope
	if te.Global {
		scope = scope.root()
	}
	sym := scope.Lookup(te.Name.Name)
	if sym == nil {
		c.errorf(te.Name, diag.UndeclaredName, "undeclared type %s", te.Name.Name)
		return tInvalid
	}
	if sym.Kind != SymType {
		c.errorf(te.Name, diag.NotAType, "%s is not a type", te.Name.Name)
		return tInvalid
	}
	if g, ok := sym.Type.(*GenericStructType); ok {
		return c.instantiateStruct(te, g)
	}
	if len(te.Args) == 0 {
		return sym.Type
	}
	obj, ok := sym.Type.(*ObjectType)
	if !ok {
		c.errorf(te, diag.TypeMismatch, "%s is not generic and takes no type arguments", te.Name.Name)
		return tInvalid
	}
	spec, ok := c.specialize(te, te.Name.Name, obj, te.Args)
	if !ok {
		return tInvalid
	}
	return spec
}

// instantiateStruct returns the struct type of a generic struct with the
// type arguments of te, made the first time.
func (c *checker) instantiateStruct(te *NamedType, g *GenericStructType) Type {
	d := g.Decl
	if len(te.Args) != len(d.TypeParams) {
		c.errorf(te, diag.WrongArgumentCount, "%s takes %d type arguments, got %d", d.Name.Name, len(d.TypeParams), len(te.Args))
		return tInvalid
	}
	args := make([]Type, len(te.Args))
	names := make([]string, len(te.Args))
	for i, a := range te.Args {
		args[i] = c.resolveType(a)
		if isInvalid(args[i]) {
			return tInvalid
		}
		names[i] = args[i].String()
	}
	name := d.Name.Name + "<" + strings.Join(names, ", ") + ">"
	if st := g.insts[name]; st != nil {
		return st
	}
	st := &StructType{Kind: d.Kind, Name: name, Annos: d.Annos}
	g.insts[name] = st
	// The fields are resolved where the struct was declared, with its
	// type parameters bound.
	scope := newScope(c.scope.root())
	for i, tp := range d.TypeParams {
		scope.syms[tp.Name] = &Symbol{Name: tp.Name, Kind: SymType, Decl: tp, Type: args[i]}
	}
	saved := c.scope
	c.scope = scope
	c.structFields(d, st)
	c.scope = saved
	return st
}

// specialize gives a generic object type its type arguments.
func (c *checker) specialize(at diag.Spanned, name string, obj *ObjectType, args []TypeExpr) (*ObjectType, bool) {
	want := len(typeParamsOf(obj.Decl))
	if len(args) != want {
		c.errorf(at, diag.WrongArgumentCount, "%s takes %d type arguments, got %d", name, want, len(args))
		return nil, false
	}
	if len(obj.Args) > 0 {
		c.errorf(at, diag.TypeMismatch, "%s is already specialized (%s); it takes no more type arguments", name, obj)
		return nil, false
	}
	spec := *obj
	spec.Args = make([]Type, len(args))
	for i, a := range args {
		spec.Args[i] = c.resolveType(a)
		if containsSelf(spec.Args[i], obj.Decl) {
			c.errorf(a, diag.TypeMismatch, "%s contains itself as a type argument", name)
			return nil, false
		}
	}
	return &spec, true
}

// typeParamsOf returns the type parameters of a generic declaration.
func typeParamsOf(d Decl) []*Ident {
	switch d := d.(type) {
	case *ExternDecl:
		return d.TypeParams
	case *ParserDecl:
		return d.TypeParams
	case *ControlDecl:
		return d.TypeParams
	case *PackageDecl:
		return d.TypeParams
	}
	return nil
}

// constInt checks e as a compile-time integer constant and returns it.
func (c *checker) constInt(e Expr, what string) (int, bool) {
	t := c.expr(e, nil)
	if isInvalid(t) {
		return 0, false
	}
	c.asBits(e, t) // a serializable enum member counts as its value
	v, ok := c.out.Values[e].(*big.Int)
	if !ok {
		c.errorf(e, diag.NotConstant, "%s must be a compile-time integer constant", what)
		return 0, false
	}
	if !v.IsInt64() || v.Int64() > 1<<30 || v.Int64() < -(1<<30) {
		c.errorf(e, diag.BadWidth, "%s %s is out of range", what, v)
		return 0, false
	}
	return int(v.Int64()), true
}

// substitute replaces type variables by their bindings.
func substitute(t Type, b map[*TypeVar]Type) Type {
	if len(b) == 0 {
		return t
	}
	switch t := t.(type) {
	case *TypeVar:
		if r, ok := b[t]; ok && r != nil {
			return r
		}
	case *TupleType:
		out := &TupleType{Elems: make([]Type, len(t.Elems))}
		for i, e := range t.Elems {
			out.Elems[i] = substitute(e, b)
		}
		return out
	case *StackType:
		return &StackType{Elem: substitute(t.Elem, b), Size: t.Size}
	case *ListType:
		return &ListType{Elem: substitute(t.Elem, b)}
	case *ObjectType:
		out := *t
		out.Args = make([]Type, len(t.Args))
		for i, a := range t.Args {
			out.Args[i] = substitute(a, b)
		}
		return &out
	}
	return t
}

// unify binds the type variables of param (those in b, mapped to nil while
// unbound) so that param matches arg. It reports whether they match.
func unify(param, arg Type, b map[*TypeVar]Type) bool {
	if isInvalid(arg) {
		return true
	}
	switch p := param.(type) {
	case DontCareType:
		return true // _ matches any type (a type argument left to inference)
	case *ListType:
		a, ok := arg.(*ListType)
		return ok && unify(p.Elem, a.Elem, b)
	case *TypeVar:
		bound, free := b[p]
		if !free {
			tv, ok := arg.(*TypeVar)
			return ok && tv == p
		}
		if bound == nil {
			b[p] = arg
			return true
		}
		if _, isInt := bound.(IntType); isInt {
			if _, sized := arg.(*BitsType); sized {
				b[p] = arg // a sized argument pins an unsized one
				return true
			}
		}
		if _, isInt := arg.(IntType); isInt {
			_, sized := bound.(*BitsType)
			return sized || sameType(bound, arg)
		}
		return sameType(bound, arg)
	case *TupleType:
		a, ok := arg.(*TupleType)
		if !ok || len(a.Elems) != len(p.Elems) {
			return false
		}
		for i := range p.Elems {
			if !unify(p.Elems[i], a.Elems[i], b) {
				return false
			}
		}
		return true
	case *StackType:
		a, ok := arg.(*StackType)
		return ok && a.Size == p.Size && unify(p.Elem, a.Elem, b)
	case *ObjectType:
		a, ok := arg.(*ObjectType)
		if !ok || a.Decl != p.Decl {
			return false
		}
		for i := range p.Args {
			if i < len(a.Args) && !unify(p.Args[i], a.Args[i], b) {
				return false
			}
		}
		return true
	}
	return sameType(param, arg)
}
