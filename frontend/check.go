package frontend

import (
	"context"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// Checked is a program that parsed and passed name and type checking, with
// everything lowering needs: the type and constant value of each expression
// and the declaration each name refers to.
type Checked struct {
	File   *File
	Source *Source
	// Types holds the type of every checked expression; Values the value of
	// every compile-time constant expression.
	Types  map[Expr]Type
	Values map[Expr]any
	// Uses maps each name to what it denotes.
	Uses map[*NameExpr]*Symbol
	// TypeOf maps each type expression to the type it denotes.
	TypeOf map[TypeExpr]Type
	// ActionOf maps each table action reference (and each default_action
	// expression) to the action it names.
	ActionOf map[Node]*ActionDecl
	// FuncOf maps the prototype of each function with a body to its
	// declaration (overloads share a name).
	FuncOf map[*FuncProto]*FuncDecl
	// Errors and MatchKinds are the merged error and match_kind members, in
	// declaration order.
	Errors     []string
	MatchKinds []string
	// Main is the top-level package instance called main, if any.
	Main *Instance
	// Globals is the top-level scope.
	Globals *Scope
}

// Arch returns ir.V1Model when the main instance is a V1Switch, ir.TNA
// when it is a Switch (Tofino's), else "".
func (c *Checked) Arch() string {
	if c.Main == nil {
		return ""
	}
	if t, ok := c.TypeOf[c.Main.Type].(*ObjectType); ok {
		switch t.Name {
		case "V1Switch":
			return ir.V1Model
		case "Switch":
			return ir.TNA
		}
	}
	return ""
}

// Check parses and checks a program. It returns the checked program, or nil
// when there were errors (which are in d). The error is for cancellation.
func Check(ctx context.Context, file string, src []byte, opts Options, d *diag.List) (*Checked, *Source, error) {
	checked, source, err := Analyze(ctx, file, src, opts, d)
	if err != nil || d.HasErrors() {
		return nil, source, err
	}
	return checked, source, nil
}

// Analyze is Check for tools that read what the checker learned even when
// the program has errors: an editor hovers over a name in a program with a
// type error elsewhere. The checked program is partial when d has errors;
// when parsing failed it holds only the AST parsed (File, nil when none),
// empty maps and no Globals, since the checker would stumble over a
// recovered tree.
func Analyze(ctx context.Context, file string, src []byte, opts Options, d *diag.List) (*Checked, *Source, error) {
	f, source, err := Parse(ctx, file, src, opts, d)
	c := newChecker(d)
	c.out.File, c.out.Source = f, source
	if err != nil || f == nil || d.HasErrors() {
		c.out.Globals = nil
		return c.out, source, err
	}
	for i, decl := range f.Decls {
		if i%256 == 0 && ctx.Err() != nil {
			return nil, source, fmt.Errorf("check %s: %w", file, ctx.Err())
		}
		c.topDecl(decl)
		if d.Limited() {
			break
		}
	}
	if !d.HasErrors() {
		c.checkControlPlaneNames(f)
	}
	return c.out, source, nil
}

// SymbolKind says what a name denotes.
type SymbolKind int

const (
	SymType SymbolKind = iota
	SymConst
	SymVar
	SymParam
	SymAction
	SymTable
	SymInstance
	SymFunc
	SymState
	SymValueSet
	SymMatchKind
)

// Symbol is a declared name.
type Symbol struct {
	Name  string
	Kind  SymbolKind
	Decl  Node // the declaring node (for SymParam, the *Param)
	Type  Type
	Value any // constants
	Dir   Direction
	// ReadOnly is set for in parameters, directionless action parameters
	// and constants.
	ReadOnly bool
}

// Scope is a block of declarations; lookups go outward.
type Scope struct {
	parent *Scope
	syms   map[string]*Symbol
}

func newScope(parent *Scope) *Scope { return &Scope{parent: parent, syms: map[string]*Symbol{}} }

// Lookup finds name in s or an enclosing scope.
func (s *Scope) Lookup(name string) *Symbol {
	for ; s != nil; s = s.parent {
		if sym, ok := s.syms[name]; ok {
			return sym
		}
	}
	return nil
}

func (s *Scope) root() *Scope {
	for s.parent != nil {
		s = s.parent
	}
	return s
}

type checker struct {
	diags *diag.List
	out   *Checked
	scope *Scope

	// What the statements being checked are inside of.
	action   *ActionDecl
	function *FuncProto
	parser   *ParserDecl
	control  *ControlDecl
	loops    int
	// this is the instance whose abstract methods are being checked.
	this *ObjectType
}

func newChecker(d *diag.List) *checker {
	c := &checker{diags: d, out: &Checked{
		Types:    map[Expr]Type{},
		Values:   map[Expr]any{},
		Uses:     map[*NameExpr]*Symbol{},
		TypeOf:   map[TypeExpr]Type{},
		ActionOf: map[Node]*ActionDecl{},
		FuncOf:   map[*FuncProto]*FuncDecl{},
	}}
	c.scope = newScope(nil)
	c.out.Globals = c.scope
	c.declare(&Symbol{Name: "accept", Kind: SymState, Type: tState, Decl: &Ident{Name: "accept"}})
	c.declare(&Symbol{Name: "reject", Kind: SymState, Type: tState, Decl: &Ident{Name: "reject"}})
	return c
}

func (c *checker) errorf(n diag.Spanned, code diag.Code, format string, args ...any) *diag.Diagnostic {
	return c.diags.Errorf(n, code, format, args...)
}

// declare adds sym to the current scope, reporting a redeclaration. Extern
// functions and methods may be overloaded: their prototypes merge.
func (c *checker) declare(sym *Symbol) {
	if prev, ok := c.scope.syms[sym.Name]; ok {
		if prev.Kind == SymFunc && sym.Kind == SymFunc {
			pf, nf := prev.Type.(*FuncType), sym.Type.(*FuncType)
			pf.Protos = append(pf.Protos, nf.Protos...)
			return
		}
		d := c.errorf(nameOf(sym.Decl), diag.Redeclared, "%s is already declared in this scope", sym.Name)
		if prev.Decl != nil && prev.Decl.Span().Start.IsValid() {
			d.Note(nameOf(prev.Decl), "previous declaration of %s", sym.Name)
		}
		return
	}
	c.scope.syms[sym.Name] = sym
}

// nameOf returns the name of a declaration, where diagnostics about the
// declaration as a whole should point.
func nameOf(n Node) Node {
	switch d := n.(type) {
	case Decl:
		if id := d.DeclName(); id != nil {
			return id
		}
	case *Param:
		return d.Name
	case *ParserState:
		return d.Name
	}
	return n
}

func (c *checker) push() { c.scope = newScope(c.scope) }
func (c *checker) pop()  { c.scope = c.scope.parent }

// ------------------------------------------------------------------ top-level declarations

func (c *checker) topDecl(d Decl) {
	c.checkNoAction(d)
	if id := d.DeclName(); id != nil && id.Name == "main" {
		if e, ok := d.(*ExternDecl); ok && e.Func == nil {
			c.errorf(id, diag.BadArchitecture, "main must be an instance of a package")
		}
	}
	switch d := d.(type) {
	case *ConstDecl:
		c.constDecl(d)
	case *ExternDecl:
		c.externDecl(d)
	case *StructDecl:
		c.structDecl(d)
	case *EnumDecl:
		c.enumDecl(d)
	case *ErrorDecl:
		for _, m := range d.Members {
			c.addUnique(&c.out.Errors, m, "error")
		}
	case *MatchKindDecl:
		for _, m := range d.Members {
			if c.addUnique(&c.out.MatchKinds, m, "match_kind") {
				c.declare(&Symbol{Name: m.Name, Kind: SymMatchKind, Decl: m, Type: tMatchKind, Value: m.Name, ReadOnly: true})
			}
		}
	case *TypedefDecl:
		c.typedefDecl(d)
	case *ParserDecl:
		c.checkAnnotations(d.Annos, "a parser")
		c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: &ObjectType{Kind: ObjParser, Name: d.Name.Name, Decl: d}})
		if d.HasBody {
			c.parserBody(d)
		} else {
			c.checkParamTypes(d.TypeParams, d.Params, roleBlockApply)
		}
	case *ControlDecl:
		c.checkAnnotations(d.Annos, "a control")
		c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: &ObjectType{Kind: ObjControl, Name: d.Name.Name, Decl: d}})
		if d.Apply != nil {
			c.controlBody(d)
		} else {
			c.checkParamTypes(d.TypeParams, d.Params, roleBlockApply)
		}
	case *PackageDecl:
		c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: &ObjectType{Kind: ObjPackage, Name: d.Name.Name, Decl: d}})
		c.checkParamTypes(d.TypeParams, d.Params, rolePackage)
	case *FuncDecl:
		c.funcDecl(d)
	case *ActionDecl:
		c.actionDecl(d)
	case *Instance:
		c.instance(d)
		if d.Name.Name == "main" {
			c.out.Main = d
			if t, ok := c.out.TypeOf[d.Type].(*ObjectType); ok && t.Kind != ObjPackage {
				c.errorf(d.Type, diag.BadArchitecture, "main must be an instance of a package, not of %s %s", objectKindName(t.Kind), t.Name)
			}
		}
	default:
		c.errorf(d, diag.Unsupported, "this declaration is not allowed at the top level")
	}
}

// v1modelVersions are the versions of v1model.p4's API (V1MODEL_VERSION),
// which p4c's v1model.p4 and p4hls's declare __v1model_version from.
var v1modelVersions = []int64{20180101, 20200408}

// v1modelVersion reports a V1MODEL_VERSION that is not a version of the
// API, as p4c does.
func (c *checker) v1modelVersion(e Expr) {
	v, ok := c.out.Values[e].(*big.Int)
	switch {
	case !ok:
	case v.Sign() < 0:
		c.errorf(e, diag.BadArchitecture, "%s: expected the v1model version to be a non-negative number", v)
	case !slices.Contains(v1modelVersions, v.Int64()):
		c.errorf(e, diag.BadArchitecture, "%s: unknown v1model version; the versions are %d and %d", v, v1modelVersions[0], v1modelVersions[1])
	}
}

// addUnique appends m to list unless present; it reports a duplicate.
func (c *checker) addUnique(list *[]string, m *Ident, what string) bool {
	for _, x := range *list {
		if x == m.Name {
			c.errorf(m, diag.Redeclared, "%s member %s is already declared", what, m.Name)
			return false
		}
	}
	*list = append(*list, m.Name)
	return true
}

func (c *checker) constDecl(d *ConstDecl) {
	t := c.resolveType(d.Type)
	c.checkAnnotations(d.Annos, "a constant")
	c.expr(d.Value, t)
	if d.Name.Name == "__v1model_version" {
		c.v1modelVersion(d.Value)
	}
	c.convert(d.Value, t, "constant "+d.Name.Name)
	v, ok := c.out.Values[d.Value]
	if !ok && !isInvalid(c.out.Types[d.Value]) {
		c.errorf(d.Value, diag.NotConstant, "value of constant %s is not a compile-time constant", d.Name.Name)
	}
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymConst, Decl: d, Type: t, Value: v, ReadOnly: true})
}

func (c *checker) externDecl(d *ExternDecl) {
	c.checkAnnotations(d.Annos, "an extern")
	if d.Func != nil {
		c.checkProto(d.Func, nil, roleExtern)
		c.declare(&Symbol{Name: d.Func.Name.Name, Kind: SymFunc, Decl: d, Type: &FuncType{Name: d.Func.Name.Name, Protos: []*FuncProto{d.Func}}})
		return
	}
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: &ObjectType{Kind: ObjExtern, Name: d.Name.Name, Decl: d}})
	c.checkOverloads(d)
	for _, m := range d.Methods {
		if m.Constructor && m.Name.Name != d.Name.Name {
			c.errorf(m.Name, diag.TypeMismatch, "constructor %s of extern %s must have the extern's name", m.Name.Name, d.Name.Name)
		}
		if !m.Constructor && m.Name.Name == d.Name.Name {
			c.errorf(m.Name, diag.TypeMismatch, "%s: invalid constructor; a constructor has no return type", m.Name.Name)
		}
		role := roleExtern
		if m.Abstract {
			role = roleAbstract
		}
		c.checkProto(m, d.TypeParams, role)
		c.checkSelfReference(m, d)
		if m.Return != nil && c.out.TypeOf[m.Return] == tInt {
			c.errorf(m.Return, diag.TypeMismatch, "int: illegal return type for method %s", m.Name.Name)
		}
	}
}

// checkOverloads reports a method (or constructor) of an extern that
// another of its name and parameter names already declares: a call tells
// overloads apart by its number of arguments or their names only, so no
// call could choose between the two.
func (c *checker) checkOverloads(d *ExternDecl) {
	seen := map[string]*FuncProto{}
	for _, m := range d.Methods {
		var names []string
		for _, p := range m.Params {
			names = append(names, p.Name.Name)
		}
		slices.Sort(names) // named arguments come in any order
		sig := m.Name.Name + "(" + strings.Join(names, ",")
		if prev := seen[sig]; prev != nil {
			e := c.errorf(m.Name, diag.Redeclared, "%s of extern %s is declared twice with the same parameter names; no call could tell them apart",
				m.Name.Name, d.Name.Name)
			e.Note(prev.Name, "the other %s", m.Name.Name)
			continue
		}
		seen[sig] = m
	}
}

// checkProto resolves a prototype's types once, to report bad ones at their
// declaration.
func (c *checker) checkProto(p *FuncProto, outer []*Ident, role paramRole) {
	c.push()
	defer c.pop()
	c.declareTypeParams(outer)
	// A method's type parameters may shadow the extern's.
	c.push()
	defer c.pop()
	c.declareTypeParams(p.TypeParams)
	if p.Return != nil {
		c.resolveType(p.Return)
	}
	for _, param := range p.Params {
		c.resolveType(param.Type)
	}
	c.checkParams(p.Params, role)
}

// checkSelfReference reports a method of an extern that takes or returns
// the extern itself, which p4c does not support.
func (c *checker) checkSelfReference(m *FuncProto, d *ExternDecl) {
	check := func(te TypeExpr) {
		if t, ok := c.out.TypeOf[te].(*ObjectType); ok && t.Decl == Decl(d) {
			c.errorf(te, diag.TypeMismatch, "self-referencing types are not supported: %s within %s", d.Name.Name, d.Name.Name)
		}
	}
	if m.Return != nil {
		check(m.Return)
	}
	for _, p := range m.Params {
		check(p.Type)
	}
}

func (c *checker) checkParamTypes(typeParams []*Ident, params []*Param, role paramRole) {
	c.push()
	defer c.pop()
	c.declareTypeParams(typeParams)
	for _, p := range params {
		c.resolveType(p.Type)
	}
	c.checkParams(params, role)
}

func (c *checker) declareTypeParams(ps []*Ident) {
	for _, p := range ps {
		c.declare(&Symbol{Name: p.Name, Kind: SymType, Decl: p, Type: &TypeVar{Name: p.Name, Decl: p}})
	}
}

func (c *checker) structDecl(d *StructDecl) {
	c.checkAnnotations(d.Annos, "a "+d.Kind.String())
	if len(d.TypeParams) > 0 {
		// Each use with type arguments makes a struct type of its own;
		// the fields are checked once here, with the parameters free.
		c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: &GenericStructType{Decl: d, insts: map[string]*StructType{}}})
		c.push()
		c.declareTypeParams(d.TypeParams)
		c.structFields(d, &StructType{Kind: d.Kind, Name: d.Name.Name})
		c.pop()
		return
	}
	st := &StructType{Kind: d.Kind, Name: d.Name.Name, Annos: d.Annos}
	// Declared before its fields, so a field of its own type is reported as
	// recursive rather than undeclared.
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: st})
	c.structFields(d, st)
}

// structFields resolves and checks the fields of a struct, header or
// header union declaration into st.
func (c *checker) structFields(d *StructDecl, st *StructType) {
	seen := map[string]bool{}
	for _, f := range d.Fields {
		ft := c.resolveType(f.Type)
		if seen[f.Name.Name] {
			c.errorf(f.Name, diag.Redeclared, "field %s is declared twice in %s", f.Name.Name, d.Name.Name)
			continue
		}
		seen[f.Name.Name] = true
		if ft == Type(st) {
			c.errorf(f.Type, diag.TypeMismatch, "%s cannot contain a field of its own type", d.Name.Name)
			ft = tInvalid
		}
		c.fieldAnnotations(f, seen)
		c.checkFieldType(d, f, ft)
		st.Fields = append(st.Fields, &FieldInfo{Name: f.Name.Name, Type: ft, FieldLists: c.fieldLists(f)})
	}
}

// fieldAnnotations checks the annotations of a field: @match names a
// match kind; @length names a field declared before.
func (c *checker) fieldAnnotations(f *Field, before map[string]bool) {
	c.checkAnnotations(f.Annos, "a field")
	if a := f.Annos.Find("match"); a != nil && !a.Structured {
		if sym := c.scope.Lookup(strings.Join(a.Body, "")); sym == nil || sym.Kind != SymMatchKind {
			c.errorf(a, diag.TypeMismatch, "@match: %s is not a match_kind", strings.Join(a.Body, " "))
		}
	}
	if a := f.Annos.Find("length"); a != nil && !a.Structured && len(a.Body) == 1 && isIdent(a.Body[0]) && !before[a.Body[0]] {
		c.errorf(a, diag.UndeclaredName, "@length: %s is not a field declared before %s", a.Body[0], f.Name.Name)
	}
}

// fieldLists reads a field's @field_list(N, ...): v1model's lists of the
// metadata a resubmit, recirculation or clone keeps.
func (c *checker) fieldLists(f *Field) []int {
	a := f.Annos.Find("field_list")
	if a == nil || a.Structured {
		return nil
	}
	var out []int
	for _, e := range a.Exprs {
		if n, ok := c.constInt(e, "a @field_list index"); ok {
			out = append(out, n)
		}
	}
	return out
}

func isIdent(s string) bool {
	for i, r := range s {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// checkFieldType applies P4-16 §7.2.2: header fields are bit<W>, int<W>,
// varbit, bool, serializable enums, or new types of those; header union
// fields are headers.
func (c *checker) checkFieldType(d *StructDecl, f *Field, t Type) {
	if _, isVar := t.(*TypeVar); isInvalid(t) || isVar {
		return // a generic declaration's fields are checked once bound
	}
	switch d.Kind {
	case KindHeader:
		if !isHeaderFieldType(t) {
			c.errorf(f.Type, diag.TypeMismatch, "header field %s.%s has type %s; header fields must be bit<W>, int<W>, varbit<W>, bool, a serializable enum, or a struct or array of those",
				d.Name.Name, f.Name.Name, t)
		}
	case KindHeaderUnion:
		if s, ok := t.(*StructType); !ok || s.Kind != KindHeader {
			c.errorf(f.Type, diag.TypeMismatch, "header_union field %s.%s must be a header, not %s", d.Name.Name, f.Name.Name, t)
		}
	case KindStruct:
		switch t.(type) {
		case *TypeVar, *ObjectType, VoidType, StringType, IntType, MatchKindType:
			c.errorf(f.Type, diag.TypeMismatch, "struct field %s.%s cannot have type %s", d.Name.Name, f.Name.Name, t)
		}
	}
}

// isHeaderFieldType reports whether a header may have a field of type t:
// a serializable type, or a struct or array of them (P4-16 §7.2.2; p4c
// accepts arrays too).
func isHeaderFieldType(t Type) bool {
	switch t := t.(type) {
	case *StructType:
		if t.Kind != KindStruct {
			return false
		}
		for _, f := range t.Fields {
			if _, varbit := f.Type.(*VarbitType); varbit || !isHeaderFieldType(f.Type) {
				return false
			}
		}
		return true
	case *StackType:
		_, varbit := t.Elem.(*VarbitType)
		return !varbit && isHeaderFieldType(t.Elem)
	}
	return isSerializable(t)
}

func isSerializable(t Type) bool {
	switch t := t.(type) {
	case *BitsType, *VarbitType, BoolType:
		return true
	case *EnumType:
		return t.Underlying != nil
	case *NewType:
		return isSerializable(t.Base)
	}
	return false
}

func (c *checker) enumDecl(d *EnumDecl) {
	et := &EnumType{Name: d.Name.Name, Values: map[string]*big.Int{}}
	if d.Underlying != nil {
		ut := c.resolveType(d.Underlying)
		b, ok := ut.(*BitsType)
		if !ok {
			if !isInvalid(ut) {
				c.errorf(d.Underlying, diag.TypeMismatch, "the underlying type of enum %s must be bit<W> or int<W>, not %s", d.Name.Name, ut)
			}
			b = &BitsType{Width: 32}
		}
		et.Underlying = b
	}
	seen := map[string]bool{}
	// A member's value may name the members before it (p4c: c = (bit<4>)a).
	c.push()
	for _, m := range d.Members {
		if seen[m.Name.Name] {
			c.errorf(m.Name, diag.Redeclared, "enum member %s.%s is declared twice", d.Name.Name, m.Name.Name)
			continue
		}
		seen[m.Name.Name] = true
		et.Members = append(et.Members, m.Name.Name)
		if m.Value != nil && et.Underlying != nil {
			c.expr(m.Value, et.Underlying)
			c.convert(m.Value, et.Underlying, "enum member "+m.Name.Name)
			if v, ok := c.out.Values[m.Value].(*big.Int); ok {
				et.Values[m.Name.Name] = v
				c.declare(&Symbol{Name: m.Name.Name, Kind: SymConst, Decl: m.Name, Type: et.Underlying, Value: v, ReadOnly: true})
			} else if !isInvalid(c.out.Types[m.Value]) {
				c.errorf(m.Value, diag.NotConstant, "value of enum member %s.%s is not a compile-time constant", d.Name.Name, m.Name.Name)
			}
		}
	}
	c.pop()
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: et})
}

func (c *checker) typedefDecl(d *TypedefDecl) {
	c.checkAnnotations(d.Annos, "a type")
	t := c.resolveType(d.Type)
	if d.NewType {
		if !c.checkNewTypeBase(d, t) {
			t = tInvalid
		} else {
			t = &NewType{Name: d.Name.Name, Base: t}
		}
	}
	c.declare(&Symbol{Name: d.Name.Name, Kind: SymType, Decl: d, Type: t})
}

// checkAnnotations reports @atomic where it cannot apply: only a block
// statement inside an action, function or control may be atomic.
func (c *checker) checkAnnotations(as Annotations, what string) {
	if a := as.Find("atomic"); a != nil {
		c.errorf(a, diag.MisplacedAtomic, "@atomic applies to a block statement, not to %s; write it before the { of a block inside an action", what)
	}
	c.annotationRules(as)
}

// annotationRules applies the rules P4-16 §18 sets on annotations: a
// structured annotation appears once per element, with constant ints,
// strings and bools; @name and @deprecated hold a string.
func (c *checker) annotationRules(as Annotations) {
	count := map[string]int{}
	for _, a := range as {
		count[a.Name]++
	}
	for _, a := range as {
		if a.Structured {
			if count[a.Name] > 1 {
				c.errorf(a, diag.Redeclared, "@%s: a structured annotation may appear once", a.Name)
				count[a.Name] = 0 // reported once
			}
			values := append([]Expr(nil), a.Exprs...)
			for _, kv := range a.KV {
				values = append(values, kv.Value)
			}
			for _, x := range values {
				c.annotationValue(a, x)
			}
		}
		switch a.Name {
		case "pkginfo":
			if !a.Structured && !kvBody(a.Body) {
				c.errorf(a, diag.SyntaxError, "syntax error: @pkginfo takes key=value pairs")
			}
		case "p4runtime_translation":
			if len(a.Body) == 3 && a.Body[1] == "," && !isDecimal(a.Body[2]) && a.Body[2] != "string" {
				c.errorf(a, diag.SyntaxError, "syntax error: the second argument of @p4runtime_translation is a width, bit<W> or string, not %s", a.Body[2])
			}
		case "name", "deprecated":
			if a.Structured {
				continue
			}
			if !stringBody(a) {
				c.errorf(a, diag.TypeMismatch, "@%s should contain a string", a.Name)
			}
		}
	}
}

// kvBody reports whether annotation tokens are key=value pairs.
func kvBody(body []string) bool {
	if len(body) == 0 {
		return false
	}
	for i := 0; i < len(body); i += 4 {
		if i+2 >= len(body) || !isIdent(body[i]) || body[i+1] != "=" || i+3 < len(body) && body[i+3] != "," {
			return false
		}
	}
	return true
}

// stringBody reports whether an annotation's body is a string: a literal,
// or literals and names joined by ++ (p4c folds them).
func stringBody(a *Annotation) bool {
	if len(a.Exprs) == 1 {
		_, ok := a.Exprs[0].(*StringLit)
		return ok
	}
	if len(a.Exprs) > 1 || len(a.Body) == 0 {
		return false
	}
	for i, tok := range a.Body {
		switch {
		case i%2 == 1 && tok == "++":
		case i%2 == 0 && (strings.HasPrefix(tok, `"`) || isIdent(tok)):
		default:
			return false
		}
	}
	return len(a.Body)%2 == 1
}

// annotationValue checks one value of a structured annotation.
func (c *checker) annotationValue(a *Annotation, x Expr) {
	t := c.expr(x, nil)
	if isInvalid(t) {
		return
	}
	_, constant := c.out.Values[x]
	switch t.(type) {
	case IntType, *BitsType, StringType, BoolType:
		if constant {
			return
		}
	}
	c.errorf(x, diag.TypeMismatch, "@%s: %s is not a constant int, string or bool", a.Name, describe(x))
}
