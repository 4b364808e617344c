package hxdp

import (
	"fmt"

	"github.com/p4hls/p4hls/hxdp"
)

// place is where an instruction comes from in the P4 source (line 0:
// from no P4 statement: the program's prologue, the verdict).
type place struct {
	file string
	line int
}

func (p place) String() string {
	if p.line == 0 {
		return "-"
	}
	return fmt.Sprintf("%s:%d", p.file, p.line)
}

// insn is one instruction of the program being compiled: the lane word
// it becomes, and what the compiler knows of it.
type insn struct {
	hxdp.Insn
	// imm64 is a 64-bit immediate load's constant (src 0), or the offset
	// into the map value (src PseudoMapValue); Imm holds the map's id for
	// the map loads.
	imm64 uint64
	// target is a jump's taken successor.
	target *block
	at     place
	// orig is the instruction's index in prog.o (in 8-byte slots), -1
	// for an instruction the compiler made.
	orig int
}

// wide says the instruction takes two lanes.
func (in *insn) wide() bool { return in.Op == hxdp.OpLdImm64 }

// lanes is the lanes the instruction takes.
func (in *insn) lanes() int {
	if in.wide() {
		return 2
	}
	return 1
}

// cond says the instruction is a conditional jump.
func (in *insn) cond() bool {
	return in.IsJump() && !in.IsExit() && in.Op&0xf0 != hxdp.JmpJA
}

// ja says the instruction is an unconditional jump.
func (in *insn) ja() bool { return in.Op == hxdp.OpJA }

// block is a basic block: straight-line instructions, the last of which
// may be a jump or an exit.
type block struct {
	id  int
	ins []*insn
	// next is the block control falls through to (after a conditional
	// jump not taken, or a block without a jump), nil after an
	// unconditional jump or an exit.
	next *block
}

// term is the block's jump or exit, or nil.
func (b *block) term() *insn {
	if len(b.ins) == 0 {
		return nil
	}
	if last := b.ins[len(b.ins)-1]; last.IsJump() {
		return last
	}
	return nil
}

// body is the block's instructions but its jump or exit.
func (b *block) body() []*insn {
	if b.term() != nil {
		return b.ins[:len(b.ins)-1]
	}
	return b.ins
}

// succs are the blocks control may go to next.
func (b *block) succs() []*block {
	var out []*block
	if t := b.term(); t != nil && !t.IsExit() {
		out = append(out, t.target)
	}
	if b.next != nil && (len(out) == 0 || out[0] != b.next) {
		out = append(out, b.next)
	}
	return out
}

// program is the program being compiled: its blocks, in layout order, the
// first the entry.
type program struct {
	blocks []*block
	maps   []hxdp.Map
	// ebpf is prog.o's instructions as the kernel counts them (a 64-bit
	// immediate load counts twice).
	ebpf int
}

// count is the instructions the program holds (a 64-bit immediate load
// counts once).
func (p *program) count() int {
	n := 0
	for _, b := range p.blocks {
		n += len(b.ins)
	}
	return n
}

// preds lists each block's predecessors.
func (p *program) preds() map[*block][]*block {
	out := map[*block][]*block{}
	for _, b := range p.blocks {
		for _, s := range b.succs() {
			out[s] = append(out[s], b)
		}
	}
	return out
}

// renumber gives blocks their places as ids.
func (p *program) renumber() {
	for i, b := range p.blocks {
		b.id = i
	}
}

// prune drops the blocks the entry cannot reach, keeping the order.
func (p *program) prune() {
	seen := map[*block]bool{}
	var visit func(b *block)
	visit = func(b *block) {
		if seen[b] {
			return
		}
		seen[b] = true
		for _, s := range b.succs() {
			visit(s)
		}
	}
	visit(p.blocks[0])
	var kept []*block
	for _, b := range p.blocks {
		if seen[b] {
			kept = append(kept, b)
		}
	}
	p.blocks = kept
	p.renumber()
}

// rpo is the blocks in reverse postorder from the entry.
func (p *program) rpo() []*block {
	seen := map[*block]bool{}
	var post []*block
	var visit func(b *block)
	visit = func(b *block) {
		seen[b] = true
		for _, s := range b.succs() {
			if !seen[s] {
				visit(s)
			}
		}
		post = append(post, b)
	}
	visit(p.blocks[0])
	for i, j := 0, len(post)-1; i < j; i, j = i+1, j-1 {
		post[i], post[j] = post[j], post[i]
	}
	return post
}
