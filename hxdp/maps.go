package hxdp

import (
	"bytes"
	"encoding/binary"
	"fmt"
)

// Map types, named as maps.json names them; the number is the kernel's
// (enum bpf_map_type), which the configuration lines carry.
var mapTypes = map[string]uint32{
	"hash": 1, "array": 2, "lpm_trie": 11, "devmap": 14, "xskmap": 17,
}

// Map is one map of the configuration. Its ID is what a 64-bit immediate
// load of the map (or of its value) carries in imm.
type Map struct {
	ID         int    `json:"id"`
	Name       string `json:"name"`
	Type       string `json:"type"`
	KeyBytes   int    `json:"key_bytes"`
	ValueBytes int    `json:"value_bytes"`
	MaxEntries int    `json:"max_entries"`
	// Written says the program stores into the map's values (registers,
	// counters): the differential tests compare these after each packet.
	Written bool `json:"written"`
	// Data is the initial value of a data section (.rodata: an array of
	// one entry), or nil.
	Data []byte `json:"data,omitempty"`
	// Line is the first 128-bit line of Data in the configuration (after
	// the descriptors); 0 when Data is nil.
	Line int `json:"line,omitempty"`
}

// Config is the map configuration: the maps the ROM refers to, by id.
type Config struct {
	Maps []Map `json:"maps"`
}

// AXI-Lite addresses of the map configuration (NIC.md).
const (
	MapBase   = 0x80010000
	MapCommit = 0x800100ff
	// lineStride is the address step from one 128-bit line to the next;
	// a line's four 32-bit words sit at +0x10, +0x14, +0x18 and +0x1c, the
	// least significant first (the paper artifact's map memory layout).
	lineStride = 0x100
	lineWords  = 0x10
)

// Validate checks the configuration's ids and types.
func (c *Config) Validate() error {
	for i, m := range c.Maps {
		if m.ID != i {
			return fmt.Errorf("map %s: id %d at place %d (ids are places)", m.Name, m.ID, i)
		}
		if _, ok := mapTypes[m.Type]; !ok {
			return fmt.Errorf("map %s: type %q is not one the core holds", m.Name, m.Type)
		}
		if m.KeyBytes <= 0 || m.ValueBytes <= 0 || m.MaxEntries <= 0 {
			return fmt.Errorf("map %s: key %d, value %d, entries %d: each must be positive", m.Name, m.KeyBytes, m.ValueBytes, m.MaxEntries)
		}
	}
	return nil
}

// Lines is the configuration as the core's map memory takes it: one
// 128-bit descriptor line per map, in id order (type, key bytes, value
// bytes, entries: four 32-bit words, the type least significant), then
// the data lines of each map that has initial data, 16 bytes a line,
// zero-padded.
func (c *Config) Lines() [][16]byte {
	var lines [][16]byte
	for _, m := range c.Maps {
		var l [16]byte
		binary.LittleEndian.PutUint32(l[0:], mapTypes[m.Type])
		binary.LittleEndian.PutUint32(l[4:], uint32(m.KeyBytes))
		binary.LittleEndian.PutUint32(l[8:], uint32(m.ValueBytes))
		binary.LittleEndian.PutUint32(l[12:], uint32(m.MaxEntries))
		lines = append(lines, l)
	}
	for _, m := range c.Maps {
		for off := 0; off < len(m.Data); off += 16 {
			var l [16]byte
			copy(l[:], m.Data[off:])
			lines = append(lines, l)
		}
	}
	return lines
}

// AssignLines sets each map's Line: where its data lines start.
func (c *Config) AssignLines() {
	next := len(c.Maps)
	for i := range c.Maps {
		c.Maps[i].Line = 0
		if len(c.Maps[i].Data) > 0 {
			c.Maps[i].Line = next
			next += (len(c.Maps[i].Data) + 15) / 16
		}
	}
}

// AXI writes the configuration as AXI-Lite writes, one per line of text
// ("ADDRESS VALUE", both hex): each line's four words, then the commit.
func (c *Config) AXI() []byte {
	var b bytes.Buffer
	for i, l := range c.Lines() {
		for w := 0; w < 4; w++ {
			addr := MapBase + i*lineStride + lineWords + 4*w
			fmt.Fprintf(&b, "%08x %08x\n", addr, binary.LittleEndian.Uint32(l[4*w:]))
		}
	}
	fmt.Fprintf(&b, "%08x %08x\n", MapCommit, 1)
	return b.Bytes()
}
