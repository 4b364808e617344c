package lower

import (
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// The frame layout. Menshen's parser loads containers from fixed byte
// offsets of every frame, so a header has one place: the P4 parser must
// be a tree of states without loops, each header extracted once, each
// branch a select on one field equal to a constant. A header's validity
// is then the conjunction of the select conditions on its path; a table
// guarded by isValid() matches on them instead.
//
// The P4 program describes the frame without its VLAN tag: the target
// only admits tagged frames (FORMAT.md §A.2), so every byte from 12 on
// sits 4 bytes later on the wire.

// tagAt is where the VLAN tag sits in a P4 program's frame.
const tagAt = 12

// wireOffset is the frame offset of a P4 byte offset.
func wireOffset(p4 int) int {
	if p4 >= tagAt {
		return p4 + 4
	}
	return p4
}

// header is an extracted header: its byte offset in the P4 frame and
// the conditions that make it valid.
type header struct {
	t      *ir.Struct
	offset int
	valid  []fieldValue
}

// fieldValue says a field holds a value.
type fieldValue struct {
	field string // ir.Format of the field
	value *big.Int
}

// layout is where every header of the program sits.
type layout struct {
	headers map[string]*header // by ir.Format of the header ("hdr.ipv4")
	exprs   map[string]ir.Expr // the fields selects branch on
	order   []string           // the headers in extraction order
}

// admitted are conditions the packet filter guarantees (§A.2): IPv4 and
// UDP. A select on them needs no key.
func admitted(f *ir.Field, byteOff int, v *big.Int) bool {
	w := ir.WidthBits(f.Type)
	switch {
	case byteOff == 12 && w == 16:
		return v.Int64() == 0x0800
	case byteOff == 23 && w == 8:
		return v.Int64() == 0x11
	}
	return false
}

// newLayout walks the parser from its start state.
func newLayout(p *ir.Parser) (*layout, error) {
	l := &layout{headers: map[string]*header{}, exprs: map[string]ir.Expr{}}
	visited := map[string]bool{}
	var walk func(name string, offset int, valid []fieldValue) error
	walk = func(name string, offset int, valid []fieldValue) error {
		if name == ir.StateAccept || name == ir.StateReject {
			return nil
		}
		st := p.State(name)
		if st == nil {
			return fmt.Errorf("parser state %s", name)
		}
		if visited[name] {
			return errorAt(st.Span, "parser state %s is reached on two paths: Menshen's parser loads every field from one fixed offset", name)
		}
		visited[name] = true
		for _, s := range st.Body {
			n, err := l.extract(s, offset, valid)
			if err != nil {
				return err
			}
			offset += n
		}
		if st.Select == nil {
			return walk(st.Next, offset, valid)
		}
		return l.branches(st.Select, offset, valid, walk)
	}
	if err := walk("start", 0, nil); err != nil {
		return nil, err
	}
	return l, nil
}

// extract places the header a statement extracts; it returns its size.
func (l *layout) extract(s ir.Stmt, offset int, valid []fieldValue) (int, error) {
	call, ok := s.(*ir.CallStmt)
	if ok && call.Call.Callee.Method == "extract" && len(call.Call.Args) == 2 {
		return 0, errorAt(s.Span(), "Menshen's parser extracts headers of a fixed size, at offsets it knows before the packet comes; this extract's varbit field is sized by the packet")
	}
	if !ok || call.Call.Callee.Method != "extract" || len(call.Call.Args) != 1 {
		return 0, errorAt(s.Span(), "Menshen's parser only extracts headers; this statement has no place in it")
	}
	target := call.Call.Args[0].Value
	if target == nil {
		// v1model drops the header extract<H>(_) skips; Menshen's
		// deparser writes the fields back where they were, into the
		// packet as it came.
		return 0, errorAt(s.Span(), "Menshen's parser cannot skip a header (extract into _): its deparser keeps every byte of the packet it does not write")
	}
	t, ok := target.Type().(*ir.Struct)
	if !ok || t.Kind != ir.KindHeader {
		return 0, errorAt(s.Span(), "Menshen's parser extracts fixed-size headers, not %s", ir.Format(target))
	}
	bits := 0
	for _, f := range t.Fields {
		bits += ir.WidthBits(f.Type)
	}
	if bits%8 != 0 {
		return 0, errorAt(s.Span(), "header %s is %d bits, not whole bytes", t.Name, bits)
	}
	name := ir.Format(target)
	if _, dup := l.headers[name]; dup {
		return 0, errorAt(s.Span(), "header %s is extracted twice", name)
	}
	l.headers[name] = &header{t: t, offset: offset, valid: valid}
	l.order = append(l.order, name)
	return bits / 8, nil
}

// branches follows a select's cases: a constant on one field leads to a
// state that holds when the field has it; default leads nowhere but
// accept.
func (l *layout) branches(sel *ir.Select, offset int, valid []fieldValue, walk func(string, int, []fieldValue) error) error {
	if len(sel.Exprs) != 1 {
		return errorAt(sel.Span, "Menshen can only branch on one field at a time")
	}
	field := ir.Format(sel.Exprs[0])
	l.exprs[field] = sel.Exprs[0]
	for _, c := range sel.Cases {
		k := c.Keys[0]
		switch {
		case k.Kind == ir.KeysetDefault && c.Next == ir.StateAccept, c.Next == ir.StateReject:
			continue
		case k.Kind != ir.KeysetExact:
			return errorAt(c.Span, "Menshen can only branch on a field equal to a constant")
		}
		cond := fieldValue{field: field, value: k.Value}
		next := append(append([]fieldValue(nil), valid...), cond)
		if l.implied(field, k.Value) {
			next = valid
		}
		if err := walk(c.Next, offset, next); err != nil {
			return err
		}
	}
	return nil
}

// implied reports whether the filter guarantees field == v.
func (l *layout) implied(field string, v *big.Int) bool {
	_, f, off, ok := l.locate(field)
	return ok && admitted(f, off, v)
}

// locate finds a header field: its header, its declaration and its byte
// offset in the P4 frame (ok is false for anything else, or a field that
// does not start on a byte).
func (l *layout) locate(field string) (*header, *ir.Field, int, bool) {
	for name, h := range l.headers {
		if len(field) <= len(name)+1 || field[:len(name)] != name || field[len(name)] != '.' {
			continue
		}
		bit := 0
		for _, f := range h.t.Fields {
			if f.Name == field[len(name)+1:] {
				if bit%8 != 0 {
					return nil, nil, 0, false
				}
				return h, f, h.offset + bit/8, true
			}
			bit += ir.WidthBits(f.Type)
		}
	}
	return nil, nil, 0, false
}

func errorAt(sp diag.Span, format string, args ...any) error {
	return backends.Errorf(sp, format, args...)
}
