package interp

import (
	"math/big"
	"math/bits"

	"github.com/p4hls/p4hls/ir"
)

// Value is a P4 value at run time.
//
//   - bit<W> and int<W> with W <= 64: U holds the W-bit pattern (int<W> in
//     two's complement), bits above W are zero.
//   - bit<W> and int<W> with W > 64: Big holds the W-bit pattern, in [0, 2^W).
//   - bool: U is 0 or 1. Enum and error members: U is the member's index (a
//     serializable enum member: its value).
//   - varbit<Max>: U holds the current size in bits, Big the bits (nil
//     for none).
//   - struct, header, header union, stack, tuple: Agg.
//
// Most values fit in U, so arithmetic rarely allocates.
type Value struct {
	U   uint64
	Big *big.Int
	Agg *Aggregate
}

// Aggregate holds the fields of a struct, header or union, the elements of
// a stack or tuple, and a header's validity.
type Aggregate struct {
	Fields []Value
	Valid  bool
	// Next is a stack's nextIndex (how many elements extract has filled).
	Next int
}

// zero returns the zero value of t: 0, false, invalid headers, empty stacks.
func zero(t ir.Type) Value {
	switch t := t.(type) {
	case *ir.Bits:
		if t.Width > 64 {
			return Value{Big: new(big.Int)}
		}
	case *ir.Struct:
		agg := &Aggregate{Fields: make([]Value, len(t.Fields))}
		for i, f := range t.Fields {
			agg.Fields[i] = zero(f.Type)
		}
		return Value{Agg: agg}
	case *ir.Stack:
		agg := &Aggregate{Fields: make([]Value, t.Size)}
		for i := range agg.Fields {
			agg.Fields[i] = zero(t.Elem)
		}
		return Value{Agg: agg}
	case *ir.Tuple:
		agg := &Aggregate{Fields: make([]Value, len(t.Elems))}
		for i, e := range t.Elems {
			agg.Fields[i] = zero(e)
		}
		return Value{Agg: agg}
	}
	return Value{}
}

// reset makes v the zero value of t again in place, reusing its storage
// (the interpreter resets each packet's headers instead of allocating them).
func reset(v *Value, t ir.Type) {
	switch t := t.(type) {
	case *ir.Struct:
		v.Agg.Valid, v.Agg.Next = false, 0
		for i, f := range t.Fields {
			reset(&v.Agg.Fields[i], f.Type)
		}
	case *ir.Stack:
		v.Agg.Valid, v.Agg.Next = false, 0
		for i := range v.Agg.Fields {
			reset(&v.Agg.Fields[i], t.Elem)
		}
	case *ir.Tuple:
		for i, e := range t.Elems {
			reset(&v.Agg.Fields[i], e)
		}
	case *ir.Bits:
		if t.Width > 64 {
			v.Big.SetInt64(0)
			return
		}
		v.U = 0
	default:
		*v = Value{}
	}
}

// copyValue returns a deep copy: P4 assignment copies aggregates.
func copyValue(v Value) Value {
	if v.Big != nil {
		return Value{U: v.U, Big: new(big.Int).Set(v.Big)} // U: a varbit's size
	}
	if v.Agg == nil {
		return v
	}
	agg := &Aggregate{Fields: make([]Value, len(v.Agg.Fields)), Valid: v.Agg.Valid, Next: v.Agg.Next}
	for i, f := range v.Agg.Fields {
		agg.Fields[i] = copyValue(f)
	}
	return Value{Agg: agg}
}

// assignInto copies v into the storage dst points at, reusing dst's
// aggregate so references to it stay valid.
func assignInto(dst *Value, v Value) {
	if dst.Agg != nil && v.Agg != nil && len(dst.Agg.Fields) == len(v.Agg.Fields) {
		if dst.Agg == v.Agg {
			return
		}
		dst.Agg.Valid = v.Agg.Valid
		dst.Agg.Next = v.Agg.Next
		for i := range v.Agg.Fields {
			assignInto(&dst.Agg.Fields[i], v.Agg.Fields[i])
		}
		return
	}
	*dst = copyValue(v)
}

// equal compares two values of one type (headers: both invalid, or both
// valid with equal fields, P4-16 §8.17).
func equal(a, b Value) bool {
	switch {
	case a.Agg != nil && b.Agg != nil:
		if a.Agg.Valid != b.Agg.Valid || len(a.Agg.Fields) != len(b.Agg.Fields) {
			return false
		}
		for i := range a.Agg.Fields {
			if !equal(a.Agg.Fields[i], b.Agg.Fields[i]) {
				return false
			}
		}
		return true
	case a.Big != nil || b.Big != nil:
		return bigOf(a).Cmp(bigOf(b)) == 0
	}
	return a.U == b.U
}

// equalHeaders is == for header-typed values: an invalid header equals any
// other invalid header whatever its fields hold.
func equalHeaders(a, b Value, t ir.Type) bool {
	if _, ok := t.(*ir.Varbit); ok { // equal sizes, equal bits
		return a.U == b.U && bigOf(Value{Big: a.Big}).Cmp(bigOf(Value{Big: b.Big})) == 0
	}
	s, ok := t.(*ir.Struct)
	if !ok || a.Agg == nil || b.Agg == nil {
		return equal(a, b)
	}
	if s.Kind == ir.KindHeader {
		if !a.Agg.Valid && !b.Agg.Valid {
			return true
		}
		if a.Agg.Valid != b.Agg.Valid {
			return false
		}
	}
	for i, f := range s.Fields {
		if !equalHeaders(a.Agg.Fields[i], b.Agg.Fields[i], f.Type) {
			return false
		}
	}
	return true
}

func bigOf(v Value) *big.Int {
	if v.Big != nil {
		return v.Big
	}
	return new(big.Int).SetUint64(v.U)
}

// ------------------------------------------------------------------ fixed width arithmetic

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// signed interprets the low w bits of u as two's complement.
func signed(u uint64, w int) int64 {
	if w >= 64 {
		return int64(u)
	}
	shift := uint(64 - w)
	return int64(u<<shift) >> shift
}

var bigOne = big.NewInt(1)

// wrapBig reduces x to the w-bit pattern [0, 2^w).
func wrapBig(x *big.Int, w int) *big.Int {
	m := new(big.Int).Lsh(bigOne, uint(w))
	return x.Mod(x, m)
}

// signedBig interprets a w-bit pattern as two's complement.
func signedBig(x *big.Int, w int) *big.Int {
	r := new(big.Int).Set(x)
	if r.Bit(w-1) == 1 {
		r.Sub(r, new(big.Int).Lsh(bigOne, uint(w)))
	}
	return r
}

// fromBig makes a value of type t from an integer (any sign, any size).
func fromBig(x *big.Int, t *ir.Bits) Value {
	r := wrapBig(new(big.Int).Set(x), t.Width)
	if t.Width > 64 {
		return Value{Big: r}
	}
	return Value{U: r.Uint64()}
}

// toBig returns the integer a value of type t denotes (signed for int<W>).
func toBig(v Value, t *ir.Bits) *big.Int {
	if t.Width > 64 {
		if t.Signed {
			return signedBig(v.Big, t.Width)
		}
		return new(big.Int).Set(v.Big)
	}
	if t.Signed {
		return big.NewInt(signed(v.U, t.Width))
	}
	return new(big.Int).SetUint64(v.U)
}

// arith computes x op y for operands of type t (bit<W> or int<W>): the
// arithmetic of P4-16 §8.6 and §8.7.
func arith(op ir.Op, x, y Value, t *ir.Bits) Value {
	if t.Width > 64 {
		return binaryBig(op, x, y, t)
	}
	w, m := t.Width, mask(t.Width)
	a, b := x.U, y.U
	switch op {
	case ir.Add:
		return Value{U: (a + b) & m}
	case ir.Sub:
		return Value{U: (a - b) & m}
	case ir.Mul:
		return Value{U: (a * b) & m}
	case ir.Div:
		if b == 0 {
			return Value{} // undefined in P4; p4hls defines it as 0
		}
		if t.Signed {
			return Value{U: uint64(signed(a, w)/signed(b, w)) & m}
		}
		return Value{U: a / b}
	case ir.Mod:
		if b == 0 {
			return Value{}
		}
		if t.Signed {
			return Value{U: uint64(signed(a, w)%signed(b, w)) & m}
		}
		return Value{U: a % b}
	case ir.BitAnd:
		return Value{U: a & b}
	case ir.BitOr:
		return Value{U: a | b}
	case ir.BitXor:
		return Value{U: a ^ b}
	case ir.SatAdd:
		if t.Signed {
			return Value{U: uint64(satSigned(signed(a, w)+signed(b, w), w)) & m}
		}
		s, carry := bits.Add64(a, b, 0)
		if carry != 0 || s > m {
			return Value{U: m}
		}
		return Value{U: s}
	case ir.SatSub:
		if t.Signed {
			return Value{U: uint64(satSigned(signed(a, w)-signed(b, w), w)) & m}
		}
		if b > a {
			return Value{}
		}
		return Value{U: a - b}
	}
	panic("interp: unknown operator " + op.String())
}

// satSigned clamps v to the range of int<w> (w < 64 here; wider values go
// through big.Int). Sums of two int<w> values never overflow int64 for w<64.
func satSigned(v int64, w int) int64 {
	if w >= 64 {
		return v
	}
	hi := int64(1)<<uint(w-1) - 1
	lo := -hi - 1
	if v > hi {
		return hi
	}
	if v < lo {
		return lo
	}
	return v
}

func binaryBig(op ir.Op, x, y Value, t *ir.Bits) Value {
	a, b := toBig(x, t), toBig(y, t)
	r := new(big.Int)
	switch op {
	case ir.Add:
		r.Add(a, b)
	case ir.Sub:
		r.Sub(a, b)
	case ir.Mul:
		r.Mul(a, b)
	case ir.Div, ir.Mod:
		if b.Sign() == 0 {
			return zero(t)
		}
		if op == ir.Div {
			r.Quo(a, b)
		} else {
			r.Rem(a, b)
		}
	case ir.BitAnd, ir.BitOr, ir.BitXor:
		ua, ub := x.Big, y.Big
		switch op {
		case ir.BitAnd:
			r.And(ua, ub)
		case ir.BitOr:
			r.Or(ua, ub)
		default:
			r.Xor(ua, ub)
		}
	case ir.SatAdd, ir.SatSub:
		if op == ir.SatAdd {
			r.Add(a, b)
		} else {
			r.Sub(a, b)
		}
		lo, hi := rangeBig(t)
		if r.Cmp(lo) < 0 {
			r = lo
		} else if r.Cmp(hi) > 0 {
			r = hi
		}
	default:
		panic("interp: unknown operator " + op.String())
	}
	return fromBig(r, t)
}

func rangeBig(t *ir.Bits) (*big.Int, *big.Int) {
	if t.Signed {
		hi := new(big.Int).Lsh(bigOne, uint(t.Width-1))
		lo := new(big.Int).Neg(hi)
		return lo, hi.Sub(hi, bigOne)
	}
	hi := new(big.Int).Lsh(bigOne, uint(t.Width))
	return new(big.Int), hi.Sub(hi, bigOne)
}

// compare returns -1, 0 or 1 for x against y of type t.
func compare(x, y Value, t *ir.Bits) int {
	if t.Width > 64 {
		return toBig(x, t).Cmp(toBig(y, t))
	}
	if t.Signed {
		a, b := signed(x.U, t.Width), signed(y.U, t.Width)
		switch {
		case a < b:
			return -1
		case a > b:
			return 1
		}
		return 0
	}
	switch {
	case x.U < y.U:
		return -1
	case x.U > y.U:
		return 1
	}
	return 0
}

// shift computes x << n or x >> n for x of type t: bits shifted past the
// width are lost, and >> on int<W> is arithmetic (P4-16 §8.6, §8.7).
func shift(left bool, x Value, n uint64, t *ir.Bits) Value {
	if t.Width > 64 {
		v := toBig(x, t)
		if n > uint64(t.Width) {
			n = uint64(t.Width)
		}
		if left {
			v.Lsh(v, uint(n))
		} else {
			v.Rsh(v, uint(n))
		}
		return fromBig(v, t)
	}
	w := uint64(t.Width)
	if left {
		if n >= w {
			return Value{}
		}
		return Value{U: (x.U << n) & mask(t.Width)}
	}
	if t.Signed {
		if n >= w {
			n = w - 1
		}
		return Value{U: uint64(signed(x.U, t.Width)>>n) & mask(t.Width)}
	}
	if n >= w {
		return Value{}
	}
	return Value{U: x.U >> n}
}

// negate computes -x, and complement ~x, for x of type t.
func negate(x Value, t *ir.Bits) Value { return arith(ir.Sub, Value{U: 0, Big: zeroBig(t)}, x, t) }

func complement(x Value, t *ir.Bits) Value {
	if t.Width > 64 {
		r := new(big.Int).Not(x.Big)
		return fromBig(r, t)
	}
	return Value{U: ^x.U & mask(t.Width)}
}

func zeroBig(t *ir.Bits) *big.Int {
	if t.Width > 64 {
		return new(big.Int)
	}
	return nil
}

// slice returns bits hi..lo of x (of width w) as bit<hi-lo+1>.
func slice(x Value, hi, lo int) Value {
	w := hi - lo + 1
	if x.Big != nil {
		r := new(big.Int).Rsh(x.Big, uint(lo))
		return fromBig(r, &ir.Bits{Width: w})
	}
	if lo >= 64 {
		return Value{}
	}
	return Value{U: (x.U >> uint(lo)) & mask(w)}
}

// setSlice returns x (of type t) with bits hi..lo replaced by v.
func setSlice(x Value, t *ir.Bits, hi, lo int, v Value) Value {
	if t.Width > 64 || v.Big != nil {
		base := toUnsignedBig(x, t.Width)
		w := hi - lo + 1
		m := new(big.Int).Lsh(new(big.Int).Sub(new(big.Int).Lsh(bigOne, uint(w)), bigOne), uint(lo))
		base.AndNot(base, m)
		base.Or(base, new(big.Int).Lsh(toUnsignedBig(v, w), uint(lo)))
		return fromBig(base, &ir.Bits{Width: t.Width})
	}
	m := mask(hi-lo+1) << uint(lo)
	return Value{U: (x.U &^ m) | ((v.U << uint(lo)) & m)}
}

func toUnsignedBig(v Value, w int) *big.Int {
	if v.Big != nil {
		return new(big.Int).Set(v.Big)
	}
	return new(big.Int).SetUint64(v.U)
}

// concat returns x ++ y where x has width wx and y width wy.
func concat(x Value, wx int, y Value, wy int) Value {
	if wx+wy <= 64 {
		return Value{U: x.U<<uint(wy) | y.U}
	}
	r := new(big.Int).Lsh(toUnsignedBig(x, wx), uint(wy))
	r.Or(r, toUnsignedBig(y, wy))
	return fromBig(r, &ir.Bits{Width: wx + wy})
}

// cast converts x from type from to type to (P4-16 §8.11): truncation,
// zero extension of bit<W>, sign extension of int<W>, reinterpretation
// between bit<W> and int<W>, bool and bit<1>.
func cast(x Value, from, to ir.Type) Value {
	tb, ok := to.(*ir.Bits)
	if !ok {
		if _, isBool := to.(ir.Bool); isBool {
			if x.Big != nil {
				return boolValue(x.Big.Sign() != 0)
			}
			return boolValue(x.U != 0)
		}
		return x // enums to their underlying type and back share the representation
	}
	switch f := from.(type) {
	case *ir.Bits:
		if f.Signed {
			return fromBig(toBig(x, f), tb) // sign-extends
		}
		if tb.Width > 64 || x.Big != nil {
			return fromBig(toUnsignedBig(x, f.Width), tb)
		}
		return Value{U: x.U & mask(tb.Width)}
	case ir.Int:
		return fromBig(big.NewInt(int64(x.U)), tb)
	}
	if tb.Width > 64 {
		return fromBig(new(big.Int).SetUint64(x.U), tb)
	}
	return Value{U: x.U & mask(tb.Width)}
}

func boolValue(b bool) Value {
	if b {
		return Value{U: 1}
	}
	return Value{}
}

// constValue converts an IR constant to a run-time value.
func constValue(c *ir.Const) Value {
	switch t := c.T.(type) {
	case *ir.Bits:
		return fromBig(c.Value, t)
	case ir.Int:
		return Value{U: uint64(c.Value.Int64())}
	}
	return Value{U: c.Value.Uint64()}
}
