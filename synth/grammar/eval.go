package grammar

import (
	"fmt"
	"strings"
)

// Config is a configuration of an ALU: one value per hole, in hole order.
type Config []uint64

// FormatConfig prints a configuration with the holes' names or places.
func (g *Grammar) FormatConfig(c Config) string {
	parts := make([]string, len(c))
	for i, v := range c {
		h := g.Holes[i]
		name := h.Name
		if name == "" {
			name = h.Label
		}
		parts[i] = fmt.Sprintf("%s=%d", name, v)
	}
	return strings.Join(parts, " ")
}

// Result is what one evaluation of an ALU computes: each state variable's
// new value, and the output.
type Result struct {
	States []uint64
	Output uint64
}

// Eval runs the grammar on W-bit words: holes is a configuration, states
// the state variables' values before the update, packets the operands.
// synth.EncodeALU builds the same meaning as solver terms; a change to
// one is a change to the other (synth's TestEvalAgreesWithEncode compares
// them on every target's grammars).
func (g *Grammar) Eval(holes Config, states, packets []uint64, width int) Result {
	e := &evaluator{g: g, holes: holes, old: states, packets: packets, locals: map[string]uint64{}, mask: wordMask(width), width: width}
	e.new = append([]uint64(nil), states...)
	for i := range e.new {
		e.new[i] &= e.mask
	}
	e.stmts(g.Body)
	return Result{States: e.new, Output: e.expr(g.Output)}
}

func wordMask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

type evaluator struct {
	g        *Grammar
	holes    Config
	old, new []uint64
	packets  []uint64
	locals   map[string]uint64
	mask     uint64
	width    int
}

func (e *evaluator) stmts(ss []Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Let:
			e.locals[s.Name] = e.expr(s.Value)
		case *Assign:
			e.new[s.State] = e.expr(s.Value)
		case *If:
			if e.expr(s.Cond) != 0 {
				e.stmts(s.Then)
			} else {
				e.stmts(s.Else)
			}
		}
	}
}

// signed interprets a word as two's complement.
func (e *evaluator) signed(v uint64) int64 {
	shift := uint(64 - e.width)
	return int64(v<<shift) >> shift
}

func b2w(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

func (e *evaluator) expr(x Expr) uint64 {
	m := e.mask
	switch x := x.(type) {
	case *Input:
		if x.State {
			return e.old[x.Index] & m
		}
		return e.packets[x.Index] & m
	case *New:
		return e.new[x.State]
	case *Local:
		return e.locals[x.Name]
	case *Lit:
		return x.Value & m
	case *HoleRef:
		return holeWord(e.g.Holes[x.Index], e.holes[x.Index], e.width)
	case *Choose:
		i := e.holes[x.Hole]
		if i >= uint64(len(x.Alts)) {
			i = uint64(len(x.Alts) - 1)
		}
		return e.expr(x.Alts[i])
	case *Unary:
		v := e.expr(x.X)
		switch x.Op {
		case "-":
			return -v & m
		case "~":
			return ^v & m
		default: // !
			return b2w(v == 0)
		}
	case *Cond:
		if e.expr(x.C) != 0 {
			return e.expr(x.Then)
		}
		return e.expr(x.Else)
	case *Binary:
		return e.binary(x)
	}
	panic(fmt.Sprintf("grammar: unknown expression %T", x))
}

// exact evaluates x without wrapping its additions and subtractions.
func (e *evaluator) exact(x Expr, signed bool) int64 {
	switch x := x.(type) {
	case *Binary:
		if x.Op == "+" || x.Op == "-" {
			a, b := e.exact(x.X, signed), e.exact(x.Y, signed)
			if x.Op == "+" {
				return a + b
			}
			return a - b
		}
	case *Choose:
		i := e.holes[x.Hole]
		if i >= uint64(len(x.Alts)) {
			i = uint64(len(x.Alts) - 1)
		}
		return e.exact(x.Alts[i], signed)
	}
	v := e.expr(x)
	if signed {
		return e.signed(v)
	}
	return int64(v)
}

func (e *evaluator) exactCompare(x *Binary) uint64 {
	signed := x.LeavesSigned()
	a, b := e.exact(x.X, signed), e.exact(x.Y, signed)
	switch x.Op {
	case "==":
		return b2w(a == b)
	case "!=":
		return b2w(a != b)
	case "<", "ult":
		return b2w(a < b)
	default: // >, ugt
		return b2w(a > b)
	}
}

func (e *evaluator) binary(x *Binary) uint64 {
	if x.ExactAt(e.width) {
		return e.exactCompare(x)
	}
	a, b := e.expr(x.X), e.expr(x.Y)
	m := e.mask
	switch x.Op {
	case "+":
		return (a + b) & m
	case "-":
		return (a - b) & m
	case "*":
		return (a * b) & m
	case "&":
		return a & b
	case "|":
		return a | b
	case "^":
		return a ^ b
	case "<<":
		if b >= uint64(e.width) {
			return 0
		}
		return (a << b) & m
	case ">>":
		if b >= uint64(e.width) {
			return 0
		}
		return a >> b
	case "==":
		return b2w(a == b)
	case "!=":
		return b2w(a != b)
	case "<":
		return b2w(e.signed(a) < e.signed(b))
	case ">":
		return b2w(e.signed(a) > e.signed(b))
	case "<=":
		return b2w(e.signed(a) <= e.signed(b))
	case ">=":
		return b2w(e.signed(a) >= e.signed(b))
	case "&&":
		return b2w(a != 0 && b != 0)
	case "||":
		return b2w(a != 0 || b != 0)
	case "ult":
		return b2w(a < b)
	case "ugt":
		return b2w(a > b)
	case "rotl":
		n := b % uint64(e.width)
		if n == 0 {
			return a
		}
		return (a<<n | a>>(uint64(e.width)-n)) & m
	case "min":
		if e.signed(a) < e.signed(b) {
			return a
		}
		return b
	case "max":
		if e.signed(a) > e.signed(b) {
			return a
		}
		return b
	}
	panic("grammar: unknown operator " + x.Op)
}

// holeWord widens (or narrows) a constant hole's value to a word.
func holeWord(h *Hole, v uint64, width int) uint64 {
	v &= wordMask(h.Bits)
	if h.Kind == HoleSConst && h.Bits < 64 && v>>uint(h.Bits-1)&1 == 1 {
		v |= ^wordMask(h.Bits) // sign-extend
	}
	return v & wordMask(width)
}
