package xdp

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// bitField is a scalar at a bit position of a serialized value.
type bitField struct {
	expr  string
	width int
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
		g.fail(e.Span(), "tuple values are not supported by the xdp target")
		return nil
	}
	w := width(e.Type())
	if w == 0 || w > 64 {
		g.fail(e.Span(), "%s: only scalars of 1 to 64 bits can be hashed by the xdp target", ir.Format(e))
		return nil
	}
	return []bitField{{g.expr(e), w}}
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
func (g *gen) csum16Of(fields []bitField) string {
	total := 0
	for _, f := range fields {
		total += f.width
	}
	n := (total + 15) / 16
	parts := make([][]string, n)
	off := 0
	for _, f := range fields {
		for a := off; a < off+f.width; {
			j := a / 16
			b := min(off+f.width, 16*j+16)
			part := fmt.Sprintf("((%s >> %d) & %s)", f.expr, off+f.width-b, mask(b-a))
			if sh := 16*j + 16 - b; sh > 0 {
				part = fmt.Sprintf("(%s << %d)", part, sh)
			}
			parts[j] = append(parts[j], part)
			a = b
		}
		off += f.width
	}
	var words []string
	for _, p := range parts {
		if len(p) > 0 {
			words = append(words, "("+strings.Join(p, " | ")+")")
		}
	}
	if len(words) == 0 {
		words = []string{"0"}
	}
	h := fmt.Sprintf("h%d", g.label())
	g.line("u64 %s = %s;", h, strings.Join(words, " + "))
	g.line("%s = (%s & 0xffff) + (%s >> 16); %s = (%s & 0xffff) + (%s >> 16); %s = (%s & 0xffff) + (%s >> 16);", h, h, h, h, h, h, h, h, h)
	g.line("%s = ~%s & 0xffff;", h, h)
	return h
}
