package transform

import (
	"context"
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/solver/z3"
)

// guards decides whether conjunctions of branch conditions can hold
// together, in the theory of bit-vectors: conditions written as
// arithmetic, masks or ranges are disjoint exactly when no packet
// satisfies both. What it cannot encode (calls, values of unknown width)
// becomes a fresh unconstrained variable, so its answer errs towards
// "satisfiable": towards keeping a dependency.
type guards struct {
	z     *z3.Context
	s     *z3.Solver
	scope scope
	vars  map[string]z3.Expr
	fresh int
	// queries counts solver calls; past maxGuardQueries, guards are taken
	// to hold (dependencies stay) and exhausted is set.
	queries   int
	exhausted bool
	// matcher and cubes cache each condition's cubes (keys are shared by
	// all conditions); a nil entry means the condition has none exact.
	matcher *matcher
	cubes   map[condKey][]cube
	inexact map[condKey]bool
	// single remembers the answer for one condition alone: the rewriter
	// asks it of each arm of an else-if chain once per arm above it that
	// starts a chain it tries (up to maxCubes times).
	single map[condKey]bool
}

type condKey struct {
	expr ir.Expr
	neg  bool
}

// maxGuardQueries bounds the solver calls of one analysis or rewrite, so
// a program with thousands of guarded statements still compiles in
// seconds; past it the analysis is conservative.
const maxGuardQueries = 5000

func newGuards(names *namer) *guards {
	z := z3.NewContext()
	return &guards{z: z, s: z.NewSolverFor("QF_BV"), scope: scope{names: names}, vars: map[string]z3.Expr{},
		matcher: &matcher{scope: scope{names: names}}, cubes: map[condKey][]cube{}, inexact: map[condKey]bool{},
		single: map[condKey]bool{}}
}

func (g *guards) close() { g.z.Close() }

// satisfiable reports whether all of conds can hold at once.
func (g *guards) satisfiable(ctx context.Context, conds []cond) (bool, error) {
	if len(conds) == 1 && conds[0].run == nil {
		k := condKey{conds[0].expr, conds[0].neg}
		if sat, ok := g.single[k]; ok {
			return sat, nil
		}
		sat, err := g.decide(ctx, conds)
		if err == nil {
			g.single[k] = sat
		}
		return sat, err
	}
	return g.decide(ctx, conds)
}

// decide is satisfiable without the memo of single conditions.
func (g *guards) decide(ctx context.Context, conds []cond) (bool, error) {
	// Deciding by cubes needs no solver, but a long chain asks it
	// millions of times: the context is looked at on each.
	if err := ctx.Err(); err != nil {
		return true, err
	}
	if sat, decided := g.byCubes(conds); decided {
		return sat, nil
	}
	if g.queries >= maxGuardQueries {
		g.exhausted = true
		return true, nil
	}
	return g.solve(ctx, conds)
}

// solve asks the solver whether conds can hold together.
func (g *guards) solve(ctx context.Context, conds []cond) (bool, error) {
	var lits []z3.Expr
	for _, c := range conds {
		lits = append(lits, g.cond(c))
	}
	if err := g.z.Err(); err != nil {
		return true, fmt.Errorf("encoding a guard: %w", err)
	}
	g.queries++
	r, err := g.s.Check(ctx, lits...)
	if err != nil {
		return true, fmt.Errorf("checking a guard: %w", err)
	}
	return r != z3.Unsat, nil
}

// byCubes decides a conjunction without the solver when every condition
// tests fields against constants: cubes describe such conditions exactly,
// so the conjunction can hold exactly when their intersection is not
// empty. (Most guards are of this kind, and a solver call costs a
// thousand times more.)
func (g *guards) byCubes(conds []cond) (sat, decided bool) {
	acc := []cube{{}}
	for _, c := range conds {
		if c.run != nil {
			return false, false
		}
		k := condKey{c.expr, c.neg}
		if g.inexact[k] {
			return false, false
		}
		cs, ok := g.cubes[k]
		if !ok {
			var err error
			if cs, err = g.matcher.cubes(c.expr, c.neg); err != nil {
				g.inexact[k] = true
				return false, false
			}
			g.cubes[k] = cs
		}
		var err error
		if acc, err = g.matcher.product(acc, cs); err != nil {
			return false, false
		}
		if len(acc) == 0 {
			return false, true
		}
	}
	return true, true
}

func (g *guards) cond(c cond) z3.Expr {
	var e z3.Expr
	if c.run != nil {
		e = g.actionRun(c.run)
	} else {
		e = g.boolean(c.expr)
	}
	if c.neg {
		return e.Not()
	}
	return e
}

// actionRun encodes "table ran one of actions" over a variable that
// numbers the table's actions.
func (g *guards) actionRun(r *actionRun) z3.Expr {
	ran := g.variable("$run."+r.table.Name, 16)
	index := func(a *ir.Action) z3.Expr {
		for i, ar := range r.table.Actions {
			if ar.Action == a {
				return g.z.BV(uint64(i), 16)
			}
		}
		return g.z.BV(uint64(len(r.table.Actions)), 16)
	}
	labels := r.actions
	if r.dflt {
		labels = r.others
	}
	var eqs []z3.Expr
	for _, a := range labels {
		eqs = append(eqs, ran.Eq(index(a)))
	}
	if len(eqs) == 0 {
		return g.z.Bool(r.dflt)
	}
	any := g.z.Or(eqs...)
	if r.dflt {
		return any.Not()
	}
	return any
}

func (g *guards) variable(name string, width int) z3.Expr {
	key := fmt.Sprintf("%s/%d", name, width)
	if v, ok := g.vars[key]; ok {
		return v
	}
	var v z3.Expr
	if width == 0 {
		v = g.z.BoolConst(key)
	} else {
		v = g.z.BVConst(key, width)
	}
	g.vars[key] = v
	return v
}

// unknown is a fresh variable: a value the encoding does not model.
func (g *guards) unknown(width int) z3.Expr {
	g.fresh++
	name := fmt.Sprintf("$unknown%d", g.fresh)
	if width == 0 {
		return g.z.BoolConst(name)
	}
	return g.z.BVConst(name, width)
}

// boolean encodes a condition.
func (g *guards) boolean(e ir.Expr) z3.Expr {
	switch e := e.(type) {
	case *ir.Const:
		return g.z.Bool(e.Value.Sign() != 0)
	case *ir.Unary:
		if e.Op == ir.LNot {
			return g.boolean(e.X).Not()
		}
	case *ir.Binary:
		switch e.Op {
		case ir.LAnd:
			return g.boolean(e.X).And(g.boolean(e.Y))
		case ir.LOr:
			return g.boolean(e.X).Or(g.boolean(e.Y))
		case ir.Eq, ir.Ne:
			var eq z3.Expr
			if _, ok := e.X.Type().(ir.Bool); ok {
				eq = g.boolean(e.X).Eq(g.boolean(e.Y))
			} else if x, y, ok := g.operands(e.X, e.Y); ok {
				eq = x.Eq(y)
			} else {
				return g.unknown(0)
			}
			if e.Op == ir.Ne {
				return eq.Not()
			}
			return eq
		case ir.Lt, ir.Le, ir.Gt, ir.Ge:
			return g.compare(e)
		}
	case *ir.IsValid:
		if l, ok := exactLoc(g.scope, e.X); ok {
			return g.variable(string(l)+".$valid", 0)
		}
	case *ir.TableHit:
		hit := g.variable(string(hitLoc(e.Table)), 0)
		if e.Miss {
			return hit.Not()
		}
		return hit
	case *ir.VarRef, *ir.Member:
		if l, ok := exactLoc(g.scope, e); ok {
			return g.variable(string(l), 0)
		}
	}
	return g.unknown(0)
}

// wrap returns v modulo 2^w, in [0, 2^w).
func wrap(v *big.Int, w int) *big.Int {
	m := new(big.Int).Lsh(big.NewInt(1), uint(w))
	return new(big.Int).Mod(v, m)
}

func (g *guards) compare(e *ir.Binary) z3.Expr {
	x, y, ok := g.operands(e.X, e.Y)
	if !ok {
		return g.unknown(0)
	}
	signed := false
	if b, isBits := e.X.Type().(*ir.Bits); isBits {
		signed = b.Signed
	}
	lt, le := x.ULT, x.ULE
	if signed {
		lt, le = x.SLT, x.SLE
	}
	switch e.Op {
	case ir.Lt:
		return lt(y)
	case ir.Le:
		return le(y)
	case ir.Gt:
		return le(y).Not()
	default:
		return lt(y).Not()
	}
}

// operands encodes both sides of a comparison at one width.
func (g *guards) operands(a, b ir.Expr) (x, y z3.Expr, ok bool) {
	x, y = g.bits(a), g.bits(b)
	if !x.Valid() || !y.Valid() || x.Width() != y.Width() {
		return x, y, false
	}
	return x, y, true
}

// bits encodes a bit-vector value; the result is not Valid when its width
// is unknown.
func (g *guards) bits(e ir.Expr) z3.Expr {
	w := ir.WidthBits(e.Type())
	if _, isBits := e.Type().(*ir.Bits); !isBits || w <= 0 {
		return z3.Expr{}
	}
	switch e := e.(type) {
	case *ir.Const:
		return g.z.BVBig(wrap(e.Value, w), w)
	case *ir.VarRef, *ir.Member, *ir.StackElem:
		if l, ok := exactLoc(g.scope, e); ok {
			return g.variable(string(l), w)
		}
	case *ir.Slice:
		if x := g.bits(e.X); x.Valid() {
			return x.Extract(e.Hi, e.Lo)
		}
	case *ir.Cast:
		return g.cast(e, w)
	case *ir.Unary:
		if x := g.bits(e.X); x.Valid() {
			switch e.Op {
			case ir.BitNot:
				return x.BVNot()
			case ir.Neg:
				return x.Neg()
			}
		}
	case *ir.Binary:
		if v := g.binary(e); v.Valid() {
			return v
		}
	case *ir.Cond:
		c, x, y := g.boolean(e.C), g.bits(e.Then), g.bits(e.Else)
		if x.Valid() && y.Valid() {
			return g.z.Ite(c, x, y)
		}
	}
	return g.unknown(w)
}

func (g *guards) cast(e *ir.Cast, w int) z3.Expr {
	if _, fromBool := e.X.Type().(ir.Bool); fromBool {
		return g.z.Ite(g.boolean(e.X), g.z.BV(1, w), g.z.BV(0, w))
	}
	x := g.bits(e.X)
	if !x.Valid() {
		return g.unknown(w)
	}
	switch from := x.Width(); {
	case from == w:
		return x
	case from > w:
		return x.Extract(w-1, 0)
	default:
		if b, ok := e.X.Type().(*ir.Bits); ok && b.Signed {
			return x.SignExt(w - from)
		}
		return x.ZeroExt(w - from)
	}
}

func (g *guards) binary(e *ir.Binary) z3.Expr {
	if e.Op == ir.Concat {
		x, y := g.bits(e.X), g.bits(e.Y)
		if x.Valid() && y.Valid() {
			return x.Concat(y)
		}
		return z3.Expr{}
	}
	if e.Op == ir.Shl || e.Op == ir.Shr {
		c, ok := e.Y.(*ir.Const)
		x := g.bits(e.X)
		if !ok || !x.Valid() || !c.Value.IsInt64() {
			return z3.Expr{}
		}
		n := g.z.BV(uint64(min(c.Value.Int64(), int64(x.Width()))), x.Width())
		if e.Op == ir.Shl {
			return x.Shl(n)
		}
		if b, isBits := e.X.Type().(*ir.Bits); isBits && b.Signed {
			return x.AShr(n)
		}
		return x.LShr(n)
	}
	x, y, ok := g.operands(e.X, e.Y)
	if !ok {
		return z3.Expr{}
	}
	switch e.Op {
	case ir.Add:
		return x.Add(y)
	case ir.Sub:
		return x.Sub(y)
	case ir.Mul:
		return x.Mul(y)
	case ir.BitAnd:
		return x.BVAnd(y)
	case ir.BitOr:
		return x.BVOr(y)
	case ir.BitXor:
		return x.BVXor(y)
	}
	return z3.Expr{}
}
