package hxdp

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/cilium/ebpf"
	"github.com/cilium/ebpf/asm"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/hxdp"
)

var mapTypeNames = map[ebpf.MapType]string{
	ebpf.Hash: "hash", ebpf.Array: "array", ebpf.LPMTrie: "lpm_trie", ebpf.DevMap: "devmap", ebpf.XSKMap: "xskmap",
}

// load reads prog.o's XDP function and maps (cilium/ebpf's ELF reader: no
// kernel) into a program of basic blocks. Maps get ids in maps.json's
// order, then the object's other maps (data sections) by name.
func load(obj []byte, layout kernel.Layout) (*program, error) {
	spec, err := ebpf.LoadCollectionSpecFromReader(bytes.NewReader(obj))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", kernel.ObjectFile, err)
	}
	ps := spec.Programs[layout.Function]
	if ps == nil {
		return nil, fmt.Errorf("%s has no function %s", kernel.ObjectFile, layout.Function)
	}
	maps, ids, err := mapConfig(spec, layout)
	if err != nil {
		return nil, err
	}
	p := &program{maps: maps}
	flat, err := flatten(ps.Instructions, ids, &p.ebpf)
	if err != nil {
		return nil, err
	}
	p.blocks = split(flat)
	p.prune()
	return p, nil
}

// mapConfig lists the object's maps as the core's configuration.
func mapConfig(spec *ebpf.CollectionSpec, layout kernel.Layout) ([]hxdp.Map, map[string]int, error) {
	var names []string
	seen := map[string]bool{}
	for _, m := range layout.Maps {
		names, seen[m.Name] = append(names, m.Name), true
	}
	var rest []string
	for name := range spec.Maps {
		if !seen[name] {
			rest = append(rest, name)
		}
	}
	sort.Strings(rest)
	names = append(names, rest...)
	ids := map[string]int{}
	var out []hxdp.Map
	for _, name := range names {
		ms := spec.Maps[name]
		if ms == nil {
			return nil, nil, fmt.Errorf("%s lists map %s, which %s does not hold", kernel.LayoutFile, name, kernel.ObjectFile)
		}
		typ, ok := mapTypeNames[ms.Type]
		if !ok {
			return nil, nil, fmt.Errorf("map %s is a %v, which the core does not hold", name, ms.Type)
		}
		m := hxdp.Map{ID: len(out), Name: name, Type: typ, KeyBytes: int(ms.KeySize), ValueBytes: int(ms.ValueSize), MaxEntries: int(ms.MaxEntries)}
		if len(ms.Contents) > 0 {
			data, ok := ms.Contents[0].Value.([]byte)
			if !ok || len(ms.Contents) != 1 {
				return nil, nil, fmt.Errorf("map %s has initial contents the core cannot hold", name)
			}
			m.Data = bytes.Clone(data)
		}
		ids[name] = m.ID
		out = append(out, m)
	}
	return out, ids, nil
}

// flatten turns cilium's instructions into ours, jump targets as
// instruction indexes in target (resolved by split).
func flatten(insns asm.Instructions, ids map[string]int, slots *int) ([]*insn, error) {
	var out []*insn
	at := map[int]int{} // raw slot -> index
	var jumps []int
	var last place
	iter := insns.Iterate()
	for iter.Next() {
		ins := iter.Ins
		raw := int(iter.Offset)
		at[raw] = len(out)
		if s := ins.Source(); s != nil {
			last = placeOf(s)
		}
		in := &insn{at: last, orig: raw, Insn: hxdp.Insn{Op: uint8(ins.OpCode), Dst: uint8(ins.Dst), Src: uint8(ins.Src),
			Off: ins.Offset, Imm: int32(ins.Constant)}}
		switch {
		case ins.IsLoadFromMap():
			id, ok := ids[ins.Reference()]
			if !ok {
				return nil, fmt.Errorf("instruction %d loads map %q, which the object does not define", raw, ins.Reference())
			}
			in.Imm = int32(id)
			in.imm64 = uint64(ins.Constant) >> 32
		case in.Op == hxdp.OpLdImm64:
			in.imm64 = uint64(ins.Constant)
		case ins.IsFunctionCall() || ins.IsKfuncCall():
			return nil, fmt.Errorf("instruction %d calls a function: the core runs one function", raw)
		case in.IsCall():
			if _, ok := hxdp.Helpers[in.Imm]; !ok {
				return nil, &PlaceError{File: last.file, Line: last.line, Msg: fmt.Sprintf("the code of this line calls BPF helper %d, which the hXDP core does not have", in.Imm)}
			}
		}
		if in.IsJump() && !in.IsExit() {
			jumps = append(jumps, len(out))
			// Until split: the target's raw slot.
			in.imm64 = uint64(raw + 1 + int(ins.Offset))
		}
		out = append(out, in)
		*slots = raw + in.lanes()
	}
	for _, j := range jumps {
		t, ok := at[int(out[j].imm64)]
		if !ok {
			return nil, fmt.Errorf("instruction %d jumps into the middle of an instruction", out[j].orig)
		}
		out[j].imm64 = uint64(t)
	}
	return out, nil
}

// placeOf reads the P4 place the xdp backend wrote at the end of the C
// line (kernel.PlaceMarker) that clang's line information names.
func placeOf(s fmt.Stringer) place {
	line, ok := s.(interface{ Line() string })
	if !ok {
		return place{}
	}
	text := line.Line()
	i := strings.LastIndex(text, kernel.PlaceMarker)
	if i < 0 {
		return place{}
	}
	loc := strings.TrimSpace(text[i+len(kernel.PlaceMarker):])
	colon := strings.LastIndex(loc, ":")
	if colon < 0 {
		return place{}
	}
	n, err := strconv.Atoi(loc[colon+1:])
	if err != nil {
		return place{}
	}
	return place{file: loc[:colon], line: n}
}

// split cuts the instructions into basic blocks at jump targets and after
// jumps and exits.
func split(flat []*insn) []*block {
	leader := make([]bool, len(flat)+1)
	leader[0] = true
	for i, in := range flat {
		if in.IsJump() {
			leader[i+1] = true
			if !in.IsExit() {
				leader[in.imm64] = true
			}
		}
	}
	var blocks []*block
	first := make([]*block, len(flat))
	for i, in := range flat {
		if leader[i] {
			blocks = append(blocks, &block{id: len(blocks)})
			first[i] = blocks[len(blocks)-1]
		}
		b := blocks[len(blocks)-1]
		b.ins = append(b.ins, in)
	}
	for i, b := range blocks {
		t := b.term()
		if t != nil && !t.IsExit() {
			t.target = first[t.imm64]
			t.imm64 = 0
		}
		if (t == nil || t.cond()) && i+1 < len(blocks) {
			b.next = blocks[i+1]
		}
	}
	return blocks
}

// PlaceError is a program the core cannot run, at the P4 line whose code
// is at fault (Line 0: no line is).
type PlaceError struct {
	File string
	Line int
	Msg  string
}

func (e *PlaceError) Error() string {
	if e.Line == 0 {
		return e.Msg
	}
	return fmt.Sprintf("%s:%d: %s", e.File, e.Line, e.Msg)
}
