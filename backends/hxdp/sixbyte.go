package hxdp

import (
	"github.com/p4hls/p4hls/hxdp"
)

// sixByte uses the core's 6-byte loads and stores for the Ethernet
// addresses the program reads and writes as 4 and 2 bytes. clang reads a
// MAC address into a host-order number as two loads, two byte swaps and
// shifts and an or; with a 6-byte load it is the load, one swap and one
// shift:
//
//	r6 = *(u32 *)(r0 + 6); r6 = be64 r6; r6 >>= 16; r6 &= r2;
//	r2 = *(u16 *)(r0 + 10); r2 = be16 r2; r6 |= r2
//	==>  r6 = *(u48 *)(r0 + 6); r6 = be64 r6; r6 >>= 16
//
// and writes one back as two stores of swapped halves, which one swap, a
// shift and a 6-byte store replace. The pass follows, within a block,
// which bytes of memory or of a register each byte of each register
// holds; a rewrite is made only when the instructions it makes useless
// outnumber the ones it adds ("dead code" then removes them).
func sixByte(p *program) (int, error) {
	live := regLiveIn(p)
	n := 0
	for _, b := range p.blocks {
		var out uint16
		for _, s := range b.succs() {
			out |= live[s]
		}
		n += sixByteBlock(b, out)
	}
	return n, nil
}

// src is where one byte of a value comes from.
type src struct {
	k    uint8 // srcUnknown, srcZero, srcMem, srcReg
	reg  uint8 // srcMem: the base register; srcReg: the register
	ver  int   // that register's version
	byte int   // srcMem: the offset; srcReg: the byte of the register
}

const (
	srcUnknown = iota
	srcZero
	srcMem
	srcReg
)

// bytesOf is a value's 8 bytes, least significant first.
type bytesOf [8]src

// tracker follows a block's registers byte by byte.
type tracker struct {
	ver  [hxdp.Registers]int
	sym  [hxdp.Registers]bytesOf
	prov [hxdp.Registers][]int // the instructions the register's value comes from
	// konst holds a register's value when an immediate made it.
	konst [hxdp.Registers]*uint64
	next  int
}

func newTracker() *tracker {
	t := &tracker{}
	for r := range t.sym {
		t.fresh(uint8(r))
	}
	return t
}

// fresh gives r a new version whose bytes are its own.
func (t *tracker) fresh(r uint8) {
	t.next++
	t.ver[r] = t.next
	for i := range t.sym[r] {
		t.sym[r][i] = src{k: srcReg, reg: r, ver: t.next, byte: i}
	}
	t.prov[r] = nil
	t.konst[r] = nil
}

func konstBytes(v uint64) (b bytesOf, ok bool) {
	for i := range b {
		switch byte(v >> (8 * i)) {
		case 0:
			b[i] = src{k: srcZero}
		case 0xff:
			b[i] = src{k: srcUnknown} // a mask byte: kept by "and"
		default:
			return b, false
		}
	}
	return b, true
}

// step follows instruction i; it returns false when the result is not
// followed (then the register is fresh).
func (t *tracker) step(i int, in *insn) {
	_, def := regUse(in)
	var res bytesOf
	var prov []int
	ok := false
	switch {
	case in.Class() == hxdp.ClassLDX && in.Op&0xe0 == hxdp.ModeMEM:
		n := in.Size()
		for j := range res {
			res[j] = src{k: srcZero}
			if j < n {
				res[j] = src{k: srcMem, reg: in.Src, ver: t.ver[in.Src], byte: int(in.Off) + j}
			}
		}
		prov, ok = []int{i}, true
	case in.Op == hxdp.ClassALU64|hxdp.AluMov|hxdp.SrcX:
		res, prov, ok = t.sym[in.Src], append([]int{i}, t.prov[in.Src]...), true
	case in.Class() == hxdp.ClassALU || in.Class() == hxdp.ClassALU64:
		res, ok = t.alu(in)
		prov = append([]int{i}, t.prov[in.Dst]...)
		if in.Op&hxdp.SrcX != 0 && in.Op&0xf0 != hxdp.AluEnd && t.konst[in.Src] == nil {
			// A constant operand (a mask) may serve other chains: it
			// stays, and "dead code" takes it if none is left.
			prov = append(prov, t.prov[in.Src]...)
		}
	}
	for r := 0; r < hxdp.Registers; r++ {
		if def&(1<<r) == 0 {
			continue
		}
		t.fresh(uint8(r))
		if ok && uint8(r) == in.Dst {
			t.sym[r], t.prov[r] = res, prov
		}
	}
	if c, isConst := immediate(in); isConst {
		t.konst[in.Dst] = &c
	}
}

// immediate is the constant a move of an immediate or a 64-bit immediate
// load puts in its register.
func immediate(in *insn) (uint64, bool) {
	switch {
	case in.Op == hxdp.ClassALU64|hxdp.AluMov:
		return uint64(int64(in.Imm)), true
	case in.Op == hxdp.OpLdImm64 && in.Src == 0:
		return in.imm64, true
	}
	return 0, false
}

// alu follows the byte moves: swaps, shifts by whole bytes, masks of
// whole bytes, ors of values whose bytes do not overlap.
func (t *tracker) alu(in *insn) (bytesOf, bool) {
	a := t.sym[in.Dst]
	zero := src{k: srcZero}
	var out bytesOf
	op := in.Op & 0xf0
	if in.Class() != hxdp.ClassALU64 && op != hxdp.AluEnd {
		return out, false
	}
	switch {
	case op == hxdp.AluEnd:
		n := int(in.Imm) / 8
		for j := range out {
			out[j] = zero
			if j < n {
				out[j] = a[j]
				if in.Op&hxdp.SrcX != 0 {
					out[j] = a[n-1-j]
				}
			}
		}
		return out, n == 2 || n == 4 || n == 8
	case (op == hxdp.AluLsh || op == hxdp.AluRsh) && in.Op&hxdp.SrcX == 0 && in.Imm%8 == 0 && in.Imm >= 0 && in.Imm < 64:
		k := int(in.Imm) / 8
		for j := range out {
			from := j - k
			if op == hxdp.AluRsh {
				from = j + k
			}
			out[j] = zero
			if from >= 0 && from < 8 {
				out[j] = a[from]
			}
		}
		return out, true
	case op == hxdp.AluAnd:
		var m bytesOf
		var ok bool
		if in.Op&hxdp.SrcX == 0 {
			m, ok = konstBytes(uint64(int64(in.Imm)))
		} else if c, isConst := t.constant(in.Src); isConst {
			m, ok = konstBytes(c)
		}
		for j := range out {
			out[j] = a[j]
			if m[j].k == srcZero {
				out[j] = zero
			}
		}
		return out, ok
	case op == hxdp.AluOr && in.Op&hxdp.SrcX != 0:
		b := t.sym[in.Src]
		for j := range out {
			switch {
			case a[j].k == srcZero:
				out[j] = b[j]
			case b[j].k == srcZero:
				out[j] = a[j]
			default:
				return out, false
			}
		}
		return out, true
	}
	return out, false
}

// constant is a register's value when an immediate made it.
func (t *tracker) constant(r uint8) (uint64, bool) {
	if t.konst[r] == nil {
		return 0, false
	}
	return *t.konst[r], true
}

// isBE48 says b is the 6 bytes at one place of memory, big-endian (the
// first byte most significant), the top two bytes zero.
func isBE48(b bytesOf, ver [hxdp.Registers]int) (base uint8, off int, ok bool) {
	if b[6].k != srcZero || b[7].k != srcZero || b[5].k != srcMem {
		return 0, 0, false
	}
	base, off = b[5].reg, b[5].byte
	for j := 0; j < 6; j++ {
		s := b[5-j]
		if s.k != srcMem || s.reg != base || s.ver != b[5].ver || s.byte != off+j {
			return 0, 0, false
		}
	}
	return base, off, ver[base] == b[5].ver
}

// sixByteBlock rewrites one block's 6-byte loads and stores; out is the
// registers live at its end.
func sixByteBlock(b *block, out uint16) int {
	n := 0
	for ; n < len(b.ins); n++ {
		if !load48(b, out) && !store48(b, out) {
			break
		}
	}
	return n
}

// load48 makes the first 6-byte load it can.
func load48(b *block, out uint16) bool {
	i, base, off, prov := findLoad48(b)
	if i < 0 || !disposable(b, i, prov, out) {
		return false
	}
	in := b.ins[i]
	at, dst := in.at, in.Dst
	seq := []*insn{
		{Insn: hxdp.Insn{Op: hxdp.OpLoad48, Dst: dst, Src: base, Off: int16(off)}, at: at, orig: -1},
		{Insn: hxdp.Insn{Op: hxdp.ClassALU | hxdp.AluEnd | hxdp.SrcX, Dst: dst, Imm: 64}, at: at, orig: -1},
		{Insn: hxdp.Insn{Op: hxdp.ClassALU64 | hxdp.AluRsh, Dst: dst, Imm: 16}, at: at, orig: -1},
	}
	// The chain's other instructions go: disposable said nothing else
	// reads them.
	drop := map[int]bool{}
	for _, j := range prov {
		drop[j] = true
	}
	b.ins = splice(b.ins, i, seq, drop)
	return true
}

// splice replaces b's instruction i with seq and drops the ones in drop.
func splice(ins []*insn, i int, seq []*insn, drop map[int]bool) []*insn {
	var out []*insn
	for j, x := range ins {
		switch {
		case j == i:
			out = append(out, seq...)
		case !drop[j]:
			out = append(out, x)
		}
	}
	return out
}

// memByte is a byte a store of the block left: where it came from and
// which store wrote it.
type memByte struct {
	s     src
	store int
}

type memKey struct {
	base uint8
	ver  int
	off  int
}

// store48 makes the first 6-byte store it can: two stores that write
// a register's 6 low bytes big-endian become, at the first of them, a
// copy of the register swapped and shifted, stored in 6 bytes. The
// copy's register is the first store's source, whose value nothing else
// reads; "dead code" then takes the swaps and shifts that fed the
// stores.
func store48(b *block, out uint16) bool {
	t := newTracker()
	vers := make([][hxdp.Registers]int, len(b.ins)+1)
	mem := map[memKey]memByte{}
	for k, in := range b.ins {
		vers[k] = t.ver
		if isStore(in) && in.Op != hxdp.OpStore48 && in.Op&0xe0 == hxdp.ModeMEM {
			w := storeWindow(b, t, mem, k, in, vers, out)
			if w != nil {
				b.ins = splice(b.ins, w.first, w.seq, w.drop)
				return true
			}
		}
		if in.IsCall() {
			mem = map[memKey]memByte{}
		}
		t.step(k, in)
	}
	return false
}

// window is a rewrite store48 found.
type window struct {
	first int
	seq   []*insn
	drop  map[int]bool
}

// storeWindow records store k's bytes and looks for a 6-byte window they
// complete.
func storeWindow(b *block, t *tracker, mem map[memKey]memByte, k int, in *insn, vers [][hxdp.Registers]int, out uint16) *window {
	base, ver, off, n := in.Dst, t.ver[in.Dst], int(in.Off), in.Size()
	for key := range mem {
		if key.base != base || key.ver != ver {
			delete(mem, key) // another pointer may alias these bytes
		}
	}
	for j := 0; j < n; j++ {
		s := src{k: srcUnknown}
		if in.Class() == hxdp.ClassSTX {
			s = t.sym[in.Src][j]
		}
		mem[memKey{base, ver, off + j}] = memByte{s, k}
	}
	for o := off - 5; o < off+n; o++ {
		if w := tryWindow(b, mem, base, ver, o, vers, out); w != nil {
			return w
		}
	}
	return nil
}

// tryWindow checks the 6 bytes at o of base: a register's bytes
// big-endian, each store that wrote them wholly inside the window.
func tryWindow(b *block, mem map[memKey]memByte, base uint8, ver, o int, vers [][hxdp.Registers]int, out uint16) *window {
	var x src
	stores := map[int]bool{}
	for j := 0; j < 6; j++ {
		m, ok := mem[memKey{base, ver, o + j}]
		if !ok || m.s.k != srcReg || m.s.byte != 5-j || (j > 0 && (m.s.reg != x.reg || m.s.ver != x.ver)) {
			return nil
		}
		x = m.s
		stores[m.store] = true
	}
	first, last := len(b.ins), -1
	for k := range stores {
		st := b.ins[k]
		if int(st.Off) < o || int(st.Off)+st.Size() > o+6 {
			return nil
		}
		first, last = min(first, k), max(last, k)
	}
	if len(stores) < 2 || vers[first][x.reg] != x.ver || vers[first][base] != ver {
		return nil
	}
	// Nothing between may read or write these bytes or move the packet.
	for k := first + 1; k < last; k++ {
		if stores[k] {
			continue
		}
		if in := b.ins[k]; in.IsCall() || touches(in, base, vers[k][base] == ver, o) {
			return nil
		}
	}
	tmp := b.ins[first].Src
	if tmp == x.reg || tmp == base || tmp >= 10 || !freeAfter(b, first, tmp, out) {
		return nil
	}
	at := b.ins[first].at
	seq := []*insn{
		{Insn: hxdp.Insn{Op: hxdp.ClassALU64 | hxdp.AluMov | hxdp.SrcX, Dst: tmp, Src: x.reg}, at: at, orig: -1},
		{Insn: hxdp.Insn{Op: hxdp.ClassALU | hxdp.AluEnd | hxdp.SrcX, Dst: tmp, Imm: 64}, at: at, orig: -1},
		{Insn: hxdp.Insn{Op: hxdp.ClassALU64 | hxdp.AluRsh, Dst: tmp, Imm: 16}, at: at, orig: -1},
		{Insn: hxdp.Insn{Op: hxdp.OpStore48, Dst: base, Src: tmp, Off: int16(o)}, at: at, orig: -1},
	}
	return &window{first: first, seq: seq, drop: stores}
}

// touches says in may access the 6 bytes at o of base (same says base
// still holds the pointer the window was found with); stack accesses
// through r10 do not.
func touches(in *insn, base uint8, same bool, o int) bool {
	var r uint8
	switch {
	case isStore(in):
		r = in.Dst
	case in.Class() == hxdp.ClassLDX || in.Op == hxdp.OpLoad48:
		r = in.Src
	default:
		return false
	}
	if r == 10 {
		return false
	}
	if r != base || !same {
		return true
	}
	return int(in.Off) < o+6 && int(in.Off)+in.Size() > o
}

// freeAfter says the value register r holds at instruction i is read by
// i alone: after i, r is written before it is read, or dead at the end.
func freeAfter(b *block, i int, r uint8, out uint16) bool {
	for k := i + 1; k < len(b.ins); k++ {
		use, def := regUse(b.ins[k])
		if use&(1<<r) != 0 {
			return false
		}
		if def&(1<<r) != 0 {
			return true
		}
	}
	return out&(1<<r) == 0
}

// findLoad48 finds the first instruction whose result is a big-endian
// 6-byte load made of smaller loads: its index, the base and offset, and
// the instructions its value comes from (itself excluded).
func findLoad48(b *block) (int, uint8, int, []int) {
	t := newTracker()
	for i, in := range b.ins {
		t.step(i, in)
		_, def := regUse(in)
		if def == 0 || in.Op == hxdp.ClassALU64|hxdp.AluMov|hxdp.SrcX || in.Class() == hxdp.ClassLDX {
			continue
		}
		if in.Dst >= 10 || def&(1<<in.Dst) == 0 {
			continue
		}
		if base, off, ok := isBE48(t.sym[in.Dst], t.ver); ok {
			var prov []int
			for _, j := range t.prov[in.Dst] {
				if j != i {
					prov = append(prov, j)
				}
			}
			return i, base, off, prov
		}
	}
	return -1, 0, 0, nil
}

// disposable says every instruction of prov (the chain ending at i) can
// go: what each writes is read only by the chain, and not after the
// block; and the rewrite saves instructions (the chain's others go, two
// come: it takes a chain of more than three).
func disposable(b *block, i int, prov []int, out uint16) bool {
	if len(prov) < 3 {
		return false
	}
	in := map[int]bool{i: true}
	first := i
	for _, j := range prov {
		in[j] = true
		first = min(first, j)
	}
	// The 6-byte load reads at i what the chain's loads read earlier:
	// nothing between may write memory or move the packet.
	for k := first; k < i; k++ {
		if x := b.ins[k]; isStore(x) || x.IsCall() {
			return false
		}
	}
	for _, j := range prov {
		if !usedOnlyBy(b, j, in, out) {
			return false
		}
	}
	return true
}

// usedOnlyBy says the register instruction j writes is read, until it is
// written again, only by instructions in set, and is not live at the
// block's end.
func usedOnlyBy(b *block, j int, set map[int]bool, out uint16) bool {
	_, def := regUse(b.ins[j])
	if def == 0 || b.ins[j].IsCall() {
		return false
	}
	for k := j + 1; k < len(b.ins); k++ {
		use, d := regUse(b.ins[k])
		if use&def != 0 && !set[k] {
			return false
		}
		def &^= d
		if def == 0 {
			return true
		}
	}
	return def&out == 0
}
