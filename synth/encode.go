package synth

import (
	"fmt"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar"
)

// ALUTerms is what EncodeALU builds: each state variable's new value and
// the output, as W-bit terms.
type ALUTerms struct {
	States []z3.Expr
	Output z3.Expr
}

// holeVars makes one bit-vector variable per hole, of the hole's width,
// named prefix + the hole's index.
func holeVars(x *z3.Context, holes []*grammar.Hole, prefix string) []z3.Expr {
	vars := make([]z3.Expr, len(holes))
	for i, h := range holes {
		vars[i] = x.BVConst(fmt.Sprintf("%s%d", prefix, i), h.Bits)
	}
	return vars
}

// HoleConsts makes the terms of a concrete configuration of holes.
func HoleConsts(x *z3.Context, holes []*grammar.Hole, c grammar.Config) []z3.Expr {
	out := make([]z3.Expr, len(holes))
	for i, h := range holes {
		out[i] = x.BV(c[i], h.Bits)
	}
	return out
}

// EncodeALU builds a grammar's meaning as Z3 terms: holes (one term per
// hole, of its width), states and packets (W-bit terms). It is
// grammar.Grammar.Eval's meaning, written for the solver: a change to one
// is a change to the other, and TestEvalAgreesWithEncode compares them on
// every target's grammars.
func EncodeALU(x *z3.Context, g *grammar.Grammar, holes, states, packets []z3.Expr, width int) (ALUTerms, error) {
	if len(holes) != len(g.Holes) || len(states) != len(g.States) || len(packets) != len(g.Packets) {
		return ALUTerms{}, fmt.Errorf("grammar %s: encode needs %d holes, %d states and %d packet inputs; got %d, %d, %d",
			g.Name, len(g.Holes), len(g.States), len(g.Packets), len(holes), len(states), len(packets))
	}
	enc := &aluEncoder{g: g, x: x, holes: holes, old: states, packets: packets, locals: map[string]z3.Expr{}, width: width}
	enc.new = append([]z3.Expr(nil), states...)
	enc.stmts(g.Body, x.Bool(true))
	out := enc.expr(g.Output)
	if err := x.Err(); err != nil {
		return ALUTerms{}, fmt.Errorf("grammar %s: %w", g.Name, err)
	}
	return ALUTerms{States: enc.new, Output: out}, nil
}

type aluEncoder struct {
	g        *grammar.Grammar
	x        *z3.Context
	holes    []z3.Expr
	old, new []z3.Expr
	packets  []z3.Expr
	locals   map[string]z3.Expr
	width    int
}

func (e *aluEncoder) word(v uint64) z3.Expr { return e.x.BV(v&mask(e.width), e.width) }

func (e *aluEncoder) truth(b z3.Expr) z3.Expr { return e.x.Ite(b, e.word(1), e.word(0)) }

func (e *aluEncoder) isTrue(v z3.Expr) z3.Expr { return v.Eq(e.word(0)).Not() }

// stmts encodes statements under a path condition: an assignment under
// `path` keeps the previous value where path is false.
func (e *aluEncoder) stmts(ss []grammar.Stmt, path z3.Expr) {
	for _, s := range ss {
		switch s := s.(type) {
		case *grammar.Let:
			// A let inside a branch is only read inside it, so its value
			// needs no path condition.
			e.locals[s.Name] = e.expr(s.Value)
		case *grammar.Assign:
			e.new[s.State] = e.x.Ite(path, e.expr(s.Value), e.new[s.State])
		case *grammar.If:
			c := e.isTrue(e.expr(s.Cond))
			e.stmts(s.Then, e.x.And(path, c))
			e.stmts(s.Else, e.x.And(path, c.Not()))
		}
	}
}

func (e *aluEncoder) expr(x grammar.Expr) z3.Expr {
	switch x := x.(type) {
	case *grammar.Input:
		if x.State {
			return e.old[x.Index]
		}
		return e.packets[x.Index]
	case *grammar.New:
		return e.new[x.State]
	case *grammar.Local:
		return e.locals[x.Name]
	case *grammar.Lit:
		return e.word(x.Value)
	case *grammar.HoleRef:
		return e.holeWord(e.g.Holes[x.Index], e.holes[x.Index])
	case *grammar.Choose:
		return e.choose(x, e.expr)
	case *grammar.Unary:
		v := e.expr(x.X)
		switch x.Op {
		case "-":
			return v.Neg()
		case "~":
			return v.BVNot()
		default:
			return e.truth(v.Eq(e.word(0)))
		}
	case *grammar.Cond:
		return e.x.Ite(e.isTrue(e.expr(x.C)), e.expr(x.Then), e.expr(x.Else))
	case *grammar.Binary:
		return e.binary(x)
	}
	panic(fmt.Sprintf("synth: unknown grammar expression %T", x))
}

// choose encodes a choice, each alternative by alt: the hole's value
// picks it, and values past the end pick the last.
func (e *aluEncoder) choose(x *grammar.Choose, alt func(grammar.Expr) z3.Expr) z3.Expr {
	hole := e.holes[x.Hole]
	bits := e.g.Holes[x.Hole].Bits
	v := alt(x.Alts[len(x.Alts)-1])
	for i := len(x.Alts) - 2; i >= 0; i-- {
		v = e.x.Ite(hole.Eq(e.x.BV(uint64(i), bits)), alt(x.Alts[i]), v)
	}
	return v
}

// exact encodes x at width + grammar.ExactBits without wrapping its
// additions and subtractions (see grammar.Binary.Exact).
func (e *aluEncoder) exact(x grammar.Expr, signed bool) z3.Expr {
	switch x := x.(type) {
	case *grammar.Binary:
		if x.Op == "+" || x.Op == "-" {
			a, b := e.exact(x.X, signed), e.exact(x.Y, signed)
			if x.Op == "+" {
				return a.Add(b)
			}
			return a.Sub(b)
		}
	case *grammar.Choose:
		return e.choose(x, func(alt grammar.Expr) z3.Expr { return e.exact(alt, signed) })
	}
	if signed {
		return e.expr(x).SignExt(grammar.ExactBits)
	}
	return e.expr(x).ZeroExt(grammar.ExactBits)
}

func (e *aluEncoder) exactCompare(x *grammar.Binary) z3.Expr {
	signed := x.LeavesSigned()
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

func (e *aluEncoder) binary(x *grammar.Binary) z3.Expr {
	if x.ExactAt(e.width) {
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
	panic("synth: unknown grammar operator " + x.Op)
}

// holeWord widens or narrows a constant hole term to a word, as Eval
// does for values: a signed hole sign-extends, an unsigned one
// zero-extends.
func (e *aluEncoder) holeWord(h *grammar.Hole, v z3.Expr) z3.Expr {
	switch {
	case h.Bits == e.width:
		return v
	case h.Bits > e.width:
		return v.Extract(e.width-1, 0)
	case h.Kind == grammar.HoleSConst:
		return v.SignExt(e.width - h.Bits)
	}
	return v.ZeroExt(e.width - h.Bits)
}
