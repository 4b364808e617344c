package transform

import (
	"errors"
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/ir"
)

// A condition becomes table entries by way of cubes: a cube constrains
// some keys, each to a set a match kind can express (a range of values,
// or a value under a mask); a condition is a list of cubes, any of which
// may hold. Keys are the fields the conditions test.

// constraint is the set of values a key may take in one cube: the range
// [lo, hi], or, when mask is set, the values v with v&mask == value.
type constraint struct {
	lo, hi      *big.Int
	value, mask *big.Int
}

func (c constraint) ternary() bool { return c.mask != nil }

// point reports whether the constraint allows one value, and which.
func (c constraint) point(width int) (*big.Int, bool) {
	if c.ternary() {
		return c.value, c.mask.Cmp(ones(width)) == 0
	}
	return c.lo, c.lo.Cmp(c.hi) == 0
}

// key is one key of the table being built.
type key struct {
	expr  ir.Expr // the field, or X.isValid()
	loc   loc
	width int // bits; 1 for a validity or a bool
	bool_ bool
}

// cube maps keys (by index) to their constraints; a key it does not
// mention matches anything.
type cube map[int]constraint

// errNotMatchable says a condition is not a test of fields against
// constants that a table can express.
var errNotMatchable = errors.New("not a test of fields against constants")

// maxCubes bounds the entries one rewrite may produce.
const maxCubes = 1024

// matcher turns conditions into cubes over a growing list of keys.
type matcher struct {
	scope scope
	keys  []key
}

func (m *matcher) keyFor(e ir.Expr, isBool bool) (int, error) {
	l, ok := exactLoc(m.scope, e)
	if !ok {
		return 0, fmt.Errorf("%w: %s", errNotMatchable, ir.Format(e))
	}
	expr, width := e, ir.WidthBits(e.Type())
	if isBool {
		width = 1
		if v, isValid := e.(*ir.IsValid); isValid {
			if l, ok = exactLoc(m.scope, v.X); !ok {
				return 0, fmt.Errorf("%w: %s", errNotMatchable, ir.Format(e))
			}
			l += ".$valid"
		}
	} else if b, isBits := e.Type().(*ir.Bits); !isBits || b.Signed || width <= 0 {
		return 0, fmt.Errorf("%w: %s is not an unsigned bit field", errNotMatchable, ir.Format(e))
	}
	for i, k := range m.keys {
		if k.loc == l {
			return i, nil
		}
	}
	m.keys = append(m.keys, key{expr: expr, loc: l, width: width, bool_: isBool})
	return len(m.keys) - 1, nil
}

// exactLoc is the location of a field read the same way everywhere: a
// path without computed indices (or a validity test of one).
func exactLoc(s scope, e ir.Expr) (loc, bool) {
	if v, ok := e.(*ir.IsValid); ok {
		return exactLoc(s, v.X)
	}
	for x := e; ; {
		switch y := x.(type) {
		case *ir.VarRef:
			l, _, ok := s.lvalue(e)
			return l, ok
		case *ir.Member:
			x = y.X
		case *ir.StackElem:
			if _, ok := y.Index.(*ir.Const); !ok {
				return "", false
			}
			x = y.X
		default:
			return "", false
		}
	}
}

// cubes returns the cubes of e (of !e when neg).
func (m *matcher) cubes(e ir.Expr, neg bool) ([]cube, error) {
	switch e := e.(type) {
	case *ir.Const:
		if (e.Value.Sign() != 0) != neg {
			return []cube{{}}, nil
		}
		return nil, nil
	case *ir.Unary:
		if e.Op == ir.LNot {
			return m.cubes(e.X, !neg)
		}
	case *ir.Binary:
		switch {
		case e.Op.Logical(): // && or ||
			x, err := m.cubes(e.X, neg)
			if err != nil {
				return nil, err
			}
			y, err := m.cubes(e.Y, neg)
			if err != nil {
				return nil, err
			}
			if (e.Op == ir.LAnd) != neg {
				return m.product(x, y)
			}
			return append(x, y...), nil
		case e.Op.Comparison():
			return m.comparison(e, neg)
		}
	case *ir.IsValid, *ir.VarRef, *ir.Member:
		if _, ok := e.Type().(ir.Bool); ok {
			return m.boolKey(e, !neg)
		}
	}
	return nil, fmt.Errorf("%w: %s", errNotMatchable, ir.Format(e))
}

func (m *matcher) boolKey(e ir.Expr, value bool) ([]cube, error) {
	k, err := m.keyFor(e, true)
	if err != nil {
		return nil, err
	}
	v := big.NewInt(0)
	if value {
		v.SetInt64(1)
	}
	return []cube{{k: {lo: v, hi: v}}}, nil
}

// product intersects every cube of x with every cube of y.
func (m *matcher) product(x, y []cube) ([]cube, error) {
	if len(x)*len(y) > maxCubes {
		return nil, fmt.Errorf("%w: more than %d entries", errNotMatchable, maxCubes)
	}
	var out []cube
	for _, a := range x {
		for _, b := range y {
			c, ok, err := m.intersect(a, b)
			if err != nil {
				return nil, err
			}
			if ok {
				out = append(out, c)
			}
		}
	}
	return out, nil
}

func (m *matcher) intersect(a, b cube) (cube, bool, error) {
	out := cube{}
	for k, c := range a {
		out[k] = c
	}
	for k, c := range b {
		prev, ok := out[k]
		if !ok {
			out[k] = c
			continue
		}
		both, nonEmpty, err := intersect(prev, c, m.keys[k].width)
		if err != nil || !nonEmpty {
			return nil, false, err
		}
		out[k] = both
	}
	return out, true, nil
}

// intersect is the constraint both a and b allow, when a match kind can
// express it.
func intersect(a, b constraint, width int) (constraint, bool, error) {
	if a.ternary() && b.ternary() {
		common := new(big.Int).And(a.mask, b.mask)
		if new(big.Int).And(new(big.Int).Xor(a.value, b.value), common).Sign() != 0 {
			return constraint{}, false, nil
		}
		return constraint{value: new(big.Int).Or(a.value, b.value), mask: new(big.Int).Or(a.mask, b.mask)}, true, nil
	}
	if !a.ternary() && !b.ternary() {
		lo, hi := maxBig(a.lo, b.lo), minBig(a.hi, b.hi)
		return constraint{lo: lo, hi: hi}, lo.Cmp(hi) <= 0, nil
	}
	if a.ternary() {
		a, b = b, a
	}
	// a is a range, b a mask: only a single value meets both simply.
	if v, ok := a.point(width); ok {
		return a, new(big.Int).And(v, b.mask).Cmp(b.value) == 0, nil
	}
	if v, ok := b.point(width); ok {
		return constraint{lo: v, hi: v}, v.Cmp(a.lo) >= 0 && v.Cmp(a.hi) <= 0, nil
	}
	return constraint{}, false, fmt.Errorf("%w: a range and a mask on one field", errNotMatchable)
}

// comparison turns field OP constant (either way round, the field maybe
// masked or sliced) into cubes.
func (m *matcher) comparison(e *ir.Binary, neg bool) ([]cube, error) {
	x, y, op := e.X, e.Y, e.Op
	if _, isConst := x.(*ir.Const); isConst {
		x, y, op = y, x, op.Converse()
	}
	c, isConst := y.(*ir.Const)
	if !isConst {
		return nil, fmt.Errorf("%w: %s", errNotMatchable, ir.Format(e))
	}
	if _, isBool := x.Type().(ir.Bool); isBool && (op == ir.Eq || op == ir.Ne) {
		return m.boolKey(x, (c.Value.Sign() != 0) == (op == ir.Eq) != neg)
	}
	if neg {
		op = op.Negation()
	}
	if field, mask, shift, ok := maskedField(x); ok && (op == ir.Eq || op == ir.Ne) {
		return m.masked(field, mask, new(big.Int).Lsh(c.Value, shift), op == ir.Ne)
	}
	k, err := m.keyFor(x, false)
	if err != nil {
		return nil, err
	}
	w := m.keys[k].width
	v, top := c.Value, ones(w)
	if v.Sign() < 0 || v.Cmp(top) > 0 {
		return nil, fmt.Errorf("%w: constant %s does not fit %d bits", errNotMatchable, v, w)
	}
	var ranges [][2]*big.Int
	one := big.NewInt(1)
	below, above := new(big.Int).Sub(v, one), new(big.Int).Add(v, one)
	switch op {
	case ir.Eq:
		ranges = [][2]*big.Int{{v, v}}
	case ir.Ne:
		ranges = [][2]*big.Int{{big.NewInt(0), below}, {above, top}}
	case ir.Lt:
		ranges = [][2]*big.Int{{big.NewInt(0), below}}
	case ir.Le:
		ranges = [][2]*big.Int{{big.NewInt(0), v}}
	case ir.Gt:
		ranges = [][2]*big.Int{{above, top}}
	case ir.Ge:
		ranges = [][2]*big.Int{{v, top}}
	}
	var out []cube
	for _, r := range ranges {
		if r[0].Cmp(r[1]) <= 0 {
			out = append(out, cube{k: {lo: r[0], hi: r[1]}})
		}
	}
	return out, nil
}

// masked is (field & mask) == value (or !=, one cube per masked bit that
// differs).
func (m *matcher) masked(field ir.Expr, mask, value *big.Int, notEqual bool) ([]cube, error) {
	k, err := m.keyFor(field, false)
	if err != nil {
		return nil, err
	}
	if new(big.Int).AndNot(value, mask).Sign() != 0 { // a bit outside the mask can never match
		if notEqual {
			return []cube{{}}, nil
		}
		return nil, nil
	}
	if !notEqual {
		return []cube{{k: {value: value, mask: mask}}}, nil
	}
	var out []cube
	for b := 0; b < mask.BitLen(); b++ {
		if mask.Bit(b) == 1 {
			bit := new(big.Int).Lsh(big.NewInt(1), uint(b))
			v := new(big.Int).AndNot(bit, value) // the opposite of value's bit b
			out = append(out, cube{k: {value: v, mask: bit}})
		}
	}
	return out, nil
}

// maskedField recognizes field & MASK, MASK & field and field[hi:lo];
// shift is how far a slice's value moves up to line up with the field.
func maskedField(e ir.Expr) (field ir.Expr, mask *big.Int, shift uint, ok bool) {
	switch e := e.(type) {
	case *ir.Binary:
		if e.Op != ir.BitAnd {
			return nil, nil, 0, false
		}
		if c, isConst := e.Y.(*ir.Const); isConst {
			return e.X, c.Value, 0, true
		}
		if c, isConst := e.X.(*ir.Const); isConst {
			return e.Y, c.Value, 0, true
		}
	case *ir.Slice:
		w := uint(e.Hi - e.Lo + 1)
		return e.X, new(big.Int).Lsh(ones(int(w)), uint(e.Lo)), uint(e.Lo), true
	}
	return nil, nil, 0, false
}

func ones(w int) *big.Int {
	return new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(w)), big.NewInt(1))
}

func maxBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) >= 0 {
		return a
	}
	return b
}

func minBig(a, b *big.Int) *big.Int {
	if a.Cmp(b) <= 0 {
		return a
	}
	return b
}
