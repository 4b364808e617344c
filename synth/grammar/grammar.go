// Package grammar is the ALU grammar language of p4hls: one small file
// describes one kind of ALU of a target, with holes (constants, operator and
// operand choices) that synthesis fills in. This package parses grammars,
// holds their syntax trees and runs them on concrete hole values and inputs
// (Eval: the pipeline models use it). It imports no solver, so that the
// target descriptions built on it are plain data: the solver encoding,
// with the holes as variables, is synth.EncodeALU, and the two
// interpretations must agree bit for bit.
//
// The language, by example (ALUS.md §1.2, Banzai's pred_raw atom):
//
//		// Every read of a state variable reads its value before the update;
//		// assignments build the value after it.
//		stateful pred_raw(state s; packet a, b) {
//		    if (rel(opt(s), mux3(a, b, const<5>))) {
//		        s = opt(s) + mux3(a, b, const<5>);
//		    }
//		    output mux2(s, new(s));
//		}
//
//	  - A file is `stateful NAME(...)` or `stateless NAME(...)`; parameters
//	    are groups `state NAMES` and `packet NAMES` separated by `;`.
//	  - `hole NAME : const<B>;` declares a named constant hole of B bits
//	    (zero-extended), `sconst<B>` a signed one (sign-extended); a named
//	    hole is one value wherever it is used. `const<B>` and `sconst<B>`
//	    written in an expression are anonymous holes, one per occurrence.
//	  - `let NAME = EXPR;` names a value; `STATE = EXPR;` updates a state
//	    variable; `if (EXPR) {...} else {...}`; `output EXPR;` ends the body.
//	  - `choose<B>(e0, ..., en)` is the one choice construct: a B-bit hole
//	    picks an alternative, values past the last pick the last. An
//	    alternative may carry a label, `e @ 0x1c`, that the target's emitter
//	    reads (a hardware opcode). The shorthands are opt(x) = choose<1>(x, 0),
//	    mux2(x, y), mux3(x, y, z) and mux4(w, x, y, z) = choose<1 or 2>(...),
//	    rel(x, y) = choose<2>(x != y, x < y, x > y, x == y) and arith(x, y) =
//	    choose<1>(x + y, x - y) (the encodings of ALUS.md §0).
//	  - Values are W-bit words (W is given when evaluating or encoding);
//	    arithmetic wraps. Comparisons give 0 or 1 and are signed; conditions
//	    (if, ?:, &&, ||, !) take any non-zero word as true.
//	  - `new(s)` is a state variable's updated value (for the output).
//	  - `rotl(x, n)` rotates left by n modulo W; `min(x, y)` and `max(x, y)`
//	    are signed.
package grammar

import (
	"github.com/p4hls/p4hls/diag"
)

// Kind tells stateful ALUs (they own state variables) from stateless ones.
type Kind int

const (
	Stateless Kind = iota
	Stateful
)

func (k Kind) String() string { return [...]string{"stateless", "stateful"}[k] }

// HoleKind says what a hole's value means.
type HoleKind int

const (
	HoleConst  HoleKind = iota // an unsigned constant, zero-extended
	HoleSConst                 // a signed constant, sign-extended
	HoleChoice                 // the selector of a choose
)

// Hole is one unknown of a grammar. Holes are numbered in the order they
// appear: named holes first, as declared, then anonymous ones in source
// order. A configuration of the ALU is one value per hole.
type Hole struct {
	Name string // "" for anonymous holes; their Label says where they are
	Kind HoleKind
	Bits int
	// Label describes an anonymous hole for people: "choose at 4:12".
	Label string
	// Alternatives is the number of alternatives of a choice hole; Labels
	// holds their labels (nil where none was written).
	Alternatives int
	Labels       []*int64
	Span         diag.Span
}

// Grammar is one parsed ALU description.
type Grammar struct {
	Name    string
	Kind    Kind
	States  []string
	Packets []string
	Holes   []*Hole
	Body    []Stmt
	Output  Expr
	File    string
	Source  []byte // the grammar's text (a query cache key includes it)
}

// Hole returns the named hole, or nil.
func (g *Grammar) Hole(name string) *Hole {
	for _, h := range g.Holes {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// Stmt is a statement of a grammar body.
type Stmt interface{ stmt() }

// Let is `let NAME = EXPR;`.
type Let struct {
	Name  string
	Value Expr
}

// Assign is `STATE = EXPR;` (State is the state variable's index).
type Assign struct {
	State int
	Value Expr
}

// If is `if (Cond) Then else Else`.
type If struct {
	Cond       Expr
	Then, Else []Stmt
}

func (*Let) stmt()    {}
func (*Assign) stmt() {}
func (*If) stmt()     {}

// Expr is an expression of a grammar.
type Expr interface{ expr() }

// Input reads a state variable's old value (State true, Index into States)
// or a packet operand (Index into Packets).
type Input struct {
	State bool
	Index int
}

// New reads a state variable's updated value.
type New struct{ State int }

// Local reads a let.
type Local struct{ Name string }

// Lit is a literal word.
type Lit struct{ Value uint64 }

// HoleRef reads a constant hole (Index into Holes).
type HoleRef struct{ Index int }

// Choose picks Alts[hole value], or the last one past the end.
type Choose struct {
	Hole int
	Alts []Expr
}

// Unary is Op X with Op one of - ~ !.
type Unary struct {
	Op string
	X  Expr
}

// Binary is X Op Y with Op one of + - * & | ^ << >> == != < > <= >= && ||,
// or rotl, min, max, ult, ugt (the builtins of two operands).
type Binary struct {
	Op   string
	X, Y Expr
	// Exact marks a comparison of exact values: the + and - (and the
	// choices among them) under it do not wrap, the way a comparison unit
	// that keeps the carry compares "s + x - y" with K. The leaves are read
	// as signed words for < and >, as unsigned ones otherwise. Without it,
	// x < y and x - y < 0 differ at the word width (ALUS.md §0), and a
	// cmp atom could not compare a state with a packet field at 32 bits.
	Exact bool
}

// maxExactWidth bounds the words exact comparisons handle: a sum of a few
// words must fit an int64 here, and a word plus ExactBits must fit the
// solver's terms.
const maxExactWidth = 56

// ExactBits is how many bits an exact comparison adds to the word: room
// for the sign and the carries of a few additions. The solver encoding
// compares at width + ExactBits; Eval, on int64s, needs no more.
const ExactBits = 4

// ExactAt says whether x compares exact values at word width w: it is
// marked Exact and the word is narrow enough for the exact sums. Above
// maxExactWidth the comparison wraps like any other, in Eval and in the
// solver encoding alike.
func (x *Binary) ExactAt(w int) bool { return x.Exact && w <= maxExactWidth }

// LeavesSigned says whether an exact comparison reads its leaves as
// signed words (< and >) or unsigned ones (the others).
func (x *Binary) LeavesSigned() bool { return x.Op == "<" || x.Op == ">" }

// Cond is C ? Then : Else.
type Cond struct{ C, Then, Else Expr }

func (*Input) expr()   {}
func (*New) expr()     {}
func (*Local) expr()   {}
func (*Lit) expr()     {}
func (*HoleRef) expr() {}
func (*Choose) expr()  {}
func (*Unary) expr()   {}
func (*Binary) expr()  {}
func (*Cond) expr()    {}
