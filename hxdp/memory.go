package hxdp

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"sort"
)

// Addresses: a register holding a pointer holds a region tag in bits 40
// to 47 and an offset below it, so pointer arithmetic is plain
// arithmetic and every access is checked against its region.
const (
	regionShift   = 40
	regionPacket  = 0x01 // the frame buffer: headroom, metadata, packet
	regionStack   = 0x02
	regionCtx     = 0x03 // struct xdp_md, which the core provides
	regionMapVal  = 0x10 // a map's values: id in bits 32-39, then the offset
	regionMapFD   = 0x20 // a map itself, as a helper's argument
	regionMask    = 0xff
	mapIDShift    = 32
	mapOffsetMask = 1<<mapIDShift - 1
)

func region(addr uint64) uint64 { return addr >> regionShift & regionMask }

func mapValueAddr(id, off int) uint64 {
	return regionMapVal<<regionShift | uint64(id)<<mapIDShift | uint64(off)
}

// table is one map's contents in the map memory: a value slot per entry,
// and for keyed maps the key of each slot.
type table struct {
	Map
	values []byte         // MaxEntries slots of ValueBytes
	keys   [][]byte       // keyed maps: the key of each slot in use
	index  map[string]int // keyed maps: key to slot
}

func newTable(m Map) (*table, error) {
	if m.MaxEntries > 1<<20 || m.ValueBytes > 1<<16 {
		return nil, fmt.Errorf("map %s: %d entries of %d bytes do not fit the model's map memory", m.Name, m.MaxEntries, m.ValueBytes)
	}
	t := &table{Map: m, values: make([]byte, m.MaxEntries*m.ValueBytes), index: map[string]int{}}
	copy(t.values, m.Data)
	return t, nil
}

// indexed says the map's keys are indexes (u32), each entry present.
func (t *table) indexed() bool { return t.Type == "array" }

// slot returns the slot of key, or -1.
func (t *table) slot(key []byte) int {
	if t.indexed() {
		i := binary.LittleEndian.Uint32(key)
		if int(i) >= t.MaxEntries {
			return -1
		}
		return int(i)
	}
	if s, ok := t.index[string(key)]; ok {
		return s
	}
	return -1
}

// put stores a value as a control plane does.
func (t *table) put(key, value []byte) error {
	if len(key) != t.KeyBytes || len(value) != t.ValueBytes {
		return fmt.Errorf("map %s: key of %d bytes and value of %d; it takes %d and %d", t.Name, len(key), len(value), t.KeyBytes, t.ValueBytes)
	}
	s := t.slot(key)
	if s < 0 && t.indexed() {
		return fmt.Errorf("map %s: index %d is out of its %d entries", t.Name, binary.LittleEndian.Uint32(key), t.MaxEntries)
	}
	if s < 0 {
		if len(t.keys) >= t.MaxEntries {
			return fmt.Errorf("map %s is full (%d entries)", t.Name, t.MaxEntries)
		}
		s = len(t.keys)
		t.keys = append(t.keys, bytes.Clone(key))
		t.index[string(key)] = s
	}
	copy(t.values[s*t.ValueBytes:], value)
	return nil
}

// lookup is the value of key, as bpf_map_lookup_elem finds it: the slot,
// or -1.
func (t *table) lookup(key []byte) int {
	if t.Type == "lpm_trie" {
		return t.longestPrefix(key)
	}
	return t.slot(key)
}

// longestPrefix is an LPM_TRIE's lookup: key is {u32 prefix length (host
// order), data}; the entry of longest prefix, no longer than the key's,
// whose first prefix bits equal the key's.
func (t *table) longestPrefix(key []byte) int {
	want := int(binary.LittleEndian.Uint32(key))
	best, bestLen := -1, -1
	for s, k := range t.keys {
		n := int(binary.LittleEndian.Uint32(k))
		if n > want || n <= bestLen || !prefixEqual(k[4:], key[4:], n) {
			continue
		}
		best, bestLen = s, n
	}
	return best
}

func prefixEqual(a, b []byte, bits int) bool {
	for i := 0; bits > 0; i++ {
		m := byte(0xff)
		if bits < 8 {
			m = 0xff << (8 - bits)
		}
		if a[i]&m != b[i]&m {
			return false
		}
		bits -= 8
	}
	return true
}

// Entry is one entry of a map: key and value bytes.
type Entry struct {
	Key, Value []byte
}

// entries lists a map's contents: every index of an array, the keys in
// use of other maps (sorted by key).
func (t *table) entries() []Entry {
	var out []Entry
	if t.indexed() {
		for i := 0; i < t.MaxEntries; i++ {
			k := make([]byte, 4)
			binary.LittleEndian.PutUint32(k, uint32(i))
			out = append(out, Entry{k, bytes.Clone(t.values[i*t.ValueBytes : (i+1)*t.ValueBytes])})
		}
		return out
	}
	for s, k := range t.keys {
		out = append(out, Entry{bytes.Clone(k), bytes.Clone(t.values[s*t.ValueBytes : (s+1)*t.ValueBytes])})
	}
	sort.Slice(out, func(i, j int) bool { return bytes.Compare(out[i].Key, out[j].Key) < 0 })
	return out
}

// keyOf is the key of a slot.
func (t *table) keyOf(s int) []byte {
	if t.indexed() {
		k := make([]byte, 4)
		binary.LittleEndian.PutUint32(k, uint32(s))
		return k
	}
	return bytes.Clone(t.keys[s])
}
