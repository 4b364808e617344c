package hxdp

import (
	"math"
	"sort"

	"github.com/p4hls/p4hls/hxdp"
)

// The analysis is an abstract interpretation of the program as the core
// runs it: registers and stack reset to zero, r1 the context, every
// packet at least hxdp.MinFrame bytes with hxdp.MetaBytes of metadata in
// front. Like the kernel's verifier it follows pointers (into the
// packet, the stack, map values) with their offsets, numbers with
// intervals, and the packet's least length; unlike it, it also knows
// which stack bytes may not be zero. The passes that drop instructions
// ask it what cannot happen.

// slot is a value spilled to the stack: size bytes at an offset from r10.
type slot struct {
	size int
	v    val
}

// state is what is known at a point of the program.
type state struct {
	regs  [hxdp.Registers]val
	slots map[int64]slot
	// nonzero has a bit per stack byte (r10-512 is bit 0) that may not be
	// zero.
	nonzero [hxdp.StackBytes / 64]uint64
	// minLen bounds the packet's length from below: data_end - data.
	minLen int64
}

func entryState() *state {
	s := &state{slots: map[int64]slot{}, minLen: hxdp.MinFrame}
	for r := range s.regs {
		s.regs[r] = konst(0) // the core resets the registers
	}
	s.regs[1] = val{k: kCtx}
	s.regs[10] = val{k: kStack}
	return s
}

func (s *state) clone() *state {
	c := *s
	c.slots = make(map[int64]slot, len(s.slots))
	for k, v := range s.slots {
		c.slots[k] = v
	}
	return &c
}

// joinState merges b into a (a changes); widening after many visits.
// It reports whether a changed.
func joinState(a, b *state, wide bool) bool {
	changed := false
	for r := range a.regs {
		j := join(a.regs[r], b.regs[r])
		if wide {
			j = widen(a.regs[r], b.regs[r])
		}
		if j != a.regs[r] {
			a.regs[r], changed = j, true
		}
	}
	for off, sa := range a.slots {
		sb, ok := b.slots[off]
		if !ok || sb.size != sa.size {
			delete(a.slots, off)
			changed = true
			continue
		}
		j := join(sa.v, sb.v)
		if wide {
			j = widen(sa.v, sb.v)
		}
		if j != sa.v {
			a.slots[off], changed = slot{sa.size, j}, true
		}
	}
	for i := range a.nonzero {
		if n := a.nonzero[i] | b.nonzero[i]; n != a.nonzero[i] {
			a.nonzero[i], changed = n, true
		}
	}
	if b.minLen < a.minLen {
		a.minLen, changed = b.minLen, true
		if wide {
			a.minLen = 0
		}
	}
	return changed
}

// stack byte helpers: off is relative to r10 (negative).
func stackBit(off int64) (int, bool) {
	i := off + hxdp.StackBytes
	return int(i), i >= 0 && i < hxdp.StackBytes
}

func (s *state) setNonzero(lo, hi int64, on bool) {
	for off := lo; off < hi; off++ {
		i, ok := stackBit(off)
		if !ok {
			continue
		}
		if on {
			s.nonzero[i/64] |= 1 << (i % 64)
		} else {
			s.nonzero[i/64] &^= 1 << (i % 64)
		}
	}
}

// zeroBytes says every byte of [lo, hi) is surely zero.
func (s *state) zeroBytes(lo, hi int64) bool {
	for off := lo; off < hi; off++ {
		i, ok := stackBit(off)
		if !ok || s.nonzero[i/64]&(1<<(i%64)) != 0 {
			return false
		}
	}
	return true
}

// forget drops the slots overlapping [lo, hi).
func (s *state) forget(lo, hi int64) {
	for off, sl := range s.slots {
		if off < hi && off+int64(sl.size) > lo {
			delete(s.slots, off)
		}
	}
}

// access is a memory access as the analysis sees it.
type access struct {
	k      kind  // the region (kTop: unknown)
	lo, hi int64 // first byte's offset, bounds
	size   int
	id     int // map
}

// overlaps says two accesses may touch a common byte.
func (a access) overlaps(b access) bool {
	if a.k == kTop || b.k == kTop {
		return true
	}
	region := func(k kind) kind {
		if k == kMapValOrNull {
			return kMapVal
		}
		if k == kMeta {
			return kPkt // the metadata is part of the frame
		}
		return k
	}
	if region(a.k) != region(b.k) {
		return false
	}
	if (a.k == kMapVal || a.k == kMapValOrNull) && a.id != b.id {
		return false // two maps' values are apart
	}
	if a.k == kMapVal || a.k == kMapValOrNull || a.k == kMeta || b.k == kMeta {
		return true // two lookups may give one value; meta and data offsets differ in base
	}
	return a.lo < b.hi+int64(b.size) && b.lo < a.hi+int64(a.size)
}

func accessOf(base val, off int16, size int) access {
	if !base.pointer() {
		return access{k: kTop, size: size}
	}
	lo, ok1 := addOK(base.lo, int64(off))
	hi, ok2 := addOK(base.hi, int64(off))
	if !ok1 || !ok2 {
		return access{k: kTop, size: size}
	}
	return access{k: base.k, lo: lo, hi: hi, size: size, id: base.id}
}

// facts is what the analysis learned, per instruction: the state before
// it, and for loads and stores the memory they touch.
type facts struct {
	before map[*insn]*state
	mem    map[*insn]access
	in     map[*block]*state // the state on entry of each reachable block
	maps   []hxdp.Map
}

// analyze runs the abstract interpretation to its fixpoint.
func analyze(p *program) *facts {
	f := &facts{before: map[*insn]*state{}, mem: map[*insn]access{}, in: map[*block]*state{}, maps: p.maps}
	order := p.rpo()
	rank := map[*block]int{}
	for i, b := range order {
		rank[b] = i
	}
	visits := map[*block]int{}
	f.in[p.blocks[0]] = entryState()
	work := map[*block]bool{p.blocks[0]: true}
	for len(work) > 0 {
		var next []*block
		for b := range work {
			next = append(next, b)
		}
		sort.Slice(next, func(i, j int) bool { return rank[next[i]] < rank[next[j]] })
		b := next[0]
		delete(work, b)
		visits[b]++
		for _, e := range f.flow(b) {
			old, seen := f.in[e.to]
			if !seen {
				f.in[e.to], work[e.to] = e.s, true
				continue
			}
			if joinState(old, e.s, visits[e.to] > 8) {
				work[e.to] = true
			}
		}
	}
	return f
}

// edge is a state flowing to a successor.
type edge struct {
	to *block
	s  *state
}

// flow runs a block from its entry state, recording the facts of its
// instructions, and returns the states on its out edges.
func (f *facts) flow(b *block) []edge {
	s := f.in[b].clone()
	for _, in := range b.body() {
		f.before[in] = s.clone()
		f.step(s, in)
	}
	t := b.term()
	if t == nil {
		if b.next == nil {
			return nil
		}
		return []edge{{b.next, s}}
	}
	f.before[t] = s.clone()
	switch {
	case t.IsExit():
		return nil
	case t.ja():
		return []edge{{t.target, s}}
	}
	taken, fall := s.clone(), s
	outcome := f.decide(s, t)
	var out []edge
	if outcome != never {
		refine(taken, t, true)
		out = append(out, edge{t.target, taken})
	}
	if outcome != always && b.next != nil {
		refine(fall, t, false)
		out = append(out, edge{b.next, fall})
	}
	return out
}

// operands are a jump's or ALU instruction's two values.
func operands(s *state, in *insn) (val, val) {
	b := konst(int64(in.Imm))
	if in.Op&hxdp.SrcX != 0 {
		b = s.regs[in.Src]
	}
	return s.regs[in.Dst], b
}

// step applies one instruction that is not a jump or exit.
func (f *facts) step(s *state, in *insn) {
	r := &s.regs
	switch cls := in.Class(); {
	case in.Op == hxdp.OpLdImm64:
		switch in.Src {
		case hxdp.PseudoMapFD:
			r[in.Dst] = val{k: kMap, id: int(in.Imm)}
		case hxdp.PseudoMapValue:
			r[in.Dst] = val{k: kMapVal, id: int(in.Imm), lo: int64(in.imm64), hi: int64(in.imm64)}
		default:
			r[in.Dst] = konst(int64(in.imm64))
		}
	case in.IsCall():
		f.call(s, in)
	case cls == hxdp.ClassALU || cls == hxdp.ClassALU64:
		r[in.Dst] = aluStep(s, in)
	case cls == hxdp.ClassLDX || in.Op == hxdp.OpLoad48:
		a := accessOf(r[in.Src], in.Off, in.Size())
		f.mem[in] = a
		r[in.Dst] = f.loadVal(s, a)
	case cls == hxdp.ClassST || cls == hxdp.ClassSTX || in.Op == hxdp.OpStore48:
		a := accessOf(r[in.Dst], in.Off, in.Size())
		f.mem[in] = a
		v := konst(int64(in.Imm))
		if cls == hxdp.ClassSTX || in.Op == hxdp.OpStore48 {
			v = r[in.Src]
		}
		storeVal(s, a, v)
	}
}

func aluStep(s *state, in *insn) val {
	a, b := operands(s, in)
	if base, ok := hxdp.ThreeOperandBase(in.Op); ok {
		return aluVal(base, s.regs[in.Src], konst(int64(in.Imm)))
	}
	switch in.Op & 0xf0 {
	case hxdp.AluNeg:
		if in.Class() == hxdp.ClassALU {
			return aluVal(in.Op, konst(0), a) // sub of 32 bits from 0 ... bounded to u32
		}
		return neg(a)
	case hxdp.AluEnd:
		return swapVal(a, in.Op&hxdp.SrcX != 0, in.Imm)
	case hxdp.AluArsh:
		if a.exact() && b.exact() && a.k == kScalar && b.k == kScalar {
			return aluVal(in.Op, a, b)
		}
		if in.Class() == hxdp.ClassALU {
			return scalar(0, math.MaxUint32)
		}
		return full
	}
	return aluVal(in.Op, a, b)
}

// loadVal is what a load gives: a context field, a spilled value, a zero
// the stack surely holds, or the range of its size.
func (f *facts) loadVal(s *state, a access) val {
	switch {
	case a.k == kCtx && a.lo == a.hi && a.size == 4:
		switch a.lo {
		case 0:
			return val{k: kPkt}
		case 4:
			return val{k: kPktEnd}
		case 8:
			return val{k: kMeta}
		}
		return sizeRange(4)
	case a.k == kStack && a.lo == a.hi:
		if sl, ok := s.slots[a.lo]; ok && sl.size == a.size {
			return sl.v
		}
		if s.zeroBytes(a.lo, a.lo+int64(a.size)) {
			return konst(0)
		}
	}
	return sizeRange(a.size)
}

// storeVal records a store's effect on the stack: a store that may hit
// the stack at an unknown place forgets what the stack holds.
func storeVal(s *state, a access, v val) {
	switch {
	case a.k == kStack && a.lo == a.hi:
		lo, hi := a.lo, a.lo+int64(a.size)
		s.forget(lo, hi)
		if v.k == kScalar && a.size < 8 && !(v.lo >= 0 && v.hi < int64(1)<<(8*a.size)) {
			v = sizeRange(a.size)
		}
		if v.k != kTop && (a.size == 8 || v.k == kScalar) {
			s.slots[lo] = slot{a.size, v}
		}
		s.setNonzero(lo, hi, !v.isConst(0))
	case a.k == kStack:
		s.forget(a.lo, a.hi+int64(a.size))
		s.setNonzero(a.lo, a.hi+int64(a.size), true)
	case a.k == kTop:
		s.slots = map[int64]slot{}
		s.setNonzero(-hxdp.StackBytes, 0, true)
	}
}

// call applies a helper call: its result in r0, r1 to r5 scratched.
func (f *facts) call(s *state, in *insn) {
	r := &s.regs
	res := full
	switch in.Imm {
	case hxdp.HelperMapLookup:
		res = f.lookupVal(s)
	case hxdp.HelperAdjustHead:
		delta := r[2]
		for i := range r {
			if k := r[i].k; k == kPkt || k == kPktEnd || k == kMeta {
				r[i] = top
			}
		}
		for off, sl := range s.slots {
			if k := sl.v.k; k == kPkt || k == kPktEnd || k == kMeta {
				delete(s.slots, off)
			}
		}
		// When the call succeeds the packet keeps at least an Ethernet
		// header (the helper refuses to leave less).
		least := int64(14)
		if delta.k == kScalar && delta.lo >= math.MinInt32 && delta.hi <= math.MaxInt32 {
			least = max(least, s.minLen-delta.hi)
		}
		s.minLen = least
	case hxdp.HelperSpinLock, hxdp.HelperSpinUnlock:
		res = konst(0)
	case hxdp.HelperRandom:
		res = scalar(0, math.MaxUint32)
	}
	r[0] = res
	for i := 1; i <= 5; i++ {
		r[i] = top
	}
}

// lookupVal is a map lookup's result: a value of the map, which may be
// NULL unless the map is an array and the key surely one of its indexes.
func (f *facts) lookupVal(s *state) val {
	m, key := s.regs[1], s.regs[2]
	if m.k != kMap {
		return top
	}
	v := val{k: kMapValOrNull, id: m.id}
	if mp := f.maps[m.id]; mp.Type == "array" && key.k == kStack && key.exact() {
		idx := val{}
		if sl, ok := s.slots[key.lo]; ok && sl.size == 4 {
			idx = sl.v
		} else if s.zeroBytes(key.lo, key.lo+4) {
			idx = konst(0)
		}
		if idx.unsigned() && idx.hi < int64(mp.MaxEntries) {
			v.k = kMapVal
		}
	}
	return v
}
