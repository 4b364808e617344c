package hxdp

import (
	"strings"
	"testing"

	"github.com/p4hls/p4hls/hxdp"
)

// Hand-written eBPF for the passes' tests. A jump's target is an index
// in the list (to, below).
func I(op uint8, dst, src uint8, off int16, imm int32) *insn {
	return &insn{Insn: hxdp.Insn{Op: op, Dst: dst, Src: src, Off: off, Imm: imm}, orig: -1}
}

func movi(dst uint8, imm int32) *insn         { return I(0xb7, dst, 0, 0, imm) }
func movr(dst, src uint8) *insn               { return I(0xbf, dst, src, 0, 0) }
func addi(dst uint8, imm int32) *insn         { return I(0x07, dst, 0, 0, imm) }
func ldxw(dst, src uint8, off int16) *insn    { return I(0x61, dst, src, off, 0) }
func ldxh(dst, src uint8, off int16) *insn    { return I(0x69, dst, src, off, 0) }
func ldxb(dst, src uint8, off int16) *insn    { return I(0x71, dst, src, off, 0) }
func stxdw(dst, src uint8, off int16) *insn   { return I(0x7b, dst, src, off, 0) }
func stxb(dst, src uint8, off int16) *insn    { return I(0x73, dst, src, off, 0) }
func exit() *insn                             { return I(0x95, 0, 0, 0, 0) }
func jgt(dst, src uint8, to int) *insn        { return jump(0x2d, dst, src, 0, to) }
func jeqi(dst uint8, imm int32, to int) *insn { return jump(0x15, dst, 0, imm, to) }

func jump(op uint8, dst, src uint8, imm int32, to int) *insn {
	in := I(op, dst, src, 0, imm)
	in.imm64 = uint64(to)
	return in
}

// build makes a program of the instructions (no maps).
func build(ins ...*insn) *program {
	for i, in := range ins {
		in.orig = i
	}
	p := &program{blocks: split(ins), ebpf: len(ins)}
	p.prune()
	return p
}

// text prints the program's instructions, one per line ("|" between
// blocks).
func text(p *program) string {
	var b strings.Builder
	for i, bl := range p.blocks {
		if i > 0 {
			b.WriteString("|\n")
		}
		for _, in := range bl.ins {
			b.WriteString(in.Insn.String() + "\n")
		}
	}
	return b.String()
}

func expect(t *testing.T, p *program, want string) {
	t.Helper()
	if got := text(p); got != strings.TrimLeft(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.TrimLeft(want, "\n"))
	}
}

// The prologue of every test program: r2 = data, r3 = data_end.
func prologue() []*insn {
	return []*insn{ldxw(2, 1, 0), ldxw(3, 1, 4)}
}

// TestFoldBoundsCheck: a packet is at least 60 bytes (hxdp.MinFrame), so
// a check of 14 bytes never fails: it goes, and the block it guarded
// against with it; a check of 61 bytes stays.
func TestFoldBoundsCheck(t *testing.T) {
	prog := func(n int32) *program {
		return build(
			ldxw(2, 1, 0), ldxw(3, 1, 4), // 0, 1: data, data_end
			movr(4, 2), addi(4, n), jgt(4, 3, 7), // 2-4: if data + n > data_end goto 7
			ldxb(0, 2, int16(n-1)), exit(), // 5, 6
			movi(0, 1), exit()) // 7, 8
	}
	p := prog(14)
	if n, err := foldChecks(p); err != nil || n != 1 {
		t.Fatalf("folded %d (%v), want 1", n, err)
	}
	expect(t, p, `
r2 = *(u32 *)(r1 + 0)
r3 = *(u32 *)(r1 + 4)
r4 = r2
r4 += 14
|
r0 = *(u8 *)(r2 + 13)
exit
`)
	p = prog(61)
	if n, err := foldChecks(p); err != nil || n != 0 || len(p.blocks) != 3 {
		t.Errorf("a check of 61 bytes: folded %d (%v), %d blocks; want 0, 3", n, err, len(p.blocks))
	}
}

// TestFoldLearnsLength: a check of 100 bytes that passes tells the
// program the packet has 100: a later check of 80 goes.
func TestFoldLearnsLength(t *testing.T) {
	p := build(
		ldxw(2, 1, 0), ldxw(3, 1, 4),
		movr(4, 2), addi(4, 100), jgt(4, 3, 11), // 2-4
		movr(5, 2), addi(5, 80), jgt(5, 3, 11), // 5-7
		ldxb(0, 2, 99), exit(), // 8, 9
		exit(),             // 10: unreachable filler
		movi(0, 1), exit()) // 11, 12
	if n, err := foldChecks(p); err != nil || n != 1 {
		t.Fatalf("folded %d (%v), want 1 (the check of 80)", n, err)
	}
	if s := text(p); strings.Contains(s, "r5 += 80\nif") || strings.Count(s, "if ") != 1 {
		t.Errorf("want only the check of 100 left:\n%s", s)
	}
}

// TestFoldMeta: the metadata is always 8 bytes before the packet:
// data_meta + 8 > data is never true.
func TestFoldMeta(t *testing.T) {
	p := build(
		ldxw(2, 1, 0), ldxw(3, 1, 8), // data, data_meta
		movr(4, 3), addi(4, 8), jgt(4, 2, 7),
		ldxw(0, 3, 0), exit(),
		movi(0, 1), exit())
	if n, _ := foldChecks(p); n != 1 || strings.Contains(text(p), "r0 = 1") {
		t.Errorf("folded %d; want the check gone with its target:\n%s", n, text(p))
	}
}

// TestDropZeroing: registers and stack start at zero: r3 = 0 and the
// store of it go; after r5 (unknown) is stored there, a store of zero
// stays.
func TestDropZeroing(t *testing.T) {
	p := build(
		movi(3, 0), stxdw(10, 3, -8), // both redundant
		ldxw(5, 1, 12), stxdw(10, 5, -16), // an unknown value
		movi(4, 0), stxdw(10, 4, -16), // r4 = 0 redundant; the store is not
		movi(0, 2), exit())
	if n, err := dropZeroing(p); err != nil || n != 3 {
		t.Errorf("dropped %d (%v), want 3", n, err)
	}
	expect(t, p, `
r5 = *(u32 *)(r1 + 12)
*(u64 *)(r10 - 16) = r5
*(u64 *)(r10 - 16) = r4
r0 = 2
exit
`)
}

// TestParameterizedExit: r0 = 2; exit becomes exit 2, and dead code takes
// the move.
func TestParameterizedExit(t *testing.T) {
	p := build(ldxw(2, 1, 0), movi(0, 2), exit())
	if n, _ := parameterizedExit(p); n != 1 {
		t.Fatalf("rewrote %d exits, want 1", n)
	}
	if _, err := deadCode(p); err != nil {
		t.Fatal(err)
	}
	expect(t, p, "exit 2\n")
}

// TestThreeOperand: r2 = r0; r4 = 1; r2 += 34 fuses (nothing between
// touches r2 or r0); r5 = r0; r0 = 1; r5 += 2 does not (r0 changes
// between).
func TestThreeOperand(t *testing.T) {
	p := build(movr(2, 0), movi(4, 1), addi(2, 34), movr(5, 0), movi(0, 1), addi(5, 2), exit())
	if n, _ := threeOperand(p); n != 1 {
		t.Errorf("fused %d, want 1", n)
	}
	expect(t, p, `
r4 = 1
r2 = r0 + 34
r5 = r0
r0 = 1
r5 += 2
exit
`)
}

// TestLoad48: clang's read of a MAC address (bytes 6-11, big-endian)
// becomes a 6-byte load, a swap and a shift.
func TestLoad48(t *testing.T) {
	mask := I(hxdp.OpLdImm64, 7, 0, 0, 0)
	mask.imm64 = 0xffffffff0000
	p := build(
		ldxw(0, 1, 0),
		ldxw(6, 0, 6), I(0xdc, 6, 0, 0, 64), I(0x77, 6, 0, 0, 16), mask, I(0x5f, 6, 7, 0, 0),
		ldxh(2, 0, 10), I(0xdc, 2, 0, 0, 16), I(0x4f, 6, 2, 0, 0),
		stxdw(0, 6, 20), movi(0, 2), exit())
	if n, _ := sixByte(p); n != 1 {
		t.Fatalf("rewrote %d, want 1:\n%s", n, text(p))
	}
	deadCode(p)
	expect(t, p, `
r0 = *(u32 *)(r1 + 0)
r6 = *(u48 *)(r0 + 6)
r6 = be64 r6
r6 >>= 16
*(u64 *)(r0 + 20) = r6
r0 = 2
exit
`)
}

// TestRename: clang's r1 = load; store r1; r1 = load; store r1 after a
// read of r1 (the context): each load's value moves to a register of its
// own, so that no load waits for the instruction before it.
func TestRename(t *testing.T) {
	p := build(ldxw(2, 1, 0), ldxb(1, 2, 20), stxdw(10, 1, -8), ldxb(1, 2, 21), stxdw(10, 1, -16), I(0x96, 0, 0, 0, 2))
	if n, _ := renameRegisters(p); n != 2 {
		t.Fatalf("renamed %d, want 2", n)
	}
	ins := p.blocks[0].ins
	a, b := ins[1], ins[3]
	if a.Dst == 1 || b.Dst == 1 || a.Dst == b.Dst || ins[2].Src != a.Dst || ins[4].Src != b.Dst {
		t.Errorf("the loads write r%d and r%d, their stores read r%d and r%d; want two new registers, each stored:\n%s",
			a.Dst, b.Dst, ins[2].Src, ins[4].Src, text(p))
	}
}

// TestRenameInPlace: a renamed value carried on by an instruction that
// reads and writes its register (r3 = r3 + 1 in three operands) moves
// with it; the program still copies byte 20 to 21 and byte 22, plus one,
// to 23 on the core.
func TestRenameInPlace(t *testing.T) {
	p := build(
		ldxw(2, 1, 0),
		ldxb(3, 2, 20), stxb(2, 3, 21),
		ldxb(3, 2, 22), I(0x8f, 3, 3, 0, 1), stxb(2, 3, 23),
		exitImm(2))
	if n, _ := renameRegisters(p); n == 0 {
		t.Fatalf("renamed nothing:\n%s", text(p))
	}
	ins := p.blocks[0].ins
	if v := ins[3].Dst; ins[4].Src != v || ins[4].Dst != v || ins[5].Src != v {
		t.Errorf("the second value is not carried in one register:\n%s", text(p))
	}
	s := mustSchedule(t, p)
	rom, err := encode(s)
	if err != nil {
		t.Fatal(err)
	}
	c, err := hxdp.New(rom, hxdp.Config{})
	if err != nil {
		t.Fatal(err)
	}
	in := make([]byte, hxdp.MinFrame)
	in[20], in[22] = 7, 41
	res, err := c.Run(hxdp.Input{Data: in})
	if err != nil || res.Data[21] != 7 || res.Data[23] != 42 {
		t.Errorf("bytes 21 and 23 are %d and %d (%v); want 7 and 42", res.Data[21], res.Data[23], err)
	}
}
