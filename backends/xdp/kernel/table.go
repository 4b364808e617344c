package kernel

import (
	"errors"
	"fmt"
	"math/big"
	"sort"

	"github.com/cilium/ebpf"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
)

// table is the control plane of one table: it writes entries into the
// table's maps in the encoding Layout describes.
type table struct {
	*Table
	m *Machine
	// A ternary table's entries, in installation order, and the keys
	// written for them (rewritten whole on each change).
	entries []interp.Entry
	written [][]byte
}

// value packs an action and its data as an entry's value.
func (t *table) value(action string, data []*big.Int, rank uint32) ([]byte, error) {
	for _, a := range t.Actions {
		if a.Name != action {
			continue
		}
		if len(data) != len(a.Data) {
			return nil, fmt.Errorf("action %s takes %d action data values, got %d", action, len(a.Data), len(data))
		}
		v := make([]byte, t.ValueBytes)
		putHost(v[0:], 4, uint64(a.ID))
		putHost(v[4:], 4, uint64(rank))
		for i, p := range a.Data {
			putHost(v[p.Offset:], p.Bytes, truncate(data[i], p.WidthBits))
		}
		return v, nil
	}
	var names []string
	for _, a := range t.Actions {
		names = append(names, a.Name)
	}
	return nil, fmt.Errorf("table %s has no action %q (actions: %v)", t.Name, action, names)
}

// packBE writes v big-endian into b, left-aligned from w bits when left.
func packBE(b []byte, v uint64, w int, left bool) {
	if left {
		v <<= uint(len(b)*8 - w)
	}
	for i := len(b) - 1; i >= 0; i-- {
		b[i] = byte(v)
		v >>= 8
	}
}

func (t *table) mapOf(name string) (*ebpf.Map, error) { return t.m.Map(name) }

// add installs an entry.
func (t *table) add(e interp.Entry) error {
	if len(e.Keys) != len(t.Keys) {
		return fmt.Errorf("table %s has %d keys, the entry gives %d", t.Name, len(t.Keys), len(e.Keys))
	}
	switch t.Kind {
	case TableConst:
		if len(t.entries) == 0 {
			if err := t.seedConst(); err != nil {
				return err
			}
		}
	case TableKeyless:
		return fmt.Errorf("table %s has no keys: it takes no entries", t.Name)
	case TableExact:
		return t.addExact(e)
	case TableLPM:
		return t.addLPM(e)
	}
	return t.addTernary(e)
}

func (t *table) addExact(e interp.Entry) error {
	key := make([]byte, t.KeyBytes)
	for i, k := range t.Keys {
		m := e.Keys[i]
		if m.Kind != interp.MatchExact {
			return fmt.Errorf("table %s: key %s is exact; the entry gives another kind of match", t.Name, k.Name)
		}
		packBE(key[k.Offset:k.Offset+k.Bytes], truncate(m.Value, k.WidthBits), k.WidthBits, false)
	}
	v, err := t.value(e.Action, e.Data, 0)
	if err != nil {
		return err
	}
	mp, err := t.mapOf(t.Map)
	if err != nil {
		return err
	}
	// A second entry with the same key replaces the first, as interp has it.
	return mp.Put(key, v)
}

func (t *table) addLPM(e interp.Entry) error {
	key := make([]byte, t.KeyBytes)
	prefix := 0
	for i, k := range t.Keys {
		m := e.Keys[i]
		v := uint64(0)
		if m.Value != nil {
			v = truncate(m.Value, k.WidthBits)
		}
		switch {
		case k.Match == "lpm" && m.Kind == interp.MatchLPM:
			if m.PrefixLen < 64 {
				v &^= (uint64(1)<<uint(k.WidthBits-m.PrefixLen) - 1)
			}
			prefix += m.PrefixLen
		case k.Match == "lpm" && m.Kind == interp.MatchExact:
			prefix += k.WidthBits
		case k.Match == "lpm" && m.Kind == interp.MatchAny:
			v = 0
		case m.Kind == interp.MatchExact:
			prefix += 8 * k.Bytes
		default:
			return fmt.Errorf("table %s: key %s takes an exact or lpm match", t.Name, k.Name)
		}
		packBE(key[k.Offset:k.Offset+k.Bytes], v, k.WidthBits, k.Match == "lpm")
	}
	putHost(key[0:], 4, uint64(prefix))
	v, err := t.value(e.Action, e.Data, 0)
	if err != nil {
		return err
	}
	mp, err := t.mapOf(t.Map)
	if err != nil {
		return err
	}
	// Two entries with one prefix: the first installed wins (interp's
	// order), so the second is not written.
	if err := mp.Update(key, v, ebpf.UpdateNoExist); err != nil && !errors.Is(err, ebpf.ErrKeyExist) {
		return fmt.Errorf("table %s: %w", t.Name, err)
	}
	return nil
}

// ternary matches of one key: value and mask, over the key's width.
type vm struct{ value, mask uint64 }

func widthMask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return uint64(1)<<uint(w) - 1
}

// expand lists the value-and-mask pairs a match stands for: a range
// becomes the prefixes that cover it.
func expand(m interp.Match, w int) []vm {
	all := widthMask(w)
	val := func(x *big.Int) uint64 {
		if x == nil {
			return 0
		}
		return truncate(x, w)
	}
	switch m.Kind {
	case interp.MatchAny:
		return []vm{{0, 0}}
	case interp.MatchExact:
		return []vm{{val(m.Value), all}}
	case interp.MatchTernary:
		mask := val(m.Mask)
		return []vm{{val(m.Value) & mask, mask}}
	case interp.MatchLPM:
		mask := all
		if m.PrefixLen < w {
			mask = all &^ (uint64(1)<<uint(w-m.PrefixLen) - 1)
		}
		return []vm{{val(m.Value) & mask, mask}}
	}
	return rangePrefixes(val(m.Value), val(m.Hi), w)
}

// rangePrefixes covers [lo, hi] of w-bit values with aligned blocks, each
// a prefix: the standard expansion, at most 2w-2 of them.
func rangePrefixes(lo, hi uint64, w int) []vm {
	all := widthMask(w)
	var out []vm
	for lo <= hi {
		k := 0
		for k < w {
			size := uint64(1) << uint(k+1)
			if lo&(size-1) != 0 || lo+size-1 > hi || lo+size-1 < lo {
				break
			}
			k++
		}
		block := uint64(1)<<uint(k) - 1
		out = append(out, vm{lo, all &^ block})
		if lo+block >= hi || lo+block < lo {
			break
		}
		lo += block + 1
	}
	return out
}

// addTernary reinstalls every entry of a tuple-space table: ranks are
// places in P4's order, which a new entry may change.
func (t *table) addTernary(e interp.Entry) error {
	if _, err := t.value(e.Action, e.Data, 0); err != nil {
		return err
	}
	t.entries = append(t.entries, e)
	lpm := -1
	for i, k := range t.Keys {
		if k.Match == "lpm" {
			lpm = i
		}
	}
	order := make([]int, len(t.entries))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		x, y := t.entries[order[a]], t.entries[order[b]]
		if x.Priority != y.Priority {
			return x.Priority > y.Priority
		}
		if lpm >= 0 && x.Keys[lpm].PrefixLen != y.Keys[lpm].PrefixLen {
			return x.Keys[lpm].PrefixLen > y.Keys[lpm].PrefixLen
		}
		return false // stable: the first installed first
	})
	type slot struct {
		key  []byte
		rank int
		v    []byte
	}
	var masks [][]byte
	maskIndex := map[string]int{}
	best := map[string]*slot{}
	var keys []string
	for rank, i := range order {
		ent := t.entries[i]
		v, _ := t.value(ent.Action, ent.Data, uint32(rank))
		for _, combo := range t.combos(ent) {
			mask := make([]byte, t.KeyBytes-4)
			val := make([]byte, t.KeyBytes-4)
			for j, k := range t.Keys {
				packBE(mask[k.Offset-4:k.Offset-4+k.Bytes], combo[j].mask, k.WidthBits, false)
				packBE(val[k.Offset-4:k.Offset-4+k.Bytes], combo[j].value&combo[j].mask, k.WidthBits, false)
			}
			mi, ok := maskIndex[string(mask)]
			if !ok {
				mi = len(masks)
				if mi >= t.MaxMasks {
					t.entries = t.entries[:len(t.entries)-1]
					return fmt.Errorf("table %s: the entries need more than %d distinct masks", t.Name, t.MaxMasks)
				}
				maskIndex[string(mask)] = mi
				masks = append(masks, mask)
			}
			key := make([]byte, t.KeyBytes)
			putHost(key, 4, uint64(mi))
			copy(key[4:], val)
			if s, ok := best[string(key)]; !ok || rank < s.rank {
				if !ok {
					keys = append(keys, string(key))
				}
				best[string(key)] = &slot{key, rank, v}
			}
		}
	}
	return t.write(masks, keys, func(k string) []byte { return best[k].v })
}

// combos is the cross product of the keys' expansions.
func (t *table) combos(e interp.Entry) [][]vm {
	out := [][]vm{nil}
	for j, k := range t.Keys {
		var next [][]vm
		for _, c := range out {
			for _, x := range expand(e.Keys[j], k.WidthBits) {
				next = append(next, append(append([]vm(nil), c...), x))
			}
		}
		out = next
	}
	return out
}

// write replaces a ternary table's masks and entries.
func (t *table) write(masks [][]byte, keys []string, value func(string) []byte) error {
	mp, err := t.mapOf(t.Map)
	if err != nil {
		return err
	}
	mm, err := t.mapOf(t.Masks)
	if err != nil {
		return err
	}
	for _, k := range t.written {
		if err := mp.Delete(k); err != nil && !errors.Is(err, ebpf.ErrKeyNotExist) {
			return err
		}
	}
	t.written = nil
	for i := 0; i < t.MaxMasks; i++ {
		v := make([]byte, mm.ValueSize())
		if i < len(masks) {
			putHost(v, 4, 1)
			copy(v[4:], masks[i])
		}
		if err := mm.Put(uint32(i), v); err != nil {
			return err
		}
		if i >= len(masks) {
			break
		}
	}
	for _, k := range keys {
		if err := mp.Put([]byte(k), value(k)); err != nil {
			return fmt.Errorf("table %s: %w", t.Name, err)
		}
		t.written = append(t.written, []byte(k))
	}
	return nil
}

// seedConst puts a table's const entries first in its entries, in the
// order the program lists them.
func (t *table) seedConst() error {
	it, err := t.m.Table(t.Name)
	if err != nil {
		return err
	}
	for _, ce := range it.Entries {
		e := interp.Entry{Priority: ce.Priority, Action: ce.Action.Action.Name}
		for i, k := range ce.Keys {
			e.Keys = append(e.Keys, keysetMatch(k, it.Keys[i]))
		}
		for i, p := range ce.Action.Action.Params {
			if p.Dir != ir.DirNone || i >= len(ce.Action.Args) {
				continue
			}
			v := new(big.Int)
			switch a := ce.Action.Args[i].(type) {
			case *ir.Const:
				v.Set(a.Value)
			default:
				return fmt.Errorf("table %s: a const entry's action data is not a constant", t.Name)
			}
			e.Data = append(e.Data, v)
		}
		t.entries = append(t.entries, e)
	}
	return nil
}

// keysetMatch is a const entry's keyset as a match (interp's reading).
func keysetMatch(k *ir.Keyset, key *ir.Key) interp.Match {
	w := ir.WidthBits(key.Expr.Type())
	switch k.Kind {
	case ir.KeysetDefault:
		return interp.Match{Kind: interp.MatchAny}
	case ir.KeysetMask:
		if key.Match == ir.MatchLPM {
			n := 0
			for i := 0; i < w; i++ {
				n += int(k.Mask.Bit(i))
			}
			return interp.Match{Kind: interp.MatchLPM, Value: k.Value, PrefixLen: n}
		}
		return interp.Match{Kind: interp.MatchTernary, Value: k.Value, Mask: k.Mask}
	case ir.KeysetRange:
		return interp.Match{Kind: interp.MatchRange, Value: k.Value, Hi: k.Hi}
	}
	if key.Match == ir.MatchLPM {
		return interp.Match{Kind: interp.MatchLPM, Value: k.Value, PrefixLen: w}
	}
	return interp.Match{Kind: interp.MatchExact, Value: k.Value}
}
