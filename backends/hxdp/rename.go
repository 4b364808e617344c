package hxdp

// renameRegisters gives a value another register when its register is
// reused in the block: clang reuses few registers (r1 for every spill of a
// parsed field: r1 = load; store r1; r1 = load; store r1), and each reuse
// orders the instructions (a row may not read and write, or write twice,
// one register). A value defined and last read in the block, whose
// register an earlier value of the block used, moves to a register that
// is dead from its definition to its last use.
//
//	r1 = *(u8 *)(r0 + 23); *(u64 *)(r10 - 128) = r1; r1 = *(u8 *)(r0 + 21); ...
//	==>  r1 = ...; ... = r1; r4 = *(u8 *)(r0 + 21); ... = r4
func renameRegisters(p *program) (int, error) {
	liveIn := regLiveIn(p)
	n := 0
	for _, b := range p.blocks {
		var out uint16
		for _, s := range b.succs() {
			out |= liveIn[s]
		}
		n += renameBlock(b, out)
	}
	return n, nil
}

// fixed says a register's value must stay where it is: helper arguments
// and results, the exit's r0, the frame pointer.
func fixed(in *insn, r uint8) bool {
	switch {
	case r == 10, in.IsCall(), in.Op == 0x95 && r == 0:
		return true
	}
	return false
}

// renameBlock renames the block's reused local values; out is what is
// live at its end.
func renameBlock(b *block, out uint16) int {
	n := 0
	touched := uint16(0) // registers an earlier instruction of the block used
	lastTouch := map[uint8]int{}
	for d := 0; d < len(b.ins); d++ {
		in := b.ins[d]
		use, def := regUse(in)
		r := in.Dst
		if def == 1<<r && touched&(1<<r) != 0 && !fixed(in, r) && use&(1<<r) == 0 {
			if end, ok := localRange(b, d, r, out); ok {
				if f, ok := freeRegister(b, d, end, out, lastTouch); ok {
					renameRange(b, d, end, r, f)
					n++
					use, def = regUse(in)
				}
			}
		}
		touched |= use | def
		for k := uint8(0); k < 11; k++ {
			if (use|def)&(1<<k) != 0 {
				lastTouch[k] = d
			}
		}
	}
	return n
}

// localRange finds the last use of the value instruction d writes into
// r: the value must end in the block (written again, or dead at its end)
// and every use be one that may be renamed. An instruction that reads and
// writes r (r2 = be16 r2) carries the value on: it is renamed with it.
func localRange(b *block, d int, r uint8, out uint16) (int, bool) {
	last := d
	for k := d + 1; k < len(b.ins); k++ {
		use, def := regUse(b.ins[k])
		reads, writes := use&(1<<r) != 0, def&(1<<r) != 0
		switch {
		case reads && fixed(b.ins[k], r):
			return 0, false
		case reads:
			last = k
		case writes:
			return last, true
		}
	}
	return last, out&(1<<r) == 0
}

// freeRegister finds a register dead and untouched over [d, end]: the one
// the block last touched longest ago, so that the renamed value depends
// on the fewest instructions near it.
func freeRegister(b *block, d, end int, out uint16, lastTouch map[uint8]int) (uint8, bool) {
	liveAfter := blockLiveness(b, out)
	best, bestAt := uint8(0), len(b.ins)+1
	for f := uint8(0); f < 10; f++ {
		if !freeOver(b, d, end, f, liveAfter) {
			continue
		}
		at, seen := lastTouch[f]
		if !seen {
			at = -1
		}
		if at < bestAt {
			best, bestAt = f, at
		}
	}
	return best, bestAt <= len(b.ins)
}

// freeOver says f holds a dead value over [d, end] that no instruction
// there touches.
func freeOver(b *block, d, end int, f uint8, liveAfter []uint16) bool {
	if d > 0 && liveAfter[d-1]&(1<<f) != 0 {
		return false
	}
	for k := d; k <= end; k++ {
		use, def := regUse(b.ins[k])
		if (use|def)&(1<<f) != 0 || liveAfter[k]&(1<<f) != 0 {
			return false
		}
	}
	return true
}

// blockLiveness is the registers live after each instruction of b.
func blockLiveness(b *block, out uint16) []uint16 {
	after := make([]uint16, len(b.ins))
	l := out
	for k := len(b.ins) - 1; k >= 0; k-- {
		after[k] = l
		use, def := regUse(b.ins[k])
		l = l&^def | use
	}
	return after
}

// renameRange makes instruction d write f instead of r, and the range's
// uses read f.
func renameRange(b *block, d, end int, r, f uint8) {
	b.ins[d].Dst = f
	for k := d + 1; k <= end; k++ {
		in := b.ins[k]
		use, def := regUse(in)
		if use&(1<<r) == 0 {
			continue
		}
		if in.Src == r && srcRead(in) {
			in.Src = f
		}
		// An instruction that reads r and writes it (r2 = be16 r2, or
		// r2 = r2 + 1 in three operands) carries the value on in f.
		if in.Dst == r && (dstRead(in) || def&(1<<r) != 0) {
			in.Dst = f
		}
	}
}

// srcRead and dstRead say whether an instruction reads the register in
// its src or dst field (probing with a register no instruction names).
func srcRead(in *insn) bool {
	probe := *in
	probe.Src = 15
	u, _ := regUse(&probe)
	return u&(1<<15) != 0
}

func dstRead(in *insn) bool {
	probe := *in
	probe.Dst = 15
	u, _ := regUse(&probe)
	return u&(1<<15) != 0
}
