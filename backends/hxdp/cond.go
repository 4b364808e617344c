package hxdp

import (
	"math"

	"github.com/p4hls/p4hls/hxdp"
)

// outcome is what the analysis knows of a conditional jump.
type outcome int

const (
	unknown outcome = iota
	always
	never
)

// ival is an interval of int64 (math.MinInt64 and MaxInt64 standing for
// no bound).
type ival struct{ lo, hi int64 }

// decide says whether the conditional jump t is always or never taken in
// state s.
func (f *facts) decide(s *state, t *insn) outcome {
	a, b := operands(s, t)
	op := t.Op & 0xf0
	if t.Class() == hxdp.ClassJMP32 {
		if a.k != kScalar || b.k != kScalar {
			return unknown
		}
		a, b = trunc32(a), trunc32(b)
		switch op {
		case hxdp.JmpJSGT, hxdp.JmpJSGE, hxdp.JmpJSLT, hxdp.JmpJSLE:
			return unknown // signed 32-bit comparisons: not worth the care
		}
	}
	if a.k == kScalar && b.k == kScalar {
		return compareScalars(op, a, b)
	}
	if (a.k == kMapVal && b.isConst(0)) || (b.k == kMapVal && a.isConst(0)) {
		// A map value's address is never NULL.
		return compareDiff(op, ival{1, math.MaxInt64}, true)
	}
	d, ok := f.pointerDiff(s, a, b)
	if !ok {
		return unknown
	}
	return compareDiff(op, d, false)
}

// pointerDiff bounds a - b for two pointers the core lays out in one
// frame: the packet, its end and its metadata (exactly hxdp.MetaBytes
// before the packet).
func (f *facts) pointerDiff(s *state, a, b val) (ival, bool) {
	base := func(v val) (int64, int) { // offset from data, and how data_end counts (0 none, 1 plus len)
		switch v.k {
		case kPkt:
			return 0, 0
		case kMeta:
			return -hxdp.MetaBytes, 0
		case kPktEnd:
			return 0, 1
		}
		return 0, -1
	}
	ba, ea := base(a)
	bb, eb := base(b)
	if ea < 0 || eb < 0 {
		if a.k == b.k && (a.k == kStack || a.k == kMapVal) && a.id == b.id {
			return ival{a.lo - b.hi, a.hi - b.lo}, true
		}
		return ival{}, false
	}
	lo, hi := ba+a.lo-bb-b.hi, ba+a.hi-bb-b.lo
	switch ea - eb {
	case 1: // a counts len more than b: len >= minLen, no upper bound
		return ival{lo + s.minLen, math.MaxInt64}, true
	case -1:
		return ival{math.MinInt64, hi - s.minLen}, true
	}
	return ival{lo, hi}, true
}

// compareDiff decides a comparison a OP b from d = a - b (pointers of
// one region compare as their difference; signedOK says d holds for the
// signed comparisons too).
func compareDiff(op uint8, d ival, signedOK bool) outcome {
	if !signedOK {
		switch op {
		case hxdp.JmpJSGT, hxdp.JmpJSGE, hxdp.JmpJSLT, hxdp.JmpJSLE, hxdp.JmpJSET:
			return unknown
		}
	}
	test := func(yes, no bool) outcome {
		switch {
		case yes:
			return always
		case no:
			return never
		}
		return unknown
	}
	switch op {
	case hxdp.JmpJEQ:
		return test(d.lo == 0 && d.hi == 0, d.lo > 0 || d.hi < 0)
	case hxdp.JmpJNE:
		return test(d.lo > 0 || d.hi < 0, d.lo == 0 && d.hi == 0)
	case hxdp.JmpJGT, hxdp.JmpJSGT:
		return test(d.lo > 0, d.hi <= 0)
	case hxdp.JmpJGE, hxdp.JmpJSGE:
		return test(d.lo >= 0, d.hi < 0)
	case hxdp.JmpJLT, hxdp.JmpJSLT:
		return test(d.hi < 0, d.lo >= 0)
	case hxdp.JmpJLE, hxdp.JmpJSLE:
		return test(d.hi <= 0, d.lo > 0)
	}
	return unknown
}

// compareScalars decides a comparison of two numbers from their
// intervals: unsigned comparisons only when both are non-negative.
func compareScalars(op uint8, a, b val) outcome {
	if a.exact() && b.exact() {
		if holdsConst(op, uint64(a.lo), uint64(b.lo)) {
			return always
		}
		return never
	}
	signed := op == hxdp.JmpJSGT || op == hxdp.JmpJSGE || op == hxdp.JmpJSLT || op == hxdp.JmpJSLE
	if op == hxdp.JmpJSET || (!signed && (!a.unsigned() || !b.unsigned())) {
		return unknown
	}
	lo, ok1 := addOK(a.lo, -b.hi)
	hi, ok2 := addOK(a.hi, -b.lo)
	if !ok1 || !ok2 || b.hi == math.MinInt64 || b.lo == math.MinInt64 {
		return unknown
	}
	return compareDiff(op, ival{lo, hi}, true)
}

// holdsConst is a jump's condition on two 64-bit numbers.
func holdsConst(op uint8, a, b uint64) bool {
	switch op {
	case hxdp.JmpJEQ:
		return a == b
	case hxdp.JmpJNE:
		return a != b
	case hxdp.JmpJGT:
		return a > b
	case hxdp.JmpJGE:
		return a >= b
	case hxdp.JmpJLT:
		return a < b
	case hxdp.JmpJLE:
		return a <= b
	case hxdp.JmpJSET:
		return a&b != 0
	case hxdp.JmpJSGT:
		return int64(a) > int64(b)
	case hxdp.JmpJSGE:
		return int64(a) >= int64(b)
	case hxdp.JmpJSLT:
		return int64(a) < int64(b)
	}
	return int64(a) <= int64(b) // JSLE
}

// refine narrows the state on one edge of a conditional jump: what the
// jump's outcome says of its operands.
func refine(s *state, t *insn, taken bool) {
	a, b := operands(s, t)
	op := t.Op & 0xf0
	if t.Class() != hxdp.ClassJMP {
		return
	}
	// Say "a OP b holds" with the outcome folded in.
	holds := op
	if !taken {
		holds = negate(op)
	}
	switch {
	case a.k == kMapValOrNull && b.isConst(0):
		switch holds {
		case hxdp.JmpJEQ:
			s.regs[t.Dst] = konst(0)
		case hxdp.JmpJNE:
			s.regs[t.Dst] = val{k: kMapVal, lo: a.lo, hi: a.hi, id: a.id}
		}
	case a.k == kPkt && b.k == kPktEnd:
		// data + a <= data_end + b: len >= a - b.
		switch holds {
		case hxdp.JmpJLE, hxdp.JmpJEQ:
			s.minLen = max(s.minLen, a.lo-b.hi)
		case hxdp.JmpJLT:
			s.minLen = max(s.minLen, a.lo-b.hi+1)
		}
	case a.k == kPktEnd && b.k == kPkt:
		switch holds {
		case hxdp.JmpJGE, hxdp.JmpJEQ:
			s.minLen = max(s.minLen, b.lo-a.hi)
		case hxdp.JmpJGT:
			s.minLen = max(s.minLen, b.lo-a.hi+1)
		}
	case a.unsigned() && b.k == kScalar && b.exact() && b.lo >= 0 && t.Dst != 10:
		if n, ok := narrow(a, holds, b.lo); ok {
			s.regs[t.Dst] = n
		}
	}
}

// negate is the jump operation that holds when op does not.
func negate(op uint8) uint8 {
	switch op {
	case hxdp.JmpJEQ:
		return hxdp.JmpJNE
	case hxdp.JmpJNE:
		return hxdp.JmpJEQ
	case hxdp.JmpJGT:
		return hxdp.JmpJLE
	case hxdp.JmpJLE:
		return hxdp.JmpJGT
	case hxdp.JmpJGE:
		return hxdp.JmpJLT
	case hxdp.JmpJLT:
		return hxdp.JmpJGE
	case hxdp.JmpJSGT:
		return hxdp.JmpJSLE
	case hxdp.JmpJSLE:
		return hxdp.JmpJSGT
	case hxdp.JmpJSGE:
		return hxdp.JmpJSLT
	case hxdp.JmpJSLT:
		return hxdp.JmpJSGE
	}
	return 0xff // JSET: nothing to say
}

// narrow is a non-negative interval a once a OP c is known to hold.
func narrow(a val, op uint8, c int64) (val, bool) {
	lo, hi := a.lo, a.hi
	switch op {
	case hxdp.JmpJEQ:
		lo, hi = c, c
	case hxdp.JmpJGT:
		lo = max(lo, c+1)
	case hxdp.JmpJGE:
		lo = max(lo, c)
	case hxdp.JmpJLT:
		hi = min(hi, c-1)
	case hxdp.JmpJLE:
		hi = min(hi, c)
	default:
		return a, false
	}
	if lo > hi {
		return a, false
	}
	return scalar(lo, hi), true
}
