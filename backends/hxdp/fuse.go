package hxdp

import (
	"github.com/p4hls/p4hls/hxdp"
)

// threeOperand fuses a register move and the ALU-immediate operation
// that then changes the moved value into one three-operand instruction
// (hXDP's extension): clang writes dst = src OP imm as two instructions
// because x86 has no such form.
//
//	r2 = r0; ...; r2 += 34   ==>   r2 = r0 + 34
//
// The move may sit earlier in the block as long as nothing between reads
// or writes its destination or writes its source.
func threeOperand(p *program) (int, error) {
	dead := map[*insn]bool{}
	for _, b := range p.blocks {
		for j, op := range b.ins {
			fused, ok := hxdp.ThreeOperand[op.Op]
			if !ok {
				continue
			}
			i := lastTouch(b.ins[:j], op.Dst)
			if i < 0 || dead[b.ins[i]] {
				continue
			}
			mv := b.ins[i]
			if !fusable(mv, op) || writes(b.ins[i+1:j], mv.Src) {
				continue
			}
			op.Insn = hxdp.Insn{Op: fused, Dst: op.Dst, Src: mv.Src, Imm: op.Imm}
			dead[mv] = true
		}
	}
	remove(p, dead)
	return len(dead), nil
}

// fusable says mv is a register move op can take as its source: a
// 64-bit move for a 64-bit operation; either for a 32-bit one, which
// reads only the low half.
func fusable(mv, op *insn) bool {
	const mov64, mov32 = hxdp.ClassALU64 | hxdp.AluMov | hxdp.SrcX, hxdp.ClassALU | hxdp.AluMov | hxdp.SrcX
	if mv.Dst != op.Dst || mv.Src == mv.Dst {
		return false
	}
	switch mv.Op {
	case mov64:
		return true
	case mov32:
		return op.Class() == hxdp.ClassALU
	}
	return false
}

// lastTouch is the index of the last instruction of ins that reads or
// writes r, or -1.
func lastTouch(ins []*insn, r uint8) int {
	for i := len(ins) - 1; i >= 0; i-- {
		use, def := regUse(ins[i])
		if (use|def)&(1<<r) != 0 {
			return i
		}
	}
	return -1
}

func writes(ins []*insn, r uint8) bool {
	for _, in := range ins {
		if _, def := regUse(in); def&(1<<r) != 0 {
			return true
		}
	}
	return false
}
