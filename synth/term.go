package synth

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/solver/z3"
)

// Op is the operation of a term. It is not ir.Op because it is another
// set: a term's operator carries the signedness P4 keeps in the operand
// types (OpLtU and OpLtS, OpShr and OpSar), it has no > or >= (a term
// swaps the operands of < and <=), no / or %, no && or || (bools are
// words of one bit), and it names nodes that are no P4 operator (OpConst,
// OpInput, OpPre, OpIte, OpZext, OpSext, OpExtract, OpHash). The
// preprocessor maps ir.Op to it (termOp); opNames borrows P4's spelling
// where a term operator is a P4 one.
type Op int

const (
	OpConst Op = iota // Value
	OpInput           // a field or action parameter the transaction reads (a primary input)
	OpPre             // a state variable's value before the transaction
	OpAdd
	OpSub
	OpMul
	OpAnd
	OpOr
	OpXor
	OpNot // bitwise complement
	OpShl // by a constant amount (Value)
	OpShr // logical, by a constant amount
	OpSar // arithmetic, by a constant amount
	OpEq  // 1-bit results from here
	OpNe
	OpLtU
	OpLeU
	OpLtS
	OpLeS
	OpIte     // Args[0] ? Args[1] : Args[2]; Args[0] is 1 bit
	OpZext    // to Width
	OpSext    // to Width
	OpExtract // bits Hi..Lo of Args[0]
	OpConcat
	OpSatAddU
	OpSatSubU
	// OpHash is v1model's hash of its arguments (fields) by the target's
	// hash unit: Hash says how. It is a leaf for the ALUs: the unit
	// computes it before the stage's ALUs read it.
	OpHash
)

// opNames spells the term operators in printed terms: as P4 spells the
// operator where it computes as P4's does on unsigned operands, with an
// "s" after it for the signed forms, and by name otherwise.
var opNames = map[Op]string{
	OpAdd: ir.Add.String(), OpSub: ir.Sub.String(), OpMul: ir.Mul.String(),
	OpAnd: ir.BitAnd.String(), OpOr: ir.BitOr.String(), OpXor: ir.BitXor.String(), OpNot: ir.BitNot.String(),
	OpShl: ir.Shl.String(), OpShr: ir.Shr.String(), OpSar: ir.Shr.String() + "s",
	OpEq: ir.Eq.String(), OpNe: ir.Ne.String(), OpLtU: ir.Lt.String(), OpLeU: ir.Le.String(),
	OpLtS: ir.Lt.String() + "s", OpLeS: ir.Le.String() + "s",
	OpConcat: ir.Concat.String(), OpSatAddU: ir.SatAdd.String(), OpSatSubU: ir.SatSub.String(),
	OpIte: "?", OpZext: "zext", OpSext: "sext", OpExtract: "extract", OpHash: "hash",
}

// Term is a node of a transaction's expression DAG. Terms are hash-consed
// by a Builder: equal terms are the same pointer, so a term's identity is
// its meaning's identity as far as syntax can tell.
type Term struct {
	Op     Op
	Width  int
	Args   []*Term
	Value  uint64 // OpConst; the shift amount of OpShl, OpShr, OpSar
	Hi, Lo int    // OpExtract
	// Name names an input or a state variable (for messages and dumps);
	// Field is the input's storage, Cell the state variable.
	Name  string
	Field ir.Expr
	Cell  *Cell
	Hash  *HashSpec
	id    int
	// shape digests the term's structure without the names of its
	// leaves, and state says whether it reads a pre-state: the canonical
	// order of operands (canon.go) ranks by them, so that the order does
	// not follow the program's text or its names.
	shape uint64
	state bool
	depth int
}

// HashSpec is how a hash unit computes: base + H(data) mod max (base when
// max is 0), H one of v1model's algorithms.
type HashSpec struct {
	Algo      string
	Base, Max uint64
}

// IsLeaf says whether ALUs read t as it is: an input, a pre-state, a hash.
func (t *Term) IsLeaf() bool { return t.Op == OpInput || t.Op == OpPre || t.Op == OpHash }

func mask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

// IsConst reports whether t is a constant.
func (t *Term) IsConst() bool { return t.Op == OpConst }

// maxTermText bounds a printed term: a DAG with much sharing prints
// exponentially long, and messages only need its start.
const maxTermText = 600

// String prints a term as an expression, cut with "..." after about
// maxTermText characters.
func (t *Term) String() string {
	var b strings.Builder
	t.format(&b)
	return b.String()
}

func (t *Term) format(b *strings.Builder) {
	if b.Len() > maxTermText {
		if !strings.HasSuffix(b.String(), "...") {
			b.WriteString("...")
		}
		return
	}
	sub := func(i int) { t.Args[i].format(b) }
	switch t.Op {
	case OpConst:
		fmt.Fprintf(b, "%dw%d", t.Width, t.Value)
	case OpInput, OpPre:
		b.WriteString(t.Name)
	case OpHash:
		b.WriteString(t.Name + "{")
		for i := range t.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			sub(i)
		}
		b.WriteString("}")
	case OpIte:
		b.WriteString("(")
		sub(0)
		b.WriteString(" ? ")
		sub(1)
		b.WriteString(" : ")
		sub(2)
		b.WriteString(")")
	case OpNot:
		b.WriteString("~")
		sub(0)
	case OpShl, OpShr, OpSar:
		b.WriteString("(")
		sub(0)
		fmt.Fprintf(b, " %s %d)", opNames[t.Op], t.Value)
	case OpZext, OpSext:
		fmt.Fprintf(b, "%s%d(", opNames[t.Op], t.Width)
		sub(0)
		b.WriteString(")")
	case OpExtract:
		sub(0)
		fmt.Fprintf(b, "[%d:%d]", t.Hi, t.Lo)
	default:
		b.WriteString("(")
		for i := range t.Args {
			if i > 0 {
				b.WriteString(" " + opNames[t.Op] + " ")
			}
			sub(i)
		}
		b.WriteString(")")
	}
}

// Builder makes terms, hash-consing them and simplifying as it goes:
// constant folding, and the identities of + - * & | ^ and ?:.
type Builder struct {
	terms map[string]*Term
	next  int
	// raw turns off folding and the identities (the ablation without
	// preprocessing); terms are still shared, and ?: with a constant
	// condition or equal arms still folds: branch removal makes those.
	raw bool
}

// NewBuilder returns an empty builder.
func NewBuilder() *Builder { return &Builder{terms: map[string]*Term{}} }

func (b *Builder) intern(t *Term) *Term {
	var key strings.Builder
	fmt.Fprintf(&key, "%d/%d/%d/%d/%d/%s", t.Op, t.Width, t.Value, t.Hi, t.Lo, t.Name)
	for _, a := range t.Args {
		fmt.Fprintf(&key, ",%d", a.id)
	}
	if t.Cell != nil {
		fmt.Fprintf(&key, "@%p", t.Cell)
	}
	if old, ok := b.terms[key.String()]; ok {
		return old
	}
	t.id = b.next
	b.next++
	t.shape, t.state, t.depth = shapeOf(t)
	b.terms[key.String()] = t
	return t
}

// Const makes a constant of width w.
func (b *Builder) Const(v uint64, w int) *Term {
	return b.intern(&Term{Op: OpConst, Width: w, Value: v & mask(w)})
}

// Bool makes a 1-bit constant.
func (b *Builder) Bool(v bool) *Term {
	if v {
		return b.Const(1, 1)
	}
	return b.Const(0, 1)
}

// Input makes a primary input: a field of width w the transaction reads.
func (b *Builder) Input(name string, field ir.Expr, w int) *Term {
	return b.intern(&Term{Op: OpInput, Width: w, Name: name, Field: field})
}

// HashOf makes the hash of data (fields) by spec, w bits wide.
func (b *Builder) HashOf(spec HashSpec, data []*Term, w int) *Term {
	name := fmt.Sprintf("%s(%d, %d)", spec.Algo, spec.Base, spec.Max)
	return b.intern(&Term{Op: OpHash, Width: w, Name: name, Args: data, Hash: &spec})
}

// Pre makes the pre-state of a state variable.
func (b *Builder) Pre(c *Cell) *Term {
	return b.intern(&Term{Op: OpPre, Width: c.Width, Name: c.Name + "_pre", Cell: c})
}

// Binary makes x op y for operands of one width (the shifts take a
// constant amount y).
func (b *Builder) Binary(op Op, x, y *Term) *Term {
	w := x.Width
	if b.raw {
		return b.intern(&Term{Op: op, Width: resultWidth(op, w), Args: []*Term{x, y}})
	}
	if x.IsConst() && y.IsConst() {
		return b.Const(fold(op, x.Value, y.Value, w), resultWidth(op, w))
	}
	if u, uop, c, ok := reassociated(op, x, y, w); ok {
		// (u + c1) + c2 is u + (c1 + c2): one operation fewer.
		return b.Binary(uop, u, b.Const(c, w))
	}
	if commutative(op) && x.state && !y.state {
		x, y = y, x // what reads no state first, whatever the text's order
	}
	switch op {
	case OpAdd, OpOr, OpXor:
		if x.IsConst() {
			x, y = y, x // constants on the right
		}
		if y.IsConst() && y.Value == 0 {
			return x
		}
		if op == OpXor && x == y {
			return b.Const(0, w)
		}
		if op == OpOr && x == y {
			return x
		}
	case OpSub:
		if y.IsConst() && y.Value == 0 {
			return x
		}
		if x == y {
			return b.Const(0, w)
		}
	case OpMul:
		if x.IsConst() {
			x, y = y, x
		}
		if y.IsConst() && y.Value == 1 {
			return x
		}
		if y.IsConst() && y.Value == 0 {
			return y
		}
	case OpAnd:
		if x.IsConst() {
			x, y = y, x
		}
		if y.IsConst() && y.Value == 0 {
			return y
		}
		if y.IsConst() && y.Value == mask(w) || x == y {
			return x
		}
	case OpEq, OpLeU, OpLeS:
		if x == y {
			return b.Bool(true)
		}
	case OpNe, OpLtU, OpLtS:
		if x == y {
			return b.Bool(false)
		}
	}
	// Equality is symmetric: a constant goes right (0 == heavy is
	// heavy == 0), so that the forms below find it.
	if (op == OpEq || op == OpNe) && x.IsConst() && !y.IsConst() {
		x, y = y, x
	}
	// x == y is x - y == 0 (and so for !=): ALUs that compare one input
	// with a constant (Tofino's) then compare a difference a stateless
	// ALU computed, and a cut of the term finds that difference.
	// The operands are in canonical order (canonicalLess), so a == b and
	// b == a are one term, whatever the text or the names.
	if (op == OpEq || op == OpNe) && w > 1 && !y.IsConst() && !x.IsConst() {
		if canonicalLess(y, x) {
			x, y = y, x
		}
		return b.Binary(op, b.Binary(OpSub, x, y), b.Const(0, w))
	}
	// x + c1 == c2 is x == c2 - c1 (and x - c1 == c2 is x == c2 + c1):
	// adding a constant is a bijection on words, so this holds with
	// wraparound too; the comparison then needs no adder.
	if (op == OpEq || op == OpNe) && y.IsConst() && (x.Op == OpAdd || x.Op == OpSub) && x.Args[1].IsConst() {
		inverse := OpSub
		if x.Op == OpSub {
			inverse = OpAdd
		}
		return b.Binary(op, x.Args[0], b.Const(fold(inverse, y.Value, x.Args[1].Value, w), w))
	}
	// (a |-| b) > c is (a |-| c) > b, and so for <=, on unsigned values
	// (both say a > b + c, exactly): with b a later value (a state's) and
	// c a constant, the saturating difference no longer waits for b
	// (flowlets written with C's meaning: (arrival |-| last) > 5).
	if sat, c, ok := saturatingAgainstConstant(op, x, y); ok {
		a, late := sat.Args[0], sat.Args[1]
		early := b.Binary(OpSatSubU, a, c)
		if op == OpLtU {
			return b.Binary(OpLtU, late, early)
		}
		return b.Binary(OpLeU, early, late)
	}
	return b.intern(&Term{Op: op, Width: resultWidth(op, w), Args: []*Term{x, y}})
}

// saturatingAgainstConstant matches c < (a |-| b) and (a |-| b) <= c with
// c a constant and b not one.
func saturatingAgainstConstant(op Op, x, y *Term) (sat, c *Term, ok bool) {
	switch {
	case op == OpLtU && x.IsConst() && y.Op == OpSatSubU:
		sat, c = y, x
	case op == OpLeU && y.IsConst() && x.Op == OpSatSubU:
		sat, c = x, y
	default:
		return nil, nil, false
	}
	return sat, c, !sat.Args[1].IsConst()
}

func resultWidth(op Op, w int) int {
	switch op {
	case OpEq, OpNe, OpLtU, OpLeU, OpLtS, OpLeS:
		return 1
	}
	return w
}

// Shift makes x << n, x >> n (logical) or x >>s n (arithmetic).
func (b *Builder) Shift(op Op, x *Term, n uint64) *Term {
	if b.raw {
		return b.intern(&Term{Op: op, Width: x.Width, Args: []*Term{x}, Value: n})
	}
	if n == 0 {
		return x
	}
	if x.IsConst() {
		return b.Const(fold(op, x.Value, n, x.Width), x.Width)
	}
	if n >= uint64(x.Width) && op != OpSar {
		return b.Const(0, x.Width)
	}
	return b.intern(&Term{Op: op, Width: x.Width, Args: []*Term{x}, Value: n})
}

// Not makes the bitwise complement (for 1-bit terms: logical not).
func (b *Builder) Not(x *Term) *Term {
	if b.raw {
		return b.intern(&Term{Op: OpNot, Width: x.Width, Args: []*Term{x}})
	}
	if x.IsConst() {
		return b.Const(^x.Value, x.Width)
	}
	if x.Op == OpNot {
		return x.Args[0]
	}
	if x.Width == 1 {
		switch x.Op { // push not into comparisons
		case OpEq:
			return b.Binary(OpNe, x.Args[0], x.Args[1])
		case OpNe:
			return b.Binary(OpEq, x.Args[0], x.Args[1])
		case OpLtU:
			return b.Binary(OpLeU, x.Args[1], x.Args[0])
		case OpLeU:
			return b.Binary(OpLtU, x.Args[1], x.Args[0])
		case OpLtS:
			return b.Binary(OpLeS, x.Args[1], x.Args[0])
		case OpLeS:
			return b.Binary(OpLtS, x.Args[1], x.Args[0])
		}
	}
	return b.intern(&Term{Op: OpNot, Width: x.Width, Args: []*Term{x}})
}

// Neg makes -x.
func (b *Builder) Neg(x *Term) *Term { return b.Binary(OpSub, b.Const(0, x.Width), x) }

// Ite makes c ? x : y.
func (b *Builder) Ite(c, x, y *Term) *Term {
	switch {
	case c.IsConst() && c.Value != 0:
		return x
	case c.IsConst():
		return y
	case x == y:
		return x
	case b.raw:
	case x.Width == 1 && x.IsConst() && y.IsConst():
		if x.Value == 1 {
			return c // c ? 1 : 0
		}
		return b.Not(c) // c ? 0 : 1
	case c.Op == OpNot:
		return b.Ite(c.Args[0], y, x)
	case c.Op == OpNe:
		// One polarity of each test: c != d ? x : y is c == d ? y : x,
		// and a <= b ? x : y is b < a ? y : x (a branch written
		// inverted is the same term).
		return b.Ite(b.Binary(OpEq, c.Args[0], c.Args[1]), y, x)
	case c.Op == OpLeU:
		return b.Ite(b.Binary(OpLtU, c.Args[1], c.Args[0]), y, x)
	case c.Op == OpLeS:
		return b.Ite(b.Binary(OpLtS, c.Args[1], c.Args[0]), y, x)
	case isDifferenceTest(c):
		// u != v ? u : v is u, and u != v ? v : u is v: the then arm;
		// with ==, the else arm.
		u, v := c.Args[0].Args[0], c.Args[0].Args[1]
		if x == u && y == v || x == v && y == u {
			if c.Op == OpNe {
				return x
			}
			return y
		}
	}
	return b.intern(&Term{Op: OpIte, Width: x.Width, Args: []*Term{c, x, y}})
}

// reassociated folds the constants of (u op1 c1) op c2 into one: for &,
// | and ^ (op1 = op, in either operand order) into u op (c1 op c2); for
// sums and differences (u - c is u + -c) into u + c. It reports false
// for anything else.
func reassociated(op Op, x, y *Term, w int) (u *Term, uop Op, c uint64, ok bool) {
	if x.IsConst() && op != OpSub {
		x, y = y, x
	}
	if !y.IsConst() || len(x.Args) != 2 || !x.Args[1].IsConst() || x.Args[0].IsConst() {
		return nil, 0, 0, false
	}
	c1, c2 := x.Args[1].Value, y.Value
	switch {
	case (op == OpAnd || op == OpOr || op == OpXor) && x.Op == op:
		return x.Args[0], op, fold(op, c1, c2, w), true
	case (op == OpAdd || op == OpSub) && (x.Op == OpAdd || x.Op == OpSub):
		if x.Op == OpSub {
			c1 = fold(OpSub, 0, c1, w)
		}
		if op == OpSub {
			c2 = fold(OpSub, 0, c2, w)
		}
		return x.Args[0], OpAdd, fold(OpAdd, c1, c2, w), true
	}
	return nil, 0, 0, false
}

// isDifferenceTest says whether c is u - v == 0 or u - v != 0.
func isDifferenceTest(c *Term) bool {
	return (c.Op == OpEq || c.Op == OpNe) && c.Args[1].IsConst() && c.Args[1].Value == 0 && c.Args[0].Op == OpSub
}

// And and Or of 1-bit terms.
func (b *Builder) And(x, y *Term) *Term { return b.Binary(OpAnd, x, y) }
func (b *Builder) Or(x, y *Term) *Term  { return b.Binary(OpOr, x, y) }

// Resize changes a term's width: truncation, or zero or sign extension.
func (b *Builder) Resize(x *Term, w int, signed bool) *Term {
	switch {
	case w == x.Width:
		return x
	case w < x.Width:
		return b.Extract(x, w-1, 0)
	case x.IsConst() && !signed:
		return b.Const(x.Value, w)
	case x.IsConst():
		return b.Const(uint64(signExtend(x.Value, x.Width)), w)
	case signed:
		return b.intern(&Term{Op: OpSext, Width: w, Args: []*Term{x}})
	}
	return b.intern(&Term{Op: OpZext, Width: w, Args: []*Term{x}})
}

// Extract makes bits hi..lo of x.
func (b *Builder) Extract(x *Term, hi, lo int) *Term {
	if lo == 0 && hi == x.Width-1 {
		return x
	}
	if x.IsConst() {
		return b.Const(x.Value>>uint(lo), hi-lo+1)
	}
	if x.Op == OpZext && hi < x.Args[0].Width {
		return b.Extract(x.Args[0], hi, lo)
	}
	return b.intern(&Term{Op: OpExtract, Width: hi - lo + 1, Args: []*Term{x}, Hi: hi, Lo: lo})
}

// Concat makes x ++ y.
func (b *Builder) Concat(x, y *Term) *Term {
	if x.IsConst() && y.IsConst() {
		return b.Const(x.Value<<uint(y.Width)|y.Value, x.Width+y.Width)
	}
	return b.intern(&Term{Op: OpConcat, Width: x.Width + y.Width, Args: []*Term{x, y}})
}

func signExtend(v uint64, w int) int64 {
	if w >= 64 {
		return int64(v)
	}
	s := uint(64 - w)
	return int64(v<<s) >> s
}

// fold computes a binary (or shift) operation on constants of width w.
func fold(op Op, x, y uint64, w int) uint64 {
	m := mask(w)
	bool01 := func(c bool) uint64 {
		if c {
			return 1
		}
		return 0
	}
	switch op {
	case OpAdd:
		return (x + y) & m
	case OpSub:
		return (x - y) & m
	case OpMul:
		return (x * y) & m
	case OpAnd:
		return x & y
	case OpOr:
		return x | y
	case OpXor:
		return x ^ y
	case OpShl:
		if y >= uint64(w) {
			return 0
		}
		return (x << y) & m
	case OpShr:
		if y >= uint64(w) {
			return 0
		}
		return x >> y
	case OpSar:
		if y >= uint64(w) {
			y = uint64(w - 1)
		}
		return uint64(signExtend(x, w)>>y) & m
	case OpEq:
		return bool01(x == y)
	case OpNe:
		return bool01(x != y)
	case OpLtU:
		return bool01(x < y)
	case OpLeU:
		return bool01(x <= y)
	case OpLtS:
		return bool01(signExtend(x, w) < signExtend(y, w))
	case OpLeS:
		return bool01(signExtend(x, w) <= signExtend(y, w))
	case OpSatAddU:
		if s := x + y; s <= m && s >= x {
			return s
		}
		return m
	case OpSatSubU:
		if y > x {
			return 0
		}
		return x - y
	}
	panic(fmt.Sprintf("synth: cannot fold %v", op))
}

// Eval computes a term given values for its inputs and pre-states.
func (t *Term) Eval(env map[*Term]uint64, memo map[*Term]uint64) uint64 {
	if v, ok := memo[t]; ok {
		return v
	}
	var v uint64
	switch t.Op {
	case OpConst:
		v = t.Value
	case OpInput, OpPre, OpHash:
		v = env[t] & mask(t.Width)
	case OpIte:
		if t.Args[0].Eval(env, memo) != 0 {
			v = t.Args[1].Eval(env, memo)
		} else {
			v = t.Args[2].Eval(env, memo)
		}
	case OpNot:
		v = ^t.Args[0].Eval(env, memo) & mask(t.Width)
	case OpShl, OpShr, OpSar:
		v = fold(t.Op, t.Args[0].Eval(env, memo), t.Value, t.Width)
	case OpZext:
		v = t.Args[0].Eval(env, memo)
	case OpSext:
		v = uint64(signExtend(t.Args[0].Eval(env, memo), t.Args[0].Width)) & mask(t.Width)
	case OpExtract:
		v = t.Args[0].Eval(env, memo) >> uint(t.Lo) & mask(t.Width)
	case OpConcat:
		v = t.Args[0].Eval(env, memo)<<uint(t.Args[1].Width) | t.Args[1].Eval(env, memo)
	default:
		v = fold(t.Op, t.Args[0].Eval(env, memo), t.Args[1].Eval(env, memo), t.Args[0].Width)
	}
	memo[t] = v
	return v
}

// Encode builds the Z3 term of t. env gives the terms of its inputs and
// pre-states (and of any subterm it should treat as a leaf).
func (t *Term) Encode(x *z3.Context, env map[*Term]z3.Expr) z3.Expr {
	return t.encode(x, env, 0)
}

// EncodeScaled builds the Z3 term of the same formula as t over narrower
// words: every width above word becomes word (a 32-bit subtraction
// becomes an 8-bit one, which wraps at 8 bits as the 32-bit one wraps at
// 32). A reduced-width search needs this: t at its own widths over small
// inputs wraps differently from an ALU computing at the reduced width,
// and matching it needs configurations that are wrong at the full width.
// env's terms must have the scaled widths; t must scale (Scales).
func (t *Term) EncodeScaled(x *z3.Context, env map[*Term]z3.Expr, word int) z3.Expr {
	return t.encode(x, env, word)
}

// Scales reports whether t means the same over words of word bits: no
// bit slice reads above word, no concatenation is wider.
func (t *Term) Scales(word int) bool {
	ok := true
	seen := map[*Term]bool{}
	var walk func(u *Term)
	walk = func(u *Term) {
		if seen[u] || !ok {
			return
		}
		seen[u] = true
		switch {
		case u.Op == OpExtract && u.Args[0].Width > word && u.Hi >= word,
			u.Op == OpConcat && u.Width > word:
			ok = false
		}
		for _, a := range u.Args {
			walk(a)
		}
	}
	walk(t)
	return ok
}

// scaledWidth is the width of a w-bit term encoded over word-bit words
// (0: not scaled).
func scaledWidth(w, word int) int {
	if word > 0 && w > word {
		return word
	}
	return w
}

func (t *Term) encode(x *z3.Context, env map[*Term]z3.Expr, word int) z3.Expr {
	if e, ok := env[t]; ok {
		return e
	}
	var e z3.Expr
	w := scaledWidth(t.Width, word)
	arg := func(i int) z3.Expr { return t.Args[i].encode(x, env, word) }
	// extend widens an argument to the term's width (a no-op when
	// scaling made them equal).
	extend := func(a z3.Expr, signed bool) z3.Expr {
		switch {
		case a.Width() == w:
			return a
		case signed:
			return a.SignExt(w - a.Width())
		}
		return a.ZeroExt(w - a.Width())
	}
	truth := func(b z3.Expr) z3.Expr { return x.Ite(b, x.BV(1, 1), x.BV(0, 1)) }
	switch t.Op {
	case OpConst:
		e = x.BV(t.Value&mask(w), w)
	case OpInput, OpPre, OpHash:
		panic("synth: encoding a leaf without a binding: " + t.Name)
	case OpAdd:
		e = arg(0).Add(arg(1))
	case OpSub:
		e = arg(0).Sub(arg(1))
	case OpMul:
		e = arg(0).Mul(arg(1))
	case OpAnd:
		e = arg(0).BVAnd(arg(1))
	case OpOr:
		e = arg(0).BVOr(arg(1))
	case OpXor:
		e = arg(0).BVXor(arg(1))
	case OpNot:
		e = arg(0).BVNot()
	case OpShl:
		e = arg(0).Shl(x.BV(min(t.Value, uint64(w)), w))
	case OpShr:
		e = arg(0).LShr(x.BV(min(t.Value, uint64(w)), w))
	case OpSar:
		e = arg(0).AShr(x.BV(min(t.Value, uint64(w)), w))
	case OpEq:
		e = truth(arg(0).Eq(arg(1)))
	case OpNe:
		e = truth(arg(0).Eq(arg(1)).Not())
	case OpLtU:
		e = truth(arg(0).ULT(arg(1)))
	case OpLeU:
		e = truth(arg(0).ULE(arg(1)))
	case OpLtS:
		e = truth(arg(0).SLT(arg(1)))
	case OpLeS:
		e = truth(arg(0).SLE(arg(1)))
	case OpIte:
		e = x.Ite(arg(0).Eq(x.BV(1, 1)), arg(1), arg(2))
	case OpZext:
		e = extend(arg(0), false)
	case OpSext:
		e = extend(arg(0), true)
	case OpExtract:
		e = arg(0).Extract(t.Hi, t.Lo)
	case OpConcat:
		e = arg(0).Concat(arg(1))
	case OpSatAddU:
		a, b := arg(0).ZeroExt(1), arg(1).ZeroExt(1)
		sum := a.Add(b)
		e = x.Ite(sum.Extract(w, w).Eq(x.BV(1, 1)), x.BV(mask(w), w), sum.Extract(w-1, 0))
	case OpSatSubU:
		e = x.Ite(arg(0).ULT(arg(1)), x.BV(0, w), arg(0).Sub(arg(1)))
	default:
		panic(fmt.Sprintf("synth: cannot encode %v", t.Op))
	}
	env[t] = e
	return e
}

// Leaves lists the inputs and pre-states a term depends on, in a stable
// order (by first appearance).
func (t *Term) Leaves() []*Term { return t.cut((*Term).IsLeaf) }

// cut lists the maximal subterms of t, other than constants, at which
// at holds, each once, in order of first appearance: the walk stops
// there and goes down elsewhere.
func (t *Term) cut(at func(*Term) bool) []*Term {
	var out []*Term
	seen := map[*Term]bool{}
	var walk func(u *Term)
	walk = func(u *Term) {
		if seen[u] || u.IsConst() {
			return
		}
		seen[u] = true
		if at(u) {
			out = append(out, u)
			return
		}
		for _, a := range u.Args {
			walk(a)
		}
	}
	walk(t)
	return out
}

// Height is the number of operations on the longest path to a leaf.
func (t *Term) Height() int { return t.height(map[*Term]int{}) }

func (t *Term) height(memo map[*Term]int) int {
	if h, ok := memo[t]; ok {
		return h
	}
	if t.IsLeaf() {
		return 0
	}
	h := 0
	for _, a := range t.Args {
		h = max(h, a.height(memo)+1)
	}
	if t.Op == OpZext || t.Op == OpExtract && t.Lo == 0 {
		h = max(h-1, 0) // width changes are free: the word holds the value
	}
	memo[t] = h
	return h
}
