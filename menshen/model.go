package menshen

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// The model: a bit-accurate Go model of the CaT fork's datapath, written
// from FORMAT.md Part A (the section numbers below are its). It holds
// every table of the configuration and turns data frames into output
// frames as the RTL does. Configuration entries are applied directly, in
// order (§A.18).

// Sizes of the fork (§A.1, §A.17).
const (
	numStages     = Stages
	numSubUnits   = SubUnits
	numTenants    = 32
	numContainers = Containers
	camEntries    = CAMEntries
	parseActions  = 64
	keySlots      = 8
	window        = Window // bytes of a frame the parser and deparser see
)

// parseAction is one 24-bit parser or deparser action (§A.5).
type parseAction struct {
	offset, size, container int
	valid                   bool
}

// key is a 257-bit key or mask or CAM value: eight 32-bit slots and the
// constant bit 0 (§A.6).
type key struct {
	slot [keySlots]uint32
	bit0 uint32
}

func (k key) and(m key) key {
	for j := range k.slot {
		k.slot[j] &= m.slot[j]
	}
	k.bit0 &= m.bit0
	return k
}

func (k key) not() key {
	for j := range k.slot {
		k.slot[j] = ^k.slot[j]
	}
	k.bit0 ^= 1
	return k
}

// camEntry is a prefix and a key value (§A.8).
type camEntry struct {
	prefix uint16
	value  key
}

// subUnit is one match sub-unit of a stage with its action memory.
type subUnit struct {
	extract [numTenants][keySlots]int
	mask    [numTenants]key
	cam     [camEntries]camEntry
	ind     [camEntries]uint8
	action  [camEntries]*[numContainers + 1]uint64 // nil: all zeros
}

// Model is the pipeline: its tables and its state.
type Model struct {
	parser, deparser [numTenants][parseActions]parseAction
	stage            [numStages][numSubUnits]subUnit
	state            [numStages][numContainers]uint32
	ctl              control
}

// NewModel returns a pipeline after reset: every table zero.
func NewModel() *Model { return &Model{} }

// Header is a control header (§A.14): {stage, module, sub-unit, resv,
// index}.
type Header struct {
	Stage, Module, Sub, Resv, Index int
}

// ParseHeader reads a 24-character 0/1 header.
func ParseHeader(s string) (Header, error) {
	if len(s) != 24 {
		return Header{}, fmt.Errorf("a header has 24 bits, not %d", len(s))
	}
	v, err := strconv.ParseUint(s, 2, 32)
	if err != nil {
		return Header{}, fmt.Errorf("header %q: %w", s, err)
	}
	return headerOf(uint32(v)), nil
}

func headerOf(v uint32) Header {
	return Header{Stage: int(v >> 19), Module: int(v>>16) & 7, Sub: int(v>>12) & 15, Resv: int(v>>8) & 15, Index: int(v & 0xFF)}
}

// Apply writes one configuration entry; bits are the entry's bits, most
// significant first (a text line's bits; padding past the entry is
// ignored). An entry for a stage or module that does not exist changes
// nothing.
func (m *Model) Apply(h Header, bits string) error {
	need := map[int]int{0: 1536, 5: 1536, 6: 8, 3: 16}[h.Module]
	switch {
	case h.Module == 1 && h.Resv == 0:
		need = 68
	case h.Module == 1:
		need = 257
	case h.Module == 2 && h.Resv == 0:
		need = 269
	case h.Module == 2:
		need = 4160
	}
	if len(bits) < need {
		return fmt.Errorf("module %d entry: %d bits, want %d", h.Module, len(bits), need)
	}
	if strings.Trim(bits, "01") != "" {
		return fmt.Errorf("entry bits hold characters other than 0 and 1")
	}
	b := bitString(bits[:need])
	switch h.Module {
	case 0, 5:
		table := &m.parser
		if h.Module == 5 {
			table = &m.deparser
		}
		for a := 0; a < parseActions; a++ {
			v := b.uint(24*a, 24)
			table[h.Index%numTenants][a] = parseAction{offset: int(v>>9) & 511, size: int(v>>7) & 3, container: int(v>>1) & 63, valid: v&1 == 1}
		}
		return nil
	}
	if h.Stage >= numStages || h.Sub >= numSubUnits {
		return nil
	}
	u := &m.stage[h.Stage][h.Sub]
	switch {
	case h.Module == 1 && h.Resv == 0:
		for j := 0; j < keySlots; j++ {
			u.extract[h.Index%numTenants][j] = int(b.uint(6*j, 6))
		}
	case h.Module == 1:
		u.mask[h.Index%numTenants] = b.key(0)
	case h.Module == 2 && h.Resv == 0:
		u.cam[h.Index] = camEntry{prefix: uint16(b.uint(0, 12)), value: b.key(12)}
	case h.Module == 2:
		var words [numContainers + 1]uint64
		for i := 0; i < numContainers; i++ {
			words[i] = b.uint(64*(numContainers-1-i), 64)
		}
		words[numContainers] = b.uint(64*numContainers, 64) &^ (1 << 63) // bit 63 cannot be written (§A.10)
		u.action[h.Index] = &words
	case h.Module == 6 && h.Resv != 0:
		u.ind[h.Index] = uint8(b.uint(0, 8))
	}
	return nil
}

// ApplyConfig applies a configuration in the text form (§A.15), one entry
// per line: `Kind <header> [<header>] <bits>`, or CaT's two-line form
// (`Kind <header> [<header>]`, then the bits). Entries are written
// directly, in order, as the control path writes a configuration emitted
// in CaT's order. Errors name the line.
func (m *Model) ApplyConfig(r io.Reader) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var headers []string // a two-line entry's headers, waiting for its bits
	n, first := 0, 0
	for sc.Scan() {
		n++
		f := strings.Fields(sc.Text())
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if headers == nil && len(f) >= 2 && len(f[1]) == 24 && strings.Trim(f[1], "01") == "" {
			first = n
			if len(f) == 2 || (len(f) == 3 && len(f[2]) == 24) {
				headers = f[1:] // the bits follow on the next line
				continue
			}
			headers, f = f[1:len(f)-1], f[len(f)-1:]
		}
		if headers == nil || len(f) != 1 {
			return fmt.Errorf("line %d: want `Kind <24-bit header> [<24-bit header>] <bits>`", n)
		}
		for _, hs := range headers {
			h, err := ParseHeader(hs)
			if err == nil {
				err = m.Apply(h, f[0])
			}
			if err != nil {
				return fmt.Errorf("line %d: %w", first, err)
			}
		}
		headers = nil
	}
	if headers != nil {
		return fmt.Errorf("line %d: an entry without its bits", first)
	}
	return sc.Err()
}

// bitString reads fields out of a 0/1 string, most significant first.
type bitString string

func (b bitString) uint(from, n int) uint64 {
	var v uint64
	for _, c := range b[from : from+n] {
		v = v<<1 | uint64(c-'0')
	}
	return v
}

// key reads a 257-bit key laid out as §A.6: slot j, then bit 0.
func (b bitString) key(from int) key {
	var k key
	for j := 0; j < keySlots; j++ {
		k.slot[j] = uint32(b.uint(from+32*j, 32))
	}
	k.bit0 = uint32(b.uint(from+256, 1))
	return k
}

// Output is a frame the pipeline emitted, with its tuser.
type Output struct {
	Frame []byte
	// Port is tuser[31:24], the egress port.
	Port uint8
}

// Process runs one frame through the pipeline. A control frame
// configures it along the control path (and emits nothing); a dropped
// frame emits nothing.
func (m *Model) Process(frame []byte) (*Output, error) {
	if !accepted(frame) {
		return nil, nil
	}
	if frame[40] == 0xF1 && frame[41] == 0xF2 {
		return nil, m.controlFrame(frame)
	}
	tci := binary.BigEndian.Uint16(frame[14:16])
	tenant := int(tci & 31)
	prefix := (tci>>12)<<8 | tci&0xFF
	var c [numContainers]uint32
	for _, a := range m.parser[tenant] {
		if a.valid && a.size == 2 {
			c[a.container] = readWord(frame, a.offset)
		}
	}
	port, discard := uint8(4), false
	for s := 0; s < numStages; s++ {
		word := m.match(s, tenant, prefix, &c)
		c = m.execute(s, word, c)
		switch md := word[numContainers]; (md >> 21) & 15 {
		case 0b1100:
			port = uint8(md >> 13)
		case 0b1101:
			discard = (md>>12)&1 == 1
		}
	}
	if discard {
		return nil, nil
	}
	out := append([]byte(nil), frame...)
	for _, a := range m.deparser[tenant] {
		if a.valid && a.size == 2 {
			writeWord(out, a.offset, c[a.container])
		}
	}
	return &Output{Frame: out, Port: port}, nil
}

// accepted is the filter (§A.2): IPv4 and UDP behind one VLAN tag.
func accepted(f []byte) bool {
	return len(f) > 41 && f[16] == 0x08 && f[17] == 0x00 && f[27] == 0x11
}

// match builds stage s's action word: the OR of the action words of the
// sub-units that hit (§A.6).
func (m *Model) match(s, tenant int, prefix uint16, c *[numContainers]uint32) [numContainers + 1]uint64 {
	var word [numContainers + 1]uint64
	for u := range m.stage[s] {
		unit := &m.stage[s][u]
		var k key
		for j, ci := range unit.extract[tenant] {
			k.slot[j] = c[ci]
		}
		k.bit0 = 1
		k = k.and(unit.mask[tenant].not())
		for a := range unit.cam {
			if e := unit.cam[a]; e.prefix == prefix && e.value == k {
				if act := unit.action[unit.ind[a]]; act != nil {
					for i := range word {
						word[i] |= act[i]
					}
				}
				break
			}
		}
	}
	return word
}

// execute runs the 64 container ALUs on the stage's input (§A.11, §A.12).
func (m *Model) execute(s int, word [numContainers + 1]uint64, in [numContainers]uint32) [numContainers]uint32 {
	out := in
	for i := 0; i < numContainers; i++ {
		sub := word[i]
		op := int(sub >> 56)
		a, b, c := in[(sub>>50)&63], in[(sub>>44)&63], in[(sub>>38)&63]
		imm := uint32(sub)
		st := &m.state[s][i]
		bit := func(cond bool) uint32 {
			if cond {
				return 1
			}
			return 0
		}
		switch op {
		case 0x01:
			out[i] = a + b
		case 0x02:
			out[i] = a - b
		case 0x09:
			out[i] = a + imm
		case 0x0A, 0x03:
			out[i] = a - imm
		case 0x0E:
			out[i] = imm
		case 0x04:
			out[i] = bit(a != b)
		case 0x05:
			out[i] = bit(a != imm)
		case 0x06:
			out[i] = bit(a == b)
		case 0x17:
			out[i] = bit(a == imm)
		case 0x18:
			out[i] = bit(int32(a) >= int32(b))
		case 0x1B:
			out[i] = bit(int32(a) >= int32(imm))
		case 0x1C:
			out[i] = bit(int32(a) < int32(b))
		case 0x1D:
			out[i] = bit(int32(a) < int32(imm))
		case 0x12:
			out[i] = bit(a != 0 || b != 0)
		case 0x13:
			out[i] = bit(a != 0 && b != 0)
		case 0x14:
			out[i] = bit(a != 0)
		case 0x10:
			out[i] = c
			if a != 0 {
				out[i] = b
			}
		case 0x11:
			out[i] = imm
			if a != 0 {
				out[i] = b
			}
		case 0x0B:
			out[i] = *st
		case 0x08:
			if b%32 == 0 {
				*st = a
			}
		case 0x07:
			out[i] = *st + 1
			if imm%32 == 0 {
				*st++
			}
		case 0x0C:
			out[i] = statefulIfElse(uint32(sub>>6), a, c, st)
		}
	}
	return out
}

// statefulIfElse is opcode 0x0C with configuration word w (§A.12): p1
// and p2 are the values of containers A and C.
func statefulIfElse(w, p1, p2 uint32, st *uint32) uint32 {
	k1, k2, k3 := w>>26&63, w>>20&63, w>>14&63
	pick := func(sel, k uint32) uint32 { return [4]uint32{p1, p2, k, k}[sel] }
	base := func(zero uint32) uint32 {
		if zero == 1 {
			return 0
		}
		return *st
	}
	l, r := int32(base(w>>13&1)), int32(pick(w>>11&3, k1))
	var holds bool
	switch w >> 3 & 3 {
	case 0:
		holds = l != r
	case 1:
		holds = l < r
	case 2:
		holds = l > r
	case 3:
		holds = l == r
	}
	old := *st
	if holds {
		*st = base(w>>10&1) + pick(w>>8&3, k2)
	} else {
		*st = base(w>>7&1) + pick(w>>5&3, k3)
	}
	if w&1 == 1 {
		return *st
	}
	return old
}

// readWord is the big-endian word at off; bytes past the frame or the
// 512-byte window read as 0 (the RTL's are stale: never depend on them).
func readWord(f []byte, off int) uint32 {
	var v uint32
	for i := off; i < off+4; i++ {
		v <<= 8
		if i < len(f) && i < window {
			v |= uint32(f[i])
		}
	}
	return v
}

// writeWord writes the big-endian word at off, within the frame and the
// window.
func writeWord(f []byte, off int, v uint32) {
	for i := 0; i < 4; i++ {
		if p := off + i; p < len(f) && p < window {
			f[p] = byte(v >> (24 - 8*i))
		}
	}
}

// State returns the state word of container ALU c in stage s (§A.12).
func (m *Model) State(s, c int) (uint32, error) {
	if s < 0 || s >= numStages || c < 0 || c >= numContainers {
		return 0, fmt.Errorf("stage %d, container %d: the target has stages 0 to %d and containers 0 to %d", s, c, numStages-1, numContainers-1)
	}
	return m.state[s][c], nil
}
