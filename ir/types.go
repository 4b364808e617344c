package ir

import (
	"fmt"
	"math/big"
	"strings"
)

// Type is the type of a value in the IR. Every type has a fixed meaning:
// typedefs are gone, and new types (`type bit<32> T`) keep their name only
// for printing.
type Type interface {
	String() string
	isType()
}

// Bits is bit<Width> (Signed false) or int<Width> (Signed true).
type Bits struct {
	Width  int
	Signed bool
}

// Bool is bool.
type Bool struct{}

// Varbit is varbit<Max>.
type Varbit struct{ Max int }

// Int is the arbitrary-precision int of compile-time constants that reach
// extern arguments unsized.
type Int struct{}

// String is string (log messages, annotations).
type String struct{}

// ErrorType is error.
type ErrorType struct{}

// Enum is an enum; Underlying is set for a serializable enum, with one
// value per member.
type Enum struct {
	Name       string
	Underlying *Bits
	Members    []string
	Values     []*big.Int
}

// StructKind tells structs, headers and header unions apart.
type StructKind int

const (
	KindStruct StructKind = iota
	KindHeader
	KindHeaderUnion
)

// String is the kind's P4 keyword.
func (k StructKind) String() string { return [...]string{"struct", "header", "header_union"}[k] }

// Struct is a struct, header or header union.
type Struct struct {
	Kind   StructKind
	Name   string
	Fields []*Field
}

// Field is one field of a Struct.
type Field struct {
	Name string
	Type Type
	// FieldLists are the indexes of its @field_list annotation: v1model's
	// resubmit, recirculation and clone keep the metadata fields of the
	// list they name.
	FieldLists []int
}

// Stack is a header stack (or array) of Size elements.
type Stack struct {
	Elem Type
	Size int
}

// Tuple is tuple<...>, and the type of a list of values (a hash's data).
type Tuple struct {
	Elems []Type
}

// Extern is an extern object type, specialized (register<bit<32>, bit<16>>),
// or an architecture object (packet_in, packet_out).
type Extern struct {
	Name string
	Args []Type
}

func (*Bits) isType()     {}
func (Bool) isType()      {}
func (*Varbit) isType()   {}
func (Int) isType()       {}
func (String) isType()    {}
func (ErrorType) isType() {}
func (*Enum) isType()     {}
func (*Struct) isType()   {}
func (*Stack) isType()    {}
func (*Tuple) isType()    {}
func (*Extern) isType()   {}
func (t *Bits) String() string {
	if t.Signed {
		return fmt.Sprintf("int<%d>", t.Width)
	}
	return fmt.Sprintf("bit<%d>", t.Width)
}
func (Bool) String() string      { return "bool" }
func (t *Varbit) String() string { return fmt.Sprintf("varbit<%d>", t.Max) }
func (Int) String() string       { return "int" }
func (String) String() string    { return "string" }
func (ErrorType) String() string { return "error" }
func (t *Enum) String() string   { return t.Name }
func (t *Struct) String() string { return t.Name }
func (t *Stack) String() string  { return fmt.Sprintf("%s[%d]", t.Elem, t.Size) }
func (t *Tuple) String() string  { return "tuple<" + joinTypes(t.Elems) + ">" }
func (t *Extern) String() string {
	if len(t.Args) == 0 {
		return t.Name
	}
	return t.Name + "<" + joinTypes(t.Args) + ">"
}

func joinTypes(ts []Type) string {
	parts := make([]string, len(ts))
	for i, t := range ts {
		parts[i] = t.String()
	}
	return strings.Join(parts, ", ")
}

// Field returns the field called name and its index, or nil and -1.
func (s *Struct) Field(name string) (*Field, int) {
	for i, f := range s.Fields {
		if f.Name == name {
			return f, i
		}
	}
	return nil, -1
}

// IsHeader reports whether s has a validity bit (a header or header union).
func (s *Struct) IsHeader() bool { return s.Kind != KindStruct }

// VarbitMax is the maximum size of the varbit field of a header (P4
// allows one), 0 for a type without one.
func VarbitMax(t Type) int {
	if st, ok := t.(*Struct); ok {
		for _, f := range st.Fields {
			if v, ok := f.Type.(*Varbit); ok {
				return v.Max
			}
		}
	}
	return 0
}

// WidthBits is the width of a fixed-width type in bits: bits, bool (1),
// serializable enums, and headers and structs of those (varbit counts its
// maximum). It is 0 for types without a fixed width.
func WidthBits(t Type) int {
	switch t := t.(type) {
	case *Bits:
		return t.Width
	case Bool:
		return 1
	case *Varbit:
		return t.Max
	case *Enum:
		if t.Underlying != nil {
			return t.Underlying.Width
		}
	case *Struct:
		w := 0
		for _, f := range t.Fields {
			w += WidthBits(f.Type)
		}
		return w
	case *Stack:
		return t.Size * WidthBits(t.Elem)
	}
	return 0
}
