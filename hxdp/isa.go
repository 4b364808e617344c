// Package hxdp is a model of the hXDP core (Sephirot, the 4-lane VLIW soft
// processor of the hXDP paper), cycle-accurate to the row: it runs a ROM of
// 256-bit rows with the maps of a map configuration on one packet at a
// time and counts the rows it executes. It also holds the formats the
// hxdp target writes and the core reads: the extended eBPF ISA, the ROM's
// hex form and the map configuration.
//
// The ISA is eBPF's 64-bit encoding with the paper's extensions
// (../shared/targets/NIC.md): 6-byte loads and stores (0x59, 0x5a), a
// parameterized exit (0x96) and three-operand ALU forms, dst = src OP imm.
package hxdp

import (
	"encoding/binary"
)

// The eBPF instruction classes (the opcode's low 3 bits).
const (
	ClassLD    = 0x00
	ClassLDX   = 0x01
	ClassST    = 0x02
	ClassSTX   = 0x03
	ClassALU   = 0x04
	ClassJMP   = 0x05
	ClassJMP32 = 0x06
	ClassALU64 = 0x07
)

// ALU operations (the opcode's high 4 bits) and the source bit.
const (
	AluAdd  = 0x00
	AluSub  = 0x10
	AluMul  = 0x20
	AluDiv  = 0x30
	AluOr   = 0x40
	AluAnd  = 0x50
	AluLsh  = 0x60
	AluRsh  = 0x70
	AluNeg  = 0x80
	AluMod  = 0x90
	AluXor  = 0xa0
	AluMov  = 0xb0
	AluArsh = 0xc0
	AluEnd  = 0xd0
	SrcX    = 0x08 // the source is a register (else the immediate)
)

// Jump operations (the opcode's high 4 bits).
const (
	JmpJA   = 0x00
	JmpJEQ  = 0x10
	JmpJGT  = 0x20
	JmpJGE  = 0x30
	JmpJSET = 0x40
	JmpJNE  = 0x50
	JmpJSGT = 0x60
	JmpJSGE = 0x70
	JmpCall = 0x80
	JmpExit = 0x90
	JmpJLT  = 0xa0
	JmpJLE  = 0xb0
	JmpJSLT = 0xc0
	JmpJSLE = 0xd0
)

// Memory access sizes and the modes eBPF programs use.
const (
	SizeW   = 0x00
	SizeH   = 0x08
	SizeB   = 0x10
	SizeDW  = 0x18
	ModeIMM = 0x00
	ModeMEM = 0x60
	// ModeAtomic with Imm AtomicAdd is eBPF's lock add, what a counter's
	// __sync_fetch_and_add compiles to when its result is unused. The core
	// runs one packet at a time, so it is a load, an add and a store; the
	// fetching forms (which also write Src) it does not have.
	ModeAtomic = 0xc0
	AtomicAdd  = 0x00
)

// Opcodes the compiler and the core name.
const (
	OpLdImm64 = ClassLD | ModeIMM | SizeDW // 0x18, two lanes
	OpCall    = ClassJMP | JmpCall         // 0x85
	OpExit    = ClassJMP | JmpExit         // 0x95: exit with r0
	OpJA      = ClassJMP | JmpJA           // 0x05
)

// hXDP's extensions (NIC.md).
const (
	// OpLoad48 is dst = *(u48 *)(src + off): six bytes, little-endian as
	// every eBPF load, zero-extended.
	OpLoad48 = 0x59
	// OpStore48 is *(u48 *)(dst + off) = src: the low six bytes of src.
	OpStore48 = 0x5a
	// OpExitImm ends the program with the action in imm (mov r0, imm;
	// exit in one instruction).
	OpExitImm = 0x96
)

// ThreeOperand maps an ALU-immediate opcode to its three-operand form
// (dst = src OP imm). NIC.md lists the paper artifact's mapping; its
// and-immediate (0x57) was lost to a duplicate key, and this model takes
// 0xe7 (ALU64, operation 0xe, immediate source): an opcode no eBPF
// instruction and no other extension uses.
var ThreeOperand = map[uint8]uint8{
	0x07: 0x8f, // add
	0x17: 0xd7, // sub
	0x47: 0xdf, // or
	0x57: 0xe7, // and (this model's choice)
	0x67: 0xef, // lsh
	0x77: 0xf7, // rsh
	0x04: 0x8c, // add32
	0x14: 0xe4, // sub32
	0x64: 0xec, // lsh32
	0x74: 0xf4, // rsh32
	0xa4: 0xfc, // xor32
}

// twoOperand is ThreeOperand's inverse: the operation a three-operand
// opcode performs, as the ALU-immediate opcode.
var twoOperand = func() map[uint8]uint8 {
	m := map[uint8]uint8{}
	for k, v := range ThreeOperand {
		m[v] = k
	}
	return m
}()

// ThreeOperandBase returns the ALU-immediate opcode a three-operand
// opcode performs, and whether op is one.
func ThreeOperandBase(op uint8) (uint8, bool) {
	b, ok := twoOperand[op]
	return b, ok
}

// Pseudo source registers of a 64-bit immediate load.
const (
	PseudoMapFD    = 1 // imm is a map's id: the register gets the map
	PseudoMapValue = 2 // imm is a map's id, the second lane's imm an offset into its value
)

// Insn is one lane word: an instruction in eBPF's encoding.
type Insn struct {
	Op       uint8
	Dst, Src uint8
	Off      int16
	Imm      int32
}

// Word is the lane's 64 bits: the instruction's 8 bytes as a little-endian
// u64 (NIC.md's ROM layout).
func (i Insn) Word() uint64 {
	var b [8]byte
	b[0] = i.Op
	b[1] = i.Dst&0xf | i.Src<<4
	binary.LittleEndian.PutUint16(b[2:], uint16(i.Off))
	binary.LittleEndian.PutUint32(b[4:], uint32(i.Imm))
	return binary.LittleEndian.Uint64(b[:])
}

// Decode reads a lane word.
func Decode(w uint64) Insn {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], w)
	return Insn{Op: b[0], Dst: b[1] & 0xf, Src: b[1] >> 4,
		Off: int16(binary.LittleEndian.Uint16(b[2:])), Imm: int32(binary.LittleEndian.Uint32(b[4:]))}
}

// Class is the opcode's class.
func (i Insn) Class() uint8 { return i.Op & 7 }

// IsNop says the lane is empty (the all-zero word).
func (i Insn) IsNop() bool { return i == Insn{} }

// IsJump says the instruction may change the program counter: a jump
// (conditional or not), a call returns, so it is not one; an exit is.
func (i Insn) IsJump() bool {
	c := i.Class()
	if c != ClassJMP && c != ClassJMP32 {
		return false
	}
	op := i.Op & 0xf0
	return op != JmpCall
}

// IsExit says the instruction ends the program.
func (i Insn) IsExit() bool { return i.Op == OpExit || i.Op == OpExitImm }

// IsCall says the instruction calls a helper.
func (i Insn) IsCall() bool { return i.Op == OpCall }

// Size is a load's or store's width in bytes (0 for other instructions).
func (i Insn) Size() int {
	switch i.Op {
	case OpLoad48, OpStore48:
		return 6
	}
	switch i.Class() {
	case ClassLDX, ClassST, ClassSTX:
		switch i.Op & 0x18 {
		case SizeB:
			return 1
		case SizeH:
			return 2
		case SizeW:
			return 4
		}
		return 8
	}
	return 0
}
