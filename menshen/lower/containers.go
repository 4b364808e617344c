package lower

import (
	"fmt"
	"math/big"
	"sort"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
)

// Containers. A field of w <= 32 bits sits in the top w bits of one
// container: a header field's container is loaded from the field's first
// byte (its low bits hold the bytes after the field), a metadata field's
// low bits are 0. A wider header field takes containers at its bytes 0,
// 4, ... and one at its last 4 bytes, each holding only its own bytes.
// Adding a constant shifted to the field's place changes the field alone,
// so `ttl = ttl - 1` works on 8 bits; everything else computes on whole
// 32-bit fields.

// numContainers is the PHV's containers; frameWindow the bytes of a
// frame the parser and deparser reach.
const (
	numContainers = menshen.Containers
	frameWindow   = menshen.Window
)

// place is where a field lives.
type place struct {
	field  string
	width  int
	chunks []chunk
	header bool
}

// chunk is one container of a field: it holds the field's bytes from
// byte From (of the field) on.
type chunk struct {
	container int
	wire      int // the frame offset it is loaded from (header fields)
	from      int
}

type containers struct {
	lay     *layout
	next    int
	fields  map[string]*place
	exprs   map[string]ir.Expr // each placed field's expression
	written map[string]bool
	// restore marks narrow header fields whose writes overwrite the bytes
	// after them in their container.
	restore map[string]bool
	// notes say what the containers that hold no field are for.
	notes map[int]string
}

func newContainers(lay *layout) *containers {
	return &containers{lay: lay, fields: map[string]*place{}, exprs: map[string]ir.Expr{}, written: map[string]bool{}, restore: map[string]bool{},
		notes: map[int]string{}}
}

func (cs *containers) used() int { return cs.next }

// alloc takes a free container.
func (cs *containers) alloc() (int, error) {
	if cs.next >= numContainers {
		return 0, fmt.Errorf("the program needs more than the %d containers the target has", numContainers)
	}
	cs.next++
	return cs.next - 1, nil
}

// place returns where a field lives, giving it containers on first use.
func (cs *containers) place(e ir.Expr) (*place, error) {
	name := ir.Format(e)
	if p, ok := cs.fields[name]; ok {
		return p, nil
	}
	w := ir.WidthBits(e.Type())
	if _, ok := e.Type().(*ir.Bits); !ok || w == 0 {
		return nil, errorAt(e.Span(), "%s is not a bit<N> field: Menshen's containers hold fields of bits", name)
	}
	if f, ok := stdField(e); ok && f != "egress_spec" {
		return nil, errorAt(e.Span(), "Menshen has no %s; of v1model's standard metadata it has the egress port", name)
	}
	p := &place{field: name, width: w}
	if _, _, off, ok := cs.lay.locate(name); ok {
		p.header = true
		n := (w + 7) / 8
		froms := []int{0}
		if n > 4 {
			froms = froms[:0]
			for b := 0; b+4 < n; b += 4 {
				froms = append(froms, b)
			}
			froms = append(froms, n-4)
		}
		for _, b := range froms {
			if wireOffset(off+b)+4 > frameWindow {
				return nil, errorAt(e.Span(), "field %s ends at byte %d of the frame; Menshen's parser sees the first %d", name, wireOffset(off)+(w+7)/8, frameWindow)
			}
			if wireOffset(off+b) != wireOffset(off)+b {
				return nil, errorAt(e.Span(), "field %s straddles the VLAN tag's place (byte 12)", name)
			}
			c, err := cs.alloc()
			if err != nil {
				return nil, errorAt(e.Span(), "%v", err)
			}
			p.chunks = append(p.chunks, chunk{container: c, wire: wireOffset(off + b), from: b})
		}
		if w%8 != 0 && w > 32 {
			return nil, errorAt(e.Span(), "field %s is %d bits: wider fields must be whole bytes", name, w)
		}
	} else {
		if w > 32 {
			return nil, errorAt(e.Span(), "%s is %d bits: metadata wider than a 32-bit container is not supported", name, w)
		}
		if _, ok := e.(*ir.Slice); ok {
			return nil, errorAt(e.Span(), "%s: Menshen's ALUs write whole containers, not some of a field's bits; write the whole field", name)
		}
		if !isMetadata(e) {
			return nil, errorAt(e.Span(), "%s is neither a parsed header field nor metadata", name)
		}
		c, err := cs.alloc()
		if err != nil {
			return nil, errorAt(e.Span(), "%v", err)
		}
		p.chunks = []chunk{{container: c}}
	}
	cs.fields[name], cs.exprs[name] = p, e
	return p, nil
}

// stdField returns the field name of a v1model standard metadata field.
func stdField(e ir.Expr) (string, bool) {
	m, ok := e.(*ir.Member)
	if !ok {
		return "", false
	}
	s, ok := m.X.Type().(*ir.Struct)
	if !ok || s.Name != "standard_metadata_t" {
		return "", false
	}
	return m.Name, true
}

// isMetadata reports whether e is a field of a struct (user metadata), not
// of a header the parser did not place.
func isMetadata(e ir.Expr) bool {
	for {
		m, ok := e.(*ir.Member)
		if !ok {
			_, isVar := e.(*ir.VarRef)
			return isVar
		}
		if s, ok := m.X.Type().(*ir.Struct); ok && s.Kind != ir.KindStruct {
			return false
		}
		e = m.X
	}
}

// word is the single container of a field that fits one.
func (p *place) word() (int, error) {
	if len(p.chunks) != 1 {
		return 0, fmt.Errorf("field %s is %d bits: it does not fit one container", p.field, p.width)
	}
	return p.chunks[0].container, nil
}

// shift is how far a field's value sits from bit 0 of its container.
func (p *place) shift() int {
	if p.width >= 32 {
		return 0
	}
	return 32 - p.width
}

// chunkValues splits a value of the field (or a mask of it) into its
// containers' words, aligned as they hold it.
func (p *place) chunkValues(v *big.Int) []uint32 {
	if p.width <= 32 {
		return []uint32{uint32(v.Uint64() << uint(p.shift()))}
	}
	n := (p.width + 7) / 8
	b := make([]byte, n)
	v.FillBytes(b)
	var out []uint32
	for _, c := range p.chunks {
		out = append(out, uint32(b[c.from])<<24|uint32(b[c.from+1])<<16|uint32(b[c.from+2])<<8|uint32(b[c.from+3]))
	}
	return out
}

// maps returns the parser's and the deparser's field maps: every header
// field is loaded; written ones are stored back, in ascending offsets. A
// narrow field's container holds the bytes after it: when its write
// overwrote them, the container loaded at the field's end (the next
// field's, or one of its own) is stored after it and puts them back; a
// field that starts in those bytes is stored later still, with its own
// value.
func (cs *containers) maps() (parse, deparse []menshen.FieldMap, err error) {
	var names []string
	for n := range cs.fields {
		names = append(names, n)
	}
	sort.Strings(names)
	atWire := map[int]int{} // the container loaded at each offset
	stored := map[int]bool{}
	for _, n := range names {
		p := cs.fields[n]
		if !p.header {
			continue
		}
		for _, c := range p.chunks {
			atWire[c.wire] = c.container
			parse = append(parse, menshen.FieldMap{Container: c.container, Offset: c.wire})
			stored[c.container] = cs.written[n]
		}
	}
	for _, n := range names {
		p := cs.fields[n]
		if !cs.restore[n] {
			continue
		}
		end := p.chunks[0].wire + (p.width+7)/8
		if end+4 > frameWindow {
			return nil, nil, fmt.Errorf("field %s: the 4 bytes after it, which its container also writes, end past the %d bytes Menshen's deparser reaches", n, frameWindow)
		}
		c, ok := atWire[end]
		if !ok {
			if c, err = cs.alloc(); err != nil {
				return nil, nil, err
			}
			atWire[end] = c
			parse = append(parse, menshen.FieldMap{Container: c, Offset: end})
			cs.notes[c] = fmt.Sprintf("the 4 bytes after %s, stored back after it", n)
		}
		stored[c] = true
	}
	for _, fm := range parse {
		if stored[fm.Container] {
			deparse = append(deparse, fm)
		}
	}
	sort.SliceStable(parse, func(i, j int) bool { return parse[i].Offset < parse[j].Offset })
	sort.SliceStable(deparse, func(i, j int) bool { return deparse[i].Offset < deparse[j].Offset })
	return parse, deparse, nil
}
