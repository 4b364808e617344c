package hxdp

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// Shorthands for hand-written ROMs.
func mov(dst uint8, imm int32) uint64 { return Insn{Op: 0xb7, Dst: dst, Imm: imm}.Word() }
func movr(dst, src uint8) uint64      { return Insn{Op: 0xbf, Dst: dst, Src: src}.Word() }
func exitImm(a int32) uint64          { return Insn{Op: OpExitImm, Imm: a}.Word() }
func exit() uint64                    { return Insn{Op: OpExit}.Word() }
func ldxw(dst, src uint8, off int16) uint64 {
	return Insn{Op: ClassLDX | ModeMEM | SizeW, Dst: dst, Src: src, Off: off}.Word()
}

func frame(n int) []byte {
	p := make([]byte, n)
	for i := range p {
		p[i] = byte(i)
	}
	return p
}

func run(t *testing.T, rom ROM, cfg Config, data []byte) *Result {
	t.Helper()
	c, err := New(rom, cfg)
	if err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(Input{Data: data})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// TestWord: a lane word is the instruction's 8 bytes as a little-endian
// u64: r0 = 2 is b7 00 0000 02000000, so 0x00000002000000b7.
func TestWord(t *testing.T) {
	if got, want := mov(0, 2), uint64(0x00000002000000b7); got != want {
		t.Errorf("r0 = 2: got %#016x, want %#016x", got, want)
	}
	// if r3 > r5 goto -2: 2d, dst 3 | src 5 << 4 = 0x53, off 0xfffe, imm 0.
	j := Insn{Op: 0x2d, Dst: 3, Src: 5, Off: -2}
	if got, want := j.Word(), uint64(0x00000000fffe532d); got != want {
		t.Errorf("jump: got %#016x, want %#016x", got, want)
	}
	if Decode(j.Word()) != j {
		t.Errorf("Decode(Word) = %+v, want %+v", Decode(j.Word()), j)
	}
}

// TestHex: lane 0 is the rightmost 16 hex digits of the row.
func TestHex(t *testing.T) {
	rom := ROM{{mov(0, 2), exitImm(1), 0, 0}}
	want := "0000000000000000" + "0000000000000000" + "0000000100000096" + "00000002000000b7" + "\n"
	if got := string(rom.Hex()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	back, err := ParseHex(rom.Hex())
	if err != nil || len(back) != 1 || back[0] != rom[0] {
		t.Errorf("ParseHex(Hex) = %v, %v; want %v", back, err, rom)
	}
}

// TestBranchPriority: two jumps taken in one row: the lower lane wins.
// Row 0: lane 0 jumps to row 2 (r2 is 0 at reset), lane 1 to row 3.
func TestBranchPriority(t *testing.T) {
	rom := ROM{
		{Insn{Op: 0x15, Dst: 2, Off: 1}.Word(), Insn{Op: OpJA, Off: 2}.Word()},
		{exitImm(1)},
		{exitImm(2)},
		{exitImm(3)},
	}
	res := run(t, rom, Config{}, frame(MinFrame))
	if res.Action != 2 || res.Cycles != 2 {
		t.Errorf("action %d after %d cycles; want 2 after 2 (row 0, then row 2)", res.Action, res.Cycles)
	}
	// Lane 0 not taken (r2 != 1): lane 1's jump to row 3 decides.
	rom[0][0] = Insn{Op: 0x15, Dst: 2, Imm: 1, Off: 1}.Word()
	if res := run(t, rom, Config{}, frame(MinFrame)); res.Action != 3 {
		t.Errorf("action %d; want 3 (lane 1's jump)", res.Action)
	}
}

// TestExitAfterTakenBranch: an exit in a higher lane than a taken jump
// does not end the program; in a row of its own it ends it at fetch,
// that row counted.
func TestExitAfterTakenBranch(t *testing.T) {
	rom := ROM{
		{mov(3, 9), Insn{Op: 0x15, Dst: 2, Off: 0}.Word(), exitImm(1)},
		{movr(0, 3)},
		{exit()},
	}
	res := run(t, rom, Config{}, frame(MinFrame))
	if res.Action != 9 || res.Cycles != 3 || res.Instructions != 5 {
		t.Errorf("action %d, %d cycles, %d instructions; want 9, 3, 5", res.Action, res.Cycles, res.Instructions)
	}
}

// TestRowReadsAtStart: every lane reads the registers as the row found
// them (a schedule under Bernstein's conditions never depends on it, but
// the core's semantics are defined).
func TestRowReadsAtStart(t *testing.T) {
	rom := ROM{{mov(2, 5), movr(0, 2)}, {exit()}}
	if res := run(t, rom, Config{}, frame(MinFrame)); res.Action != 0 {
		t.Errorf("r0 = %d; want 0: lane 1 reads r2 before lane 0's write", res.Action)
	}
}

// TestTwoWrites: two lanes of a row writing one register break
// Bernstein's conditions: the core refuses the row.
func TestTwoWrites(t *testing.T) {
	c, err := New(ROM{{mov(2, 5), mov(2, 6)}, {exitImm(2)}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(Input{Data: frame(MinFrame)}); err == nil || !strings.Contains(err.Error(), "both write r2") {
		t.Errorf("got %v; want both lanes writing r2 refused", err)
	}
}

// TestThreeOperand: r0 = r3 + 34 with r3 = 7 gives 41; r0 = r3 >> 1
// (0xf7) gives 3; the 32-bit add (0x8c) wraps: 0xffffffff + 2 = 1.
func TestThreeOperand(t *testing.T) {
	for _, tc := range []struct {
		op       uint8
		r3       int32
		imm      int32
		want     uint32
		describe string
	}{
		{0x8f, 7, 34, 41, "add"},
		{0xf7, 7, 1, 3, "rsh"},
		{0xe7, 0x1f, 0x6, 6, "and (this model's 0xe7)"},
		{0x8c, -1, 2, 1, "add32 wraps"},
		{0xd7, 7, 10, 0xfffffffd, "sub"},
	} {
		rom := ROM{{mov(3, tc.r3)}, {Insn{Op: tc.op, Dst: 0, Src: 3, Imm: tc.imm}.Word()}, {exit()}}
		if res := run(t, rom, Config{}, frame(MinFrame)); res.Action != tc.want {
			t.Errorf("%s: r0 = %#x, want %#x", tc.describe, res.Action, tc.want)
		}
	}
}

// TestLoadStore48 copies the destination MAC (bytes 0-5) over the source
// MAC (6-11) with one 6-byte load and one 6-byte store.
func TestLoadStore48(t *testing.T) {
	rom := ROM{
		{ldxw(2, 1, 0)},
		{Insn{Op: OpLoad48, Dst: 3, Src: 2, Off: 0}.Word()},
		{Insn{Op: OpStore48, Dst: 2, Src: 3, Off: 6}.Word(), exitImm(XDPTX)},
	}
	in := frame(MinFrame)
	res := run(t, rom, Config{}, in)
	want := bytes.Clone(in)
	copy(want[6:12], in[0:6])
	if res.Action != XDPTX || !bytes.Equal(res.Data, want) {
		t.Errorf("action %d, %x; want 3, %x", res.Action, res.Data, want)
	}
}

// TestALU checks eBPF's edge cases: division by zero is 0, modulo by
// zero the dividend, 32-bit results zero-extended, arithmetic shifts,
// byte swaps (be16 of 0x1234 is 0x3412; le64 leaves the value).
func TestALU(t *testing.T) {
	for _, tc := range []struct {
		op       uint8
		dst, src uint64
		imm      int32
		want     uint64
	}{
		{0x3f, 10, 0, 0, 0},                                  // div by zero
		{0x9f, 10, 0, 0, 10},                                 // mod by zero
		{0x04, 0xffffffff, 0, 1, 0},                          // add32 wraps to 0
		{0xc7, 0x8000000000000000, 0, 4, 0xf800000000000000}, // arsh
		{0xdc, 0x1234, 0, 16, 0x3412},                        // be16
		{0xdc, 0x1122334455667788, 0, 64, 0x8877665544332211},
		{0xd4, 0x1122334455667788, 0, 32, 0x55667788}, // le32 truncates
		{0x87, 5, 0, 0, ^uint64(4)},                   // neg
		{0x64, 1, 0, 33, 2},                           // lsh32 masks the shift to 5 bits
	} {
		src := tc.src
		if tc.op&SrcX == 0 {
			src = uint64(int64(tc.imm))
		}
		got, err := alu(tc.op, tc.dst, src, tc.imm)
		if err != nil || got != tc.want {
			t.Errorf("op %#02x on %#x, %#x: got %#x (%v), want %#x", tc.op, tc.dst, src, got, err, tc.want)
		}
	}
}

// TestAdjustHead grows the packet by 4 bytes: the metadata moves with its
// head (as the kernel's helper has it), and the new bytes come first.
func TestAdjustHead(t *testing.T) {
	rom := ROM{
		{mov(2, -4)},
		{Insn{Op: OpCall, Imm: HelperAdjustHead}.Word()},
		{movr(6, 0)},
		{Insn{Op: 0xbf, Dst: 0, Src: 6}.Word()},
		{exit()},
	}
	c, err := New(rom, Config{})
	if err != nil {
		t.Fatal(err)
	}
	in := Input{Data: frame(MinFrame)}
	copy(in.Meta[:], "abcdefgh")
	res, err := c.Run(in)
	if err != nil {
		t.Fatal(err)
	}
	if res.Action != 0 || len(res.Data) != MinFrame+4 || !bytes.Equal(res.Data[4:], in.Data) || string(res.Meta[:]) != "abcdefgh" {
		t.Errorf("returned %d, %d bytes %x, meta %q; want 0, %d bytes, the packet after 4, meta kept", res.Action, len(res.Data), res.Data, res.Meta, MinFrame+4)
	}
}

// TestMaps: an array lookup of index 1 finds the value the control plane
// wrote; a store into it is a written cell; an LPM lookup takes the
// longest prefix.
func TestMaps(t *testing.T) {
	cfg := Config{Maps: []Map{
		{ID: 0, Name: "a", Type: "array", KeyBytes: 4, ValueBytes: 8, MaxEntries: 2},
		{ID: 1, Name: "l", Type: "lpm_trie", KeyBytes: 8, ValueBytes: 4, MaxEntries: 4},
	}}
	key := func(n uint32) []byte { return binary.LittleEndian.AppendUint32(nil, n) }
	rom := ROM{
		{Insn{Op: 0x62, Dst: 10, Off: -4, Imm: 1}.Word()}, // *(u32 *)(r10 - 4) = 1
		{movr(2, 10)},
		{Insn{Op: 0x07, Dst: 2, Imm: -4}.Word(), Insn{Op: OpLdImm64, Dst: 1, Src: PseudoMapFD, Imm: 0}.Word(), 0},
		{Insn{Op: OpCall, Imm: HelperMapLookup}.Word()},
		{Insn{Op: 0x79, Dst: 3, Src: 0, Off: 0}.Word()},  // r3 = *(u64 *)(r0 + 0)
		{Insn{Op: 0x7a, Dst: 0, Off: 0, Imm: 77}.Word()}, // *(u64 *)(r0 + 0) = 77
		{movr(0, 3)},
		{exit()},
	}
	c, err := New(rom, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Put(0, key(1), binary.LittleEndian.AppendUint64(nil, 42)); err != nil {
		t.Fatal(err)
	}
	res, err := c.Run(Input{Data: frame(MinFrame)})
	if err != nil {
		t.Fatal(err)
	}
	v, _ := c.Lookup(0, key(1))
	if res.Action != 42 || binary.LittleEndian.Uint64(v) != 77 || len(res.Written) != 1 || !bytes.Equal(res.Written[0].Key, key(1)) {
		t.Errorf("read %d, cell now %x, written %v; want 42, 77, [a[1]]", res.Action, v, res.Written)
	}
	// LPM: 10.0.0.0/8 -> 1, 10.1.0.0/16 -> 2; 10.1.2.3/32 finds 2.
	tb := c.maps[1]
	put := func(n uint32, a, b byte, v uint32) {
		k := append(key(n), a, b, 0, 0)
		if err := tb.put(k, key(v)); err != nil {
			t.Fatal(err)
		}
	}
	put(8, 10, 0, 1)
	put(16, 10, 1, 2)
	if s := tb.lookup(append(key(32), 10, 1, 2, 3)); s < 0 || binary.LittleEndian.Uint32(tb.values[s*4:]) != 2 {
		t.Errorf("10.1.2.3 found slot %d; want the /16's", s)
	}
	if s := tb.lookup(append(key(32), 11, 1, 2, 3)); s != -1 {
		t.Errorf("11.1.2.3 found slot %d; want none", s)
	}
}

// TestRunts: the core takes no packet shorter than Ethernet's minimum.
func TestRunts(t *testing.T) {
	c, err := New(ROM{{exitImm(2)}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(Input{Data: frame(MinFrame - 1)}); err == nil {
		t.Errorf("a packet of %d bytes ran; want it refused", MinFrame-1)
	}
}

// TestOutOfPacket: a load past the packet's end is an error, not a value.
func TestOutOfPacket(t *testing.T) {
	rom := ROM{{ldxw(2, 1, 0)}, {ldxw(3, 2, MinFrame-2)}, {exitImm(2)}}
	c, _ := New(rom, Config{})
	if _, err := c.Run(Input{Data: frame(MinFrame)}); err == nil || !strings.Contains(err.Error(), "outside the packet") {
		t.Errorf("got %v; want an access outside the packet", err)
	}
}

// FuzzCore runs ROMs of arbitrary words: the core returns a result or an
// error, never panics, and stops.
func FuzzCore(f *testing.F) {
	f.Add(ROM{{ldxw(2, 1, 0)}, {Insn{Op: OpLoad48, Dst: 3, Src: 2}.Word(), exitImm(2)}}.Hex())
	f.Add(ROM{{Insn{Op: OpLdImm64, Dst: 1, Src: PseudoMapValue}.Word(), Insn{Imm: 3}.Word()}, {Insn{Op: 0x79, Dst: 0, Src: 1}.Word()}, {exit()}}.Hex())
	f.Add(ROM{{Insn{Op: OpJA, Off: -1}.Word()}}.Hex())
	cfg := Config{Maps: []Map{{ID: 0, Name: "a", Type: "array", KeyBytes: 4, ValueBytes: 8, MaxEntries: 2}}}
	f.Fuzz(func(t *testing.T, text []byte) {
		rom, err := ParseHex(text)
		if err != nil || len(rom) == 0 || len(rom) > 16 {
			return
		}
		c, err := New(rom, cfg)
		if err != nil {
			return
		}
		res, err := c.Run(Input{Data: frame(MinFrame)})
		if err == nil && (res.Cycles == 0 || res.Cycles > maxRowsPerPacket) {
			t.Fatalf("%d cycles", res.Cycles)
		}
	})
}

// TestLockAdd: lock *(u32 *)(r2 + 0) += r3 with r3 = 5 adds to the
// little-endian word of bytes 0-3 (00 01 02 03 is 0x03020100): byte 0
// becomes 05, the others stay. The fetching form (imm 1) is refused.
func TestLockAdd(t *testing.T) {
	lockAdd := func(imm int32) uint64 {
		return Insn{Op: ClassSTX | ModeAtomic | SizeW, Dst: 2, Src: 3, Imm: imm}.Word()
	}
	rom := ROM{{ldxw(2, 1, 0), mov(3, 5)}, {lockAdd(AtomicAdd)}, {exitImm(XDPTX)}}
	in := frame(MinFrame)
	res := run(t, rom, Config{}, in)
	want := bytes.Clone(in)
	want[0] = 5
	if res.Action != XDPTX || !bytes.Equal(res.Data, want) {
		t.Errorf("action %d, %x; want 3, %x", res.Action, res.Data, want)
	}
	if got := (Insn{Op: ClassSTX | ModeAtomic | SizeW, Dst: 2, Src: 3}).String(); got != "lock *(u32 *)(r2 + 0) += r3" {
		t.Errorf("disassembled as %q", got)
	}
	c, err := New(ROM{{ldxw(2, 1, 0), mov(3, 5)}, {lockAdd(1)}, {exitImm(XDPTX)}}, Config{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Run(Input{Data: frame(MinFrame)}); err == nil || !strings.Contains(err.Error(), "not one the core has") {
		t.Errorf("fetch-add: got %v, want it refused", err)
	}
}
