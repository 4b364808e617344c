package synth

import (
	"fmt"

	"github.com/p4hls/p4hls/solver/z3"
)

// withAssume gives a query's spec the transaction's precondition, when it
// has one. The query's state inputs hold the pre-states states (nil where
// an input holds no cell) and its packet inputs the values packets;
// these are computed from the transaction's inputs and pre-states, which
// the precondition speaks of. So the spec's Assume says: some inputs and
// pre-states meet the precondition, and the query's inputs are what they
// compute. A counterexample is then one the program can meet.
func (s *synthesizer) withAssume(spec Spec, states, packets []*Term) Spec {
	if s.tx == nil || s.tx.Assume == nil {
		return spec
	}
	pre := s.tx.Assume
	roots := append(append([]*Term{pre}, states...), packets...)
	spec.addTerms("assume\n", roots, nil)
	spec.Assume = func(x *z3.Context, sv, pv []z3.Expr) z3.Expr {
		var word int // the search's word width, which the inputs have
		switch {
		case len(sv) > 0:
			word = sv[0].Width()
		case len(pv) > 0:
			word = pv[0].Width()
		default:
			return x.Bool(true)
		}
		enc := newTermEncoder(x, word, roots)
		bound := map[*Term]bool{}
		for i, t := range states {
			if t != nil && i < len(sv) {
				enc.bind(t, sv[i])
				bound[t] = true
			}
		}
		for k, l := range primaries(append([]*Term{pre}, packets...)) {
			if !bound[l] {
				enc.bind(l, x.BVConst(fmt.Sprintf("assumed%d %s", k, l.Name), word))
			}
		}
		conds := []z3.Expr{enc.encode(pre).Eq(x.BV(1, word))}
		for i, t := range packets {
			if t != nil && !t.IsConst() && i < len(pv) {
				conds = append(conds, pv[i].Eq(enc.encode(t)))
			}
		}
		return x.And(conds...)
	}
	return spec
}
