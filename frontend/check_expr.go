package frontend

import (
	"math/big"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// expr checks e and returns its type. want, when not nil, is the type the
// context expects; it types list and struct expressions and unsized
// literals, but expr does not convert to it (convert does, and reports).
func (c *checker) expr(e Expr, want Type) Type {
	if t, done := c.out.Types[e]; done {
		return t
	}
	t := c.expr1(e, want)
	c.out.Types[e] = t
	return t
}

func (c *checker) setValue(e Expr, v any) {
	if v != nil {
		c.out.Values[e] = v
	}
}

func (c *checker) expr1(e Expr, want Type) Type {
	switch e := e.(type) {
	case *IntLit:
		return c.intLit(e)
	case *BoolLit:
		c.setValue(e, e.Value)
		return tBool
	case *StringLit:
		c.setValue(e, e.Value)
		return tString
	case *NameExpr:
		return c.nameExpr(e)
	case *MemberExpr:
		return c.memberExpr(e)
	case *IndexExpr:
		return c.indexExpr(e)
	case *SliceExpr:
		return c.sliceExpr(e)
	case *PlusSliceExpr:
		return c.plusSliceExpr(e)
	case *InvalidExpr:
		return c.invalidExpr(e, want)
	case *DotsExpr:
		return c.dotsExpr(e, want)
	case *CallExpr:
		return c.call(e)
	case *UnaryExpr:
		return c.unaryExpr(e)
	case *BinaryExpr:
		return c.binaryExpr(e)
	case *CastExpr:
		return c.castExpr(e)
	case *CondExpr:
		return c.condExpr(e, want)
	case *ListExpr:
		return c.listExpr(e, want)
	case *StructExpr:
		return c.structExpr(e, want)
	case *ThisExpr:
		if c.this == nil {
			c.errorf(e, diag.NotAValue, "this may be used only in the abstract methods of an instance")
			return tInvalid
		}
		return c.this
	case *MaskExpr, *RangeExpr, *DefaultExpr, *DontCareExpr:
		c.errorf(e, diag.TypeMismatch, "a keyset expression may appear only in a select case or a table entry")
		return tInvalid
	}
	return tInvalid
}

func (c *checker) intLit(e *IntLit) Type {
	if e.Width == 0 {
		c.setValue(e, e.Value)
		return tInt
	}
	t := &BitsType{Width: e.Width, Signed: e.Signed}
	v := wrap(e.Value, t)
	if v.Cmp(e.Value) != 0 && !(e.Signed && e.Value.Cmp(new(big.Int).Lsh(bigOne, uint(e.Width))) < 0) {
		c.diags.Warnf(e, diag.BadWidth, "%s does not fit in %s; it is truncated to %s", e.Value, t, v)
	}
	c.setValue(e, v)
	return t
}

func (c *checker) lookup(e *NameExpr) *Symbol {
	scope := c.scope
	if e.Global {
		scope = scope.root()
	}
	return scope.Lookup(e.Name)
}

func (c *checker) nameExpr(e *NameExpr) Type {
	if e.Name == "error" && e.IsType {
		c.errorf(e, diag.NotAValue, "error is a type; name a member, as in error.NoError")
		return tInvalid
	}
	sym := c.lookup(e)
	if sym == nil {
		c.errorf(e, diag.UndeclaredName, "undeclared name %s", e.Name)
		return tInvalid
	}
	c.out.Uses[e] = sym
	switch sym.Kind {
	case SymType:
		// A type name is a value only as the receiver of a member (MyEnum.A)
		// or a constructor call; those are handled before getting here.
		c.errorf(e, diag.NotAValue, "%s is a type, not a value", e.Name)
		return tInvalid
	case SymConst, SymMatchKind:
		c.setValue(e, sym.Value)
	case SymState:
		c.errorf(e, diag.NotAValue, "parser state %s is not a value", e.Name)
		return tInvalid
	}
	return sym.Type
}

// typeNameOf returns the symbol when e names a type (MyEnum in MyEnum.A).
func (c *checker) typeNameOf(e Expr) *Symbol {
	n, ok := e.(*NameExpr)
	if !ok {
		return nil
	}
	if n.Name == "error" && n.IsType {
		return &Symbol{Name: "error", Kind: SymType, Type: tError}
	}
	sym := c.lookup(n)
	if sym == nil || sym.Kind != SymType {
		return nil
	}
	c.out.Uses[n] = sym
	c.out.Types[n] = sym.Type
	return sym
}

func (c *checker) memberExpr(e *MemberExpr) Type {
	name := e.Name.Name
	if sym := c.typeNameOf(e.X); sym != nil {
		switch t := sym.Type.(type) {
		case ErrorType:
			if !contains(c.out.Errors, name) {
				c.errorf(e.Name, diag.UnknownMember, "error.%s is not declared", name)
				return tInvalid
			}
			c.setValue(e, errorMember(name))
			return tError
		case *EnumType:
			if !contains(t.Members, name) {
				c.errorf(e.Name, diag.UnknownMember, "enum %s has no member %s", t.Name, name)
				return tInvalid
			}
			c.setValue(e, enumMember{Enum: t, Name: name})
			return t
		case *ObjectType:
			if name == "apply" && (t.Kind == ObjParser || t.Kind == ObjControl) {
				return c.directApply(e, sym, t)
			}
		}
		c.errorf(e, diag.NotAValue, "%s is a type; it has no member %s", sym.Name, name)
		return tInvalid
	}
	xt := c.expr(e.X, nil)
	switch t := xt.(type) {
	case InvalidType:
		return tInvalid
	case *StructType:
		if f := t.Field(name); f != nil {
			if agg, ok := c.out.Values[e.X].(aggregate); ok && len(agg) == len(t.Fields) {
				for i, g := range t.Fields {
					if g == f {
						c.setValue(e, agg[i])
					}
				}
			}
			return f.Type
		}
		if t.Kind != KindStruct && (name == "isValid" || name == "setValid" || name == "setInvalid") {
			return &FuncType{Name: name, Builtin: name, Self: e.X}
		}
		if _, size := sizeMethods[name]; size {
			return &FuncType{Name: name, Builtin: name, Self: e.X}
		}
		c.errorf(e.Name, diag.UnknownMember, "%s %s has no field %s", t.Kind, t.Name, name)
		return tInvalid
	case *StackType:
		switch name {
		case "next", "last":
			if c.parser == nil {
				c.errorf(e.Name, diag.UnknownMember, "%s of a header stack may be used only in a parser", name)
			}
			return t.Elem
		case "size":
			c.setValue(e, big.NewInt(int64(t.Size)))
			return &BitsType{Width: 32}
		case "lastIndex", "nextIndex":
			if c.parser == nil {
				c.errorf(e.Name, diag.UnknownMember, "%s of a header stack may be used only in a parser", name)
			}
			return &BitsType{Width: 32}
		case "push_front", "pop_front":
			return &FuncType{Name: name, Builtin: name, Self: e.X}
		}
		c.errorf(e.Name, diag.UnknownMember, "header stack has no member %s", name)
		return tInvalid
	case *ObjectType:
		return c.methodOf(e, t)
	case *TableType:
		if name == "apply" {
			return &FuncType{Name: name, Builtin: "apply", Self: e.X}
		}
		c.errorf(e.Name, diag.UnknownMember, "table %s has no member %s; only apply() may be called", t.Decl.Name.Name, name)
		return tInvalid
	case *ApplyResultType:
		switch name {
		case "hit", "miss":
			return tBool
		case "action_run":
			return &ActionRunType{Table: t.Table}
		}
		c.errorf(e.Name, diag.UnknownMember, "the result of %s.apply() has hit, miss and action_run, not %s", t.Table.Name.Name, name)
		return tInvalid
	}
	c.errorf(e.Name, diag.UnknownMember, "a value of type %s has no member %s", xt, name)
	return tInvalid
}

// directApply checks C.apply, the direct invocation of a parser or
// control type with no constructor parameters (P4-16 §15.1): it applies
// an instance of its own, as if declared just before.
func (c *checker) directApply(e *MemberExpr, sym *Symbol, t *ObjectType) Type {
	x := e.X.(*NameExpr)
	if len(ctorParams(t.Decl)) > 0 {
		c.errorf(e, diag.NotCallable, "%s has constructor parameters; instantiate it to apply it", sym.Name)
		return tInvalid
	}
	recv := t
	if len(x.TypeArgs) > 0 {
		spec, ok := c.specialize(x, x.Name, t, x.TypeArgs)
		if !ok {
			return tInvalid
		}
		recv = spec
	}
	c.out.Types[x] = recv
	return &FuncType{Name: "apply", Builtin: "apply", Self: x, Receiver: recv}
}

// ctorParams returns the constructor parameters of a parser or control.
func ctorParams(d Decl) []*Param {
	switch d := d.(type) {
	case *ParserDecl:
		return d.CtorParams
	case *ControlDecl:
		return d.CtorParams
	}
	return nil
}

func (c *checker) methodOf(e *MemberExpr, t *ObjectType) Type {
	name := e.Name.Name
	if t.Kind == ObjParser || t.Kind == ObjControl {
		if name == "apply" {
			return &FuncType{Name: name, Builtin: "apply", Self: e.X, Receiver: t}
		}
	}
	ext, ok := t.Decl.(*ExternDecl)
	if ok {
		var protos []*FuncProto
		for _, m := range ext.Methods {
			if !m.Constructor && m.Name.Name == name {
				protos = append(protos, m)
			}
		}
		if len(protos) > 0 {
			return &FuncType{Name: name, Protos: protos, Receiver: t, Self: e.X}
		}
	}
	c.errorf(e.Name, diag.UnknownMember, "%s has no method %s", t, name)
	return tInvalid
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *checker) indexExpr(e *IndexExpr) Type {
	xt := c.expr(e.X, nil)
	it := c.expr(e.Index, nil)
	if isInvalid(xt) || isInvalid(it) {
		return tInvalid
	}
	switch t := xt.(type) {
	case *StackType:
		if v, ok := c.out.Values[e.Index].(*big.Int); ok {
			if v.Sign() < 0 || v.Cmp(big.NewInt(int64(t.Size))) >= 0 {
				c.errorf(e.Index, diag.TypeMismatch, "index %s is out of bounds for a stack of %d elements", v, t.Size)
				return tInvalid
			}
		} else if _, ok := stripNewTypes(c.asBits(e.Index, it)).(*BitsType); !ok {
			c.errorf(e.Index, diag.TypeMismatch, "a stack index must be bit<W>, int<W> or a constant, not %s", it)
			return tInvalid
		}
		return t.Elem
	case *TupleType:
		v, ok := c.out.Values[e.Index].(*big.Int)
		if !ok || v.Sign() < 0 || !v.IsInt64() || v.Int64() >= int64(len(t.Elems)) {
			c.errorf(e.Index, diag.TypeMismatch, "a tuple index must be a constant from 0 to %d", len(t.Elems)-1)
			return tInvalid
		}
		if agg, ok := c.out.Values[e.X].(aggregate); ok && int(v.Int64()) < len(agg) {
			c.setValue(e, agg[v.Int64()])
		}
		return t.Elems[v.Int64()]
	}
	c.errorf(e, diag.TypeMismatch, "cannot index a value of type %s; use [hi:lo] to take bits", xt)
	return tInvalid
}

func (c *checker) sliceExpr(e *SliceExpr) Type {
	xt := c.expr(e.X, nil)
	hi, ok1 := c.constInt(e.Hi, "slice bound")
	lo, ok2 := c.constInt(e.Lo, "slice bound")
	if isInvalid(xt) || !ok1 || !ok2 {
		return tInvalid
	}
	xt = c.asBits(e.X, xt)
	width := 0
	switch t := stripNewTypes(xt).(type) {
	case *BitsType:
		width = t.Width
	case IntType:
		width = maxWidth
		if _, ok := c.out.Values[e.X]; !ok {
			c.errorf(e.X, diag.TypeMismatch, "slicing an int needs a constant")
			return tInvalid
		}
	default:
		c.errorf(e.X, diag.TypeMismatch, "cannot take bits [%d:%d] of a value of type %s", hi, lo, xt)
		return tInvalid
	}
	if lo < 0 || hi < lo || hi >= width {
		c.errorf(e, diag.BadWidth, "slice [%d:%d] is out of range for %s: need %d > hi >= lo >= 0", hi, lo, xt, width)
		return tInvalid
	}
	if v, ok := c.out.Values[e.X].(*big.Int); ok {
		c.setValue(e, sliceValue(v, hi, lo))
	}
	return &BitsType{Width: hi - lo + 1}
}

// plusSliceExpr checks x[lo +: width] (P4-16 §8.6): width is a positive
// constant; lo may vary at run time, and must be unsigned.
func (c *checker) plusSliceExpr(e *PlusSliceExpr) Type {
	xt := c.expr(e.X, nil)
	lt := c.expr(e.Lo, nil)
	w, ok := c.constInt(e.Width, "slice width")
	if isInvalid(xt) || isInvalid(lt) || !ok {
		return tInvalid
	}
	bt, isBits := xt.(*BitsType)
	if !isBits {
		c.errorf(e.X, diag.TypeMismatch, "cannot take bits [+:%d] of a value of type %s", w, xt)
		return tInvalid
	}
	if w < 1 || w > bt.Width {
		c.errorf(e.Width, diag.BadWidth, "slice width %d is out of range for %s (1 to %d)", w, xt, bt.Width)
		return tInvalid
	}
	switch l := lt.(type) {
	case IntType:
	case *BitsType:
		if l.Signed {
			c.errorf(e.Lo, diag.TypeMismatch, "the low bit of a slice must be unsigned, not %s", lt)
			return tInvalid
		}
	default:
		c.errorf(e.Lo, diag.TypeMismatch, "the low bit of a slice must be an integer, not %s", lt)
		return tInvalid
	}
	if lo, ok := c.out.Values[e.Lo].(*big.Int); ok {
		if lo.Sign() < 0 || !lo.IsInt64() || lo.Int64()+int64(w) > int64(bt.Width) {
			c.errorf(e, diag.BadWidth, "slice [%s +: %d] is out of range for %s", lo, w, xt)
			return tInvalid
		}
		if v, ok := c.out.Values[e.X].(*big.Int); ok {
			c.setValue(e, sliceValue(v, int(lo.Int64())+w-1, int(lo.Int64())))
		}
	}
	return &BitsType{Width: w}
}

// invalidExpr checks {#}, the invalid header or header union (P4-16
// §8.17), whose type comes from its context.
func (c *checker) invalidExpr(e *InvalidExpr, want Type) Type {
	if !isHeaderLike(want) {
		c.errorf(e, diag.TypeMismatch, "{#} needs a header or header union type from its context; cast it, as (H){#}")
		return tInvalid
	}
	return want
}

// dotsExpr checks ..., the default value of the type its context gives
// (P4-16 §8.26).
func (c *checker) dotsExpr(e *DotsExpr, want Type) Type {
	if want == nil {
		c.errorf(e, diag.TypeMismatch, "... needs a type from its context")
		return tInvalid
	}
	switch stripNewTypes(want).(type) {
	case *BitsType, IntType:
		c.setValue(e, new(big.Int))
	case BoolType:
		c.setValue(e, false)
	}
	return want
}

func (c *checker) unaryExpr(e *UnaryExpr) Type {
	xt := c.expr(e.X, nil)
	if isInvalid(xt) {
		return tInvalid
	}
	if e.Op != ir.LNot {
		xt = c.asBits(e.X, xt)
	}
	ok := false
	switch e.Op {
	case ir.LNot:
		ok = xt == tBool
	case ir.BitNot:
		_, ok = xt.(*BitsType)
	case ir.Neg, ir.Plus:
		switch xt.(type) {
		case *BitsType, IntType:
			ok = true
		}
	}
	if !ok {
		c.errorf(e, diag.TypeMismatch, "operator %s cannot be applied to %s", e.Op, xt)
		return tInvalid
	}
	if v, isConst := c.out.Values[e.X]; isConst {
		if r, folded := foldUnary(e.Op, v, xt); folded {
			c.setValue(e, r)
		}
	}
	return xt
}

// balance gives an unsized operand the type of the sized one, as P4-16
// §8.11.2 allows implicitly; it returns the common operand type.
func (c *checker) balance(op string, x, y Expr) (Type, bool) {
	// A list, structure or {#} takes its type from the other operand.
	if typedByContext(x) && !typedByContext(y) {
		if yt := c.expr(y, nil); !isInvalid(yt) {
			c.expr(x, yt)
			if !c.convert(x, yt, "operand of "+op) {
				return tInvalid, false
			}
		}
	} else if typedByContext(y) && !typedByContext(x) {
		if xt := c.expr(x, nil); !isInvalid(xt) {
			c.expr(y, xt)
			if !c.convert(y, xt, "operand of "+op) {
				return tInvalid, false
			}
		}
	}
	xt, yt := c.expr(x, nil), c.expr(y, nil)
	if isInvalid(xt) || isInvalid(yt) {
		return tInvalid, false
	}
	xt, yt = c.enumToBits(x, xt, yt), c.enumToBits(y, yt, xt)
	_, xInt := xt.(IntType)
	_, yInt := yt.(IntType)
	switch {
	case xInt && !yInt:
		if c.convert(x, yt, "operand of "+op) {
			return yt, true
		}
		return tInvalid, false
	case yInt && !xInt:
		if c.convert(y, xt, "operand of "+op) {
			return xt, true
		}
		return tInvalid, false
	}
	if !sameType(xt, yt) {
		code := diag.TypeMismatch
		hint := ""
		if bx, ok := xt.(*BitsType); ok {
			if by, ok := yt.(*BitsType); ok {
				code = diag.WidthMismatch
				if bx.Signed == by.Signed {
					hint = "; cast one operand to the other's width"
				} else {
					hint = "; cast one operand so both are bit<W> or both int<W>"
				}
			}
		}
		c.errorf(&BinaryExpr{At: At{x.Span().Join(y.Span())}}, code, "operands of %s have different types: %s and %s%s", op, xt, yt, hint)
		return tInvalid, false
	}
	return xt, true
}

// typedByContext reports whether an expression's type comes from where it
// is used: a list or structure expression, {#}, or ....
func typedByContext(e Expr) bool {
	switch e.(type) {
	case *ListExpr, *StructExpr, *InvalidExpr, *DotsExpr:
		return true
	}
	return false
}

// asBits gives a serializable enum operand its underlying type, as p4c
// does in arithmetic, shifts, concatenation and slices.
func (c *checker) asBits(e Expr, t Type) Type {
	if en, ok := t.(*EnumType); ok && en.Underlying != nil {
		return c.enumToBits(e, t, nil)
	}
	return t
}

// enumToBits lets a serializable enum meet its own underlying type (or an
// unsized constant) as that type, which p4c also accepts in expressions.
func (c *checker) enumToBits(e Expr, t, other Type) Type {
	en, ok := t.(*EnumType)
	if !ok || en.Underlying == nil {
		return t
	}
	if sameType(other, t) {
		return t
	}
	if m, ok := c.out.Values[e].(enumMember); ok {
		if v, ok := en.Values[m.Name]; ok {
			c.out.Values[e] = v
		}
	}
	c.out.Types[e] = en.Underlying
	return en.Underlying
}

func (c *checker) binaryExpr(e *BinaryExpr) Type {
	switch e.Op {
	case ir.Shl, ir.Shr:
		return c.shiftExpr(e)
	case ir.Concat:
		return c.concatExpr(e)
	}
	if !e.Op.Comparison() && e.Op != ir.LAnd && e.Op != ir.LOr {
		c.asBits(e.X, c.expr(e.X, nil))
		c.asBits(e.Y, c.expr(e.Y, nil))
	}
	negative := false // an operand of / or % written negative (before it is given a width)
	if e.Op == ir.Div || e.Op == ir.Mod {
		for _, x := range []Expr{e.X, e.Y} {
			if v, ok := c.out.Values[x].(*big.Int); ok && v.Sign() < 0 {
				negative = true
			}
		}
	}
	t, ok := c.balance(e.Op.String(), e.X, e.Y)
	if !ok {
		return tInvalid
	}
	result := t
	if e.Op.Comparison() {
		result = tBool
	}
	valid := false
	_, isBits := t.(*BitsType)
	_, isInt := t.(IntType)
	switch e.Op {
	case ir.LAnd, ir.LOr:
		valid = t == tBool
	case ir.Eq, ir.Ne:
		switch t.(type) {
		case *FuncType, *TableType, *ActionType, *ObjectType, VoidType, *ApplyResultType:
		default:
			valid = true
		}
	case ir.Lt, ir.Gt, ir.Le, ir.Ge:
		valid = isBits || isInt
	case ir.Add, ir.Sub, ir.Mul, ir.BitAnd, ir.BitOr, ir.BitXor:
		valid = isBits || isInt
	case ir.SatAdd, ir.SatSub:
		valid = isBits
	case ir.Div, ir.Mod:
		if b, ok := t.(*BitsType); ok {
			valid = !b.Signed
		} else {
			valid = isInt
		}
	}
	if !valid {
		c.errorf(e, diag.TypeMismatch, "operator %s cannot be applied to %s", e.Op, t)
		return tInvalid
	}
	if vx, ok := c.out.Values[e.X]; ok {
		if vy, ok := c.out.Values[e.Y]; ok {
			if r, ok := foldBinary(e.Op, vx, vy, t); ok {
				c.setValue(e, r)
			} else if e.Op == ir.Div || e.Op == ir.Mod {
				c.errorf(e, diag.TypeMismatch, "%s of constants %v and %v is undefined (zero or negative operand)", e.Op, vx, vy)
				return tInvalid
			}
		}
	}
	if (e.Op == ir.Div || e.Op == ir.Mod) && !c.divisionDefined(e, negative) {
		return tInvalid
	}
	if e.Op.Comparison() && (e.Op == ir.Eq || e.Op == ir.Ne) {
		switch t.(type) {
		case *TypeVar:
			c.errorf(e, diag.TypeMismatch, "values of a type variable (%s) cannot be compared", t)
			return tInvalid
		}
	}
	return result
}

// divisionDefined applies P4-16 §8.6 to x / y and x % y that did not
// fold: neither operand may be negative, and y may not be 0.
func (c *checker) divisionDefined(e *BinaryExpr, negative bool) bool {
	if _, folded := c.out.Values[e]; folded {
		return true
	}
	vy, yConst := c.out.Values[e.Y].(*big.Int)
	switch {
	case negative:
		c.errorf(e, diag.TypeMismatch, "%s is not defined on negative numbers", e.Op)
	case yConst && vy.Sign() == 0:
		c.errorf(e, diag.TypeMismatch, "division by zero")
	case c.out.Types[e] == tInt:
		c.errorf(e, diag.NotConstant, "%s on int needs compile-time constants", e.Op)
	default:
		return true
	}
	return false
}

func (c *checker) shiftExpr(e *BinaryExpr) Type {
	xt, yt := c.expr(e.X, nil), c.expr(e.Y, nil)
	if isInvalid(xt) || isInvalid(yt) {
		return tInvalid
	}
	xt, yt = c.asBits(e.X, xt), c.asBits(e.Y, yt)
	switch yt := yt.(type) {
	case *BitsType:
		// A signed amount is fine when it is a constant not below 0.
		if v, ok := c.out.Values[e.Y].(*big.Int); yt.Signed && !(ok && v.Sign() >= 0) {
			c.errorf(e.Y, diag.TypeMismatch, "a shift amount must be unsigned, not %s", yt)
			return tInvalid
		}
	case IntType:
		if v, ok := c.out.Values[e.Y].(*big.Int); ok && v.Sign() < 0 {
			c.errorf(e.Y, diag.TypeMismatch, "a shift amount must not be negative")
			return tInvalid
		}
	default:
		c.errorf(e.Y, diag.TypeMismatch, "a shift amount must be bit<W> or an integer, not %s", yt)
		return tInvalid
	}
	switch xt.(type) {
	case *BitsType:
	case IntType:
		if _, ok := c.out.Values[e.Y]; !ok {
			c.errorf(e, diag.TypeMismatch, "shifting an unsized integer needs a constant amount; give the integer a width")
			return tInvalid
		}
	default:
		c.errorf(e.X, diag.TypeMismatch, "cannot shift a value of type %s", xt)
		return tInvalid
	}
	if vx, ok := c.out.Values[e.X]; ok {
		if vy, ok := c.out.Values[e.Y]; ok {
			if r, ok := foldBinary(e.Op, vx, vy, xt); ok {
				c.setValue(e, r)
			}
		}
	}
	if _, isInt := xt.(IntType); isInt && e.Op == ir.Shl {
		if v, ok := c.out.Values[e.Y].(*big.Int); ok && v.Cmp(big.NewInt(maxWidth)) > 0 {
			c.errorf(e, diag.BadWidth, "%s << %s is wider than the %d bits p4hls (like p4c) supports", exprText(e.X), v, maxWidth)
			return tInvalid
		}
	}
	return xt
}

func (c *checker) concatExpr(e *BinaryExpr) Type {
	xt, yt := c.expr(e.X, nil), c.expr(e.Y, nil)
	if isInvalid(xt) || isInvalid(yt) {
		return tInvalid
	}
	if xt == tString && yt == tString {
		// Strings concatenate at compile time (p4c's extension).
		vx, okx := c.out.Values[e.X].(string)
		vy, oky := c.out.Values[e.Y].(string)
		if !okx || !oky {
			c.errorf(e, diag.NotConstant, "only constant strings can be concatenated")
			return tInvalid
		}
		c.setValue(e, vx+vy)
		return tString
	}
	xt, yt = c.asBits(e.X, xt), c.asBits(e.Y, yt)
	bx, ok1 := xt.(*BitsType)
	by, ok2 := yt.(*BitsType)
	if !ok1 || !ok2 {
		c.errorf(e, diag.TypeMismatch, "operands of ++ must have widths (bit<W> or int<W>), not %s and %s", xt, yt)
		return tInvalid
	}
	if bx.Width+by.Width > maxWidth {
		c.errorf(e, diag.BadWidth, "concatenation is %d bits wide; p4hls allows up to %d", bx.Width+by.Width, maxWidth)
		return tInvalid
	}
	vx, okx := c.out.Values[e.X].(*big.Int)
	vy, oky := c.out.Values[e.Y].(*big.Int)
	if okx && oky {
		c.setValue(e, concatValue(vx, vy, bx.Width, by.Width, bx.Signed))
	}
	return &BitsType{Width: bx.Width + by.Width, Signed: bx.Signed}
}

func (c *checker) condExpr(e *CondExpr, want Type) Type {
	ct := c.expr(e.Cond, tBool)
	if !isInvalid(ct) && ct != tBool {
		c.errorf(e.Cond, diag.TypeMismatch, "condition of ?: must be bool, not %s", ct)
	}
	c.expr(e.Then, want)
	c.expr(e.Else, want)
	if isAggregate(want) && typedByContext(e.Then) && typedByContext(e.Else) {
		// Both branches are lists or structures: each becomes the type
		// the context wants.
		ok1 := c.convert(e.Then, want, "branch of ?:")
		ok2 := c.convert(e.Else, want, "branch of ?:")
		if !ok1 || !ok2 {
			return tInvalid
		}
		return want
	}
	t, ok := c.balance("?:", e.Then, e.Else)
	if !ok {
		return tInvalid
	}
	if cv, ok := c.out.Values[e.Cond].(bool); ok {
		pick := e.Else
		if cv {
			pick = e.Then
		}
		c.setValue(e, c.out.Values[pick])
	} else if _, isInt := t.(IntType); isInt {
		c.errorf(e, diag.TypeMismatch, "the branches of ?: are unsized integers; give them a width")
		return tInvalid
	}
	return t
}

func (c *checker) listExpr(e *ListExpr, want Type) Type {
	var elemWants []Type
	switch w := want.(type) {
	case *TupleType:
		elemWants = w.Elems
	case *StructType:
		for _, f := range w.Fields {
			elemWants = append(elemWants, f.Type)
		}
	case *StackType:
		for range w.Size {
			elemWants = append(elemWants, w.Elem)
		}
	}
	elems := make([]Type, len(e.Elems))
	for i, x := range e.Elems {
		var w Type
		if i < len(elemWants) {
			w = elemWants[i]
		}
		if _, dots := x.(*DotsExpr); dots && i == len(e.Elems)-1 && want != nil {
			// The elements not written take their defaults.
			elems = append(elems[:i], elemWants[min(i, len(elemWants)):]...)
			c.out.Types[x] = tDontCare
			break
		}
		elems[i] = c.expr(x, w)
	}
	c.setValue(e, c.aggregateOf(e.Elems))
	return &TupleType{Elems: elems}
}

// structValue records the constant value of a structure expression that
// initializes t, its fields in t's order, when every field is constant.
func (c *checker) structValue(se *StructExpr, t *StructType) {
	delete(c.out.Values, se)
	if se.Dots || len(se.Fields) != len(t.Fields) {
		return
	}
	xs := make([]Expr, len(t.Fields))
	for i, f := range t.Fields {
		for _, kv := range se.Fields {
			if kv.Key.Name == f.Name {
				xs[i] = kv.Value
			}
		}
		if xs[i] == nil {
			return
		}
	}
	c.setValue(se, c.aggregateOf(xs))
}

// aggregateOf returns the constant value of a list of expressions, or nil
// when one of them is not constant.
func (c *checker) aggregateOf(xs []Expr) any {
	out := make(aggregate, len(xs))
	for i, x := range xs {
		v, ok := c.out.Values[x]
		if !ok {
			return nil
		}
		out[i] = v
	}
	return out
}

func (c *checker) structExpr(e *StructExpr, want Type) Type {
	st, _ := want.(*StructType)
	lit := &StructLitType{}
	seen := map[string]bool{}
	for _, kv := range e.Fields {
		var w Type
		if st != nil {
			if f := st.Field(kv.Key.Name); f != nil {
				w = f.Type
			}
		}
		if seen[kv.Key.Name] {
			c.errorf(kv.Key, diag.Redeclared, "field %s is given twice", kv.Key.Name)
		}
		seen[kv.Key.Name] = true
		lit.Fields = append(lit.Fields, &FieldInfo{Name: kv.Key.Name, Type: c.expr(kv.Value, w)})
	}
	return lit
}

// convert checks that e (already checked) may be used where a value of type
// to is needed, applying P4-16's implicit casts (unsized integer to bit<W> or
// int<W>, list and struct expressions to structs, headers and tuples). It
// reports a mismatch naming what the value is for.
func (c *checker) convert(e Expr, to Type, what string) bool {
	from := c.out.Types[e]
	if from == nil {
		from = c.expr(e, to)
	}
	if c.convertible(e, from, to) {
		return true
	}
	c.errorf(e, diag.TypeMismatch, "%s: cannot use a value of type %s as %s", what, from, to)
	return false
}

func (c *checker) convertible(e Expr, from, to Type) bool {
	if to == nil || isInvalid(from) || isInvalid(to) || sameType(from, to) {
		return true
	}
	if _, dots := e.(*DotsExpr); dots {
		c.out.Types[e] = to // the default value of the type wanted
		return true
	}
	if _, dots := e.(*DotsExpr); dots {
		switch to.(type) {
		case *ListType, *ObjectType:
			c.errorf(e, diag.TypeMismatch, "...: %s has no default value", to)
			return true // reported
		}
	}
	if le, ok := e.(*ListExpr); ok && len(le.Elems) == 1 && !isAggregate(to) && !isDots(le.Elems[0]) {
		// A list of one value stands for the value, as p4c has it
		// ({9w192} for a bit<9>).
		x := le.Elems[0]
		if !c.convertible(x, c.out.Types[x], to) {
			return false
		}
		c.out.Types[e] = to
		if v, ok := c.out.Values[x]; ok {
			c.out.Values[e] = v
		}
		return true
	}
	switch t := to.(type) {
	case *NewType:
		// An integer constant converts to a new type over bits, as it
		// would to the bits (p4c: const vrf_id_t V = 0;).
		if _, ok := from.(IntType); ok && c.convertible(e, from, stripNewTypes(t)) {
			c.out.Types[e] = t
			return true
		}
	case *BitsType:
		if _, ok := from.(IntType); ok {
			v, isConst := c.out.Values[e].(*big.Int)
			if !isConst {
				// An int that is not constant here (a directionless
				// int parameter) is one at instantiation.
				c.out.Types[e] = t
				return true
			}
			if !fits(v, t) {
				c.diags.Warnf(e, diag.BadWidth, "%s does not fit in %s; it is truncated to %s", v, t, wrap(v, t))
			}
			c.out.Types[e] = t
			c.out.Values[e] = wrap(v, t)
			return true
		}
		if en, ok := from.(*EnumType); ok && en.Underlying != nil && sameType(en.Underlying, t) {
			return true
		}
	case *StructType:
		if t.Kind == KindHeaderUnion {
			return false // a header union is initialized member by member
		}
		switch f := from.(type) {
		case *TupleType:
			le, ok := e.(*ListExpr)
			if !ok || len(f.Elems) != len(t.Fields) {
				return false
			}
			for i, x := range le.Elems[:min(len(le.Elems), len(t.Fields))] {
				if !c.convert(x, t.Fields[i].Type, "field "+t.Fields[i].Name) {
					return true // reported; don't report the whole list too
				}
			}
			c.out.Types[e] = t
			c.setValue(e, c.aggregateOf(le.Elems))
			return true
		case *StructLitType:
			se, ok := e.(*StructExpr)
			if !ok || len(f.Fields) != len(t.Fields) && !se.Dots {
				return false
			}
			for _, kv := range se.Fields {
				fi := t.Field(kv.Key.Name)
				if fi == nil {
					c.errorf(kv.Key, diag.UnknownMember, "%s has no field %s", t.Name, kv.Key.Name)
					return true
				}
				c.convert(kv.Value, fi.Type, "field "+fi.Name)
			}
			c.out.Types[e] = t
			c.structValue(se, t)
			return true
		}
	case *TupleType:
		if f, ok := from.(*TupleType); ok && len(f.Elems) == len(t.Elems) {
			if le, ok := e.(*ListExpr); ok {
				for i, x := range le.Elems[:min(len(le.Elems), len(t.Elems))] {
					c.convert(x, t.Elems[i], "element of list")
				}
				c.out.Types[e] = t
				c.setValue(e, c.aggregateOf(le.Elems))
				return true
			}
		}
	case *ListType:
		if le, ok := e.(*ListExpr); ok {
			for _, x := range le.Elems {
				c.convert(x, t.Elem, "element of list")
			}
			c.out.Types[e] = t
			return true
		}
	case *StackType:
		// A list of elements initializes a header stack or an array.
		if f, ok := from.(*TupleType); ok && len(f.Elems) == t.Size {
			if le, ok := e.(*ListExpr); ok {
				for _, x := range le.Elems[:min(len(le.Elems), t.Size)] {
					c.convert(x, t.Elem, "element of list")
				}
				c.out.Types[e] = t
				return true
			}
		}
	case IntType:
		// An int parameter takes any sized integer (extern arguments).
		_, ok := from.(*BitsType)
		return ok
	case DontCareType:
		return true
	}
	return false
}

func isDots(e Expr) bool {
	_, ok := e.(*DotsExpr)
	return ok
}

// isAggregate reports whether values of t have elements or fields.
func isAggregate(t Type) bool {
	switch t.(type) {
	case *StructType, *TupleType, *StackType, *ListType, *StructLitType:
		return true
	}
	return false
}

// isLvalue reports whether e denotes storage that may be written, and
// reports why not when it may not.
func (c *checker) checkLvalue(e Expr, what string) bool {
	switch x := e.(type) {
	case *NameExpr:
		sym := c.out.Uses[x]
		if sym == nil {
			return true // undeclared: already reported
		}
		switch sym.Kind {
		case SymVar:
			return true
		case SymParam:
			if sym.ReadOnly {
				reason := "an in parameter"
				if sym.Dir == DirNone {
					reason = "a directionless parameter (action data set by the control plane)"
				}
				c.errorf(e, diag.AssignToReadOnly, "cannot %s %s: it is %s", what, x.Name, reason)
				return false
			}
			return true
		case SymConst:
			c.errorf(e, diag.AssignToReadOnly, "cannot %s %s: it is a constant", what, x.Name)
			return false
		}
		c.errorf(e, diag.AssignToReadOnly, "cannot %s %s: it is not a variable", what, x.Name)
		return false
	case *MemberExpr:
		if c.typeNameOf(x.X) != nil {
			c.errorf(e, diag.AssignToReadOnly, "cannot %s a constant", what)
			return false
		}
		if _, ok := c.out.Types[x.X].(*StackType); ok && x.Name.Name != "next" && x.Name.Name != "last" {
			c.errorf(e, diag.AssignToReadOnly, "cannot %s %s of a header stack", what, x.Name.Name)
			return false
		}
		return c.checkLvalue(x.X, what)
	case *IndexExpr:
		return c.checkLvalue(x.X, what)
	case *SliceExpr:
		return c.checkLvalue(x.X, what)
	}
	c.errorf(e, diag.AssignToReadOnly, "cannot %s an expression that is not a variable, field or slice", what)
	return false
}

// castExpr checks an explicit cast (P4-16 §8.11.1).
func (c *checker) castExpr(e *CastExpr) Type {
	to := c.resolveType(e.Type)
	from := c.expr(e.X, to)
	if isInvalid(to) || isInvalid(from) {
		return tInvalid
	}
	if !c.castAllowed(e.X, from, to) {
		c.errorf(e, diag.BadCast, "cannot cast %s to %s", from, to)
		return tInvalid
	}
	if v, ok := c.out.Values[e.X]; ok {
		c.setValue(e, castValue(v, from, to))
	}
	return to
}

func (c *checker) castAllowed(x Expr, from, to Type) bool {
	if sameType(from, to) {
		return true
	}
	// A new type converts to and from the type it was declared over
	// (§7.6); an integer constant casts to a new type over bits, as it
	// would to the bits.
	if n, ok := to.(*NewType); ok {
		if sameType(from, n.Base) {
			return true
		}
		_, isInt := from.(IntType)
		return isInt && c.castAllowed(x, from, stripNewTypes(n))
	}
	if n, ok := from.(*NewType); ok {
		return sameType(n.Base, to)
	}
	switch t := to.(type) {
	case *BitsType:
		switch f := from.(type) {
		case *BitsType:
			// Change width, or change signedness at equal width.
			return f.Signed == t.Signed || f.Width == t.Width
		case IntType:
			return true
		case BoolType:
			return t.Width == 1 && !t.Signed
		case *EnumType:
			return f.Underlying != nil && sameType(f.Underlying, t)
		}
	case BoolType:
		switch f := from.(type) {
		case *BitsType:
			return f.Width == 1 && !f.Signed
		case IntType:
			v, ok := c.out.Values[x].(*big.Int)
			return ok && (v.Sign() == 0 || v.Cmp(bigOne) == 0)
		}
	case IntType:
		_, ok := from.(*BitsType)
		return ok
	case *EnumType:
		if t.Underlying == nil {
			return false
		}
		switch f := from.(type) {
		case *BitsType:
			return sameType(f, t.Underlying)
		case IntType:
			return true
		case *EnumType:
			// Between serializable enums over the same bits.
			return f.Underlying != nil && sameType(f.Underlying, t.Underlying)
		}
	case *StructType, *TupleType, *StackType, *ListType:
		return c.convertible(x, from, to)
	}
	return false
}

// stripNewTypes returns the type a chain of new types is declared over.
func stripNewTypes(t Type) Type {
	for {
		n, ok := t.(*NewType)
		if !ok {
			return t
		}
		t = n.Base
	}
}

// castValue converts a constant.
func castValue(v any, from, to Type) any {
	if m, ok := v.(enumMember); ok && m.Enum.Underlying != nil {
		if _, toEnum := to.(*EnumType); toEnum || m.Enum != to {
			if val, ok := m.Enum.Values[m.Name]; ok {
				v = val // a serializable enum casts by its value
			}
		}
	}
	switch t := to.(type) {
	case *NewType:
		return castValue(v, from, stripNewTypes(t))
	case *BitsType:
		switch x := v.(type) {
		case *big.Int:
			// Negative values are already sign-extended: wrapping into a
			// wider unsigned type keeps P4's two's-complement meaning.
			return wrap(x, t)
		case bool:
			if x {
				return big.NewInt(1)
			}
			return big.NewInt(0)
		case enumMember:
			if val, ok := x.Enum.Values[x.Name]; ok {
				return val
			}
		}
	case BoolType:
		if x, ok := v.(*big.Int); ok {
			return x.Sign() != 0
		}
	case *EnumType:
		if x, ok := v.(*big.Int); ok {
			for _, m := range t.Members {
				if t.Values[m] != nil && t.Values[m].Cmp(wrap(x, t.Underlying)) == 0 {
					return enumMember{Enum: t, Name: m}
				}
			}
		}
		return nil
	}
	return v
}
