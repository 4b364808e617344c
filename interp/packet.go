package interp

import (
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// packet is the packet a parser reads (data, from bit position pos) and a
// deparser writes (out, bit length outBits).
type packet struct {
	data    []byte
	pos     int // bits consumed by the parser
	out     []byte
	outBits int
}

// remaining is how many bits the parser has not read yet.
func (p *packet) remaining() int { return len(p.data)*8 - p.pos }

// peekBits reads n bits, most significant first, without advancing.
func (p *packet) peekBits(n int) Value {
	if n <= 64 && n%8 == 0 && p.pos%8 == 0 { // whole bytes: most fields
		var u uint64
		for _, b := range p.data[p.pos/8 : (p.pos+n)/8] {
			u = u<<8 | uint64(b)
		}
		return Value{U: u}
	}
	if n <= 64 {
		var u uint64
		pos := p.pos
		for n > 0 { // a byte's worth of bits at a time
			avail := 8 - pos%8
			take := min(avail, n)
			bits := uint64(p.data[pos/8]>>uint(avail-take)) & (1<<uint(take) - 1)
			u = u<<uint(take) | bits
			pos += take
			n -= take
		}
		return Value{U: u}
	}
	r := new(big.Int)
	for i := 0; i < n; i++ {
		bit := p.pos + i
		r.Lsh(r, 1)
		if p.data[bit/8]>>(7-uint(bit%8))&1 == 1 {
			r.SetBit(r, 0, 1)
		}
	}
	return Value{Big: r}
}

// readValue fills a value of type t from the packet's bits (fields in
// order, most significant bit first), advancing the cursor.
func (p *packet) readValue(t ir.Type, v *Value) { p.readSized(t, v, 0) }

// readSized is readValue for a header whose varbit field holds
// varbitBits bits (extract's second argument).
func (p *packet) readSized(t ir.Type, v *Value, varbitBits int) {
	switch t := t.(type) {
	case *ir.Struct:
		for i, f := range t.Fields {
			p.readSized(f.Type, &v.Agg.Fields[i], varbitBits)
		}
		if t.Kind == ir.KindHeader {
			v.Agg.Valid = true
		}
	case *ir.Varbit:
		*v = Value{U: uint64(varbitBits), Big: bigOf(p.peekBits(varbitBits))}
		p.pos += varbitBits
	default:
		w := ir.WidthBits(t)
		val := p.peekBits(w)
		if b, ok := t.(*ir.Bits); ok && b.Width > 64 {
			*v = Value{Big: val.Big}
		} else {
			*v = val
		}
		p.pos += w
	}
}

// writeBits appends the low n bits of v, most significant first.
func (p *packet) writeBits(v Value, n int) {
	if v.Big == nil && n <= 64 && n%8 == 0 && p.outBits%8 == 0 { // whole bytes: most fields
		for i := n - 8; i >= 0; i -= 8 {
			p.out = append(p.out, byte(v.U>>uint(i)))
		}
		p.outBits += n
		return
	}
	for need := (p.outBits + n + 7) / 8; len(p.out) < need; {
		p.out = append(p.out, 0)
	}
	if v.Big == nil && n <= 64 {
		for n > 0 { // a byte's worth of bits at a time
			free := 8 - p.outBits%8
			take := min(free, n)
			bits := byte(v.U>>uint(n-take)) & (1<<uint(take) - 1)
			p.out[p.outBits/8] |= bits << uint(free-take)
			p.outBits += take
			n -= take
		}
		return
	}
	for i := n - 1; i >= 0; i-- {
		var bit uint
		if v.Big != nil {
			bit = v.Big.Bit(i)
		} else if i < 64 {
			bit = uint(v.U>>uint(i)) & 1
		}
		if bit == 1 {
			p.out[p.outBits/8] |= 1 << (7 - uint(p.outBits%8))
		}
		p.outBits++
	}
}

// writeValue appends a value's bits: the fields of a struct in order; a
// header, union member or stack element only when valid (emit's rule).
func (p *packet) writeValue(t ir.Type, v Value, onlyValid bool) {
	switch t := t.(type) {
	case *ir.Struct:
		if t.Kind == ir.KindHeader && onlyValid && !v.Agg.Valid {
			return
		}
		for i, f := range t.Fields {
			p.writeValue(f.Type, v.Agg.Fields[i], onlyValid)
		}
	case *ir.Stack:
		for _, e := range v.Agg.Fields {
			p.writeValue(t.Elem, e, onlyValid)
		}
	case *ir.Tuple:
		for i, e := range t.Elems {
			p.writeValue(e, v.Agg.Fields[i], onlyValid)
		}
	case *ir.Varbit:
		p.writeBits(Value{Big: bigOf(Value{Big: v.Big})}, int(v.U))
	default:
		p.writeBits(v, ir.WidthBits(t))
	}
}

// serialize packs a value's bits (all fields, valid or not) into bytes,
// padding the last byte with zeros: the input of hashes and checksums.
func serialize(t ir.Type, v Value) []byte {
	var p packet
	p.writeValue(t, v, false)
	return p.out
}
