package frontend

import (
	"fmt"
	"math/big"
	"strings"
)

// Type is the checker's view of a P4 type. Data types (bits, bool, headers,
// ...) map one to one onto ir types when lowering; the others (externs,
// parsers, controls, type variables) exist only while checking.
type Type interface {
	String() string
}

// BitsType is bit<W> (Signed false) or int<W> (Signed true).
type BitsType struct {
	Width  int
	Signed bool
}

// VarbitType is varbit<Max>.
type VarbitType struct{ Max int }

// IntType is int: an arbitrary-precision compile-time integer (the type of
// an unsized literal before it meets a sized operand).
type IntType struct{}

type (
	BoolType      struct{}
	StringType    struct{}
	ErrorType     struct{}
	MatchKindType struct{}
	VoidType      struct{}
	DontCareType  struct{}
	// InvalidType is the type of an expression that already drew an error;
	// anything involving it is silently accepted so errors do not cascade.
	InvalidType struct{}
)

// EnumType is an enum; Underlying is set for a serializable enum.
type EnumType struct {
	Name       string
	Underlying *BitsType
	Members    []string
	Values     map[string]*big.Int
}

// StructType is a struct, header or header union.
type StructType struct {
	Kind   StructKind
	Name   string
	Fields []*FieldInfo
	// Annos are the declaration's annotations (@metadata, ...).
	Annos Annotations
}

// GenericStructType is a struct, header or header union declared with type
// parameters (struct S<T> { T x; }); each use with type arguments, S<bit<8>>,
// is a StructType of its own, made once per arguments.
type GenericStructType struct {
	Decl  *StructDecl
	insts map[string]*StructType
}

func (t *GenericStructType) String() string { return t.Decl.Name.Name }

// FieldInfo is one field of a StructType.
type FieldInfo struct {
	Name string
	Type Type
	// FieldLists are the indexes its @field_list annotation names.
	FieldLists []int
}

// Field returns the field called name, or nil.
func (s *StructType) Field(name string) *FieldInfo {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// WidthBits is the total width of a header's fields (varbit counts its
// maximum).
func (s *StructType) WidthBits() int {
	w := 0
	for _, f := range s.Fields {
		w += widthOf(f.Type)
	}
	return w
}

// StackType is T[Size]: a header stack (or an array of other types).
type StackType struct {
	Elem Type
	Size int
}

// TupleType is tuple<...>, and the type of a list expression { a, b }.
type TupleType struct {
	Elems []Type
}

// ListType is list<Elem>: a list of any length whose elements are all
// Elems (P4-16 §7.2.12).
type ListType struct {
	Elem Type
}

// StructLitType is the type of { f = a, ... } before it meets the struct
// type it initializes.
type StructLitType struct {
	Fields []*FieldInfo
}

// NewType is `type T Name`: a distinct type with T's representation.
type NewType struct {
	Name string
	Base Type
}

// TypeVar is a type parameter of a generic declaration.
type TypeVar struct {
	Name string
	Decl Node
}

// ObjectKind says what kind of declaration an ObjectType stands for.
type ObjectKind int

const (
	ObjExtern ObjectKind = iota
	ObjParser
	ObjControl
	ObjPackage
)

// ObjectType is an extern, parser, control or package type, specialized by
// Args (which may still hold type variables).
type ObjectType struct {
	Kind ObjectKind
	Name string
	Decl Decl // *ExternDecl, *ParserDecl, *ControlDecl, *PackageDecl
	Args []Type
}

// TableType is the type of a table name (t.apply()).
type TableType struct{ Decl *TableDecl }

// ApplyResultType is the type of t.apply(): it has hit, miss, action_run.
type ApplyResultType struct{ Table *TableDecl }

// ActionRunType is the type of t.apply().action_run: its values are the
// table's actions.
type ActionRunType struct{ Table *TableDecl }

// ActionType is the type of an action name.
type ActionType struct{ Decl *ActionDecl }

// FuncType is a set of overloaded functions or methods of one name.
type FuncType struct {
	Name   string
	Protos []*FuncProto
	// Receiver is the object type of a method, whose type parameters the
	// prototypes' types may use.
	Receiver *ObjectType
	// Builtin names a built-in method (isValid, setValid, push_front, ...)
	// when Protos is empty.
	Builtin string
	// Self is the expression the method is called on.
	Self Expr
}

// StateType is the type of a parser state name.
type StateType struct{}

// ValueSetType is the type of a value_set name.
type ValueSetType struct {
	Elem Type
	Size int
}

func (t *BitsType) String() string {
	if t.Signed {
		return fmt.Sprintf("int<%d>", t.Width)
	}
	return fmt.Sprintf("bit<%d>", t.Width)
}
func (t *VarbitType) String() string   { return fmt.Sprintf("varbit<%d>", t.Max) }
func (IntType) String() string         { return "int" }
func (BoolType) String() string        { return "bool" }
func (StringType) String() string      { return "string" }
func (ErrorType) String() string       { return "error" }
func (MatchKindType) String() string   { return "match_kind" }
func (VoidType) String() string        { return "void" }
func (DontCareType) String() string    { return "_" }
func (InvalidType) String() string     { return "<invalid>" }
func (t *EnumType) String() string     { return t.Name }
func (t *StructType) String() string   { return t.Name }
func (t *StackType) String() string    { return fmt.Sprintf("%s[%d]", t.Elem, t.Size) }
func (t *NewType) String() string      { return t.Name }
func (t *TypeVar) String() string      { return t.Name }
func (t *TableType) String() string    { return "table " + t.Decl.Name.Name }
func (t *ActionType) String() string   { return "action " + t.Decl.Name.Name }
func (t *FuncType) String() string     { return "function " + t.Name }
func (StateType) String() string       { return "state" }
func (t *ValueSetType) String() string { return fmt.Sprintf("value_set<%s>", t.Elem) }
func (t *ApplyResultType) String() string {
	return "apply result of table " + t.Table.Name.Name
}
func (t *ActionRunType) String() string {
	return "action_run of table " + t.Table.Name.Name
}

func (t *TupleType) String() string {
	parts := make([]string, len(t.Elems))
	for i, e := range t.Elems {
		parts[i] = e.String()
	}
	return "tuple<" + strings.Join(parts, ", ") + ">"
}

func (t *ListType) String() string { return "list<" + t.Elem.String() + ">" }

func (t *StructLitType) String() string {
	parts := make([]string, len(t.Fields))
	for i, f := range t.Fields {
		parts[i] = f.Name + ": " + f.Type.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

func (t *ObjectType) String() string {
	if len(t.Args) == 0 {
		return t.Name
	}
	parts := make([]string, len(t.Args))
	for i, a := range t.Args {
		parts[i] = a.String()
	}
	return t.Name + "<" + strings.Join(parts, ", ") + ">"
}

// Shared instances of the types without parameters.
var (
	tBool      Type = BoolType{}
	tInt       Type = IntType{}
	tString    Type = StringType{}
	tError     Type = ErrorType{}
	tMatchKind Type = MatchKindType{}
	tVoid      Type = VoidType{}
	tDontCare  Type = DontCareType{}
	tInvalid   Type = InvalidType{}
	tState     Type = StateType{}
)

func isInvalid(t Type) bool { _, ok := t.(InvalidType); return ok }

// widthOf is the width in bits of a fixed-width type, 0 for others.
func widthOf(t Type) int {
	switch t := t.(type) {
	case *BitsType:
		return t.Width
	case *VarbitType:
		return t.Max
	case BoolType:
		return 1
	case *EnumType:
		if t.Underlying != nil {
			return t.Underlying.Width
		}
	case *NewType:
		return widthOf(t.Base)
	case *StructType:
		return t.WidthBits()
	case *StackType:
		return widthOf(t.Elem) * t.Size
	}
	return 0
}

// sameType reports whether a and b are the same type (typedefs are already
// resolved away; new types are distinct by name).
func sameType(a, b Type) bool {
	switch a := a.(type) {
	case *BitsType:
		b, ok := b.(*BitsType)
		return ok && a.Width == b.Width && a.Signed == b.Signed
	case *VarbitType:
		b, ok := b.(*VarbitType)
		return ok && a.Max == b.Max
	case *StackType:
		b, ok := b.(*StackType)
		return ok && a.Size == b.Size && sameType(a.Elem, b.Elem)
	case *ListType:
		b, ok := b.(*ListType)
		return ok && sameType(a.Elem, b.Elem)
	case *TupleType:
		b, ok := b.(*TupleType)
		if !ok || len(a.Elems) != len(b.Elems) {
			return false
		}
		for i := range a.Elems {
			if !sameType(a.Elems[i], b.Elems[i]) {
				return false
			}
		}
		return true
	case *ObjectType:
		b, ok := b.(*ObjectType)
		if !ok || a.Decl != b.Decl || len(a.Args) != len(b.Args) {
			return false
		}
		for i := range a.Args {
			if !sameType(a.Args[i], b.Args[i]) {
				return false
			}
		}
		return true
	}
	return a == b
}

// isHeaderLike reports whether t is a header or header union (it has
// validity).
func isHeaderLike(t Type) bool {
	s, ok := t.(*StructType)
	return ok && s.Kind != KindStruct
}
