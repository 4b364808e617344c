package ir

import "fmt"

// Op is an operator of P4-16 expressions. Its zero value, NoOp, is no
// operator at all.
type Op uint8

const (
	NoOp Op = iota

	// Unary operators.
	LNot   // !
	BitNot // ~
	Neg    // -
	Plus   // + (the frontend drops it when lowering: no Unary holds it)

	// Binary operators.
	Mul    // *
	Div    // /
	Mod    // %
	Add    // +
	Sub    // -
	SatAdd // |+|
	SatSub // |-|
	Concat // ++
	Shl    // <<
	Shr    // >>
	BitAnd // &
	BitXor // ^
	BitOr  // |
	Lt     // <
	Le     // <=
	Gt     // >
	Ge     // >=
	Eq     // ==
	Ne     // !=
	LAnd   // &&
	LOr    // ||
)

// opInfo is what the compiler knows of one operator. negation and
// converse are NoOp except for comparisons.
type opInfo struct {
	spelling string
	operands int
	// comparison: two operands of one type, a bool result.
	comparison bool
	// logical: bool operands and a bool result.
	logical bool
	// negation holds exactly when the operator does not: !(x < y) is x >= y.
	negation Op
	// converse holds of (y, x) exactly when the operator holds of (x, y):
	// x < y is y > x.
	converse Op
}

// ops is the one place an operator's spelling and properties are stated.
var ops = [...]opInfo{
	LNot:   {spelling: "!", operands: 1, logical: true},
	BitNot: {spelling: "~", operands: 1},
	Neg:    {spelling: "-", operands: 1},
	Plus:   {spelling: "+", operands: 1},
	Mul:    {spelling: "*", operands: 2},
	Div:    {spelling: "/", operands: 2},
	Mod:    {spelling: "%", operands: 2},
	Add:    {spelling: "+", operands: 2},
	Sub:    {spelling: "-", operands: 2},
	SatAdd: {spelling: "|+|", operands: 2},
	SatSub: {spelling: "|-|", operands: 2},
	Concat: {spelling: "++", operands: 2},
	Shl:    {spelling: "<<", operands: 2},
	Shr:    {spelling: ">>", operands: 2},
	BitAnd: {spelling: "&", operands: 2},
	BitXor: {spelling: "^", operands: 2},
	BitOr:  {spelling: "|", operands: 2},
	Lt:     {spelling: "<", operands: 2, comparison: true, negation: Ge, converse: Gt},
	Le:     {spelling: "<=", operands: 2, comparison: true, negation: Gt, converse: Ge},
	Gt:     {spelling: ">", operands: 2, comparison: true, negation: Le, converse: Lt},
	Ge:     {spelling: ">=", operands: 2, comparison: true, negation: Lt, converse: Le},
	Eq:     {spelling: "==", operands: 2, comparison: true, negation: Ne, converse: Eq},
	Ne:     {spelling: "!=", operands: 2, comparison: true, negation: Eq, converse: Ne},
	LAnd:   {spelling: "&&", operands: 2, logical: true},
	LOr:    {spelling: "||", operands: 2, logical: true},
}

// info is op's row; NoOp and values outside the table get the empty row,
// so that a stray Op has no properties rather than panicking.
func (op Op) info() opInfo {
	if int(op) < len(ops) {
		return ops[op]
	}
	return opInfo{}
}

// String is the operator as P4 spells it; an Op that is no operator
// prints as Op(N), to stand out in a message.
func (op Op) String() string {
	if s := op.info().spelling; s != "" {
		return s
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// LookupOp returns the operator spelled s that takes the given number of
// operands (1 or 2): P4 spells both negation and subtraction "-".
func LookupOp(s string, operands int) (Op, bool) {
	for op, info := range ops {
		if s != "" && info.spelling == s && info.operands == operands {
			return Op(op), true
		}
	}
	return NoOp, false
}

// Comparison reports whether op compares two operands of one type and
// gives a bool: == != < <= > >=.
func (op Op) Comparison() bool { return op.info().comparison }

// Logical reports whether op takes bool operands and gives a bool: ! &&
// ||.
func (op Op) Logical() bool { return op.info().logical }

// Negation is the comparison that holds exactly when op does not (>= for
// <); NoOp when op is not a comparison.
func (op Op) Negation() Op { return op.info().negation }

// Converse is the comparison that holds of the swapped operands exactly
// when op holds (> for <); NoOp when op is not a comparison.
func (op Op) Converse() Op { return op.info().converse }
