package ir

import "testing"

// TestOpSpelling checks every operator against P4-16's spelling of it
// (the spec's operator tables, §8) and that the spelling leads back to it.
func TestOpSpelling(t *testing.T) {
	tests := []struct {
		op       Op
		spelling string
		operands int
	}{
		{LNot, "!", 1}, {BitNot, "~", 1}, {Neg, "-", 1}, {Plus, "+", 1},
		{Mul, "*", 2}, {Div, "/", 2}, {Mod, "%", 2}, {Add, "+", 2}, {Sub, "-", 2},
		{SatAdd, "|+|", 2}, {SatSub, "|-|", 2}, {Concat, "++", 2},
		{Shl, "<<", 2}, {Shr, ">>", 2},
		{BitAnd, "&", 2}, {BitXor, "^", 2}, {BitOr, "|", 2},
		{Lt, "<", 2}, {Le, "<=", 2}, {Gt, ">", 2}, {Ge, ">=", 2}, {Eq, "==", 2}, {Ne, "!=", 2},
		{LAnd, "&&", 2}, {LOr, "||", 2},
	}
	if len(tests) != len(ops)-1 {
		t.Errorf("the test covers %d operators, the table has %d", len(tests), len(ops)-1)
	}
	for _, tc := range tests {
		t.Run(tc.spelling, func(t *testing.T) {
			if got := tc.op.String(); got != tc.spelling {
				t.Errorf("got %q, want %q", got, tc.spelling)
			}
			if got, ok := LookupOp(tc.spelling, tc.operands); !ok || got != tc.op {
				t.Errorf("LookupOp(%q, %d) = %v, %v; want %v, true", tc.spelling, tc.operands, got, ok, tc.op)
			}
		})
	}
}

func TestLookupOpRefuses(t *testing.T) {
	tests := []struct {
		name     string
		spelling string
		operands int
	}{
		{"empty", "", 2},
		{"no operator", "", 0},
		{"assignment", "=", 2},
		{"keyset mask", "&&&", 2},
		{"keyset range", "..", 2},
		{"synth's arithmetic shift", ">>s", 2},
		{"C's not-equal", "<>", 2},
		{"not is unary", "!", 2},
		{"and is binary", "&&", 1},
		{"three operands", "+", 3},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got, ok := LookupOp(tc.spelling, tc.operands); ok {
				t.Errorf("LookupOp(%q, %d) = %v, want refused", tc.spelling, tc.operands, got)
			}
		})
	}
}

func TestOpProperties(t *testing.T) {
	tests := []struct {
		op                  Op
		comparison, logical bool
		negation, converse  Op
	}{
		// !(x < y) is x >= y, and x < y is y > x.
		{op: Lt, comparison: true, negation: Ge, converse: Gt},
		{op: Le, comparison: true, negation: Gt, converse: Ge},
		{op: Gt, comparison: true, negation: Le, converse: Lt},
		{op: Ge, comparison: true, negation: Lt, converse: Le},
		{op: Eq, comparison: true, negation: Ne, converse: Eq},
		{op: Ne, comparison: true, negation: Eq, converse: Ne},
		{op: LAnd, logical: true},
		{op: LOr, logical: true},
		{op: LNot, logical: true},
		// Bitwise operators on bit<W> are not the boolean ones.
		{op: BitAnd},
		{op: BitNot},
		// x |-| y is not y |-| x, and no comparison of (y, x) says it.
		{op: SatSub},
		{op: Sub},
		{op: NoOp},
		{op: Op(200)},
	}
	for _, tc := range tests {
		t.Run(tc.op.String(), func(t *testing.T) {
			if got := tc.op.Comparison(); got != tc.comparison {
				t.Errorf("Comparison: got %v, want %v", got, tc.comparison)
			}
			if got := tc.op.Logical(); got != tc.logical {
				t.Errorf("Logical: got %v, want %v", got, tc.logical)
			}
			if got := tc.op.Negation(); got != tc.negation {
				t.Errorf("Negation: got %v, want %v", got, tc.negation)
			}
			if got := tc.op.Converse(); got != tc.converse {
				t.Errorf("Converse: got %v, want %v", got, tc.converse)
			}
		})
	}
}

// TestOpString names what is no operator, so that a stray value shows in a
// message.
func TestOpString(t *testing.T) {
	for _, tc := range []struct {
		op   Op
		want string
	}{{NoOp, "Op(0)"}, {Op(200), "Op(200)"}} {
		if got := tc.op.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}
