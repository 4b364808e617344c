package hxdp

import (
	"fmt"

	"github.com/p4hls/p4hls/hxdp"
)

// pass is one transformation of the program before scheduling: its name
// in lower-case words (the listing and the report use it), and the
// function, which returns how many instructions it removed or rewrote.
type pass struct {
	name string
	run  func(p *program) (int, error)
}

// passes run in this order. Each needs what the one before left:
// "fold checks" first, so that the zeroing and exits are judged on the
// paths that remain; "dead code" after the three that leave values
// unused; the rewrites that pair instructions after it, so that they
// pair what is left; "layout" next, so that the scheduler sees the
// blocks it will lay out; "rename registers" on those blocks; "drop
// zeroing" again, for a move of zero renamed into a register the reset
// already zeroed.
var passes = []pass{
	{"fold checks", foldChecks},
	{"drop zeroing", dropZeroing},
	{"parameterized exit", parameterizedExit},
	{"dead code", deadCode},
	{"six byte access", sixByte},
	{"dead code", deadCode},
	{"three operand", threeOperand},
	{"layout", layout},
	{"rename registers", renameRegisters},
	{"drop zeroing", dropZeroing},
}

// transform runs the passes (but the ones off names) and reports what
// each did.
func transform(p *program, off map[string]bool) ([]PassReport, error) {
	var out []PassReport
	for _, ps := range passes {
		if off[ps.name] {
			continue
		}
		before := p.count()
		n, err := ps.run(p)
		if err != nil {
			return nil, fmt.Errorf("pass %s: %w", ps.name, err)
		}
		if err := verify(p); err != nil {
			return nil, fmt.Errorf("%w after pass %s", err, ps.name)
		}
		out = append(out, PassReport{Pass: ps.name, Changed: n, Instructions: p.count(), Removed: before - p.count()})
	}
	return out, nil
}

// PassReport is what one pass did (report.json's backend.passes).
type PassReport struct {
	Pass string `json:"pass"`
	// Changed is the instructions the pass removed or rewrote.
	Changed int `json:"changed"`
	// Removed is how many fewer instructions the program holds after it.
	Removed int `json:"removed"`
	// Instructions is what the program holds after it.
	Instructions int `json:"instructions"`
}

// verify checks the program's shape: jumps only last in a block, a
// target for every jump, a way on for every block that does not end.
func verify(p *program) error {
	in := map[*block]bool{}
	for _, b := range p.blocks {
		in[b] = true
	}
	for _, b := range p.blocks {
		for i, x := range b.ins {
			if x.IsJump() && i != len(b.ins)-1 {
				return fmt.Errorf("block %d: a jump before the block's end", b.id)
			}
		}
		t := b.term()
		switch {
		case t != nil && !t.IsExit() && !in[t.target]:
			return fmt.Errorf("block %d jumps to a block the program no longer has", b.id)
		case (t == nil || t.cond()) && (b.next == nil || !in[b.next]):
			return fmt.Errorf("block %d runs off its end", b.id)
		case t != nil && (t.IsExit() || t.ja()) && b.next != nil:
			return fmt.Errorf("block %d ends in a jump but keeps a fall-through", b.id)
		}
	}
	return nil
}

// remove drops the instructions marked in dead from every block.
func remove(p *program, dead map[*insn]bool) {
	for _, b := range p.blocks {
		kept := b.ins[:0]
		for _, in := range b.ins {
			if !dead[in] {
				kept = append(kept, in)
			}
		}
		b.ins = kept
	}
}

// foldChecks drops the conditional jumps the analysis decides: bounds
// checks the core makes redundant (a packet is at least hxdp.MinFrame
// bytes; its metadata is always there), NULL checks of array lookups
// whose index is in range, checks of numbers whose range settles them.
// A jump never taken goes; one always taken becomes unconditional; the
// blocks no longer reached go.
//
//	r2 = r0; r2 += 14; if r2 > r5 goto reject   ==>   (nothing)
func foldChecks(p *program) (int, error) {
	f := analyze(p)
	n := 0
	for _, b := range p.blocks {
		t := b.term()
		s := f.before[t]
		if t == nil || !t.cond() || s == nil {
			continue
		}
		switch f.decide(s, t) {
		case never:
			b.ins = b.ins[:len(b.ins)-1]
			n++
		case always:
			t.Insn = hxdp.Insn{Op: hxdp.OpJA}
			b.next = nil
			n++
		}
	}
	p.prune()
	return n, nil
}

// dropZeroing drops what the core's reset makes redundant: a move of a
// constant into a register that surely holds it (registers start at
// zero), a store of a value into stack bytes that surely hold it (the
// stack starts at zero).
//
//	r3 = 0; *(u64 *)(r10 - 56) = r3   ==>   (nothing, when nothing wrote either)
func dropZeroing(p *program) (int, error) {
	f := analyze(p)
	dead := map[*insn]bool{}
	for _, b := range p.blocks {
		for _, in := range b.body() {
			s := f.before[in]
			if s != nil && redundant(s, in, f.mem[in]) {
				dead[in] = true
			}
		}
	}
	remove(p, dead)
	return len(dead), nil
}

// redundant says in changes nothing in state s.
func redundant(s *state, in *insn, a access) bool {
	switch {
	case in.Op == hxdp.ClassALU64|hxdp.AluMov: // mov64 imm
		return s.regs[in.Dst].isConst(int64(in.Imm))
	case in.Op == hxdp.ClassALU|hxdp.AluMov: // mov32 imm
		return s.regs[in.Dst].isConst(int64(uint32(in.Imm)))
	case in.Class() != hxdp.ClassST && in.Class() != hxdp.ClassSTX:
		return false
	case in.Op&0xe0 != hxdp.ModeMEM || a.k != kStack || a.lo != a.hi:
		return false
	}
	v := konst(int64(in.Imm))
	if in.Class() == hxdp.ClassSTX {
		v = s.regs[in.Src]
	}
	if v.k != kScalar || !v.exact() {
		return false
	}
	if a.size < 8 && (v.lo < 0 || v.lo >= int64(1)<<(8*a.size)) {
		return false
	}
	if v.lo == 0 && s.zeroBytes(a.lo, a.lo+int64(a.size)) {
		return true
	}
	sl, ok := s.slots[a.lo]
	return ok && sl.size == a.size && sl.v == v
}

// parameterizedExit gives each exit whose action is a known constant the
// action in its immediate, and turns a jump to a lone exit into such an
// exit; the moves into r0 die.
//
//	r0 = 1; goto L; ... L: exit   ==>   exit 1
func parameterizedExit(p *program) (int, error) {
	f := analyze(p)
	n := 0
	action := func(s *state) (int32, bool) {
		if s == nil {
			return 0, false
		}
		r0 := s.regs[0]
		if r0.k != kScalar || !r0.exact() || r0.lo < 0 || r0.lo > 1<<31-1 {
			return 0, false
		}
		return int32(r0.lo), true
	}
	lone := func(b *block) bool { return len(b.ins) == 1 && b.ins[0].Op == hxdp.OpExit }
	for _, b := range p.blocks {
		t := b.term()
		if t == nil {
			// Falling into a lone exit: the exit comes here.
			if b.next != nil && lone(b.next) {
				s := f.stateAfter(b)
				if k, ok := action(s); ok {
					b.ins = append(b.ins, &insn{Insn: hxdp.Insn{Op: hxdp.OpExitImm, Imm: k}, at: b.next.ins[0].at, orig: -1})
					b.next = nil
					n++
				}
			}
			continue
		}
		s := f.before[t]
		if s == nil {
			continue
		}
		switch {
		case t.Op == hxdp.OpExit:
			if k, ok := action(s); ok {
				t.Insn = hxdp.Insn{Op: hxdp.OpExitImm, Imm: k}
				n++
			}
		case t.ja() && lone(t.target):
			if k, ok := action(s); ok {
				t.Insn, t.target, t.at = hxdp.Insn{Op: hxdp.OpExitImm, Imm: k}, nil, t.target.ins[0].at
				n++
			}
		}
	}
	p.prune()
	return n, nil
}

// stateAfter is the state at the end of a block without a jump.
func (f *facts) stateAfter(b *block) *state {
	s := f.in[b]
	if s == nil {
		return nil
	}
	s = s.clone()
	for _, in := range b.ins {
		f.step(s, in)
	}
	return s
}
