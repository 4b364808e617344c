package frontend

import (
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// A constant value is one of: *big.Int (for int, bit<W>, int<W>, and
// serializable enum members after a cast), bool, string, enumMember,
// errorMember, aggregate (a tuple, list or struct). Values of bit<W> are
// kept in [0, 2^W); of int<W> in [-2^(W-1), 2^(W-1)).

type enumMember struct {
	Enum *EnumType
	Name string
}

type errorMember string

// aggregate is the value of a constant list, tuple or struct: its elements
// in order (a struct's in the order of its fields).
type aggregate []any

// sameValue reports whether two constants are equal.
func sameValue(x, y any) bool {
	switch x := x.(type) {
	case *big.Int:
		y, ok := y.(*big.Int)
		return ok && x.Cmp(y) == 0
	case aggregate:
		y, ok := y.(aggregate)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	}
	return x == y
}

var bigOne = big.NewInt(1)

// wrap reduces v to the range of t (P4-16 §8.6: arithmetic on bit<W> is
// modulo 2^W; int<W> is two's complement). Other types leave v alone.
func wrap(v *big.Int, t Type) *big.Int {
	b, ok := t.(*BitsType)
	if !ok {
		return v
	}
	mod := new(big.Int).Lsh(bigOne, uint(b.Width))
	r := new(big.Int).Mod(v, mod) // Mod is Euclidean: r >= 0
	if b.Signed {
		half := new(big.Int).Rsh(mod, 1)
		if r.Cmp(half) >= 0 {
			r.Sub(r, mod)
		}
	}
	return r
}

// fits reports whether v is representable in t without wrapping.
func fits(v *big.Int, t *BitsType) bool {
	return wrap(v, t).Cmp(v) == 0
}

// foldUnary folds op x for a constant x of type t.
func foldUnary(op ir.Op, x any, t Type) (any, bool) {
	switch op {
	case ir.LNot:
		if b, ok := x.(bool); ok {
			return !b, true
		}
	case ir.Neg:
		if v, ok := x.(*big.Int); ok {
			return wrap(new(big.Int).Neg(v), t), true
		}
	case ir.Plus:
		if v, ok := x.(*big.Int); ok {
			return v, true
		}
	case ir.BitNot:
		v, ok := x.(*big.Int)
		b, sized := t.(*BitsType)
		if ok && sized {
			return wrap(new(big.Int).Not(v), b), true
		}
	}
	return nil, false
}

// foldBinary folds x op y for constants of operand type t (the type both
// operands have after implicit casts). It returns false when the operation
// is not constant-foldable (or undefined, as division by zero, which the
// checker reports).
func foldBinary(op ir.Op, x, y any, t Type) (any, bool) {
	if bx, ok := x.(bool); ok {
		by, ok := y.(bool)
		if !ok {
			return nil, false
		}
		switch op {
		case ir.LAnd:
			return bx && by, true
		case ir.LOr:
			return bx || by, true
		case ir.Eq:
			return bx == by, true
		case ir.Ne:
			return bx != by, true
		}
		return nil, false
	}
	vx, ok1 := x.(*big.Int)
	vy, ok2 := y.(*big.Int)
	if !ok1 || !ok2 {
		if op == ir.Eq || op == ir.Ne {
			if x == nil || y == nil {
				return nil, false
			}
			return sameValue(x, y) == (op == ir.Eq), true
		}
		return nil, false
	}
	r := new(big.Int)
	switch op {
	case ir.Add:
		r.Add(vx, vy)
	case ir.Sub:
		r.Sub(vx, vy)
	case ir.Mul:
		r.Mul(vx, vy)
	case ir.Div, ir.Mod:
		if vy.Sign() == 0 || vx.Sign() < 0 || vy.Sign() < 0 {
			return nil, false
		}
		if op == ir.Div {
			r.Quo(vx, vy)
		} else {
			r.Rem(vx, vy)
		}
	case ir.BitAnd:
		r.And(vx, vy)
	case ir.BitOr:
		r.Or(vx, vy)
	case ir.BitXor:
		r.Xor(vx, vy)
	case ir.Shl, ir.Shr:
		if vy.Sign() < 0 || !vy.IsInt64() || vy.Int64() > 4096 {
			if op == ir.Shr || vy.Sign() < 0 {
				return nil, false
			}
			// Shifting a sized value by more than its width gives 0.
			if _, sized := t.(*BitsType); sized {
				return big.NewInt(0), true
			}
			return nil, false
		}
		n := uint(vy.Int64())
		if op == ir.Shl {
			r.Lsh(vx, n)
		} else {
			r.Rsh(vx, n) // arithmetic for negative signed values, as P4 says
		}
	case ir.SatAdd, ir.SatSub:
		if op == ir.SatAdd {
			r.Add(vx, vy)
		} else {
			r.Sub(vx, vy)
		}
		return saturate(r, t), true
	case ir.Eq, ir.Ne, ir.Lt, ir.Gt, ir.Le, ir.Ge:
		c := vx.Cmp(vy)
		switch op {
		case ir.Eq:
			return c == 0, true
		case ir.Ne:
			return c != 0, true
		case ir.Lt:
			return c < 0, true
		case ir.Gt:
			return c > 0, true
		case ir.Le:
			return c <= 0, true
		default:
			return c >= 0, true
		}
	default:
		return nil, false
	}
	return wrap(r, t), true
}

// saturate clamps v to the range of t (P4-16 §8.6: |+| and |-|).
func saturate(v *big.Int, t Type) *big.Int {
	b, ok := t.(*BitsType)
	if !ok {
		return v
	}
	lo, hi := bitsRange(b)
	if v.Cmp(lo) < 0 {
		return lo
	}
	if v.Cmp(hi) > 0 {
		return hi
	}
	return v
}

// bitsRange returns the smallest and largest values of t.
func bitsRange(t *BitsType) (*big.Int, *big.Int) {
	if t.Signed {
		hi := new(big.Int).Lsh(bigOne, uint(t.Width-1))
		lo := new(big.Int).Neg(hi)
		return lo, hi.Sub(hi, bigOne)
	}
	hi := new(big.Int).Lsh(bigOne, uint(t.Width))
	return big.NewInt(0), hi.Sub(hi, bigOne)
}

// sliceValue returns bits hi..lo of v (v in two's complement for negatives).
func sliceValue(v *big.Int, hi, lo int) *big.Int {
	r := new(big.Int).Rsh(v, uint(lo))
	return wrap(r, &BitsType{Width: hi - lo + 1})
}

// concatValue returns x ++ y where y has width wy.
func concatValue(x, y *big.Int, wx, wy int, signed bool) *big.Int {
	ux := wrap(x, &BitsType{Width: wx})
	uy := wrap(y, &BitsType{Width: wy})
	r := new(big.Int).Lsh(ux, uint(wy))
	r.Or(r, uy)
	return wrap(r, &BitsType{Width: wx + wy, Signed: signed})
}
