package xdp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/diag"

	"github.com/p4hls/p4hls/ir"
)

// bitField is a scalar at a bit position of a serialized value.
type bitField struct {
	expr  string
	width int
	// When the scalar is a field of a header: the header (an lvalue), its
	// size in bytes, the field's name and its first bit in the header.
	hdr   string
	hsize int
	name  string
	hbit  int
}

// flatten lists the scalars of e in the order they serialize: a list's
// elements, a struct's or header's fields (valid or not, as interp
// serializes hash and checksum data).
func (g *gen) flatten(e ir.Expr) []bitField {
	switch t := e.Type().(type) {
	case *ir.Struct:
		if l, ok := e.(*ir.List); ok {
			return g.flattenList(l)
		}
		var out []bitField
		for i, f := range t.Fields {
			out = append(out, g.flatten(&ir.Member{Pos: ir.Pos{Sp: e.Span()}, X: e, Name: f.Name, Index: i, T: f.Type})...)
		}
		return out
	case *ir.Tuple:
		if l, ok := e.(*ir.List); ok {
			return g.flattenList(l)
		}
		var out []bitField
		for i, el := range t.Elems {
			out = append(out, g.flatten(part(e, i, fmt.Sprint(i), el))...)
		}
		return out
	}
	w := width(e.Type())
	if w == 0 || w > 64 {
		g.fail(e.Span(), "%s: only scalars of 1 to 64 bits can be hashed by the xdp target", ir.Format(e))
		return nil
	}
	f := bitField{expr: g.expr(e), width: w}
	if m, ok := e.(*ir.Member); ok {
		if s, ok := m.X.Type().(*ir.Struct); ok && s.Kind == ir.KindHeader && wholeScalars(s) {
			f.hdr, f.hsize, f.name = g.lvalue(m.X), ir.WidthBits(s)/8, m.Name
			for _, sf := range s.Fields {
				if sf.Name == m.Name {
					break
				}
				f.hbit += width(sf.Type)
			}
		}
	}
	return []bitField{f}
}

// wholeScalars says whether header s is a whole number of bytes of scalars
// of 1 to 64 bits: what the parser extracts field by field.
func wholeScalars(s *ir.Struct) bool {
	if ir.WidthBits(s)%8 != 0 {
		return false
	}
	for _, f := range s.Fields {
		if w := width(f.Type); w == 0 || w > 64 {
			return false
		}
	}
	return true
}

func (g *gen) flattenList(l *ir.List) []bitField {
	var out []bitField
	for _, x := range l.Elems {
		out = append(out, g.flatten(x)...)
	}
	return out
}

// serialize writes the fields' bits, most significant first, into a new
// byte array; it returns the array's name and length.
func (g *gen) serialize(fields []bitField) (string, int) {
	total := 0
	for _, f := range fields {
		total += f.width
	}
	n := (total + 7) / 8
	buf := fmt.Sprintf("buf%d", g.label())
	g.line("u8 %s[%d] = {};", buf, max(n, 1))
	parts := make([][]string, n)
	off := 0
	for _, f := range fields {
		for a := off; a < off+f.width; {
			j := a / 8
			b := min(off+f.width, 8*j+8)
			// Bits a..b of the array are the field's bits a-off..b-off.
			part := fmt.Sprintf("((%s >> %d) & %s)", f.expr, off+f.width-b, mask(b-a))
			if s := 8*j + 8 - b; s > 0 {
				part = fmt.Sprintf("(%s << %d)", part, s)
			}
			parts[j] = append(parts[j], part)
			a = b
		}
		off += f.width
	}
	for j, p := range parts {
		if len(p) > 0 {
			g.line("%s[%d] = (u8)(%s);", buf, j, strings.Join(p, " | "))
		}
	}
	return buf, n
}

// hashOf writes algo over the bytes of buf and returns a u64 holding the
// result, as interp computes each algorithm.
func (g *gen) hashOf(algo, buf string, n int, sp ir.Expr) string {
	h := fmt.Sprintf("h%d", g.label())
	g.line("u64 %s = 0;", h)
	switch algo {
	case "csum16":
		var words []string
		for i := 0; i < n; i += 2 {
			if i+1 < n {
				words = append(words, fmt.Sprintf("((u32)%s[%d] << 8 | %s[%d])", buf, i, buf, i+1))
			} else {
				words = append(words, fmt.Sprintf("((u32)%s[%d] << 8)", buf, i))
			}
		}
		if len(words) == 0 {
			words = []string{"0"}
		}
		g.line("{ u64 s_ = %s;", strings.Join(words, " + "))
		g.line("  s_ = (s_ & 0xffff) + (s_ >> 16); s_ = (s_ & 0xffff) + (s_ >> 16); s_ = (s_ & 0xffff) + (s_ >> 16);")
		g.line("  %s = ~s_ & 0xffff; }", h)
	case "xor16":
		for i := 0; i < n; i += 2 {
			if i+1 < n {
				g.line("%s ^= (u32)%s[%d] << 8 | %s[%d];", h, buf, i, buf, i+1)
			} else {
				g.line("%s ^= (u32)%s[%d] << 8;", h, buf, i)
			}
		}
	case "identity":
		for i := 0; i < n && i < 8; i++ {
			g.line("%s = %s << 8 | %s[%d];", h, h, buf, i)
		}
	case "crc16", "crc16_custom":
		// Table-driven, unrolled: a loop over bits gives the verifier a
		// path per iteration on every path through the program.
		g.needCRC16 = true
		g.line("{ u32 c_ = 0;")
		for i := 0; i < n; i++ {
			g.line("  c_ = (c_ >> 8) ^ crc16_table[(c_ ^ %s[%d]) & 0xff];", buf, i)
		}
		g.line("  %s = c_; }", h)
	case "crc32", "crc32_custom":
		g.needCRC32 = true
		g.line("{ u32 c_ = 0xffffffff;")
		for i := 0; i < n; i++ {
			g.line("  c_ = (c_ >> 8) ^ crc32_table[(c_ ^ %s[%d]) & 0xff];", buf, i)
		}
		g.line("  %s = ~c_ & 0xffffffff; }", h)
	default:
		g.fail(sp.Span(), "hash algorithm %s is not supported by the xdp target", algo)
	}
	return h
}

func enumMember(e ir.Expr) string {
	if c, ok := e.(*ir.EnumConst); ok {
		return c.Member
	}
	return ""
}

// hash writes v1model's hash(out result, algo, base, data, max): base +
// H(data) mod max (base when max is 0), cut to the result's width.
func (g *gen) hash(c *ir.Call) {
	dst := g.arg(c, 0)
	algoExpr := g.arg(c, 1)
	base, maxv := g.expr(g.arg(c, 2)), g.expr(g.arg(c, 4))
	g.line("{")
	g.ind++
	buf, n := g.serialize(g.flatten(g.arg(c, 3)))
	h := g.hashOf(enumMember(algoExpr), buf, n, algoExpr)
	w := width(dst.Type())
	g.line("u64 m_ = %s;", maxv)
	g.write(dst, fmt.Sprintf("((m_ ? %s %% m_ : 0) + %s) & %s", h, base, mask(w)))
	g.ind--
	g.line("}")
}

// checksum writes update_checksum (the field gets the sum) or
// verify_checksum (standard_metadata.checksum_error is set on a mismatch).
func (g *gen) checksum(c *ir.Call, update bool) {
	cond := g.expr(g.arg(c, 0))
	algoExpr := g.arg(c, 3)
	g.line("if (%s) {", cond)
	g.ind++
	var h string
	if enumMember(algoExpr) == "csum16" {
		h = g.csum16Of(g.flatten(g.arg(c, 1)))
	} else {
		buf, n := g.serialize(g.flatten(g.arg(c, 1)))
		h = g.hashOf(enumMember(algoExpr), buf, n, algoExpr)
	}
	sum := g.arg(c, 2)
	w := width(sum.Type())
	if update {
		g.write(sum, fmt.Sprintf("%s & %s", h, mask(w)))
	} else {
		g.line("if (%s != (%s & %s)) %s.f_checksum_error = 1;", g.expr(sum), h, mask(w), g.stdName)
	}
	g.ind--
	g.line("}")
}

// crcTable is the byte-at-a-time table of a reflected CRC polynomial.
func crcTable(name string, poly uint32) string {
	var b strings.Builder
	fmt.Fprintf(&b, "static const u32 %s[256] = {", name)
	for i := 0; i < 256; i++ {
		c := uint32(i)
		for k := 0; k < 8; k++ {
			if c&1 != 0 {
				c = c>>1 ^ poly
			} else {
				c >>= 1
			}
		}
		if i%8 == 0 {
			b.WriteString("\n\t")
		}
		fmt.Fprintf(&b, "0x%08x,", c)
	}
	b.WriteString("\n};\n")
	return b.String()
}

// csum16Of writes the Internet checksum of the fields' bits straight from
// their values, 16 bits at a time: no byte array for clang to see through.
//
// A field the program never writes, of a header the parser extracts, is
// taken from the packet (gen.fromPacket), where it is still as parsed: a
// 16-bit word of the data that is two whole bytes of such fields, one
// after the other in the header, is loaded as it is, two such words side
// by side in the header as one 32-bit load, and these loads are summed in
// the packet's byte order, swapped once at the end (the ones' complement
// sum does not depend on the byte order, RFC 1071 §2(B); 2^16 is 1 modulo
// 0xffff, so 32-bit loads add as their two halves). Other bits of such
// fields are loaded from the packet by themselves; the rest come from the
// locals. Where the parser did not leave the header in the packet, its
// unwritten fields are 0 and add nothing.
func (g *gen) csum16Of(fields []bitField) string {
	total := 0
	for _, f := range fields {
		total += f.width
	}
	n := (total + 15) / 16
	// Each bit of the data: the field it comes from (-1 for none).
	from := make([]int, 16*n)
	for i := range from {
		from[i] = -1
	}
	off := 0
	packet := make([]bool, len(fields))
	for i, f := range fields {
		packet[i] = f.hdr != "" && g.fromPacket(f.hdr, f.name)
		for b := off; b < off+f.width; b++ {
			from[b] = i
		}
		off += f.width
	}
	// raw[j]: word j is loaded as it is, from header bytes rawAt[j].
	raw := make([]bool, n)
	rawAt := make([]int, n)
	for j := 0; j < n; j++ {
		hdr, at := "", -1
		ok := true
		for b := 16 * j; b < 16*j+16 && ok; b++ {
			i := from[b]
			if i < 0 || !packet[i] {
				ok = false
				break
			}
			start := 0
			for k := 0; k < i; k++ {
				start += fields[k].width
			}
			hb := fields[i].hbit + b - start // the bit's place in the header
			if b == 16*j {
				hdr, at = fields[i].hdr, hb
				ok = hb%8 == 0
			} else {
				ok = fields[i].hdr == hdr && hb == at+b-16*j
			}
		}
		raw[j], rawAt[j] = ok, at/8
	}
	// The parts of the words not loaded whole: from the locals, or, per
	// header, from the packet.
	var local []string
	fromHdr := map[string][]string{}
	var hdrs []string
	size := map[string]int{}
	off = 0
	for i, f := range fields {
		for a := off; a < off+f.width; {
			j := a / 16
			b := min(off+f.width, 16*j+16)
			if raw[j] {
				a = b
				continue
			}
			v := f.expr
			if packet[i] {
				v = load("q_", f.hbit, f.width, diag.Span{}, g)
			}
			part := fmt.Sprintf("((%s >> %d) & %s)", v, off+f.width-b, mask(b-a))
			if sh := 16*j + 16 - b; sh > 0 {
				part = fmt.Sprintf("(%s << %d)", part, sh)
			}
			if packet[i] {
				if _, ok := fromHdr[f.hdr]; !ok {
					hdrs = append(hdrs, f.hdr)
				}
				fromHdr[f.hdr] = append(fromHdr[f.hdr], part)
				size[f.hdr] = f.hsize
			} else {
				local = append(local, part)
			}
			a = b
		}
		off += f.width
	}
	// The whole words, per header, paired into 32-bit loads.
	rawHdr := map[string][]int{}
	for j := 0; j < n; j++ {
		if !raw[j] {
			continue
		}
		h := fields[from[16*j]].hdr
		if _, ok := fromHdr[h]; !ok && rawHdr[h] == nil {
			hdrs = append(hdrs, h)
		}
		rawHdr[h] = append(rawHdr[h], rawAt[j])
		size[h] = fields[from[16*j]].hsize
	}
	if len(local) == 0 {
		local = []string{"0"}
	}
	h := fmt.Sprintf("h%d", g.label())
	g.line("u64 %s = %s;", h, strings.Join(local, " + "))
	bound := uint64(n) * 0xffff // what h may reach: at most 0xffff per word
	for _, hd := range hdrs {
		g.line("if (%s != %s) {", g.extractedAt[hd], noOffset)
		g.ind++
		g.line("u32 o_ = %s; opaque(o_);", g.extractedAt[hd])
		// Both hold: the parser checked them when it extracted the header.
		// The verifier needs them again.
		g.line("if (o_ > %d) return XDP_ABORTED;", 0xfff)
		g.line("u8 *q_ = (u8 *)data + o_;")
		g.line("if ((void *)(q_ + %d) > data_end) return XDP_ABORTED;", size[hd])
		if ws := rawHdr[hd]; len(ws) > 0 {
			var loads []string
			sort.Ints(ws)
			for k := 0; k < len(ws); k++ {
				if k+1 < len(ws) && ws[k+1] == ws[k]+2 {
					loads = append(loads, fmt.Sprintf("*(u32 *)(q_ + %d)", ws[k]))
					k++
				} else {
					loads = append(loads, fmt.Sprintf("*(u16 *)(q_ + %d)", ws[k]))
				}
			}
			g.line("u64 r_ = (u64)%s;", strings.Join(loads, " + (u64)"))
			for _, fold := range folds(uint64(len(loads)) * 0xffffffff) {
				g.line("r_ = %s;", strings.ReplaceAll(fold, "X", "r_"))
			}
			g.line("%s += __builtin_bswap16((u16)r_);", h)
			bound += 0xffff
		}
		if ps := fromHdr[hd]; len(ps) > 0 {
			g.line("%s += %s;", h, strings.Join(ps, " + "))
			bound += uint64(len(ps)) * 0xffff
		}
		g.ind--
		g.line("}")
	}
	for _, fold := range folds(bound) {
		g.line("%s = %s;", h, strings.ReplaceAll(fold, "X", h))
	}
	g.line("%s = ~%s & 0xffff;", h, h)
	return h
}

// folds lists the end-around-carry folds (X & 0xffff) + (X >> 16) that
// bring a sum of at most bound to 16 bits.
func folds(bound uint64) []string {
	var out []string
	for bound > 0xffff {
		if bound < 0x1ffff {
			// X's high half is 1 at most, and then its low half is not
			// 0xffff: one fold leaves 16 bits.
			bound = 0xffff
		} else {
			bound = 0xffff + bound>>16
		}
		out = append(out, "(X & 0xffff) + (X >> 16)")
	}
	return out
}
