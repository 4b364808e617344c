package frontend

import (
	"github.com/p4hls/p4hls/diag"
)

// The rules on declarations that do not fit the checks of their kind:
// what a parameter may be, what a new type or a tuple may hold, and what
// may refer to itself. Each is a rule of P4-16 (or of p4c, which defines
// the language in practice), cited where it is stated.

// paramRole says what declares a parameter list: the rules on parameters
// differ by it (P4-16 §6.8).
type paramRole int

const (
	roleAction      paramRole = iota
	roleFunction              // a function with a body
	roleExtern                // an extern function, method or constructor
	roleAbstract              // an abstract method of an extern
	roleBlockApply            // the apply parameters of a parser or control
	roleParserCtor            // the constructor parameters of a parser
	roleControlCtor           // the constructor parameters of a control
	rolePackage
)

// mayBeOptional reports whether parameters of a role may be @optional:
// those of externs, of parser and control types, and of packages.
func (r paramRole) mayBeOptional() bool {
	return r == roleExtern || r == roleAbstract || r == roleBlockApply || r == rolePackage
}

// checkParams applies the rules on a parameter list whose types are
// resolved: names are unique, out parameters have no default, @optional
// only where allowed, and each type fits its direction and role.
func (c *checker) checkParams(params []*Param, role paramRole) {
	seen := map[string]bool{}
	for _, p := range params {
		if seen[p.Name.Name] {
			c.errorf(p.Name, diag.Redeclared, "parameter %s is declared twice", p.Name.Name)
		}
		seen[p.Name.Name] = true
		if p.Default != nil && (p.Dir == DirOut || p.Dir == DirInOut) {
			c.errorf(p.Default, diag.WrongDirection, "%s: %s parameters cannot have default values", p.Name.Name, p.Dir)
		}
		if a := p.Annos.Find("optional"); a != nil && !role.mayBeOptional() {
			c.errorf(a, diag.WrongDirection, "%s: an optional parameter is not allowed here (only in externs, parser and control types and packages)", p.Name.Name)
		}
		if t, ok := c.out.TypeOf[p.Type]; ok && !isInvalid(t) {
			c.checkParamType(p, t, role)
		}
	}
}

// checkParamType applies the rules on one parameter's type (P4-16 §6.8,
// §14.1): strings, ints and extern objects have no direction; actions take
// no ints or externs, and their control-plane data are bits, bools, new
// types or serializable enums; a parser, control or package may be passed
// only to a package, or, as a type, to a block's constructor.
func (c *checker) checkParamType(p *Param, t Type, role paramRole) {
	switch t := t.(type) {
	case StringType:
		if p.Dir != DirNone {
			c.errorf(p.Name, diag.WrongDirection, "%s: a parameter with type string cannot have a direction", p.Name.Name)
		}
	case IntType:
		switch {
		case role == roleAction:
			c.errorf(p.Name, diag.TypeMismatch, "%s: actions cannot have parameters with type int", p.Name.Name)
		case p.Dir != DirNone:
			c.errorf(p.Name, diag.WrongDirection, "%s: parameters with type int must be directionless", p.Name.Name)
		}
	case *ObjectType:
		c.checkObjectParam(p, t, role)
	}
}

func (c *checker) checkObjectParam(p *Param, t *ObjectType, role paramRole) {
	if t.Kind == ObjExtern {
		switch {
		case role == roleAction:
			c.errorf(p.Type, diag.TypeMismatch, "%s: action parameters cannot have extern types", p.Name.Name)
		case p.Dir != DirNone:
			c.errorf(p.Name, diag.WrongDirection, "%s: a parameter with type %s cannot have a direction", p.Name.Name, t)
		}
		return
	}
	ok := false
	isType := !hasBody(t.Decl)
	switch role {
	case rolePackage:
		ok = true
	case roleParserCtor:
		// A parser may run a sub-parser given to it; p4c takes a parser
		// declaration here too.
		ok = t.Kind == ObjParser
	case roleControlCtor:
		ok = t.Kind == ObjControl && isType
	}
	if !ok {
		c.errorf(p.Type, diag.TypeMismatch, "%s: a parameter here cannot have type %s %s", p.Name.Name, objectKindName(t.Kind), t)
	}
}

// hasBody reports whether a parser or control declaration has a body (it
// is a block, not a type).
func hasBody(d Decl) bool {
	switch d := d.(type) {
	case *ParserDecl:
		return d.HasBody
	case *ControlDecl:
		return d.Apply != nil
	}
	return false
}

func objectKindName(k ObjectKind) string {
	return [...]string{"extern", "parser", "control", "package"}[k]
}

// checkNewTypeBase applies P4-16 §7.6: `type` makes a new type only of a
// base type (bit<W>, int<W>, bool, or another new type).
func (c *checker) checkNewTypeBase(d *TypedefDecl, base Type) bool {
	switch base.(type) {
	case *BitsType, BoolType, *NewType, InvalidType:
		return true
	}
	c.errorf(d.Name, diag.TypeMismatch, "%s: `type' can only be applied to base types (bit<W>, int<W>, bool), not %s", d.Name.Name, base)
	return false
}

// checkTupleElem reports a tuple or list element of a type that holds no
// data: strings, _, void, int, and extern, parser, control and package
// objects.
func (c *checker) checkTupleElem(te TypeExpr, t Type) {
	switch t.(type) {
	case StringType, DontCareType, VoidType, *ObjectType:
		c.errorf(te, diag.TypeMismatch, "%s is not supported as a tuple or list element", t)
	}
}

// containsSelf reports whether a type argument is, or holds, the generic
// declaration it is an argument of (test_extern<test_extern<bit<32>>>),
// which p4c does not support.
func containsSelf(t Type, d Node) bool {
	switch t := t.(type) {
	case *ObjectType:
		if t.Decl == d {
			return true
		}
		for _, a := range t.Args {
			if containsSelf(a, d) {
				return true
			}
		}
	case *StructType:
		if g, ok := d.(*StructDecl); ok && len(t.Name) > len(g.Name.Name) && t.Name[:len(g.Name.Name)+1] == g.Name.Name+"<" {
			return true
		}
	case *TupleType:
		for _, e := range t.Elems {
			if containsSelf(e, d) {
				return true
			}
		}
	case *StackType:
		return containsSelf(t.Elem, d)
	}
	return false
}
