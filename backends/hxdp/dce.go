package hxdp

import (
	"github.com/p4hls/p4hls/hxdp"
)

// live is what may still be read: registers (a bit each) and stack bytes
// (a bit each, r10-512 bit 0).
type live struct {
	regs  uint16
	stack [hxdp.StackBytes / 64]uint64
}

func (l *live) union(o live) bool {
	changed := o.regs&^l.regs != 0
	l.regs |= o.regs
	for i := range l.stack {
		if o.stack[i]&^l.stack[i] != 0 {
			changed = true
		}
		l.stack[i] |= o.stack[i]
	}
	return changed
}

func (l *live) setStack(lo, hi int64, on bool) {
	for off := lo; off < hi; off++ {
		i, ok := stackBit(off)
		if !ok {
			continue
		}
		if on {
			l.stack[i/64] |= 1 << (i % 64)
		} else {
			l.stack[i/64] &^= 1 << (i % 64)
		}
	}
}

func (l *live) anyStack(lo, hi int64) bool {
	for off := lo; off < hi; off++ {
		i, ok := stackBit(off)
		if !ok || l.stack[i/64]&(1<<(i%64)) != 0 {
			return true
		}
	}
	return false
}

// helperArgs is how many argument registers each helper reads.
var helperArgs = map[int32]int{
	hxdp.HelperMapLookup: 2, hxdp.HelperRandom: 0, hxdp.HelperAdjustHead: 2, hxdp.HelperRedirect: 3,
	hxdp.HelperSpinLock: 1, hxdp.HelperSpinUnlock: 1,
}

// regUse is the registers an instruction reads and writes.
func regUse(in *insn) (use, def uint16) {
	bit := func(r uint8) uint16 { return 1 << r }
	switch cls := in.Class(); {
	case in.Op == hxdp.OpLdImm64:
		return 0, bit(in.Dst)
	case in.Op == hxdp.OpExitImm:
		return 0, 0
	case in.Op == hxdp.OpExit:
		return bit(0), 0
	case in.IsCall():
		for r := 1; r <= helperArgs[in.Imm]; r++ {
			use |= bit(uint8(r))
		}
		return use, 0x3f // r0, and r1-r5 scratched
	case in.Op == hxdp.OpLoad48 || cls == hxdp.ClassLDX:
		return bit(in.Src), bit(in.Dst)
	case in.Op == hxdp.OpStore48 || cls == hxdp.ClassSTX:
		return bit(in.Dst) | bit(in.Src), 0
	case cls == hxdp.ClassST:
		return bit(in.Dst), 0
	case cls == hxdp.ClassJMP || cls == hxdp.ClassJMP32:
		if in.ja() {
			return 0, 0
		}
		use = bit(in.Dst)
		if in.Op&hxdp.SrcX != 0 {
			use |= bit(in.Src)
		}
		return use, 0
	}
	// ALU
	if _, ok := hxdp.ThreeOperandBase(in.Op); ok {
		return bit(in.Src), bit(in.Dst)
	}
	switch op := in.Op & 0xf0; {
	case op == hxdp.AluMov && in.Op&hxdp.SrcX != 0:
		return bit(in.Src), bit(in.Dst)
	case op == hxdp.AluMov:
		return 0, bit(in.Dst)
	case in.Op&hxdp.SrcX != 0 && op != hxdp.AluEnd:
		return bit(in.Dst) | bit(in.Src), bit(in.Dst)
	}
	return bit(in.Dst), bit(in.Dst)
}

// pure says removing the instruction changes nothing but its register.
func pure(in *insn) bool {
	switch cls := in.Class(); {
	case in.IsJump() || in.IsCall():
		return false
	case cls == hxdp.ClassALU || cls == hxdp.ClassALU64 || cls == hxdp.ClassLDX:
		return true
	case in.Op == hxdp.OpLdImm64 || in.Op == hxdp.OpLoad48:
		return true
	}
	return false
}

// stackUse is the stack bytes an instruction reads (lo, hi; all when
// unknown) and the ones it surely overwrites.
func (f *facts) stackUse(s *state, in *insn) (read, kill [2]int64, readAll bool) {
	none := [2]int64{0, 0}
	a, isMem := f.mem[in]
	switch {
	case in.IsCall() && in.Imm == hxdp.HelperMapLookup:
		key, m := s.regs[2], s.regs[1]
		if key.k == kStack && key.exact() && m.k == kMap {
			return [2]int64{key.lo, key.lo + int64(f.maps[m.id].KeyBytes)}, none, false
		}
		return none, none, key.k == kStack || key.k == kTop
	case !isMem:
		return none, none, false
	case a.k == kTop || (a.k == kStack && a.lo != a.hi):
		if isStore(in) {
			return none, none, false
		}
		return none, none, true
	case a.k != kStack:
		return none, none, false
	case isStore(in):
		return none, [2]int64{a.lo, a.lo + int64(a.size)}, false
	}
	return [2]int64{a.lo, a.lo + int64(a.size)}, none, false
}

func isStore(in *insn) bool {
	c := in.Class()
	return c == hxdp.ClassST || c == hxdp.ClassSTX || in.Op == hxdp.OpStore48
}

// deadCode drops what no later instruction reads: instructions whose
// register nothing reads, stores to stack bytes nothing reads (the stack
// is dead when the program exits), until none is left.
func deadCode(p *program) (int, error) {
	total := 0
	for {
		n := deadCodeOnce(p)
		if n == 0 {
			return total, nil
		}
		total += n
	}
}

func deadCodeOnce(p *program) int {
	f := analyze(p)
	out := liveness(p, f)
	dead := map[*insn]bool{}
	for _, b := range p.blocks {
		l := out[b]
		for i := len(b.ins) - 1; i >= 0; i-- {
			in := b.ins[i]
			s := f.before[in]
			if s == nil {
				continue // unreachable: prune's business
			}
			use, def := regUse(in)
			read, kill, all := f.stackUse(s, in)
			deadReg := pure(in) && def != 0 && def&l.regs == 0
			deadStore := isStore(in) && kill[1] > kill[0] && !l.anyStack(kill[0], kill[1])
			if deadReg || deadStore {
				dead[in] = true
				continue
			}
			l = transfer(l, use, def, read, kill, all)
		}
	}
	remove(p, dead)
	return len(dead)
}

// transfer is liveness backwards across one instruction.
func transfer(l live, use, def uint16, read, kill [2]int64, all bool) live {
	l.regs = l.regs&^def | use | 1<<10
	l.setStack(kill[0], kill[1], false)
	if all {
		l.setStack(-hxdp.StackBytes, 0, true)
	}
	l.setStack(read[0], read[1], true)
	return l
}

// liveness is what is live at the end of each block.
func liveness(p *program, f *facts) map[*block]live {
	in := map[*block]live{}
	out := map[*block]live{}
	for changed := true; changed; {
		changed = false
		for i := len(p.blocks) - 1; i >= 0; i-- {
			b := p.blocks[i]
			var o live
			for _, s := range b.succs() {
				o.union(in[s])
			}
			out[b] = o
			l := o
			for j := len(b.ins) - 1; j >= 0; j-- {
				x := b.ins[j]
				s := f.before[x]
				if s == nil {
					continue
				}
				use, def := regUse(x)
				read, kill, all := f.stackUse(s, x)
				l = transfer(l, use, def, read, kill, all)
			}
			old := in[b]
			if old.union(l) {
				in[b], changed = old, true
			}
		}
	}
	return out
}
