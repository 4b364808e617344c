package synth

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/solver/z3"
)

// Prove checks with Z3 that a graph computes its transaction on every
// input at the word width: every output field and every register cell
// ends with the value the transaction gives it, and every register is
// addressed at its cell's index. The graph runs as the pipeline runs it:
// one stage per depth, the ALUs of a stage reading the fields as the stage
// began, results landing at the end of their stage.
//
// The proof goes ALU by ALU: an ALU meant to compute a value of the
// transaction is proven to compute it from its inputs' values, and the
// ALUs after it read that value. Each query then holds one ALU's work on
// top of shared terms, where one query for the whole graph would ask the
// solver to match a hundred operations of SipHash at once.
func Prove(ctx context.Context, tx *Transaction, g *Graph, width int) error {
	x := z3.NewContext()
	defer x.Close()
	p := &prover{x: x, g: g, width: width, env: map[*Term]z3.Expr{}}
	p.bindLeaves(tx)
	if tx.Assume != nil {
		// Only inputs that meet the action's preconditions need be right.
		p.assume = tx.Assume.Encode(x, p.env).Eq(x.BV(1, 1))
	}
	fields := make([]z3.Expr, len(g.Fields))
	for i, f := range g.Fields {
		fields[i] = p.fieldValue(f)
	}
	var goals []z3.Expr // what must hold
	newState := map[*Cell]z3.Expr{}
	outs := make([]z3.Expr, len(g.ALUs))
	for d := 0; d < g.Depth(); d++ {
		snapshot := append([]z3.Expr(nil), fields...)
		operand := func(op Operand) z3.Expr { return p.operand(op, snapshot, outs) }
		for i, a := range g.ALUs {
			if a.Depth != d {
				continue
			}
			inputs := make([]z3.Expr, len(a.Inputs))
			for j, in := range a.Inputs {
				inputs[j] = operand(in)
			}
			states := make([]z3.Expr, len(a.State))
			cells := make([]*Cell, len(a.State))
			for j, sc := range a.State {
				states[j] = x.BV(0, width)
				if sc.Register == nil {
					continue
				}
				c := cellOf(tx, sc.Register)
				if c == nil {
					return fmt.Errorf("prove: ALU %d uses register %s, which the action does not", i, sc.Register.Name)
				}
				cells[j] = c
				states[j] = widen(p.env[c.Pre], width)
				goals = append(goals, p.sameIndex(c, sc, operand(sc.Index)))
			}
			terms, err := EncodeALU(x, a.Grammar, HoleConsts(x, a.Grammar.Holes, a.Config), states, inputs, width)
			if err != nil {
				return err
			}
			for j, c := range cells {
				if c != nil {
					newState[c] = narrow(terms.States[j], c.Width)
				}
			}
			outs[i] = terms.Output
			if a.term != nil {
				// The whole word: readers see all of it.
				want := widen(a.term.Encode(x, p.env), width)
				if err := p.holds(ctx, outs[i].Eq(want)); err != nil {
					return fmt.Errorf("prove: ALU %d of action %s: %w", i, tx.Action.Name, err)
				}
				outs[i] = want
			}
		}
		for _, w := range g.Writes {
			if w.Value.Kind == FromALU && g.ALUs[w.Value.Index].Depth == d {
				fields[w.Field] = outs[w.Value.Index]
			}
		}
	}
	for _, w := range g.Writes {
		if w.Value.Kind != FromALU {
			fields[w.Field] = p.operand(w.Value, fields, outs)
		}
	}
	for _, o := range tx.Outputs {
		i := p.fieldIndex(o.Field)
		if i < 0 {
			return fmt.Errorf("prove: the graph does not write %s", o.Name)
		}
		goals = append(goals, narrow(fields[i], o.Value.Width).Eq(o.Value.Encode(x, p.env)))
	}
	for _, c := range tx.Cells {
		got, ok := newState[c]
		if !ok {
			got = p.env[c.Pre] // no ALU: the cell keeps its value
		}
		goals = append(goals, got.Eq(c.Post.Encode(x, p.env)))
	}
	if err := p.holds(ctx, x.And(goals...)); err != nil {
		return fmt.Errorf("prove: the graph of action %s: %w", tx.Action.Name, err)
	}
	return nil
}

// holds proves a claim for every input.
func (p *prover) holds(ctx context.Context, claim z3.Expr) error {
	s := p.x.NewSolverFor("QF_BV")
	if p.assume.Valid() {
		s.Assert(p.assume)
	}
	s.Assert(claim.Not())
	res, err := s.Check(ctx)
	if err != nil {
		return err
	}
	switch res {
	case z3.Unsat:
		return nil
	case z3.Sat:
		return fmt.Errorf("differs from the action on some input")
	}
	return fmt.Errorf("the solver gave up: %s", s.ReasonUnknown())
}

type prover struct {
	x      *z3.Context
	g      *Graph
	width  int
	env    map[*Term]z3.Expr
	byName map[string]z3.Expr // input fields by name
	// assume is the transaction's precondition (not Valid: none).
	assume z3.Expr
}

// bindLeaves makes a variable for every input and pre-state the
// transaction reads.
func (p *prover) bindLeaves(tx *Transaction) {
	p.byName = map[string]z3.Expr{}
	var roots []*Term
	for _, o := range tx.Outputs {
		roots = append(roots, o.Value)
	}
	for _, c := range tx.Cells {
		roots = append(roots, c.Post, c.Pre, c.Index)
	}
	if tx.Assume != nil {
		roots = append(roots, tx.Assume)
	}
	for _, r := range roots {
		for _, l := range r.Leaves() {
			if _, ok := p.env[l]; ok {
				continue
			}
			v := p.x.BVConst(l.Name, l.Width)
			p.env[l] = v
			if l.Op == OpInput {
				p.byName[l.Name] = v
			}
		}
	}
}

// fieldValue is a field's word at the start: the input's variable
// zero-extended, or a fresh word for a field the action only writes.
func (p *prover) fieldValue(f ir.Expr) z3.Expr {
	name := ir.Format(f)
	if v, ok := p.byName[name]; ok {
		return widen(v, p.width)
	}
	w := ir.WidthBits(f.Type())
	v := p.x.BVConst("unread "+name, w)
	return widen(v, p.width)
}

func (p *prover) fieldIndex(f ir.Expr) int {
	name := ir.Format(f)
	for i, g := range p.g.Fields {
		if ir.Format(g) == name {
			return i
		}
	}
	return -1
}

func (p *prover) operand(op Operand, fields, outs []z3.Expr) z3.Expr {
	switch op.Kind {
	case FromField:
		return fields[op.Index]
	case FromALU:
		return outs[op.Index]
	case FromHash:
		// The hash unit computes the transaction's hash leaf; that the
		// unit's function is v1model's is the pipeline model's to test.
		return widen(p.env[p.g.Hashes[op.Index].term], p.width)
	}
	return p.x.BV(op.Value&(1<<uint(p.width)-1), p.width)
}

// sameIndex says the address unit reaches the cell's index.
func (p *prover) sameIndex(c *Cell, sc StateCell, index z3.Expr) z3.Expr {
	want := widen(c.Index.Encode(p.x, p.env), p.width)
	if sc.IndexBits > 0 {
		mask := p.x.BV(1<<uint(sc.IndexBits)-1, p.width)
		return index.BVAnd(mask).Eq(want.BVAnd(mask))
	}
	return index.Eq(want)
}

func cellOf(tx *Transaction, reg *ir.Instance) *Cell {
	for _, c := range tx.Cells {
		if c.Register == reg {
			return c
		}
	}
	return nil
}
