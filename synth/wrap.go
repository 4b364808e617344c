package synth

import (
	"fmt"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// WrapHint is a sum or difference of a transaction that wraps on some
// inputs and that a comparison reads: a mapping must be right where it
// wraps, which can cost a stage (BLUE's now - 10 > last on Tofino). The
// hint is the precondition that rules the wrap out.
type WrapHint struct {
	Expr *ir.Binary
	Span diag.Span
	// Where says when it wraps ("hdr.app.now < 10"); Assume is the
	// statement that says it never does.
	Where, Assume string
}

// WrapHints lists the sums and differences a comparison of tx reads
// (through choices) whose wrap a precondition could rule out, each once,
// in the order the transaction's results reach them.
func WrapHints(tx *Transaction) []WrapHint {
	var out []WrapHint
	seen := map[*Term]bool{}
	var operand func(t *Term)
	operand = func(t *Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		switch t.Op {
		case OpIte:
			operand(t.Args[1])
			operand(t.Args[2])
		case OpZext:
			operand(t.Args[0])
		case OpAdd, OpSub:
			if e, ok := tx.Written[t]; ok {
				if h, ok := wrapHint(e); ok {
					out = append(out, h)
				}
			}
		}
	}
	visited := map[*Term]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		if visited[t] {
			return
		}
		visited[t] = true
		switch t.Op {
		case OpLtU, OpLeU, OpLtS, OpLeS, OpEq, OpNe:
			for _, a := range t.Args {
				operand(a)
			}
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	for _, o := range tx.Outputs {
		walk(o.Value)
	}
	for _, c := range tx.Cells {
		walk(c.Post)
	}
	return out
}

// wrapHint words the hint for one sum or difference of unsigned values.
func wrapHint(e *ir.Binary) (WrapHint, bool) {
	t, ok := e.Type().(*ir.Bits)
	if !ok || t.Signed {
		return WrapHint{}, false
	}
	x, y := ir.Format(e.X), ir.Format(e.Y)
	h := WrapHint{Expr: e, Span: e.Span()}
	switch {
	case e.Op == ir.Sub:
		h.Where = fmt.Sprintf("%s < %s", x, y)
		h.Assume = fmt.Sprintf("assume(%s >= %s);", x, y)
	case isConst(e.Y):
		c := e.Y.(*ir.Const).Value.Uint64()
		limit := mask(t.Width) - c
		h.Where = fmt.Sprintf("%s > %d", x, limit)
		h.Assume = fmt.Sprintf("assume(%s <= %dw%d);", x, t.Width, limit)
	default:
		h.Where = fmt.Sprintf("%s + %s overflows", x, y)
		h.Assume = fmt.Sprintf("assume(%s + %s >= %s);", x, y, x)
	}
	return h, true
}

func isConst(e ir.Expr) bool {
	_, ok := e.(*ir.Const)
	return ok
}

// WrapNotes are the notes for an action whose shallower mappings failed
// (Stats.Deeper) and that took depth stages: each compared sum or
// difference that wraps, and the precondition that would let a mapping
// ignore the wrap.
func WrapNotes(tx *Transaction, depth int) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, h := range WrapHints(tx) {
		out = append(out, diag.Diagnostic{Span: h.Span, Severity: diag.Note, Code: diag.WrapCostsStage,
			Msg: fmt.Sprintf("action %s takes %d stages: no shallower mapping is right on every input, and %s wraps where %s, which a comparison reads; "+
				"if that never happens, say so with %s in the action: synthesis is then right only where it holds",
				tx.Action.Name, depth, ir.Format(h.Expr), h.Where, h.Assume)})
	}
	return out
}
