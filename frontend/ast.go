package frontend

import (
	"math/big"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// The AST mirrors the P4-16 grammar closely and holds no resolved meaning:
// the checker resolves names and types and lowering builds ir.Program from
// the checked AST. Every node has the span of its source text.

// Node is any AST node.
type Node interface {
	Span() diag.Span
}

// At is embedded in every node to give it a span.
type At struct{ Sp diag.Span }

// Span returns the node's place in the source.
func (a At) Span() diag.Span { return a.Sp }

// Ident is a name as written, with its own span.
type Ident struct {
	At
	Name string
}

// Annotation is @name, @name(tokens...) or @name[expressions or k=v].
type Annotation struct {
	At
	Name string
	// Body holds the unparsed tokens of @name(...), which P4 leaves to the
	// consumer of the annotation; Exprs holds them parsed when they form a
	// list of expressions (as @name("x") and @priority(2) do).
	Body  []string
	Exprs []Expr
	KV    []*KeyValue
	// Structured is set for @name[...], whose expressions are checked.
	Structured bool
}

// Annotations is a list of annotations with lookup helpers.
type Annotations []*Annotation

// Find returns the annotation called name, or nil.
func (as Annotations) Find(name string) *Annotation {
	for _, a := range as {
		if a.Name == name {
			return a
		}
	}
	return nil
}

// KeyValue is name = expression in struct expressions and annotations.
type KeyValue struct {
	At
	Key   *Ident
	Value Expr
}

// File is one preprocessed translation unit.
type File struct {
	At
	Decls []Decl
}

// ------------------------------------------------------------------ types

// TypeExpr is a type as written.
type TypeExpr interface {
	Node
	typeExpr()
}

// BaseKind is a built-in type.
type BaseKind int

const (
	BaseBool BaseKind = iota
	BaseError
	BaseMatchKind
	BaseString
	BaseInt    // int with no width: an arbitrary-precision integer
	BaseBit    // bit<W>; bit alone is bit<1>
	BaseSigned // int<W>
	BaseVarbit
	BaseVoid
	BaseDontCare // _ as a type argument
)

// BaseType is bool, bit<W>, int<W>, varbit<W>, error, ...
type BaseType struct {
	At
	Kind  BaseKind
	Width Expr // nil when none was written
}

// NamedType is a type name, possibly specialized (Register<bit<32>, bit<10>>).
type NamedType struct {
	At
	Name   *Ident
	Global bool // written with a leading dot
	Args   []TypeExpr
}

// TupleTypeExpr is tuple<...> or list<...>.
type TupleTypeExpr struct {
	At
	List  bool
	Elems []TypeExpr
}

// StackTypeExpr is T[size]: a header stack or an array.
type StackTypeExpr struct {
	At
	Elem TypeExpr
	Size Expr
}

func (*BaseType) typeExpr()      {}
func (*NamedType) typeExpr()     {}
func (*TupleTypeExpr) typeExpr() {}
func (*StackTypeExpr) typeExpr() {}

// ------------------------------------------------------------------ declarations

// Decl is a declaration at any level.
type Decl interface {
	Node
	DeclName() *Ident
}

// Direction is a parameter's direction.
type Direction int

const (
	DirNone Direction = iota
	DirIn
	DirOut
	DirInOut
)

func (d Direction) String() string {
	return [...]string{"", "in", "out", "inout"}[d]
}

// Param is a parameter of an action, function, method, parser, control or package.
type Param struct {
	At
	Annos   Annotations
	Dir     Direction
	Type    TypeExpr
	Name    *Ident
	Default Expr
}

// ConstDecl is const T name = value;
type ConstDecl struct {
	At
	Annos Annotations
	Type  TypeExpr
	Name  *Ident
	Value Expr
}

// VarDecl is T name [= init];
type VarDecl struct {
	At
	Annos Annotations
	Type  TypeExpr
	Name  *Ident
	Init  Expr
}

// Instance is T(args) name [= { abstract method bodies }]; or, with Size,
// T(args) name[size]; an array of instances.
type Instance struct {
	At
	Annos Annotations
	Type  TypeExpr
	Args  []*Arg
	Name  *Ident
	Size  Expr   // nil for one instance
	Init  []Decl // FuncDecl and Instance
	// HasInit is set when an initializer is written, even an empty one.
	HasInit bool
}

// StructKind tells headers, header unions and structs apart.
type StructKind int

const (
	KindStruct StructKind = iota
	KindHeader
	KindHeaderUnion
)

// String is the kind's P4 keyword.
func (k StructKind) String() string { return [...]string{"struct", "header", "header_union"}[k] }

// Field is one field of a struct, header or header union.
type Field struct {
	At
	Annos Annotations
	Type  TypeExpr
	Name  *Ident
}

// StructDecl declares a struct, header or header_union type.
type StructDecl struct {
	At
	Annos      Annotations
	Kind       StructKind
	Name       *Ident
	TypeParams []*Ident
	Fields     []*Field
}

// EnumMember is one member, with its value for a serializable enum.
type EnumMember struct {
	Name  *Ident
	Value Expr
}

// EnumDecl is enum [T] name { members }.
type EnumDecl struct {
	At
	Annos      Annotations
	Underlying TypeExpr // nil for a plain enum
	Name       *Ident
	Members    []*EnumMember
}

// ErrorDecl is error { names } (the declarations of all such merge).
type ErrorDecl struct {
	At
	Members []*Ident
}

// MatchKindDecl is match_kind { names }.
type MatchKindDecl struct {
	At
	Members []*Ident
}

// TypedefDecl is typedef T name; or type T name; (NewType).
type TypedefDecl struct {
	At
	Annos   Annotations
	NewType bool
	Type    TypeExpr
	Name    *Ident
}

// FuncProto is a function, method or constructor prototype.
type FuncProto struct {
	At
	Annos       Annotations
	Return      TypeExpr // nil for constructors
	Name        *Ident
	TypeParams  []*Ident
	Params      []*Param
	Abstract    bool
	Constructor bool
}

// ExternDecl declares an extern object type with its methods, or (when
// Func is set) an extern function.
type ExternDecl struct {
	At
	Annos      Annotations
	Name       *Ident
	TypeParams []*Ident
	Methods    []*FuncProto
	Func       *FuncProto
}

// FuncDecl is a function with a body.
type FuncDecl struct {
	At
	Proto *FuncProto
	Body  *BlockStmt
}

// ActionDecl is action name(params) { body }.
type ActionDecl struct {
	At
	Annos  Annotations
	Name   *Ident
	Params []*Param
	Body   *BlockStmt
}

// ParserDecl is a parser type (States nil and Body false) or a parser.
type ParserDecl struct {
	At
	Annos      Annotations
	Name       *Ident
	TypeParams []*Ident
	Params     []*Param
	CtorParams []*Param
	Locals     []Decl
	States     []*ParserState
	HasBody    bool
}

// ControlDecl is a control type (Apply nil) or a control.
type ControlDecl struct {
	At
	Annos      Annotations
	Name       *Ident
	TypeParams []*Ident
	Params     []*Param
	CtorParams []*Param
	Locals     []Decl
	Apply      *BlockStmt
}

// PackageDecl is package name<T>(params);
type PackageDecl struct {
	At
	Annos      Annotations
	Name       *Ident
	TypeParams []*Ident
	Params     []*Param
}

// ValueSetDecl is value_set<T>(size) name;
type ValueSetDecl struct {
	At
	Annos Annotations
	Elem  TypeExpr
	Size  Expr
	Name  *Ident
}

// TableDecl is table name { properties }.
type TableDecl struct {
	At
	Annos Annotations
	Name  *Ident
	Props []*TableProp
}

// TableProp is one property: key, actions, entries, or name = expression.
type TableProp struct {
	At
	Annos   Annotations
	Name    *Ident
	Const   bool
	Keys    []*KeyElem   // key
	Actions []*ActionRef // actions
	Entries []*Entry     // entries
	Value   Expr         // any other property
}

// KeyElem is expression : match_kind.
type KeyElem struct {
	At
	Annos Annotations
	Expr  Expr
	Match *Ident
}

// ActionRef names an action, with arguments bound where written.
type ActionRef struct {
	At
	Annos   Annotations
	Name    *Ident
	Global  bool // written with a leading dot: the top-level action
	Args    []*Arg
	HasArgs bool
}

// Entry is one const entry.
type Entry struct {
	At
	Annos    Annotations
	Priority Expr
	Keys     []Expr // one keyset expression per key
	Action   *ActionRef
}

// ParserState is state name { statements transition }.
type ParserState struct {
	At
	Annos      Annotations
	Name       *Ident
	Body       []Stmt
	Transition *Transition // nil: the state has no transition (reject)
}

// Transition is transition name; or transition select(...) { ... }.
type Transition struct {
	At
	Next   *Ident
	Select *SelectExpr
}

// SelectExpr is select(exprs) { cases }.
type SelectExpr struct {
	At
	Exprs []Expr
	Cases []*SelectCase
}

// SelectCase is keyset : state;
type SelectCase struct {
	At
	Keys  []Expr // keyset expressions (one per select expression, or one default)
	State *Ident
}

func (d *ConstDecl) DeclName() *Ident     { return d.Name }
func (d *VarDecl) DeclName() *Ident       { return d.Name }
func (d *Instance) DeclName() *Ident      { return d.Name }
func (d *StructDecl) DeclName() *Ident    { return d.Name }
func (d *EnumDecl) DeclName() *Ident      { return d.Name }
func (d *ErrorDecl) DeclName() *Ident     { return nil }
func (d *MatchKindDecl) DeclName() *Ident { return nil }
func (d *TypedefDecl) DeclName() *Ident   { return d.Name }
func (d *ExternDecl) DeclName() *Ident {
	if d.Func != nil {
		return d.Func.Name
	}
	return d.Name
}
func (d *FuncDecl) DeclName() *Ident     { return d.Proto.Name }
func (d *ActionDecl) DeclName() *Ident   { return d.Name }
func (d *ParserDecl) DeclName() *Ident   { return d.Name }
func (d *ControlDecl) DeclName() *Ident  { return d.Name }
func (d *PackageDecl) DeclName() *Ident  { return d.Name }
func (d *ValueSetDecl) DeclName() *Ident { return d.Name }
func (d *TableDecl) DeclName() *Ident    { return d.Name }

// ------------------------------------------------------------------ statements

// Stmt is a statement.
type Stmt interface {
	Node
	stmt()
}

// AssignStmt is lhs op= rhs: Op is ir.NoOp for a plain =, else the binary
// operator of a compound assignment (ir.Add for +=).
type AssignStmt struct {
	At
	Op  ir.Op
	LHS Expr
	RHS Expr
}

// CallStmt is a call used as a statement.
type CallStmt struct {
	At
	Call *CallExpr
}

// ExprStmt is an expression statement that is not a call; the checker
// rejects it with a clear message.
type ExprStmt struct {
	At
	X Expr
}

// IfStmt is if (cond) then [else else].
type IfStmt struct {
	At
	Cond Expr
	Then Stmt
	Else Stmt
}

// BlockStmt is { statements }, possibly annotated (@atomic).
type BlockStmt struct {
	At
	Annos Annotations
	Stmts []Stmt
}

// ExitStmt is exit;
type ExitStmt struct{ At }

// ReturnStmt is return [value];
type ReturnStmt struct {
	At
	Value Expr
}

// EmptyStmt is a lone ;
type EmptyStmt struct{ At }

// BreakStmt is break; in a loop.
type BreakStmt struct{ At }

// ContinueStmt is continue; in a loop.
type ContinueStmt struct{ At }

// SwitchStmt is switch (expr) { cases }.
type SwitchStmt struct {
	At
	X     Expr
	Cases []*SwitchCase
}

// SwitchCase is label: [block]; Label nil is default; Body nil falls through.
type SwitchCase struct {
	At
	Label Expr
	Body  *BlockStmt
}

// ForStmt is for (init; cond; update) body.
type ForStmt struct {
	At
	Annos  Annotations
	Init   []Stmt
	Cond   Expr
	Update []Stmt
	Body   Stmt
}

// ForInStmt is for (T name in collection) body: Range is a *RangeExpr
// (lo .. hi) or an expression of a header stack or list type.
type ForInStmt struct {
	At
	Annos Annotations
	Type  TypeExpr
	Name  *Ident
	Range Expr
	Body  Stmt
}

// DeclStmt is a declaration among statements (variable, constant, instance).
type DeclStmt struct {
	At
	Decl Decl
}

func (*AssignStmt) stmt()   {}
func (*CallStmt) stmt()     {}
func (*ExprStmt) stmt()     {}
func (*IfStmt) stmt()       {}
func (*BlockStmt) stmt()    {}
func (*ExitStmt) stmt()     {}
func (*ReturnStmt) stmt()   {}
func (*EmptyStmt) stmt()    {}
func (*BreakStmt) stmt()    {}
func (*ContinueStmt) stmt() {}
func (*SwitchStmt) stmt()   {}
func (*ForStmt) stmt()      {}
func (*ForInStmt) stmt()    {}
func (*DeclStmt) stmt()     {}

// ------------------------------------------------------------------ expressions

// Expr is an expression, or a keyset expression in select cases and entries.
type Expr interface {
	Node
	expr()
}

// IntLit is an integer literal: 5, 8w5, 4s3, 0xFF.
type IntLit struct {
	At
	Text   string
	Value  *big.Int
	Width  int // 0 when no width was written
	Signed bool
}

// BoolLit is true or false.
type BoolLit struct {
	At
	Value bool
}

// StringLit is a string literal, unquoted and unescaped.
type StringLit struct {
	At
	Value string
}

// NameExpr is a name used as a value (or, before checking, a type name
// used as the start of an expression: MyEnum.A, error.NoError, Ctor(),
// MyParser<bit<8>>.apply).
type NameExpr struct {
	At
	Name     string
	Global   bool
	IsType   bool       // lexed as a type name
	TypeArgs []TypeExpr // of a type name: MyParser<bit<8>>
}

// ThisExpr is this, inside an abstract method body.
type ThisExpr struct{ At }

// MemberExpr is x.name.
type MemberExpr struct {
	At
	X    Expr
	Name *Ident
}

// IndexExpr is x[index].
type IndexExpr struct {
	At
	X     Expr
	Index Expr
}

// SliceExpr is x[hi:lo].
type SliceExpr struct {
	At
	X      Expr
	Hi, Lo Expr
}

// PlusSliceExpr is x[lo +: width]: Width bits of x from bit Lo up, where
// Width is a constant and Lo need not be.
type PlusSliceExpr struct {
	At
	X         Expr
	Lo, Width Expr
}

// Arg is an argument: positional or name = value; Value nil is _ (don't care).
type Arg struct {
	At
	Name  *Ident
	Value Expr
}

// CallExpr is fn<T>(args).
type CallExpr struct {
	At
	Fn       Expr
	TypeArgs []TypeExpr
	Args     []*Arg
}

// UnaryExpr is !x, ~x, -x or +x.
type UnaryExpr struct {
	At
	Op ir.Op
	X  Expr
}

// BinaryExpr is x op y (Op is ir.Shr for the two tokens > >).
type BinaryExpr struct {
	At
	Op   ir.Op
	X, Y Expr
}

// CastExpr is (T) x.
type CastExpr struct {
	At
	Type TypeExpr
	X    Expr
}

// CondExpr is c ? t : f.
type CondExpr struct {
	At
	Cond, Then, Else Expr
}

// ListExpr is { a, b, c }.
type ListExpr struct {
	At
	Elems []Expr
}

// StructExpr is { f = a, g = b }, or { f = a, ... } (Dots) where the
// fields not written take their default values.
type StructExpr struct {
	At
	Fields []*KeyValue
	Dots   bool
}

// MaskExpr is value &&& mask (keysets only).
type MaskExpr struct {
	At
	Value, Mask Expr
}

// RangeExpr is lo .. hi (keysets only).
type RangeExpr struct {
	At
	Lo, Hi Expr
}

// DefaultExpr is default (keysets only).
type DefaultExpr struct{ At }

// DontCareExpr is _ (keysets, arguments).
type DontCareExpr struct{ At }

// InvalidExpr is {#}: the invalid header or header union of the type the
// context gives.
type InvalidExpr struct{ At }

// DotsExpr is ...: the default value of the type the context gives, or, last
// in a list or structure expression, of the elements or fields not written.
type DotsExpr struct{ At }

func (*IntLit) expr()        {}
func (*BoolLit) expr()       {}
func (*StringLit) expr()     {}
func (*NameExpr) expr()      {}
func (*ThisExpr) expr()      {}
func (*MemberExpr) expr()    {}
func (*IndexExpr) expr()     {}
func (*SliceExpr) expr()     {}
func (*PlusSliceExpr) expr() {}
func (*CallExpr) expr()      {}
func (*UnaryExpr) expr()     {}
func (*BinaryExpr) expr()    {}
func (*CastExpr) expr()      {}
func (*CondExpr) expr()      {}
func (*ListExpr) expr()      {}
func (*StructExpr) expr()    {}
func (*MaskExpr) expr()      {}
func (*RangeExpr) expr()     {}
func (*DefaultExpr) expr()   {}
func (*DontCareExpr) expr()  {}
func (*InvalidExpr) expr()   {}
func (*DotsExpr) expr()      {}
