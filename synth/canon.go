package synth

import "hash/fnv"

// Canonical terms. One meaning written two ways (operands swapped,
// registers or temporaries renamed, a branch inverted) should give one
// transaction, term for term, so that synthesis asks the same queries
// and finds the same mapping: a query's search depends on its formula's
// form, and under a work budget a harder form of one query can be cut
// where the other succeeds (DNS TTL change took 3 Tofino stages written
// with its branch inverted, 2 as written). The Builder therefore puts
// the operand that reads no state first in a commutative operation, and
// orders a == b (which becomes a - b == 0) by canonicalLess, which reads
// the terms' structure before their names; and it keeps one polarity of
// each test in a ?: (Builder.Ite). Other commutative operands keep the
// program's order: SipHash's rounds, alike but for their values, then
// ask alike queries, which the cache answers (an order by structure
// digest made their queries differ round to round: 101 queries, not 72).

// shapeOf digests t's structure (FNV-1a, so that the order is the same
// in every run): its operation, width, value and bit range, its leaves by
// kind alone, and its operands' digests in order; and says whether it
// reads a pre-state, and how many operations its longest path to a leaf
// holds.
func shapeOf(t *Term) (shape uint64, state bool, height int) {
	h := fnv.New64a()
	word := func(v uint64) {
		var b [8]byte
		for i := range b {
			b[i] = byte(v >> (8 * i))
		}
		h.Write(b[:])
	}
	word(uint64(t.Op))
	word(uint64(t.Width))
	word(t.Value)
	word(uint64(t.Hi)<<32 | uint64(t.Lo))
	state = t.Op == OpPre
	for _, a := range t.Args {
		word(a.shape)
		state = state || a.state
		height = max(height, a.depth+1)
	}
	return h.Sum64(), state, height
}

// canonicalLess orders two operands: one that reads no state before one
// that does (a difference of an input and a state is input - state, as a
// comparison unit computes it, whichever the text wrote first), then by
// structure, then by name (two fields alike in all else).
func canonicalLess(x, y *Term) bool {
	switch {
	case x.state != y.state:
		return !x.state
	case x.depth != y.depth:
		return x.depth < y.depth
	case x.shape != y.shape:
		return x.shape < y.shape
	}
	return x.String() < y.String()
}

// commutative reports whether x op y is y op x.
func commutative(op Op) bool {
	switch op {
	case OpAdd, OpMul, OpAnd, OpOr, OpXor, OpEq, OpNe:
		return true
	}
	return false
}

// A test has two polarities (a == b, a != b; a < b, b <= a), and which one
// a transaction's canonical terms hold says nothing of which one an ALU
// computes: an ALU may compute one and not the other (Menshen's stateless
// ALU and DNS TTL change's TTL test). So a stateful ALU that reads a test
// reads it in either polarity: its query binds the test's negation to the
// input's complement (negations), and its attempts include the frontier
// with every test negated (negatedTests).

// isTest reports whether t is a comparison, a 1-bit value whose
// negation is a comparison too.
func isTest(t *Term) bool {
	switch t.Op {
	case OpEq, OpNe, OpLtU, OpLeU, OpLtS, OpLeS:
		return true
	}
	return false
}

// negations lists, for each frontier term that is a test, its negation
// (nil for the others).
func (s *synthesizer) negations(frontier []*Term) []*Term {
	out := make([]*Term, len(frontier))
	for i, t := range frontier {
		out[i] = s.negation(t)
	}
	return out
}

// negation is a test's negation when that is a test too whose negation
// is the test again (so a query binds whichever its update reads), else
// nil: without preprocessing a negation stays a ~ of the test.
func (s *synthesizer) negation(t *Term) *Term {
	if !isTest(t) {
		return nil
	}
	if n := s.tx.B.Not(t); isTest(n) && s.tx.B.Not(n) == t {
		return n
	}
	return nil
}

// negatedTests is frontier with every test negated; ok is false when it
// holds none.
func (s *synthesizer) negatedTests(frontier []*Term) (neg []*Term, ok bool) {
	for _, t := range frontier {
		if n := s.negation(t); n != nil {
			t, ok = n, true
		}
		neg = append(neg, t)
	}
	return neg, ok
}
