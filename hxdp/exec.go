package hxdp

import (
	"encoding/binary"
	"fmt"
	"math/bits"
)

// machine is the core's state for one packet: registers and stack reset
// to zero (the core's program state self-reset, paper §4.2), r1 the
// context and r10 the stack's end.
type machine struct {
	c           *Core
	regs        [Registers]uint64
	stack       [StackBytes]byte
	frame       []byte
	data, end   int // the packet's first byte and the byte past its last, in frame
	ifindex, rx uint32

	pc, cycles, insns int
	done              bool
	action            uint32
	redirect          *Cell
	written           []Cell
	seen              map[string]bool
}

func newMachine(c *Core, in Input) *machine {
	m := &machine{c: c, ifindex: in.Ifindex, rx: in.Queue, seen: map[string]bool{}}
	m.frame = make([]byte, Headroom+MetaBytes+len(in.Data)+tailroom)
	m.data = Headroom + MetaBytes
	m.end = m.data + len(in.Data)
	copy(m.frame[Headroom:], in.Meta[:])
	copy(m.frame[m.data:], in.Data)
	m.regs[1] = regionCtx << regionShift
	m.regs[10] = regionStack<<regionShift | StackBytes
	return m
}

func (m *machine) run() error {
	for !m.done {
		if m.pc < 0 || m.pc >= len(m.c.rom) {
			return fmt.Errorf("the program counter left the ROM: row %d of %d", m.pc, len(m.c.rom))
		}
		if m.cycles >= maxRowsPerPacket {
			return fmt.Errorf("the program ran %d rows without exiting", m.cycles)
		}
		if err := m.row(); err != nil {
			return fmt.Errorf("row %d: %w", m.pc, err)
		}
	}
	return nil
}

// effects is what a row's lanes do, collected before any is committed:
// every lane reads the registers and memory as they were when the row
// began (operands are fetched at IF, memory at ID) and writes at commit.
type effects struct {
	regs   []regWrite
	stores []memWrite
	calls  []Insn
	// next is the first control transfer taken, in lane order: the
	// lowest lane's wins (branch priority by lane).
	next     int
	exit     bool
	action   uint32
	transfer bool
}

type regWrite struct {
	reg  uint8
	val  uint64
	lane int
}

type memWrite struct {
	addr uint64
	size int
	val  uint64
}

// row executes the row at pc: one cycle.
func (m *machine) row() error {
	row := m.c.rom[m.pc]
	m.cycles++
	e := &effects{next: m.pc + 1}
	for lane := 0; lane < Lanes; lane++ {
		in := Decode(row[lane])
		if in.IsNop() {
			continue
		}
		m.insns++
		if in.Op == OpLdImm64 {
			if in.Dst >= Registers {
				return fmt.Errorf("lane %d: register r%d does not exist", lane, in.Dst)
			}
			if lane+1 >= Lanes {
				return fmt.Errorf("lane %d: a 64-bit immediate load needs the next lane", lane)
			}
			v, err := m.ldImm64(in, Decode(row[lane+1]))
			if err != nil {
				return fmt.Errorf("lane %d: %w", lane, err)
			}
			e.regs = append(e.regs, regWrite{in.Dst, v, lane})
			lane++
			continue
		}
		if err := m.lane(in, lane, e); err != nil {
			return fmt.Errorf("lane %d (%v): %w", lane, in, err)
		}
	}
	return m.commit(e)
}

// commit writes a row's results: registers, then memory, then the
// helper calls (a valid schedule has them touch nothing else the row
// touches), then the program counter.
func (m *machine) commit(e *effects) error {
	seen := map[uint8]int{}
	for _, w := range e.regs {
		if l, ok := seen[w.reg]; ok {
			return fmt.Errorf("lanes %d and %d both write r%d (Bernstein's conditions)", l, w.lane, w.reg)
		}
		seen[w.reg] = w.lane
		if w.reg >= 10 {
			return fmt.Errorf("lane %d writes r%d, which is read-only", w.lane, w.reg)
		}
		m.regs[w.reg] = w.val
	}
	for _, s := range e.stores {
		if err := m.store(s.addr, s.size, s.val); err != nil {
			return err
		}
	}
	for _, call := range e.calls {
		if err := m.call(call); err != nil {
			return err
		}
	}
	if e.exit {
		m.done, m.action = true, e.action
	}
	m.pc = e.next
	return nil
}

// lane executes one instruction against the row's start state.
func (m *machine) lane(in Insn, lane int, e *effects) error {
	if in.Dst >= Registers || in.Src >= Registers {
		return fmt.Errorf("register r%d or r%d does not exist (r0 to r10 do)", in.Dst, in.Src)
	}
	r := &m.regs
	if base, ok := ThreeOperandBase(in.Op); ok {
		v, err := alu(base, r[in.Src], uint64(int64(in.Imm)), in.Imm)
		if err != nil {
			return err
		}
		e.regs = append(e.regs, regWrite{in.Dst, v, lane})
		return nil
	}
	switch {
	case in.Op == OpLoad48:
		v, err := m.load(r[in.Src]+uint64(int64(in.Off)), 6)
		e.regs = append(e.regs, regWrite{in.Dst, v, lane})
		return err
	case in.Op == OpStore48:
		e.stores = append(e.stores, memWrite{r[in.Dst] + uint64(int64(in.Off)), 6, r[in.Src]})
		return nil
	case in.Op == OpExitImm:
		m.transfer(e, -1, true, uint32(in.Imm))
		return nil
	}
	switch in.Class() {
	case ClassALU, ClassALU64:
		src := uint64(int64(in.Imm))
		if in.Op&SrcX != 0 {
			src = r[in.Src]
		}
		v, err := alu(in.Op, r[in.Dst], src, in.Imm)
		if err != nil {
			return err
		}
		e.regs = append(e.regs, regWrite{in.Dst, v, lane})
	case ClassLDX:
		if in.Op&0xe0 != ModeMEM {
			return fmt.Errorf("opcode %#02x is not one the core has", in.Op)
		}
		v, err := m.load(r[in.Src]+uint64(int64(in.Off)), in.Size())
		if err != nil {
			return err
		}
		e.regs = append(e.regs, regWrite{in.Dst, v, lane})
	case ClassST:
		if in.Op&0xe0 != ModeMEM {
			return fmt.Errorf("opcode %#02x is not one the core has", in.Op)
		}
		e.stores = append(e.stores, memWrite{r[in.Dst] + uint64(int64(in.Off)), in.Size(), uint64(int64(in.Imm))})
	case ClassSTX:
		addr := r[in.Dst] + uint64(int64(in.Off))
		switch {
		case in.Op&0xe0 == ModeMEM:
			e.stores = append(e.stores, memWrite{addr, in.Size(), r[in.Src]})
		case in.Op&0xe0 == ModeAtomic && in.Imm == AtomicAdd && in.Size() >= 4:
			// The scheduler keeps other accesses of these bytes out of
			// the row (a store conflicts with them), so the load sees
			// the memory before the row.
			v, err := m.load(addr, in.Size())
			if err != nil {
				return err
			}
			e.stores = append(e.stores, memWrite{addr, in.Size(), v + r[in.Src]})
		default:
			return fmt.Errorf("opcode %#02x (imm %d) is not one the core has", in.Op, in.Imm)
		}
	case ClassJMP, ClassJMP32:
		return m.jump(in, e)
	default:
		return fmt.Errorf("opcode %#02x is not one the core has", in.Op)
	}
	return nil
}

// transfer records a control transfer unless a lower lane's was taken.
func (m *machine) transfer(e *effects, target int, exit bool, action uint32) {
	if e.transfer {
		return
	}
	e.transfer, e.exit, e.action = true, exit, action
	if !exit {
		e.next = target
	}
}

func (m *machine) jump(in Insn, e *effects) error {
	r := &m.regs
	op := in.Op & 0xf0
	switch op {
	case JmpCall:
		e.calls = append(e.calls, in)
		return nil
	case JmpExit:
		m.transfer(e, -1, true, uint32(r[0]))
		return nil
	case JmpJA:
		m.transfer(e, m.pc+1+int(in.Off), false, 0)
		return nil
	}
	a, b := r[in.Dst], uint64(int64(in.Imm))
	if in.Op&SrcX != 0 {
		b = r[in.Src]
	}
	if in.Class() == ClassJMP32 {
		a, b = uint64(uint32(a)), uint64(uint32(b))
		if op == JmpJSGT || op == JmpJSGE || op == JmpJSLT || op == JmpJSLE {
			a, b = uint64(int64(int32(a))), uint64(int64(int32(b)))
		}
	}
	taken, err := compare(op, a, b)
	if err != nil {
		return err
	}
	if taken {
		m.transfer(e, m.pc+1+int(in.Off), false, 0)
	}
	return nil
}

func compare(op uint8, a, b uint64) (bool, error) {
	switch op {
	case JmpJEQ:
		return a == b, nil
	case JmpJNE:
		return a != b, nil
	case JmpJGT:
		return a > b, nil
	case JmpJGE:
		return a >= b, nil
	case JmpJLT:
		return a < b, nil
	case JmpJLE:
		return a <= b, nil
	case JmpJSET:
		return a&b != 0, nil
	case JmpJSGT:
		return int64(a) > int64(b), nil
	case JmpJSGE:
		return int64(a) >= int64(b), nil
	case JmpJSLT:
		return int64(a) < int64(b), nil
	case JmpJSLE:
		return int64(a) <= int64(b), nil
	}
	return false, fmt.Errorf("jump operation %#02x is not one the core has", op)
}

// alu computes an ALU instruction (op's class says 32 or 64 bits): eBPF's
// semantics, a division by zero giving 0 and a modulo by zero the
// dividend.
func alu(op uint8, dst, src uint64, imm int32) (uint64, error) {
	if op&0xf0 == AluEnd {
		// END's class is ALU whatever its width: imm says it.
		return byteSwap(op, dst, imm)
	}
	is32 := op&7 == ClassALU
	if is32 {
		dst, src = uint64(uint32(dst)), uint64(uint32(src))
	}
	shift := src & 63
	if is32 {
		shift = src & 31
	}
	var v uint64
	switch op & 0xf0 {
	case AluAdd:
		v = dst + src
	case AluSub:
		v = dst - src
	case AluMul:
		v = dst * src
	case AluDiv:
		if src != 0 {
			v = dst / src
		}
	case AluOr:
		v = dst | src
	case AluAnd:
		v = dst & src
	case AluLsh:
		v = dst << shift
	case AluRsh:
		v = dst >> shift
	case AluNeg:
		v = -dst
	case AluMod:
		v = dst
		if src != 0 {
			v = dst % src
		}
	case AluXor:
		v = dst ^ src
	case AluMov:
		v = src
	case AluArsh:
		if is32 {
			v = uint64(uint32(int32(dst) >> shift))
		} else {
			v = uint64(int64(dst) >> shift)
		}
	default:
		return 0, fmt.Errorf("ALU operation %#02x is not one the core has", op&0xf0)
	}
	if is32 {
		v = uint64(uint32(v))
	}
	return v, nil
}

// byteSwap is eBPF's END: to little-endian (a truncation on this
// little-endian core) or to big-endian (a swap), over imm bits.
func byteSwap(op uint8, v uint64, imm int32) (uint64, error) {
	be := op&SrcX != 0
	switch imm {
	case 16:
		v = uint64(uint16(v))
		if be {
			v = uint64(bits.ReverseBytes16(uint16(v)))
		}
	case 32:
		v = uint64(uint32(v))
		if be {
			v = uint64(bits.ReverseBytes32(uint32(v)))
		}
	case 64:
		if be {
			v = bits.ReverseBytes64(v)
		}
	default:
		return 0, fmt.Errorf("byte swap of %d bits", imm)
	}
	return v, nil
}

// ldImm64 is a 64-bit immediate load: a constant, a map, or the address
// of a map's value.
func (m *machine) ldImm64(lo, hi Insn) (uint64, error) {
	switch lo.Src {
	case 0:
		return uint64(uint32(lo.Imm)) | uint64(uint32(hi.Imm))<<32, nil
	case PseudoMapFD:
		if _, err := m.c.table(int(lo.Imm)); err != nil {
			return 0, err
		}
		return regionMapFD<<regionShift | uint64(lo.Imm)<<mapIDShift, nil
	case PseudoMapValue:
		t, err := m.c.table(int(lo.Imm))
		if err != nil {
			return 0, err
		}
		if hi.Imm < 0 || int(hi.Imm) >= t.ValueBytes {
			return 0, fmt.Errorf("offset %d is outside map %s's value of %d bytes", hi.Imm, t.Name, t.ValueBytes)
		}
		return mapValueAddr(int(lo.Imm), int(hi.Imm)), nil
	}
	return 0, fmt.Errorf("a 64-bit immediate load with source %d", lo.Src)
}

// ------------------------------------------------------------- memory

// bytesAt finds the memory an access of size bytes at addr touches.
func (m *machine) bytesAt(addr uint64, size int) ([]byte, *table, int, error) {
	off := int64(addr & (1<<regionShift - 1))
	switch region(addr) {
	case regionPacket:
		if off < int64(m.data-MetaBytes) || off+int64(size) > int64(m.end) {
			return nil, nil, 0, fmt.Errorf("an access of %d bytes at packet offset %d is outside the packet and its metadata (offsets %d to %d)",
				size, off-int64(m.data), -MetaBytes, m.end-m.data)
		}
		return m.frame[off : off+int64(size)], nil, 0, nil
	case regionStack:
		if off < 0 || off+int64(size) > StackBytes {
			return nil, nil, 0, fmt.Errorf("an access of %d bytes at stack offset %d is outside the stack", size, off-StackBytes)
		}
		return m.stack[off : off+int64(size)], nil, 0, nil
	case regionMapVal:
		id := int(addr >> mapIDShift & 0xff)
		t, err := m.c.table(id)
		if err != nil {
			return nil, nil, 0, err
		}
		o := int(addr & mapOffsetMask)
		slot := o / t.ValueBytes
		if o%t.ValueBytes+size > t.ValueBytes || slot >= t.MaxEntries || (!t.indexed() && slot >= len(t.keys)) {
			return nil, nil, 0, fmt.Errorf("an access of %d bytes at offset %d of map %s is outside its values", size, o, t.Name)
		}
		return t.values[o : o+size], t, slot, nil
	}
	return nil, nil, 0, fmt.Errorf("an access of %d bytes at %#x, which is no memory", size, addr)
}

func (m *machine) load(addr uint64, size int) (uint64, error) {
	if region(addr) == regionCtx {
		return m.loadCtx(addr&(1<<regionShift-1), size)
	}
	b, _, _, err := m.bytesAt(addr, size)
	if err != nil {
		return 0, err
	}
	var buf [8]byte
	copy(buf[:], b)
	return binary.LittleEndian.Uint64(buf[:]), nil
}

// loadCtx reads struct xdp_md: 32-bit fields whose pointers the core
// widens, as the kernel rewrites these loads.
func (m *machine) loadCtx(off uint64, size int) (uint64, error) {
	if size != 4 {
		return 0, fmt.Errorf("a %d-byte load from the context (its fields are 4 bytes)", size)
	}
	pkt := uint64(regionPacket << regionShift)
	switch off {
	case ctxData:
		return pkt | uint64(m.data), nil
	case ctxDataEnd:
		return pkt | uint64(m.end), nil
	case ctxDataMeta:
		return pkt | uint64(m.data-MetaBytes), nil
	case ctxIfindex:
		return uint64(m.ifindex), nil
	case ctxRxQueue:
		return uint64(m.rx), nil
	}
	return 0, fmt.Errorf("a load at context offset %d, which is no field the core provides", off)
}

func (m *machine) store(addr uint64, size int, v uint64) error {
	b, t, slot, err := m.bytesAt(addr, size)
	if err != nil {
		return err
	}
	var buf [8]byte
	binary.LittleEndian.PutUint64(buf[:], v)
	copy(b, buf[:size])
	if t != nil {
		m.wrote(t, slot)
	}
	return nil
}

func (m *machine) wrote(t *table, slot int) {
	k := t.keyOf(slot)
	id := fmt.Sprintf("%d/%x", t.ID, k)
	if !m.seen[id] {
		m.seen[id] = true
		m.written = append(m.written, Cell{Map: t.ID, Key: k})
	}
}
