package transform

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/ir"
)

// An if statement becomes a decision list: alternatives in priority
// order, each a conjunction of conditions and the statements that run
// when it is the first alternative that holds. The last alternative of a
// list always holds (it has no conditions), so a list covers every packet.
// A table with const entries in the same order does the same: entries
// match by the first written.

// alt is one alternative of a decision list.
type alt struct {
	lits   []ir.Expr
	leaves []ir.Stmt
}

// flattener builds decision lists, asking the solver which conjunctions
// can hold.
type flattener struct {
	ctx   context.Context
	gs    *guards
	scope scope
	// arms, when not nil, keeps each arm's list (arm).
	arms map[*ir.If][]alt
}

// notRewritable explains why statements stay as they are.
type notRewritable struct{ reason string }

func (e *notRewritable) Error() string { return e.reason }

func refuse(format string, args ...any) error {
	return &notRewritable{reason: fmt.Sprintf(format, args...)}
}

// ifStmt is the decision list of if (C) T else E: T's alternatives with
// C added, then E's (a packet reaching them failed C, since T's last
// alternative catches every packet that meets C).
//
// An else-if chain is walked arm by arm, not recursed into: each level
// would copy the lists of the levels below it, quadratic in the arms. As
// when each else were a list of its own, the alternatives after the first
// arm's, the last else's included, are bounded by maxCubes.
func (f *flattener) ifStmt(st *ir.If) ([]alt, error) {
	var out []alt
	first, arm := 0, 0 // the first arm's alternatives; the last arm
	for ; ; arm++ {
		then, err := f.arm(st)
		if err != nil {
			return nil, err
		}
		out = append(out, then...)
		if arm == 0 {
			first = len(out)
		} else if len(out)-first > maxCubes {
			return nil, refuse("more than %d alternatives", maxCubes)
		}
		next, ok := elseIf(st)
		if !ok {
			break
		}
		st = next
	}
	els, err := f.seq(st.Else)
	if err != nil {
		return nil, err
	}
	if out = append(out, els...); arm > 0 && len(out)-first > maxCubes {
		return nil, refuse("more than %d alternatives", maxCubes)
	}
	return out, nil
}

// arm is the decision list of st's then branch with st's condition
// added, its impossible alternatives left out. The rewriter tries a
// chain longer than maxCubes from each of its arms in turn, so each arm's
// list is kept (arms) and shared: no one changes an alternative's slices.
func (f *flattener) arm(st *ir.If) ([]alt, error) {
	if alts, ok := f.arms[st]; ok {
		return alts, nil
	}
	then, err := f.seq(st.Then)
	if err != nil {
		return nil, err
	}
	var out []alt
	for _, a := range then {
		lits := append([]ir.Expr{st.Cond}, a.lits...)
		ok, err := f.possible(lits)
		if err != nil {
			return nil, err
		}
		if ok {
			out = append(out, alt{lits: lits, leaves: a.leaves})
		}
	}
	if f.arms != nil {
		f.arms[st] = out
	}
	return out, nil
}

// elseIf is the if statement that is the whole else branch of st.
func elseIf(st *ir.If) (*ir.If, bool) {
	if len(st.Else) != 1 {
		return nil, false
	}
	next, ok := st.Else[0].(*ir.If)
	return next, ok
}

// seq is the decision list of a statement list: simple statements join
// every alternative; an if multiplies the alternatives by its own.
func (f *flattener) seq(ss []ir.Stmt) ([]alt, error) {
	alts := []alt{{}}
	for _, st := range ss {
		switch st := st.(type) {
		case *ir.If:
			next, err := f.ifStmt(st)
			if err != nil {
				return nil, err
			}
			if alts, err = f.product(alts, next, true); err != nil {
				return nil, err
			}
		case *ir.Block:
			if st.Atomic {
				return nil, refuse("an @atomic block belongs in an action of its own")
			}
			next, err := f.seq(st.Body)
			if err != nil {
				return nil, err
			}
			if alts, err = f.product(alts, next, true); err != nil {
				return nil, err
			}
		case *ir.Assign, *ir.CallAction, *ir.CallStmt, *ir.SetValid, *ir.StackShift, *ir.Exit, *ir.Declare, *ir.ApplyTable:
			// A table application stays a leaf: the new table's switch on
			// the action it ran applies it (table.go).
			for i := range alts {
				alts[i].leaves = append(append([]ir.Stmt(nil), alts[i].leaves...), st)
			}
		default:
			return nil, refuse("a branch holds %s at %s, which an action cannot", stmtName(st), st.Span())
		}
	}
	return alts, nil
}

// product is the decision list of x followed by y: every pair of their
// alternatives that can hold together, x's order first. The conditions of
// y are evaluated after x's statements ran, so those statements must not
// write what they read. Unless sameBranch, x and y are separate if
// statements, whose statements must not depend on each other where both
// may run (CaT merges branches that have no dependency).
func (f *flattener) product(x, y []alt, sameBranch bool) ([]alt, error) {
	lit, l, ok, err := f.writtenCondition(x, y)
	if err != nil {
		return nil, err
	}
	if ok {
		return nil, refuse("the condition %s at %s reads %s, which is written before it", ir.Format(lit), lit.Span(), l)
	}
	if len(x)*len(y) > maxCubes {
		return nil, refuse("more than %d alternatives", maxCubes)
	}
	if len(x) == 1 && len(x[0].lits) == 0 && len(x[0].leaves) == 0 {
		// Nothing before y: y's alternatives were each found possible
		// when y was built.
		return y, nil
	}
	var out []alt
	for _, a := range x {
		for _, b := range y {
			lits := append(append([]ir.Expr(nil), a.lits...), b.lits...)
			ok, err := f.possible(lits)
			if err != nil {
				return nil, err
			}
			if !ok {
				continue
			}
			if !sameBranch {
				if d, dep := leafHazard(f.scope, a.leaves, b.leaves); dep {
					return nil, refuse("%s", d)
				}
			}
			out = append(out, alt{lits: lits, leaves: append(append([]ir.Stmt(nil), a.leaves...), b.leaves...)})
		}
	}
	return out, nil
}

// conditionsUnwritten refuses a decision list where a branch writes what
// a condition reads. Taken one by one such branches would be fine (the
// table matches before its action runs), but CaT stays conservative here,
// and so does this.
func (f *flattener) conditionsUnwritten(alts []alt) error {
	lit, l, ok, err := f.writtenCondition(alts, alts)
	if err != nil {
		return err
	}
	if ok {
		return refuse("the condition %s at %s reads %s, which a branch writes", ir.Format(lit), lit.Span(), l)
	}
	return nil
}

// writtenCondition finds a condition of readers that reads what a
// statement of writers writes. The alternatives of an n-arm chain hold
// n²/2 conditions, but only n distinct ones (arm k holds the negations of
// the k before it), so each is looked at once.
func (f *flattener) writtenCondition(writers, readers []alt) (ir.Expr, loc, bool, error) {
	var writes effects
	for _, a := range writers {
		writes.add(f.scope.stmts(a.leaves))
	}
	seen := map[ir.Expr]bool{}
	for _, a := range readers {
		if err := f.ctx.Err(); err != nil {
			return nil, "", false, err
		}
		for _, lit := range a.lits {
			if seen[lit] {
				continue
			}
			seen[lit] = true
			if l, ok := firstOverlap(writes.writes, f.scope.expr(lit).reads); ok {
				return lit, l, true, nil
			}
		}
	}
	return nil, "", false, nil
}

// possible reports whether a conjunction of conditions can hold.
func (f *flattener) possible(lits []ir.Expr) (bool, error) {
	if len(lits) == 0 {
		return true, nil
	}
	conds := make([]cond, len(lits))
	for i, l := range lits {
		conds[i] = cond{expr: l}
	}
	return f.gs.satisfiable(f.ctx, conds)
}

// leafHazard finds a dependency between two statement lists.
func leafHazard(s scope, a, b []ir.Stmt) (string, bool) {
	if len(a) == 0 || len(b) == 0 {
		return "", false
	}
	na := &Node{Span: a[0].Span(), eff: s.stmts(a)}
	nb := &Node{Span: b[0].Span(), eff: s.stmts(b)}
	d, ok := hazard(na, nb)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("the branches at %s and %s both may run and depend on each other (%s on %s)", na.Span, nb.Span, d.Hazard, d.Loc), true
}

func firstOverlap(a, b []loc) (loc, bool) {
	for _, x := range a {
		for _, y := range b {
			if x.overlaps(y) {
				return longer(x, y), true
			}
		}
	}
	return "", false
}

func stmtName(st ir.Stmt) string {
	switch st.(type) {
	case *ir.ApplyTable, *ir.SwitchAction:
		return "a table application"
	case *ir.Switch:
		return "a switch"
	case *ir.Return:
		return "a return"
	case *ir.For, *ir.Break, *ir.Continue:
		return "a loop"
	case *ir.ApplyBlock:
		return "a sub-block application"
	}
	return fmt.Sprintf("%T", st)
}
