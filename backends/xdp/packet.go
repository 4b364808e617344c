package xdp

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// Packet access. The parser's cursor pos counts bytes from ctx->data: a
// header must be a whole number of bytes (its fields need not be). Every
// access is checked against data_end first, as the verifier requires.

// headerType returns e's header type, refusing others.
func (g *gen) headerType(e ir.Expr) *ir.Struct {
	s, ok := e.Type().(*ir.Struct)
	if !ok || s.Kind != ir.KindHeader {
		g.fail(e.Span(), "%s: only headers can be extracted or emitted by the xdp target", ir.Format(e))
		return nil
	}
	if w := ir.WidthBits(s); w%8 != 0 {
		g.fail(e.Span(), "header %s is %d bits, not a whole number of bytes: not supported by the xdp target", s.Name, w)
		return nil
	}
	off := 0
	for _, f := range s.Fields {
		w := width(f.Type)
		if opaqueField(f.Type) && off%8 == 0 {
			off += w
			continue
		}
		if w == 0 || w > 64 {
			g.fail(e.Span(), "header %s: field %s is not a scalar of 1 to 64 bits, nor whole bytes at a whole byte: not supported by the xdp target", s.Name, f.Name)
			return nil
		}
		off += w
	}
	return s
}

// aligned says whether a field of w bits at bit off is loaded and stored
// as one or two whole machine words.
func aligned(off, w int) bool {
	return off%8 == 0 && (w == 8 || w == 16 || w == 32 || w == 64 || w == 48)
}

// load reads w bits at bit off of the bytes at p.
func load(p string, off, w int, sp diag.Span, g *gen) string {
	byteOff := off / 8
	if aligned(off, w) {
		switch w {
		case 8:
			return fmt.Sprintf("((u64)%s[%d])", p, byteOff)
		case 48:
			return fmt.Sprintf("((u64)__builtin_bswap32(*(u32 *)(%s + %d)) << 16 | __builtin_bswap16(*(u16 *)(%s + %d)))", p, byteOff, p, byteOff+4)
		}
		return fmt.Sprintf("((u64)__builtin_bswap%d(*(u%d *)(%s + %d)))", w, w, p, byteOff)
	}
	nb := (off%8 + w + 7) / 8
	if nb > 8 {
		g.fail(sp, "a %d-bit field at bit %d spans %d bytes: not supported by the xdp target", w, off%8, nb)
		return "0"
	}
	var parts []string
	for i := 0; i < nb; i++ {
		parts = append(parts, fmt.Sprintf("(u64)%s[%d] << %d", p, byteOff+i, 8*(nb-1-i)))
	}
	return fmt.Sprintf("(((%s) >> %d) & %s)", strings.Join(parts, " | "), nb*8-off%8-w, mask(w))
}

// store writes a header's fields (lvalue h) at the bytes at p: all of
// them, or only the ones that may have changed (the bytes holding them)
// when onlyDirty.
func (g *gen) store(p, h string, s *ir.Struct, onlyDirty bool) {
	total := ir.WidthBits(s) / 8
	parts := make([][]string, total)
	touched := make([]bool, total)
	off := 0
	for _, f := range s.Fields {
		w := width(f.Type)
		if g.fieldDirty(h, f.Name) {
			for j := off / 8; j < (off+w+7)/8; j++ {
				touched[j] = true
			}
		}
		off += w
	}
	off = 0
	for _, f := range s.Fields {
		w := width(f.Type)
		if onlyDirty && !touched[off/8] {
			off += w
			continue
		}
		v := fmt.Sprintf("(u64)%s.f_%s", h, f.Name)
		switch {
		case opaqueField(f.Type):
			copyBytes(g, fmt.Sprintf("(%s + %d)", p, off/8), fmt.Sprintf("(u8 *)%s.f_%s", h, f.Name), w/8)
		case aligned(off, w) && w == 8:
			g.line("%s[%d] = %s.f_%s;", p, off/8, h, f.Name)
		case aligned(off, w) && w == 48:
			g.line("*(u32 *)(%s + %d) = __builtin_bswap32((u32)(%s >> 16));", p, off/8, v)
			g.line("*(u16 *)(%s + %d) = __builtin_bswap16((u16)%s);", p, off/8+4, v)
		case aligned(off, w):
			g.line("*(u%d *)(%s + %d) = __builtin_bswap%d((u%d)%s);", w, p, off/8, w, w, v)
		default:
			for a := off; a < off+w; {
				j := a / 8
				b := min(off+w, 8*j+8)
				part := fmt.Sprintf("((%s >> %d) & %s)", v, off+w-b, mask(b-a))
				if sh := 8*j + 8 - b; sh > 0 {
					part = fmt.Sprintf("(%s << %d)", part, sh)
				}
				parts[j] = append(parts[j], part)
				a = b
			}
		}
		off += w
	}
	for j, ps := range parts {
		if len(ps) > 0 && (!onlyDirty || touched[j]) {
			g.line("%s[%d] = (u8)(%s);", p, j, strings.Join(ps, " | "))
		}
	}
}

// extract writes packet.extract(hdr): too few bytes left is
// error.PacketTooShort; the fields are read, the header made valid.
func (g *gen) extract(c *ir.Call) {
	if len(c.Args) != 1 {
		g.fail(c.Span(), "extract with a varbit size is not supported by the xdp target")
		return
	}
	target := c.Args[0].Value
	if target == nil { // extract<H>(_) skips a header
		g.skip(c)
		return
	}
	s := g.headerType(target)
	if s == nil || g.rejectLabel == "" {
		if s != nil {
			g.fail(c.Span(), "extract outside the parser is not supported by the xdp target")
		}
		return
	}
	if op, ok := target.(*ir.StackOp); ok && op.Op == "next" {
		g.extractNext(op, s, target)
		return
	}
	// A union's header: the union's headers are made invalid once the
	// header is known to fit, as interp does.
	g.extractInto(g.lvalue(target), s, target, func() { g.invalidateUnion(target) })
}

// extractInto extracts header type s into h (an lvalue); before runs once
// the packet is known to hold it.
func (g *gen) extractInto(h string, s *ir.Struct, target ir.Expr, before func()) {
	size := ir.WidthBits(s) / 8
	g.line("{")
	g.ind++
	g.line("u8 *p_ = (u8 *)data + pos;")
	// p_ is opaque to clang (libbpf's barrier_var): else it may read the
	// packet through a pointer it knows to be equal, one another state
	// computed, which the kernel's verifier has not seen checked ("offset
	// is outside of the packet").
	g.line(`__asm__ volatile("" : "+r"(p_));`)
	g.line("if ((void *)(p_ + %d) > data_end) { perr = %d; goto %s; }", size, g.errorIndex("PacketTooShort"), g.rejectLabel)
	if before != nil {
		before()
	}
	off := 0
	for _, f := range s.Fields {
		w := width(f.Type)
		if opaqueField(f.Type) {
			copyBytes(g, fmt.Sprintf("(u8 *)%s.f_%s", h, f.Name), fmt.Sprintf("(p_ + %d)", off/8), w/8)
		} else {
			g.line("%s.f_%s = %s;", h, f.Name, load("p_", off, w, target.Span(), g))
		}
		off += w
	}
	g.line("%s.valid_ = 1;", h)
	g.line("%s = pos;", g.offsetVar(h))
	g.line("pos += %d;", size)
	g.ind--
	g.line("}")
}

func (g *gen) constArg(c *ir.Call, i int) (uint64, bool) {
	if k, ok := g.arg(c, i).(*ir.Const); ok && k.Value.IsUint64() {
		return k.Value.Uint64(), true
	}
	return 0, false
}

// advance writes packet.advance(bits), a constant whole number of bytes.
func (g *gen) advance(c *ir.Call) {
	n, ok := g.constArg(c, 0)
	if !ok || n%8 != 0 || g.rejectLabel == "" {
		g.fail(c.Span(), "advance is supported by the xdp target only in the parser, by a constant whole number of bytes")
		return
	}
	g.line("if ((void *)((u8 *)data + pos + %d) > data_end) { perr = %d; goto %s; }", n/8, g.errorIndex("PacketTooShort"), g.rejectLabel)
	g.line("pos += %d;", n/8)
}

// skip writes packet.extract<H>(_): H's bytes are passed over, checked
// like an extract's.
func (g *gen) skip(c *ir.Call) {
	var w int
	if len(c.Callee.TypeArgs) == 1 {
		w = ir.WidthBits(c.Callee.TypeArgs[0])
	}
	if w == 0 || w%8 != 0 || g.rejectLabel == "" {
		g.fail(c.Span(), "extract into _ is supported by the xdp target only in the parser, of a header of whole bytes")
		return
	}
	g.line("if ((void *)((u8 *)data + pos + %d) > data_end) { perr = %d; goto %s; }", w/8, g.errorIndex("PacketTooShort"), g.rejectLabel)
	g.line("pos += %d;", w/8)
}

// lookahead writes packet.lookahead<T>() of a scalar T.
func (g *gen) lookahead(c *ir.Call) string {
	w := width(c.T)
	if g.rejectLabel == "" {
		g.fail(c.Span(), "lookahead outside the parser is not supported by the xdp target")
		return "0"
	}
	if s, ok := c.T.(*ir.Struct); ok && s.Kind == ir.KindHeader {
		g.fail(c.Span(), "lookahead of a header is not supported by the xdp target; look ahead at a bit<W>")
		return "0"
	}
	if w == 0 || w > 64 {
		g.fail(c.Span(), "lookahead of %s is not supported by the xdp target", c.T)
		return "0"
	}
	v := fmt.Sprintf("la%d", g.label())
	nb := (w + 7) / 8
	g.line("u64 %s = 0;", v)
	g.line("{ u8 *p_ = (u8 *)data + pos; if ((void *)(p_ + %d) > data_end) { perr = %d; goto %s; } %s = %s; }",
		nb, g.errorIndex("PacketTooShort"), g.rejectLabel, v, load("p_", 0, w, c.Span(), g))
	return v
}

// parser writes the parser's states as labels; reject sets
// standard_metadata.parser_error and goes on, as v1model does.
func (g *gen) parser(p *ir.Parser) {
	if cyc := parserCycle(p); cyc != nil {
		g.fail(cyc.Span, "parser state %s is part of a loop that extracts into no header stack's next element: not supported by the xdp target (the verifier needs every path to end)", cyc.Name)
		return
	}
	g.rejectLabel = "p_reject"
	for _, v := range p.Locals {
		g.declare(v)
	}
	g.line("goto st_start;")
	for _, st := range p.States {
		g.line("st_%s: {", st.Name)
		g.ind++
		g.block(st.Body)
		g.transition(st)
		g.ind--
		g.line("}")
	}
	g.line("p_reject:")
	g.line("if (perr) %s.f_parser_error = perr;", g.stdName)
	g.line("p_accept: ;")
	g.rejectLabel = ""
}

func stateLabel(name string) string {
	switch name {
	case ir.StateAccept:
		return "p_accept"
	case ir.StateReject:
		return "p_reject"
	}
	return "st_" + name
}

func (g *gen) transition(st *ir.State) {
	defer g.writing(st.Span)()
	if st.Select == nil {
		g.line("goto %s;", stateLabel(st.Next))
		return
	}
	defer g.writing(st.Select.Span)()
	vals := make([]string, len(st.Select.Exprs))
	for i, e := range st.Select.Exprs {
		vals[i] = fmt.Sprintf("sel%d", g.label())
		g.line("u64 %s = %s;", vals[i], g.expr(e))
	}
	for _, c := range st.Select.Cases {
		cond := "1"
		for i, k := range c.Keys {
			if i < len(vals) {
				if kc := keysetCond(g, vals[i], k); kc != "" {
					cond += " && " + kc
				}
			}
		}
		g.line("if (%s) goto %s;", cond, stateLabel(c.Next))
	}
	g.line("perr = %d; goto p_reject;", g.errorIndex("NoMatch"))
}

// parserCycle returns a state on a loop of the parser's graph, or nil. A
// loop through a state that extracts into a stack's next element is no
// loop here: each run of that state fills an element or ends the parser
// (error.StackOutOfBounds), so the stacks' sizes bound the runs, and the
// verifier, which follows each run with its own nextIndex, sees them end.
func parserCycle(p *ir.Parser) *ir.State {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var visit func(s *ir.State) *ir.State
	visit = func(s *ir.State) *ir.State {
		color[s.Name] = grey
		next := []string{s.Next}
		if s.Select != nil {
			next = nil
			for _, c := range s.Select.Cases {
				next = append(next, c.Next)
			}
		}
		for _, n := range next {
			t := p.State(n)
			if t == nil || stackExtracts(t) {
				continue
			}
			switch color[n] {
			case grey:
				return t
			case white:
				if c := visit(t); c != nil {
					return c
				}
			}
		}
		color[s.Name] = black
		return nil
	}
	// From every state: the states after a stack's extract are roots too.
	for _, s := range p.States {
		if color[s.Name] == white {
			if c := visit(s); c != nil {
				return c
			}
		}
	}
	return nil
}

// noOffset marks a header the parser did not leave in the packet.
const noOffset = "0xffff"

// offsetVar is the variable holding where the parser found header h (an
// lvalue), declared at the program's start.
func (g *gen) offsetVar(h string) string {
	if v, ok := g.extractedAt[h]; ok {
		return v
	}
	v := fmt.Sprintf("hoff%d", len(g.extractedAt))
	g.extractedAt[h] = v
	return v
}
