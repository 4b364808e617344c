package hxdp

import (
	"fmt"
	"strings"
)

var aluSyms = map[uint8]string{
	AluAdd: "+=", AluSub: "-=", AluMul: "*=", AluDiv: "/=", AluOr: "|=", AluAnd: "&=",
	AluLsh: "<<=", AluRsh: ">>=", AluMod: "%=", AluXor: "^=", AluMov: "=", AluArsh: "s>>=",
}

var jmpSyms = map[uint8]string{
	JmpJEQ: "==", JmpJGT: ">", JmpJGE: ">=", JmpJSET: "&", JmpJNE: "!=", JmpJSGT: "s>",
	JmpJSGE: "s>=", JmpJLT: "<", JmpJLE: "<=", JmpJSLT: "s<", JmpJSLE: "s<=",
}

var sizeNames = map[int]string{1: "u8", 2: "u16", 4: "u32", 6: "u48", 8: "u64"}

// String prints the instruction as llvm-objdump prints eBPF (`r2 = r0 +
// 34` for a three-operand form, `exit 2` for a parameterized exit). A
// jump's offset is in rows, as in the ROM.
func (i Insn) String() string {
	reg := func(r uint8) string {
		if r == 10 {
			return "r10"
		}
		return fmt.Sprintf("r%d", r)
	}
	switch {
	case i.IsNop():
		return "nop"
	case i.Op == OpLoad48:
		return fmt.Sprintf("%s = *(u48 *)(%s %s)", reg(i.Dst), reg(i.Src), offset(i.Off))
	case i.Op == OpStore48:
		return fmt.Sprintf("*(u48 *)(%s %s) = %s", reg(i.Dst), offset(i.Off), reg(i.Src))
	case i.Op == OpExitImm:
		return fmt.Sprintf("exit %d", i.Imm)
	case i.Op == OpExit:
		return "exit"
	case i.Op == OpCall:
		return fmt.Sprintf("call %d", i.Imm)
	case i.Op == OpLdImm64:
		switch i.Src {
		case PseudoMapFD:
			return fmt.Sprintf("%s = map[%d] ll", reg(i.Dst), i.Imm)
		case PseudoMapValue:
			return fmt.Sprintf("%s = &map[%d] ll", reg(i.Dst), i.Imm)
		}
		return fmt.Sprintf("%s = %d ll", reg(i.Dst), i.Imm)
	}
	if base, ok := ThreeOperandBase(i.Op); ok {
		sym := strings.TrimSuffix(aluSyms[base&0xf0], "=")
		w := ""
		if base&7 == ClassALU {
			w = "w"
		}
		return fmt.Sprintf("%s%d = %s%d %s %d", pick(w, "r"), i.Dst, pick(w, "r"), i.Src, sym, i.Imm)
	}
	switch i.Class() {
	case ClassALU, ClassALU64:
		return i.aluString()
	case ClassJMP, ClassJMP32:
		if i.Op&0xf0 == JmpJA {
			return fmt.Sprintf("goto %+d", i.Off)
		}
		w := "r"
		if i.Class() == ClassJMP32 {
			w = "w"
		}
		src := fmt.Sprint(i.Imm)
		if i.Op&SrcX != 0 {
			src = fmt.Sprintf("%s%d", w, i.Src)
		}
		return fmt.Sprintf("if %s%d %s %s goto %+d", w, i.Dst, jmpSyms[i.Op&0xf0], src, i.Off)
	case ClassLDX:
		return fmt.Sprintf("%s = *(%s *)(%s %s)", reg(i.Dst), sizeNames[i.Size()], reg(i.Src), offset(i.Off))
	case ClassST:
		return fmt.Sprintf("*(%s *)(%s %s) = %d", sizeNames[i.Size()], reg(i.Dst), offset(i.Off), i.Imm)
	case ClassSTX:
		if i.Op&0xe0 == ModeAtomic && i.Imm == AtomicAdd {
			return fmt.Sprintf("lock *(%s *)(%s %s) += %s", sizeNames[i.Size()], reg(i.Dst), offset(i.Off), reg(i.Src))
		}
		return fmt.Sprintf("*(%s *)(%s %s) = %s", sizeNames[i.Size()], reg(i.Dst), offset(i.Off), reg(i.Src))
	}
	return fmt.Sprintf("unknown opcode %#02x", i.Op)
}

func (i Insn) aluString() string {
	w := "r"
	if i.Class() == ClassALU {
		w = "w"
	}
	op := i.Op & 0xf0
	switch op {
	case AluNeg:
		return fmt.Sprintf("%s%d = -%s%d", w, i.Dst, w, i.Dst)
	case AluEnd:
		kind := "le"
		if i.Op&SrcX != 0 {
			kind = "be"
		}
		return fmt.Sprintf("r%d = %s%d r%d", i.Dst, kind, i.Imm, i.Dst)
	}
	src := fmt.Sprint(i.Imm)
	if i.Op&SrcX != 0 {
		src = fmt.Sprintf("%s%d", w, i.Src)
	}
	return fmt.Sprintf("%s%d %s %s", w, i.Dst, aluSyms[op], src)
}

func pick(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

func offset(off int16) string {
	if off < 0 {
		return fmt.Sprintf("- %d", -int(off))
	}
	return fmt.Sprintf("+ %d", off)
}
