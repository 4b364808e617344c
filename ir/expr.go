package ir

import (
	"math/big"

	"github.com/p4hls/p4hls/diag"
)

// Expr is a typed expression.
type Expr interface {
	Type() Type
	Span() diag.Span
	isExpr()
}

// Pos gives a node its span.
type Pos struct{ Sp diag.Span }

// Span returns the node's place in the source.
func (p Pos) Span() diag.Span { return p.Sp }

// Const is a compile-time constant of a bit, int or bool type. Values of
// bit<W> are in [0, 2^W), of int<W> in [-2^(W-1), 2^(W-1)); a bool is 0 or 1.
type Const struct {
	Pos
	T     Type
	Value *big.Int
}

// ErrorConst is error.Name.
type ErrorConst struct {
	Pos
	Name string
}

// EnumConst is Enum.Member.
type EnumConst struct {
	Pos
	Enum   *Enum
	Member string
}

// StringConst is a string literal.
type StringConst struct {
	Pos
	Value string
}

// VarRef reads or writes a variable or parameter.
type VarRef struct {
	Pos
	Var *Var
}

// InstanceRef names an extern instance (the receiver of a method call).
type InstanceRef struct {
	Pos
	Inst *Instance
}

// Member is X.Name, a field of a struct, header or header union, or element
// Index of a tuple (then Name is the index in decimal).
type Member struct {
	Pos
	X     Expr
	Name  string
	Index int // the field's index in X's struct type
	T     Type
}

// StackElem is X[Index] of a header stack.
type StackElem struct {
	Pos
	X     Expr
	Index Expr
}

// StackOp is X.next, X.last, X.lastIndex or X.size of a header stack.
type StackOp struct {
	Pos
	X  Expr
	Op string // "next", "last", "lastIndex", "size"
	T  Type
}

// Slice is X[Hi:Lo]; its type is bit<Hi-Lo+1>.
type Slice struct {
	Pos
	X      Expr
	Hi, Lo int
}

// Flat is the value a slice's bits are of, past slices of slices, and
// the bits: x[h1:l1][h2:l2] is x[l1+h2:l1+l2].
func (e *Slice) Flat() (x Expr, hi, lo int) {
	x, hi, lo = e.X, e.Hi, e.Lo
	for {
		inner, ok := x.(*Slice)
		if !ok {
			return x, hi, lo
		}
		x, hi, lo = inner.X, inner.Lo+hi, inner.Lo+lo
	}
}

// Unary is Op X: LNot, BitNot or Neg.
type Unary struct {
	Pos
	Op Op
	X  Expr
	T  Type
}

// Binary is X Op Y, Op a binary operator. Both operands have the same type
// except for shifts (Y may differ) and ++ (result width is the sum).
type Binary struct {
	Pos
	Op   Op
	X, Y Expr
	T    Type
}

// Cast is (T) X.
type Cast struct {
	Pos
	T Type
	X Expr
}

// Cond is C ? Then : Else.
type Cond struct {
	Pos
	C, Then, Else Expr
}

// IsValid is X.isValid() for a header or header union.
type IsValid struct {
	Pos
	X Expr
}

// List is a list of values {a, b, c} (hash data, checksum fields, tuple
// values, struct initializers), typed as a tuple or as the struct it
// initializes.
type List struct {
	Pos
	Elems []Expr
	T     Type
}

// TableHit is t.apply().hit (Miss false) or t.apply().miss (Miss true): it
// applies the table and yields whether it hit.
type TableHit struct {
	Pos
	Table *Table
	Miss  bool
}

// HitTest returns the table application a condition is, when it is
// t.apply().hit or .miss or a negation of one (a table's choice of what
// runs next), or nil.
func HitTest(cond Expr) *TableHit {
	for {
		switch c := cond.(type) {
		case *TableHit:
			return c
		case *Unary:
			if c.Op != LNot {
				return nil
			}
			cond = c.X
		default:
			return nil
		}
	}
}

// Call is a call that yields a value: an extern method (r.read(i),
// packet.lookahead<T>()), an extern function, or a function.
type Call struct {
	Pos
	Callee Callee
	Args   []*Arg
	T      Type
}

func (*Const) isExpr()       {}
func (*ErrorConst) isExpr()  {}
func (*EnumConst) isExpr()   {}
func (*StringConst) isExpr() {}
func (*VarRef) isExpr()      {}
func (*InstanceRef) isExpr() {}
func (*Member) isExpr()      {}
func (*StackElem) isExpr()   {}
func (*StackOp) isExpr()     {}
func (*Slice) isExpr()       {}
func (*Unary) isExpr()       {}
func (*Binary) isExpr()      {}
func (*Cast) isExpr()        {}
func (*Cond) isExpr()        {}
func (*IsValid) isExpr()     {}
func (*List) isExpr()        {}
func (*TableHit) isExpr()    {}
func (*Call) isExpr()        {}

func (e *Const) Type() Type       { return e.T }
func (e *ErrorConst) Type() Type  { return ErrorType{} }
func (e *EnumConst) Type() Type   { return e.Enum }
func (e *StringConst) Type() Type { return String{} }
func (e *VarRef) Type() Type      { return e.Var.Type }
func (e *InstanceRef) Type() Type { return e.Inst.Type }
func (e *Member) Type() Type      { return e.T }
func (e *StackElem) Type() Type {
	if s, ok := e.X.Type().(*Stack); ok {
		return s.Elem
	}
	return nil
}
func (e *StackOp) Type() Type  { return e.T }
func (e *Slice) Type() Type    { return &Bits{Width: e.Hi - e.Lo + 1} }
func (e *Unary) Type() Type    { return e.T }
func (e *Binary) Type() Type   { return e.T }
func (e *Cast) Type() Type     { return e.T }
func (e *Cond) Type() Type     { return e.Then.Type() }
func (e *IsValid) Type() Type  { return Bool{} }
func (e *List) Type() Type     { return e.T }
func (e *TableHit) Type() Type { return Bool{} }
func (e *Call) Type() Type     { return e.T }

// Callee says what a call calls: exactly one field is set.
type Callee struct {
	// Method of an extern instance or of an architecture object
	// (packet.extract): Recv is the receiver expression.
	Recv   Expr
	Method string
	// Extern function (mark_to_drop, hash, verify, ...), by name.
	Extern string
	// Function declared in the program.
	Func *Function
	// TypeArgs are explicit type arguments (lookahead<T>), when written.
	TypeArgs []Type
}

// Arg is an argument with the direction of its parameter. Value is nil for
// _ passed to an out parameter.
type Arg struct {
	Value Expr
	Dir   Direction
	Name  string // the parameter's name
}

// BoolConst returns a constant true or false.
func BoolConst(b bool, sp diag.Span) *Const {
	v := big.NewInt(0)
	if b {
		v.SetInt64(1)
	}
	return &Const{Pos: Pos{sp}, T: Bool{}, Value: v}
}

// IntConst returns a constant of type t.
func IntConst(t Type, v int64, sp diag.Span) *Const {
	return &Const{Pos: Pos{sp}, T: t, Value: big.NewInt(v)}
}
