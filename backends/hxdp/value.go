package hxdp

import (
	"math"
	"math/bits"
)

// kind is what an abstract value is: a number, or a pointer into one of
// the regions the core has.
type kind uint8

const (
	kTop          kind = iota // anything
	kScalar                   // a number in [lo, hi]
	kCtx                      // the context (struct xdp_md)
	kPkt                      // data + [lo, hi]
	kPktEnd                   // data_end + [lo, hi]
	kMeta                     // data_meta + [lo, hi]
	kStack                    // r10 + [lo, hi]
	kMapVal                   // a value of map id, + [lo, hi]
	kMapValOrNull             // the same, or NULL (a lookup not yet checked)
	kMap                      // map id itself (a helper's argument)
)

// val is an abstract value: a kind, an interval (the number, or the
// pointer's offset) and, for map kinds, the map.
type val struct {
	k      kind
	lo, hi int64
	id     int
}

var top = val{k: kTop}

// full is a number the analysis knows nothing of.
var full = val{k: kScalar, lo: math.MinInt64, hi: math.MaxInt64}

func scalar(lo, hi int64) val { return val{k: kScalar, lo: lo, hi: hi} }

func konst(v int64) val { return scalar(v, v) }

// exact says the value is one number (or one offset).
func (v val) exact() bool { return v.k != kTop && v.lo == v.hi }

// isConst says v is the number c.
func (v val) isConst(c int64) bool { return v.k == kScalar && v.lo == c && v.hi == c }

// unsigned says a scalar's interval is the same read as unsigned.
func (v val) unsigned() bool { return v.k == kScalar && v.lo >= 0 }

func (v val) pointer() bool { return v.k >= kCtx }

// join is the least value both a and b are.
func join(a, b val) val {
	if a == b {
		return a
	}
	switch {
	case a.k == kMapValOrNull && b.k == kMapVal && a.id == b.id, a.k == kMapVal && b.k == kMapValOrNull && a.id == b.id:
		return val{k: kMapValOrNull, lo: min(a.lo, b.lo), hi: max(a.hi, b.hi), id: a.id}
	case a.k == kMapValOrNull && b.isConst(0):
		return a
	case b.k == kMapValOrNull && a.isConst(0):
		return b
	case a.k != b.k || a.k == kTop || a.id != b.id:
		return top
	}
	return val{k: a.k, lo: min(a.lo, b.lo), hi: max(a.hi, b.hi), id: a.id}
}

// widen is join, with any bound that moved pushed to the end of its
// range, so that loops reach a fixpoint.
func widen(old, nw val) val {
	j := join(old, nw)
	if j.k == kTop || j == old {
		return j
	}
	if j.lo < old.lo {
		j.lo = math.MinInt64
	}
	if j.hi > old.hi {
		j.hi = math.MaxInt64
	}
	if j.pointer() && (j.lo == math.MinInt64 || j.hi == math.MaxInt64) {
		return top
	}
	return j
}

// sizeRange is what a load of n bytes may give.
func sizeRange(n int) val {
	if n >= 8 {
		return full
	}
	return scalar(0, int64(1)<<(8*n)-1)
}

func addOK(a, b int64) (int64, bool) {
	s := a + b
	if (b > 0 && s < a) || (b < 0 && s > a) {
		return 0, false
	}
	return s, true
}

// add is a + b over intervals (either may be a pointer, not both).
func add(a, b val) val {
	if b.pointer() && a.k == kScalar {
		a, b = b, a
	}
	if b.k != kScalar || (a.k != kScalar && !a.pointer()) || a.k == kMap || a.k == kCtx {
		return top
	}
	lo, ok1 := addOK(a.lo, b.lo)
	hi, ok2 := addOK(a.hi, b.hi)
	if !ok1 || !ok2 {
		if a.pointer() {
			return top
		}
		return full
	}
	if a.k == kMapValOrNull {
		return top // arithmetic on a maybe-NULL pointer: the verifier refuses it
	}
	return val{k: a.k, lo: lo, hi: hi, id: a.id}
}

func neg(v val) val {
	if v.k != kScalar || v.lo == math.MinInt64 {
		return full
	}
	return scalar(-v.hi, -v.lo)
}

// sub is a - b: a pointer less a number, a number less a number; a
// pointer less a pointer is a number the analysis does not bound.
func sub(a, b val) val {
	switch {
	case b.k == kScalar:
		return add(a, neg(b))
	case a.pointer() && b.pointer():
		return full
	}
	return top
}

// bitsUpTo is the interval [0, 2^k - 1] covering every value up to hi.
func bitsUpTo(hi uint64) val {
	n := bits.Len64(hi)
	if n >= 63 {
		return full
	}
	return scalar(0, int64(1)<<n-1)
}

// aluVal computes an ALU instruction's result over abstract values (op
// carries the operation and the class: 32 or 64 bits).
func aluVal(op uint8, a, b val) val {
	is32 := op&7 == 4
	if is32 {
		if a.pointer() || b.pointer() || a.k == kTop || b.k == kTop {
			return scalar(0, math.MaxUint32)
		}
		a, b = trunc32(a), trunc32(b)
		r := alu64Val(op&0xf0, a, b)
		if r.k == kScalar && r.lo >= 0 && r.hi <= math.MaxUint32 {
			return r
		}
		if r.exact() && r.k == kScalar {
			return konst(int64(uint32(r.lo)))
		}
		return scalar(0, math.MaxUint32)
	}
	return alu64Val(op&0xf0, a, b)
}

func trunc32(v val) val {
	if v.k == kScalar && v.lo >= 0 && v.hi <= math.MaxUint32 {
		return v
	}
	if v.exact() && v.k == kScalar {
		return konst(int64(uint32(v.lo)))
	}
	return scalar(0, math.MaxUint32)
}

func alu64Val(op uint8, a, b val) val {
	switch op {
	case 0xb0: // mov
		return b
	case 0x00:
		return add(a, b)
	case 0x10:
		return sub(a, b)
	}
	if a.k != kScalar || b.k != kScalar {
		return top
	}
	if a.exact() && b.exact() {
		if v, ok := constFold(op, uint64(a.lo), uint64(b.lo)); ok {
			return konst(int64(v))
		}
		return full
	}
	switch op {
	case 0x50: // and
		switch {
		case b.unsigned() && a.unsigned():
			return scalar(0, min(a.hi, b.hi))
		case b.unsigned():
			return scalar(0, b.hi)
		case a.unsigned():
			return scalar(0, a.hi)
		}
	case 0x40, 0xa0: // or, xor
		if a.unsigned() && b.unsigned() {
			return bitsUpTo(uint64(max(a.hi, b.hi)))
		}
	case 0x60: // lsh
		if b.exact() && a.unsigned() && b.lo >= 0 && b.lo < 63 && a.hi <= math.MaxInt64>>b.lo {
			return scalar(a.lo<<b.lo, a.hi<<b.lo)
		}
	case 0x70: // rsh
		if b.exact() && b.lo > 0 && b.lo < 64 {
			if a.unsigned() {
				return scalar(a.lo>>b.lo, a.hi>>b.lo)
			}
			return scalar(0, int64(uint64(math.MaxUint64)>>uint64(b.lo)))
		}
	case 0x90: // mod
		if b.exact() && b.lo > 0 && a.unsigned() {
			return scalar(0, min(a.hi, b.lo-1))
		}
	case 0x30: // div
		if b.exact() && b.lo > 0 && a.unsigned() {
			return scalar(a.lo/b.lo, a.hi/b.lo)
		}
	case 0x20: // mul
		if a.unsigned() && b.unsigned() && a.hi < 1<<31 && b.hi < 1<<31 {
			return scalar(a.lo*b.lo, a.hi*b.hi)
		}
	}
	return full
}

// constFold computes a 64-bit ALU operation on constants (the core's
// semantics).
func constFold(op uint8, a, b uint64) (uint64, bool) {
	switch op {
	case 0x20:
		return a * b, true
	case 0x30:
		if b == 0 {
			return 0, true
		}
		return a / b, true
	case 0x40:
		return a | b, true
	case 0x50:
		return a & b, true
	case 0x60:
		return a << (b & 63), true
	case 0x70:
		return a >> (b & 63), true
	case 0x80:
		return -a, true
	case 0x90:
		if b == 0 {
			return a, true
		}
		return a % b, true
	case 0xa0:
		return a ^ b, true
	case 0xc0:
		return uint64(int64(a) >> (b & 63)), true
	}
	return 0, false
}

// swapVal is a byte swap's result (END): a constant swapped, else the
// range of its width.
func swapVal(v val, be bool, width int32) val {
	if v.k == kScalar && v.exact() {
		x := uint64(v.lo)
		switch width {
		case 16:
			x = uint64(uint16(x))
			if be {
				x = uint64(bits.ReverseBytes16(uint16(x)))
			}
		case 32:
			x = uint64(uint32(x))
			if be {
				x = uint64(bits.ReverseBytes32(uint32(x)))
			}
		default:
			if be {
				x = bits.ReverseBytes64(x)
			}
		}
		return konst(int64(x))
	}
	switch width {
	case 16:
		if !be && v.unsigned() && v.hi <= math.MaxUint16 {
			return v
		}
		return scalar(0, math.MaxUint16)
	case 32:
		if !be && v.unsigned() && v.hi <= math.MaxUint32 {
			return v
		}
		return scalar(0, math.MaxUint32)
	}
	if !be && v.k == kScalar {
		return v
	}
	return full
}
