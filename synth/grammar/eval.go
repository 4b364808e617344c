package grammar

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/solver/z3"
)

// Config is a configuration of an ALU: one value per hole, in hole order.
type Config []uint64

// String prints a configuration with the holes' names or places.
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

// maxExactWidth bounds the words exact comparisons handle: a sum of a few
// words must fit an int64 (and the solver's width + exactBits).
const maxExactWidth = 56

// exactBits is how many bits exact comparisons add to the word: room for
// the sign and the carries of a few additions.
const exactBits = 4

// signedLeaves says whether an exact comparison reads its leaves signed.
func signedLeaves(op string) bool { return op == "<" || op == ">" }

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
	signed := signedLeaves(x.Op)
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
	if x.Exact && e.width <= maxExactWidth {
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

// ---------------------------------------------------------------- encoding

// Terms is what Encode builds: each state variable's new value and the
// output, as W-bit terms.
type Terms struct {
	States []z3.Expr
	Output z3.Expr
}

// HoleVars makes one bit-vector variable per hole, of the hole's width,
// named prefix + the hole's index.
func HoleVars(x *z3.Context, holes []*Hole, prefix string) []z3.Expr {
	vars := make([]z3.Expr, len(holes))
	for i, h := range holes {
		vars[i] = x.BVConst(fmt.Sprintf("%s%d", prefix, i), h.Bits)
	}
	return vars
}

// HoleConsts makes the terms of a concrete configuration of holes.
func HoleConsts(x *z3.Context, holes []*Hole, c Config) []z3.Expr {
	out := make([]z3.Expr, len(holes))
	for i, h := range holes {
		out[i] = x.BV(c[i], h.Bits)
	}
	return out
}

// Encode builds the grammar's meaning as Z3 terms: holes (one term per
// hole, of its width), states and packets (W-bit terms).
func (g *Grammar) Encode(x *z3.Context, holes, states, packets []z3.Expr, width int) (Terms, error) {
	if len(holes) != len(g.Holes) || len(states) != len(g.States) || len(packets) != len(g.Packets) {
		return Terms{}, fmt.Errorf("grammar %s: encode needs %d holes, %d states and %d packet inputs; got %d, %d, %d",
			g.Name, len(g.Holes), len(g.States), len(g.Packets), len(holes), len(states), len(packets))
	}
	enc := &encoder{g: g, x: x, holes: holes, old: states, packets: packets, locals: map[string]z3.Expr{}, width: width}
	enc.new = append([]z3.Expr(nil), states...)
	enc.stmts(g.Body, x.Bool(true))
	out := enc.expr(g.Output)
	if err := x.Err(); err != nil {
		return Terms{}, fmt.Errorf("grammar %s: %w", g.Name, err)
	}
	return Terms{States: enc.new, Output: out}, nil
}

type encoder struct {
	g        *Grammar
	x        *z3.Context
	holes    []z3.Expr
	old, new []z3.Expr
	packets  []z3.Expr
	locals   map[string]z3.Expr
	width    int
}

func (e *encoder) word(v uint64) z3.Expr { return e.x.BV(v&wordMask(e.width), e.width) }

func (e *encoder) truth(b z3.Expr) z3.Expr { return e.x.Ite(b, e.word(1), e.word(0)) }

func (e *encoder) isTrue(v z3.Expr) z3.Expr { return v.Eq(e.word(0)).Not() }

// stmts encodes statements under a path condition: an assignment under
// `path` keeps the previous value where path is false.
func (e *encoder) stmts(ss []Stmt, path z3.Expr) {
	for _, s := range ss {
		switch s := s.(type) {
		case *Let:
			// A let inside a branch is only read inside it, so its value
			// needs no path condition.
			e.locals[s.Name] = e.expr(s.Value)
		case *Assign:
			e.new[s.State] = e.x.Ite(path, e.expr(s.Value), e.new[s.State])
		case *If:
			c := e.isTrue(e.expr(s.Cond))
			e.stmts(s.Then, e.x.And(path, c))
			e.stmts(s.Else, e.x.And(path, c.Not()))
		}
	}
}

func (e *encoder) expr(x Expr) z3.Expr {
	switch x := x.(type) {
	case *Input:
		if x.State {
			return e.old[x.Index]
		}
		return e.packets[x.Index]
	case *New:
		return e.new[x.State]
	case *Local:
		return e.locals[x.Name]
	case *Lit:
		return e.word(x.Value)
	case *HoleRef:
		return e.holeWord(e.g.Holes[x.Index], e.holes[x.Index])
	case *Choose:
		hole := e.holes[x.Hole]
		bits := e.g.Holes[x.Hole].Bits
		v := e.expr(x.Alts[len(x.Alts)-1])
		for i := len(x.Alts) - 2; i >= 0; i-- {
			v = e.x.Ite(hole.Eq(e.x.BV(uint64(i), bits)), e.expr(x.Alts[i]), v)
		}
		return v
	case *Unary:
		v := e.expr(x.X)
		switch x.Op {
		case "-":
			return v.Neg()
		case "~":
			return v.BVNot()
		default:
			return e.truth(v.Eq(e.word(0)))
		}
	case *Cond:
		return e.x.Ite(e.isTrue(e.expr(x.C)), e.expr(x.Then), e.expr(x.Else))
	case *Binary:
		return e.binary(x)
	}
	panic(fmt.Sprintf("grammar: unknown expression %T", x))
}

// exact encodes x at width + exactBits without wrapping its additions and
// subtractions (see Binary.Exact).
func (e *encoder) exact(x Expr, signed bool) z3.Expr {
	switch x := x.(type) {
	case *Binary:
		if x.Op == "+" || x.Op == "-" {
			a, b := e.exact(x.X, signed), e.exact(x.Y, signed)
			if x.Op == "+" {
				return a.Add(b)
			}
			return a.Sub(b)
		}
	case *Choose:
		hole := e.holes[x.Hole]
		bits := e.g.Holes[x.Hole].Bits
		v := e.exact(x.Alts[len(x.Alts)-1], signed)
		for i := len(x.Alts) - 2; i >= 0; i-- {
			v = e.x.Ite(hole.Eq(e.x.BV(uint64(i), bits)), e.exact(x.Alts[i], signed), v)
		}
		return v
	}
	if signed {
		return e.expr(x).SignExt(exactBits)
	}
	return e.expr(x).ZeroExt(exactBits)
}

func (e *encoder) exactCompare(x *Binary) z3.Expr {
	signed := signedLeaves(x.Op)
	a, b := e.exact(x.X, signed), e.exact(x.Y, signed)
	switch x.Op {
	case "==":
		return e.truth(a.Eq(b))
	case "!=":
		return e.truth(a.Eq(b).Not())
	case "<", "ult":
		return e.truth(a.SLT(b))
	default: // >, ugt
		return e.truth(b.SLT(a))
	}
}

func (e *encoder) binary(x *Binary) z3.Expr {
	if x.Exact && e.width <= maxExactWidth {
		return e.exactCompare(x)
	}
	a, b := e.expr(x.X), e.expr(x.Y)
	switch x.Op {
	case "+":
		return a.Add(b)
	case "-":
		return a.Sub(b)
	case "*":
		return a.Mul(b)
	case "&":
		return a.BVAnd(b)
	case "|":
		return a.BVOr(b)
	case "^":
		return a.BVXor(b)
	case "<<":
		return a.Shl(b) // SMT-LIB: shifting by the width or more gives 0
	case ">>":
		return a.LShr(b)
	case "==":
		return e.truth(a.Eq(b))
	case "!=":
		return e.truth(a.Eq(b).Not())
	case "<":
		return e.truth(a.SLT(b))
	case ">":
		return e.truth(b.SLT(a))
	case "<=":
		return e.truth(a.SLE(b))
	case ">=":
		return e.truth(b.SLE(a))
	case "&&":
		return e.truth(e.x.And(e.isTrue(a), e.isTrue(b)))
	case "||":
		return e.truth(e.x.Or(e.isTrue(a), e.isTrue(b)))
	case "ult":
		return e.truth(a.ULT(b))
	case "ugt":
		return e.truth(b.ULT(a))
	case "rotl":
		return a.RotL(b)
	case "min":
		return e.x.Ite(a.SLT(b), a, b)
	case "max":
		return e.x.Ite(b.SLT(a), a, b)
	}
	panic("grammar: unknown operator " + x.Op)
}

// holeWord widens or narrows a constant hole term to a word, as holeWord
// does for values.
func (e *encoder) holeWord(h *Hole, v z3.Expr) z3.Expr {
	switch {
	case h.Bits == e.width:
		return v
	case h.Bits > e.width:
		return v.Extract(e.width-1, 0)
	case h.Kind == HoleSConst:
		return v.SignExt(e.width - h.Bits)
	}
	return v.ZeroExt(e.width - h.Bits)
}
