package xdp

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// expr writes e as a C expression. A scalar's value is a u64 holding the
// value zero-extended from its width (the invariant every operator keeps);
// an aggregate's is the lvalue that holds it. Evaluating e may need
// statements first (a table applied for .hit, a function called): those are
// written before the caller's line.
func (g *gen) expr(e ir.Expr) string {
	if d := dynElem(e); d != nil {
		return g.dynRead(e, d)
	}
	switch e := e.(type) {
	case *ir.Const:
		return g.constant(e)
	case *ir.ErrorConst:
		return fmt.Sprintf("%dULL", g.errorIndex(e.Name))
	case *ir.EnumConst:
		return fmt.Sprintf("%dULL", enumValue(e.Enum, e.Member))
	case *ir.StringConst:
		return "0"
	case *ir.VarRef, *ir.Member, *ir.StackElem:
		if width(e.Type()) > 0 {
			return "((u64)" + g.lvalue(e) + ")"
		}
		return g.lvalue(e)
	case *ir.Slice:
		return fmt.Sprintf("((%s >> %d) & %s)", g.expr(e.X), e.Lo, mask(e.Hi-e.Lo+1))
	case *ir.Unary:
		return g.unary(e)
	case *ir.Binary:
		return g.binary(e)
	case *ir.Cast:
		return g.cast(e)
	case *ir.Cond:
		c := g.expr(e.C)
		return fmt.Sprintf("(%s ? %s : %s)", c, g.expr(e.Then), g.expr(e.Else))
	case *ir.IsValid:
		if s, ok := e.X.Type().(*ir.Struct); ok && s.Kind == ir.KindHeaderUnion {
			// Valid when one of its headers is.
			u := g.lvalue(e.X)
			var vs []string
			for _, f := range s.Fields {
				vs = append(vs, fmt.Sprintf("%s.f_%s.valid_", u, f.Name))
			}
			if len(vs) == 0 {
				return "0ULL"
			}
			return fmt.Sprintf("((u64)(%s))", strings.Join(vs, " | "))
		}
		return fmt.Sprintf("((u64)%s.valid_)", g.lvalue(e.X))
	case *ir.TableHit:
		hit := fmt.Sprintf("hit%d", g.label())
		g.line("u8 %s = 0;", hit)
		g.applyTable(e.Table, hit, "")
		if e.Miss {
			return fmt.Sprintf("((u64)!%s)", hit)
		}
		return fmt.Sprintf("((u64)%s)", hit)
	case *ir.Call:
		return g.callValue(e)
	case *ir.StackOp:
		return g.stackOp(e)
	case *ir.List:
		g.fail(e.Span(), "a list of values is supported by the xdp target only as hash or checksum data, or assigned to a struct or header")
		return "0"
	}
	g.fail(e.Span(), "expression %s is not supported by the xdp target", ir.Format(e))
	return "0"
}

func (g *gen) constant(c *ir.Const) string {
	w := width(c.T)
	v := new(big.Int).Set(c.Value)
	if v.Sign() < 0 { // an int<W>: its two's complement in W bits
		if w == 0 || w > 64 {
			w = 64
		}
		v.Add(v, new(big.Int).Lsh(big.NewInt(1), uint(w)))
	}
	if w > 64 || v.BitLen() > 64 {
		g.fail(c.Span(), "constant %s is wider than 64 bits: not supported by the xdp target", c.Value)
		return "0"
	}
	return fmt.Sprintf("0x%xULL", v.Uint64())
}

func (g *gen) errorIndex(name string) int {
	for i, e := range g.prog.Errors {
		if e == name {
			return i
		}
	}
	return 0
}

// enumValue is a member's value: its serializable value, or its index.
func enumValue(e *ir.Enum, member string) uint64 {
	for i, m := range e.Members {
		if m == member {
			if e.Underlying != nil && i < len(e.Values) && e.Values[i] != nil {
				return e.Values[i].Uint64()
			}
			return uint64(i)
		}
	}
	return 0
}

// lvalue writes storage: a variable or a field of one.
func (g *gen) lvalue(e ir.Expr) string {
	switch e := e.(type) {
	case *ir.VarRef:
		g.typeName(e.Var.Type, e.Span())
		return g.varName(e.Var)
	case *ir.Member:
		g.typeName(e.T, e.Span())
		return fmt.Sprintf("%s.f_%s", g.lvalue(e.X), e.Name)
	case *ir.StackElem:
		return g.elemLvalue(e)
	}
	g.fail(e.Span(), "%s cannot be written by the xdp target", ir.Format(e))
	return "x"
}

// sext is x (a w-bit value) sign-extended to a signed 64-bit C value.
func sext(x string, w int) string {
	if w >= 64 {
		return fmt.Sprintf("((s64)%s)", x)
	}
	return fmt.Sprintf("(((s64)(%s << %d)) >> %d)", x, 64-w, 64-w)
}

func (g *gen) unary(e *ir.Unary) string {
	x := g.expr(e.X)
	w := width(e.T)
	switch e.Op {
	case ir.LNot:
		return fmt.Sprintf("((u64)!%s)", x)
	case ir.BitNot:
		return fmt.Sprintf("(~%s & %s)", x, mask(w))
	case ir.Neg:
		return fmt.Sprintf("((0 - %s) & %s)", x, mask(w))
	}
	g.fail(e.Span(), "operator %s is not supported by the xdp target", e.Op)
	return "0"
}

func (g *gen) binary(e *ir.Binary) string {
	if e.Op == ir.LAnd || e.Op == ir.LOr {
		// Operands that need statements (a table's .hit) are evaluated
		// before: the right one runs even when the left decides.
		x, y := g.expr(e.X), g.expr(e.Y)
		op := map[ir.Op]string{ir.LAnd: "&&", ir.LOr: "||"}[e.Op]
		return fmt.Sprintf("((u64)(%s %s %s))", x, op, y)
	}
	if (e.Op == ir.Eq || e.Op == ir.Ne) && width(e.X.Type()) == 0 {
		eq := g.equal(e.X, e.Y, e.X.Type())
		if e.Op == ir.Ne {
			return fmt.Sprintf("((u64)!%s)", eq)
		}
		return fmt.Sprintf("((u64)%s)", eq)
	}
	x, y := g.expr(e.X), g.expr(e.Y)
	ot := e.X.Type()
	w, ow := width(e.T), width(ot)
	if w > 64 || ow > 64 {
		g.fail(e.Span(), "arithmetic wider than 64 bits is not supported by the xdp target")
		return "0"
	}
	m := mask(w)
	signed := signedType(ot)
	switch e.Op {
	case ir.Add:
		return fmt.Sprintf("((%s + %s) & %s)", x, y, m)
	case ir.Sub:
		return fmt.Sprintf("((%s - %s) & %s)", x, y, m)
	case ir.Mul:
		return fmt.Sprintf("((%s * %s) & %s)", x, y, m)
	case ir.Div, ir.Mod:
		op := "/"
		if e.Op == ir.Mod {
			op = "%"
		}
		if signed {
			// The quotient of two W-bit signed values, cut to W bits; by
			// zero is 0, as interp defines it.
			return fmt.Sprintf("(%s ? ((u64)(%s %s %s) & %s) : 0)", y, sext(x, w), op, sext(y, w), m)
		}
		return fmt.Sprintf("(%s ? (%s %s %s) : 0)", y, x, op, y)
	case ir.BitAnd:
		return fmt.Sprintf("(%s & %s)", x, y)
	case ir.BitOr:
		return fmt.Sprintf("(%s | %s)", x, y)
	case ir.BitXor:
		return fmt.Sprintf("(%s ^ %s)", x, y)
	case ir.SatAdd, ir.SatSub:
		return g.saturating(e, x, y, w, signed)
	case ir.Concat:
		yw := width(e.Y.Type())
		return fmt.Sprintf("((%s << %d) | %s)", x, yw, y)
	case ir.Shl, ir.Shr:
		return g.shift(e, x, y, w, signed)
	case ir.Lt, ir.Le, ir.Gt, ir.Ge, ir.Eq, ir.Ne:
		op := map[ir.Op]string{ir.Lt: "<", ir.Le: "<=", ir.Gt: ">", ir.Ge: ">=", ir.Eq: "==", ir.Ne: "!="}[e.Op]
		if signed && e.Op != ir.Eq && e.Op != ir.Ne {
			return fmt.Sprintf("((u64)(%s %s %s))", sext(x, ow), op, sext(y, ow))
		}
		return fmt.Sprintf("((u64)(%s %s %s))", x, op, y)
	}
	g.fail(e.Span(), "operator %s is not supported by the xdp target", e.Op)
	return "0"
}

func (g *gen) saturating(e *ir.Binary, x, y string, w int, signed bool) string {
	m := mask(w)
	if signed {
		if w >= 64 {
			g.fail(e.Span(), "saturating arithmetic on int<64> is not supported by the xdp target")
			return "0"
		}
		op := "+"
		if e.Op == ir.SatSub {
			op = "-"
		}
		hi := fmt.Sprintf("%dLL", int64(1)<<uint(w-1)-1)
		lo := fmt.Sprintf("(-%dLL - 1)", int64(1)<<uint(w-1)-1)
		s := fmt.Sprintf("(%s %s %s)", sext(x, w), op, sext(y, w))
		return fmt.Sprintf("((u64)(%s > %s ? %s : %s < %s ? %s : %s) & %s)", s, hi, hi, s, lo, lo, s, m)
	}
	if e.Op == ir.SatSub {
		return fmt.Sprintf("(%s > %s ? 0 : %s - %s)", y, x, x, y)
	}
	if w >= 64 {
		return fmt.Sprintf("(%s + %s < %s ? %s : %s + %s)", x, y, x, m, x, y)
	}
	return fmt.Sprintf("(%s + %s > %s ? %s : %s + %s)", x, y, m, m, x, y)
}

// shift keeps interp's meaning: bits shifted past the width are lost, a
// count of the width or more gives 0 (or the sign, for >> of an int<W>).
func (g *gen) shift(e *ir.Binary, x, y string, w int, signed bool) string {
	m := mask(w)
	if e.Op == ir.Shl {
		return fmt.Sprintf("(%s >= %d ? 0 : ((%s << %s) & %s))", y, w, x, y, m)
	}
	if signed {
		return fmt.Sprintf("((u64)(%s >> (%s >= %d ? %d : %s)) & %s)", sext(x, w), y, w, w-1, y, m)
	}
	return fmt.Sprintf("(%s >= %d ? 0 : (%s >> %s))", y, w, x, y)
}

func (g *gen) cast(e *ir.Cast) string {
	x := g.expr(e.X)
	to := width(e.T)
	if _, ok := e.T.(ir.Bool); ok {
		return fmt.Sprintf("((u64)(%s != 0))", x)
	}
	if to == 0 || to > 64 {
		g.fail(e.Span(), "cast to %s is not supported by the xdp target", e.T)
		return "0"
	}
	if signedType(e.X.Type()) {
		return fmt.Sprintf("((u64)%s & %s)", sext(x, width(e.X.Type())), mask(to))
	}
	return fmt.Sprintf("(%s & %s)", x, mask(to))
}

// write assigns v to storage lhs (a slice of it: to those bits). A field
// of an invalid header ignores writes (and reads as 0: an invalid header
// is all zeros), as in interp.
func (g *gen) write(lhs ir.Expr, v string) {
	if sl, ok := lhs.(*ir.Slice); ok {
		// The bits of the value sliced: the others keep theirs.
		x, hi, lo := sl.Flat()
		m := fmt.Sprintf("0x%xULL", (uint64(1)<<uint(hi-lo+1)-1)<<uint(lo))
		if hi-lo+1 >= 64 {
			m = mask(64)
		}
		g.write(x, fmt.Sprintf("((%s & ~%s) | ((%s << %d) & %s))", g.expr(x), m, v, lo, m))
		return
	}
	if d := dynElem(lhs); d != nil {
		g.dynWrite(lhs, d, func(l ir.Expr) { g.write(l, v) })
		return
	}
	g.dirty(lhs)
	g.line("%s%s = %s;", g.guard(lhs), g.lvalue(lhs), v)
}

// dirty records that storage lhs may change after the parser filled it:
// the deparser writes back only such fields of a header still where the
// parser found it.
func (g *gen) dirty(lhs ir.Expr) {
	e := lhs
	if m, ok := e.(*ir.Member); ok && isHeader(m.X.Type()) && width(m.T) > 0 {
		g.dirtyFields[g.lvalue(m.X)+".f_"+m.Name] = true
		return
	}
	// A whole header, or a struct of them: every field below it.
	g.dirtyAll = append(g.dirtyAll, g.lvalue(e))
	if holdsHeader(e.Type()) {
		g.revalidates = true
	}
}

// holdsHeader says whether a value of type t holds a header (whose
// validity a write of the whole value sets).
func holdsHeader(t ir.Type) bool {
	switch t := t.(type) {
	case *ir.Struct:
		if t.Kind == ir.KindHeader {
			return true
		}
		for _, f := range t.Fields {
			if holdsHeader(f.Type) {
				return true
			}
		}
	case *ir.Stack:
		return holdsHeader(t.Elem)
	case *ir.Tuple:
		for _, e := range t.Elems {
			if holdsHeader(e) {
				return true
			}
		}
	}
	return false
}

func isHeader(t ir.Type) bool {
	s, ok := t.(*ir.Struct)
	return ok && s.Kind == ir.KindHeader
}

// fieldDirty says whether field f of header h (an lvalue) may have changed.
func (g *gen) fieldDirty(h, f string) bool {
	return (&writes{fields: g.dirtyFields, all: g.dirtyAll}).written(h, f)
}

// fromPacket says whether field f of header h (an lvalue) can be read from
// the packet before the deparser: the parser extracts h and the program
// never writes f. Then, until the deparser moves the packet's head, f is
// the bytes at h's offset when the parser left h there (hoff is not
// noOffset), and 0 otherwise: only extract and setInvalid (which zeroes
// the header and forgets the offset) change an unwritten field.
func (g *gen) fromPacket(h, f string) bool {
	if g.prior == nil || g.inAtomic != nil {
		return false
	}
	if _, ok := g.extractedAt[h]; !ok {
		return false
	}
	return !g.prior.written(h, f)
}

// guard is "if (h.valid_) " for each header lhs is a field of.
func (g *gen) guard(lhs ir.Expr) string {
	var conds []string
	for e := lhs; ; {
		m, ok := e.(*ir.Member)
		if !ok {
			break
		}
		if s, ok := m.X.Type().(*ir.Struct); ok && s.Kind == ir.KindHeader {
			conds = append([]string{g.lvalue(m.X) + ".valid_"}, conds...)
		}
		e = m.X
	}
	if len(conds) == 0 {
		return ""
	}
	return "if (" + strings.Join(conds, " && ") + ") "
}

// part is element i of aggregate e: a list's element, or its field (a
// tuple's element is the field named by its index).
func part(e ir.Expr, i int, name string, t ir.Type) ir.Expr {
	if l, ok := e.(*ir.List); ok && i < len(l.Elems) {
		return l.Elems[i]
	}
	return &ir.Member{Pos: ir.Pos{Sp: e.Span()}, X: e, Name: name, Index: i, T: t}
}

// equal writes x == y for aggregates as interp compares them: headers are
// equal when both are invalid, or both valid with equal fields; structs,
// unions and tuples when their fields are.
func (g *gen) equal(x, y ir.Expr, t ir.Type) string {
	var conds []string
	switch t := t.(type) {
	case *ir.Struct:
		for i, f := range t.Fields {
			conds = append(conds, g.equal(part(x, i, f.Name, f.Type), part(y, i, f.Name, f.Type), f.Type))
		}
		if t.Kind == ir.KindHeader {
			xv, yv := g.validity(x), g.validity(y)
			fields := "1"
			if len(conds) > 0 {
				fields = strings.Join(conds, " && ")
			}
			return fmt.Sprintf("((!%s && !%s) || (%s && %s && %s))", xv, yv, xv, yv, fields)
		}
	case *ir.Tuple:
		for i, el := range t.Elems {
			conds = append(conds, g.equal(part(x, i, fmt.Sprint(i), el), part(y, i, fmt.Sprint(i), el), el))
		}
	default:
		if w := width(t); w == 0 || w > 64 {
			g.fail(x.Span(), "comparing values of type %s is not supported by the xdp target", t)
			return "0"
		}
		return fmt.Sprintf("(%s == %s)", g.expr(x), g.expr(y))
	}
	if len(conds) == 0 {
		return "1"
	}
	return "(" + strings.Join(conds, " && ") + ")"
}

// validity is whether header e is valid: a list made into a header is.
func (g *gen) validity(e ir.Expr) string {
	if _, ok := e.(*ir.List); ok {
		return "1"
	}
	return fmt.Sprintf("%s.valid_", g.lvalue(e))
}
