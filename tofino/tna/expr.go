package tna

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/synth/grammar"
)

// A configured ALU as P4: the grammar's expressions with the holes filled
// in, over 32-bit words, exactly as grammar.Eval computes them (the
// grammar's semantics are the reference): comparisons are signed and give
// 0 or 1, conditions take any non-zero word as true, and an exact
// comparison computes its sums in 36 bits, the grammar's extra 4.

// exactWidth is the width exact comparisons compute in (the grammar's
// word plus its 4 exact bits).
const exactWidth = 36

// aluPrinter prints one configured ALU's expressions.
type aluPrinter struct {
	g      *grammar.Grammar
	config grammar.Config
	// state and packet name what Input reads; newState what New reads.
	state, newState, packet []string
	lets                    map[string]string
}

func word(v uint64) string { return fmt.Sprintf("32w%d", v&0xFFFFFFFF) }

func b2w(cond string) string { return fmt.Sprintf("(%s ? 32w1 : 32w0)", cond) }

func truth(x string) string { return fmt.Sprintf("(%s != 32w0)", x) }

func signed(x string) string { return fmt.Sprintf("((int<32>) %s)", x) }

// choice is the alternative a choose picks (the last past the end).
func (p *aluPrinter) choice(c *grammar.Choose) grammar.Expr {
	i := p.config[c.Hole]
	if i >= uint64(len(c.Alts)) {
		i = uint64(len(c.Alts) - 1)
	}
	return c.Alts[i]
}

// hole is a constant hole's value as a word.
func (p *aluPrinter) hole(i int) uint64 { return holeWord(p.g.Holes[i], p.config[i]) }

// holeWord is a constant hole's value as the ALU's 32-bit word: zero- or
// sign-extended from the hole's width.
func holeWord(h *grammar.Hole, v uint64) uint64 {
	if h.Bits < 64 {
		v &= 1<<uint(h.Bits) - 1
	}
	if h.Kind == grammar.HoleSConst && h.Bits < 64 && v>>uint(h.Bits-1)&1 == 1 {
		v |= ^uint64(0) << uint(h.Bits)
	}
	return v & 0xFFFFFFFF
}

func (p *aluPrinter) expr(x grammar.Expr) string {
	switch x := x.(type) {
	case *grammar.Input:
		if x.State {
			return p.state[x.Index]
		}
		return p.packet[x.Index]
	case *grammar.New:
		return p.newState[x.State]
	case *grammar.Local:
		return p.lets[x.Name]
	case *grammar.Lit:
		return word(x.Value)
	case *grammar.HoleRef:
		return word(p.hole(x.Index))
	case *grammar.Choose:
		return p.expr(p.choice(x))
	case *grammar.Unary:
		v := p.expr(x.X)
		switch x.Op {
		case "-":
			return fmt.Sprintf("(32w0 - %s)", v)
		case "~":
			return fmt.Sprintf("(~%s)", v)
		}
		return b2w(fmt.Sprintf("(%s == 32w0)", v))
	case *grammar.Cond:
		return fmt.Sprintf("(%s ? %s : %s)", truth(p.expr(x.C)), p.expr(x.Then), p.expr(x.Else))
	case *grammar.Binary:
		if x.Exact {
			return p.exactCompare(x)
		}
		return p.binary(x)
	}
	panic(fmt.Sprintf("tna: grammar expression %T", x))
}

func (p *aluPrinter) binary(x *grammar.Binary) string {
	a, b := p.expr(x.X), p.expr(x.Y)
	switch x.Op {
	case "+", "-", "*", "&", "|", "^", "<<", ">>":
		return fmt.Sprintf("(%s %s %s)", a, x.Op, b)
	case "==", "!=":
		return b2w(fmt.Sprintf("(%s %s %s)", a, x.Op, b))
	case "<", ">", "<=", ">=":
		return b2w(fmt.Sprintf("(%s %s %s)", signed(a), x.Op, signed(b)))
	case "ult":
		return b2w(fmt.Sprintf("(%s < %s)", a, b))
	case "ugt":
		return b2w(fmt.Sprintf("(%s > %s)", a, b))
	case "&&", "||":
		return b2w(fmt.Sprintf("(%s %s %s)", truth(a), x.Op, truth(b)))
	case "rotl":
		n := fmt.Sprintf("(%s & 32w31)", b)
		return fmt.Sprintf("((%s << %s) | (%s >> (32w32 - %s)))", a, n, a, n)
	case "min":
		return fmt.Sprintf("(%s ? %s : %s)", fmt.Sprintf("(%s < %s)", signed(a), signed(b)), a, b)
	case "max":
		return fmt.Sprintf("(%s ? %s : %s)", fmt.Sprintf("(%s > %s)", signed(a), signed(b)), a, b)
	}
	panic("tna: grammar operator " + x.Op)
}

// exactCompare compares without wrapping the sums under it: leaves read
// as signed words for < and >, as unsigned ones otherwise.
func (p *aluPrinter) exactCompare(x *grammar.Binary) string {
	sgn := x.Op == "<" || x.Op == ">"
	a, b := p.exact(x.X, sgn), p.exact(x.Y, sgn)
	op := map[string]string{"==": "==", "!=": "!=", "<": "<", "ult": "<", ">": ">", "ugt": ">"}[x.Op]
	return b2w(fmt.Sprintf("(%s %s %s)", a, op, b))
}

func (p *aluPrinter) exact(x grammar.Expr, sgn bool) string {
	switch y := x.(type) {
	case *grammar.Binary:
		if y.Op == "+" || y.Op == "-" {
			return fmt.Sprintf("(%s %s %s)", p.exact(y.X, sgn), y.Op, p.exact(y.Y, sgn))
		}
	case *grammar.Choose:
		return p.exact(p.choice(y), sgn)
	}
	v := p.expr(x)
	if sgn {
		return fmt.Sprintf("((int<%d>) %s)", exactWidth, signed(v))
	}
	return fmt.Sprintf("((int<%d>) ((bit<%d>) %s))", exactWidth, exactWidth, v)
}

// stmts prints a grammar body: lets become locals, assignments update the
// new state words.
func (p *aluPrinter) stmts(b *strings.Builder, ss []grammar.Stmt, indent string, newState []string) {
	for _, s := range ss {
		switch s := s.(type) {
		case *grammar.Let:
			name := "l_" + s.Name
			fmt.Fprintf(b, "%sbit<32> %s = %s;\n", indent, name, p.expr(s.Value))
			p.lets[s.Name] = name
		case *grammar.Assign:
			fmt.Fprintf(b, "%s%s = %s;\n", indent, newState[s.State], p.expr(s.Value))
		case *grammar.If:
			fmt.Fprintf(b, "%sif %s {\n", indent, truth(p.expr(s.Cond)))
			p.stmts(b, s.Then, indent+"    ", newState)
			if len(s.Else) > 0 {
				fmt.Fprintf(b, "%s} else {\n", indent)
				p.stmts(b, s.Else, indent+"    ", newState)
			}
			fmt.Fprintf(b, "%s}\n", indent)
		}
	}
}
