package frontend

import (
	"github.com/antlr4-go/antlr/v4"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend/parser"
)

// shape follows the tokens as they are lexed and refuses, before anything
// is parsed, input nested deeper than the recursive passes can take:
// brackets nested in brackets or prefix operators in a row past maxNesting,
// expressions deeper than MaxExpressionDepth (a chain a + b + c + ... is a
// tree as deep as it is long) and statements deeper than MaxStatementDepth
// (an else-if chain is an if in the else of the one before). Checking while
// lexing keeps the memory bounded: the lexer need not keep the tokens of a
// refused expression or statement.
//
// It works on tokens, so it counts an upper bound of an expression's depth:
// its binary operators plus the depth of its deepest operand, which is the
// operand's prefix and postfix operators (a bracketed group is one) plus the
// deepest expression in its groups. A separator (; , = and the other
// assignments) ends an expression, and so does a closing brace that nothing
// continues: the end of a block.
//
// A statement's depth is bounded the same way: its if and for keywords
// (the statements that hold statements without braces) up to the ; or }
// that ends it and is not followed by else, plus the deepest statement in
// its blocks (the blocks themselves nest no deeper than maxNesting).
type shape struct {
	src *Source
	d   *diag.List
	// groups holds the bracketed groups open, innermost last; the first is
	// the whole input.
	groups []group
	// prefix counts the prefix operators in a row.
	prefix int
	// prev is the type of the previous token; closedBrace says that it
	// closed a group in braces.
	prev        int
	closedBrace bool
	// endsStmt says that the previous token ended a statement, unless an
	// else follows.
	endsStmt bool
	// deep says that the expression or statement being read is past its
	// limit: it will be refused when it ends, with its depth.
	deep bool
}

// group is a bracketed group being read: its expression and statement
// being read, and the depth of the deepest ones that ended in it.
type group struct {
	cur         expression
	deepest     int
	stmt        statement
	deepestStmt int
}

// statement is a statement being read (the ifs of an else-if chain are
// one).
type statement struct {
	start    antlr.Token // its first if or for, where a diagnostic points
	keywords int         // its ifs and fors
	below    int         // the depth of its deepest block
}

func (x *statement) depth() int { return x.keywords + x.below }

// expression is an expression (or the part of one between separators)
// being read.
type expression struct {
	start   antlr.Token // its first token, where a diagnostic points
	binary  int         // its binary operators
	deepest int         // the depth of its deepest operand so far
	operand depth       // the operand being read
}

// depth bounds a tree's depth: its operators in a row plus the deepest tree
// below them.
type depth struct{ ops, below int }

func (x depth) total() int { return x.ops + x.below }

func (x *expression) depth() int { return x.binary + max(x.deepest, x.operand.total()) }

func (x *expression) nextOperand() {
	x.deepest = max(x.deepest, x.operand.total())
	x.operand = depth{}
}

func newShape(src *Source, d *diag.List) *shape {
	return &shape{src: src, d: d, groups: []group{{}}, prev: antlr.TokenInvalidType}
}

// next takes the next default-channel token, the end of input included. It
// returns false when the input is refused: a diagnostic says why.
func (s *shape) next(t antlr.Token) bool {
	typ := t.GetTokenType()
	prev, closedBrace, endsStmt := s.prev, s.closedBrace, s.endsStmt
	s.prev, s.closedBrace, s.endsStmt = typ, false, false
	// A statement goes on after its ; or } with else; a } followed by
	// what goes on with an expression closed a list, not a block.
	if endsStmt && typ != parser.P4LexerELSE && typ != parser.P4LexerSEMI && typ != parser.P4LexerCOMMA &&
		!continuesExpr(typ) && !s.endStmt() {
		return false
	}
	if closedBrace && !continuesExpr(typ) && !s.end() {
		return false
	}
	cur := &s.groups[len(s.groups)-1].cur
	if cur.start == nil {
		cur.start = t
	}
	if !s.nesting(t, typ, prev) {
		return false
	}
	switch {
	case typ == antlr.TokenEOF:
		for len(s.groups) > 0 { // brackets left open at the end of the input
			if !s.end() || !s.endStmt() {
				return false
			}
			s.groups = s.groups[:len(s.groups)-1]
		}
		return true
	case typ == parser.P4LexerLPAREN || typ == parser.P4LexerLBRACKET || typ == parser.P4LexerLBRACE:
		s.groups = append(s.groups, group{})
	case typ == parser.P4LexerRPAREN || typ == parser.P4LexerRBRACKET || typ == parser.P4LexerRBRACE:
		if len(s.groups) == 1 {
			return true // unbalanced: the parser reports it
		}
		if !s.end() || !s.endStmt() {
			return false
		}
		inside := s.groups[len(s.groups)-1]
		s.groups = s.groups[:len(s.groups)-1]
		cur = &s.groups[len(s.groups)-1].cur
		cur.operand.ops++
		cur.operand.below = max(cur.operand.below, inside.deepest)
		if typ == parser.P4LexerRBRACE { // a block (or a list)
			stmt := &s.groups[len(s.groups)-1].stmt
			stmt.below = max(stmt.below, inside.deepestStmt)
			s.closedBrace, s.endsStmt = true, true
		}
	case isSeparator(typ):
		s.endsStmt = typ == parser.P4LexerSEMI
		return s.end()
	case typ == parser.P4LexerELSE:
		return s.end() // ends the condition or the statement before
	case typ == parser.P4LexerIF || typ == parser.P4LexerFOR:
		if !s.end() { // a statement in a statement: no expression goes on
			return false
		}
		stmt := &s.groups[len(s.groups)-1].stmt
		if stmt.start == nil {
			stmt.start = t
		}
		stmt.keywords++
		if stmt.depth() > MaxStatementDepth {
			s.deep = true
		}
	case typ == parser.P4LexerCOLON: // of a conditional (or a label)
		cur.nextOperand()
	case isBinary(typ) && !(isPrefix(typ) && !isOperandEnd(prev)):
		cur.binary++
		cur.nextOperand()
	case isPrefix(typ) || typ == parser.P4LexerDOT:
		cur.operand.ops++
	}
	if s.groups[len(s.groups)-1].cur.depth() > MaxExpressionDepth {
		s.deep = true
	}
	return true
}

// nesting counts the brackets open and the prefix operators in a row, and
// reports either past maxNesting at the token that goes past it.
func (s *shape) nesting(t antlr.Token, typ, prev int) bool {
	switch {
	case isPrefix(typ):
		if isOperandEnd(prev) {
			s.prefix = 0 // a binary operator
		} else {
			s.prefix++
		}
	case typ != parser.P4LexerLPAREN: // (a cast) keeps a chain going
		s.prefix = 0
	}
	open := len(s.groups) - 1
	if typ == parser.P4LexerLPAREN || typ == parser.P4LexerLBRACKET || typ == parser.P4LexerLBRACE {
		open++
	}
	if open > maxNesting || s.prefix > maxNesting {
		s.d.Errorf(s.src.tokenSpan(t), diag.NestingTooDeep,
			"expression or block nested more than %d levels deep; split it up", maxNesting)
		return false
	}
	return true
}

// endStmt ends the statement being read in the innermost group; it
// refuses a statement past the limit.
func (s *shape) endStmt() bool {
	g := &s.groups[len(s.groups)-1]
	n := g.stmt.depth()
	if n > MaxStatementDepth {
		s.d.Errorf(s.src.tokenSpan(g.stmt.start), diag.NestingTooDeep,
			"statement nested %d deep (the limit is %d); split it up", n, MaxStatementDepth)
		return false
	}
	g.deepestStmt = max(g.deepestStmt, n)
	g.stmt = statement{}
	return true
}

// end ends the expression being read in the innermost group and starts the
// next; it refuses an expression past the limit.
func (s *shape) end() bool {
	g := &s.groups[len(s.groups)-1]
	n := g.cur.depth()
	if n > MaxExpressionDepth {
		s.d.Errorf(s.src.tokenSpan(g.cur.start), diag.NestingTooDeep,
			"expression nested %d deep (the limit is %d); split it up", n, MaxExpressionDepth)
		return false
	}
	g.deepest = max(g.deepest, n)
	g.cur = expression{}
	return true
}

// isSeparator reports whether a token ends an expression.
func isSeparator(typ int) bool {
	switch typ {
	case parser.P4LexerSEMI, parser.P4LexerCOMMA, parser.P4LexerASSIGN,
		parser.P4LexerPLUS_ASSIGN, parser.P4LexerMINUS_ASSIGN, parser.P4LexerMUL_ASSIGN, parser.P4LexerDIV_ASSIGN,
		parser.P4LexerMOD_ASSIGN, parser.P4LexerSHL_ASSIGN, parser.P4LexerAND_ASSIGN, parser.P4LexerOR_ASSIGN,
		parser.P4LexerXOR_ASSIGN, parser.P4LexerSATADD_ASSIGN, parser.P4LexerSATSUB_ASSIGN:
		return true
	}
	return false
}

// isPrefix reports whether a token may be a prefix operator (+ and - may
// be binary ones instead).
func isPrefix(typ int) bool {
	switch typ {
	case parser.P4LexerNOT, parser.P4LexerCOMPLEMENT, parser.P4LexerMINUS, parser.P4LexerPLUS:
		return true
	}
	return false
}

// isBinary reports whether a token may be a binary operator: an operator
// of arithmetic, comparison or logic, a keyset's mask or range, a slice's
// +:, the conditional's ?, or a < or > that may close type arguments.
func isBinary(typ int) bool {
	switch typ {
	case parser.P4LexerMUL, parser.P4LexerDIV, parser.P4LexerMOD, parser.P4LexerPLUS, parser.P4LexerMINUS,
		parser.P4LexerSATADD, parser.P4LexerSATSUB, parser.P4LexerCONCAT, parser.P4LexerSHL,
		parser.P4LexerLT, parser.P4LexerGT, parser.P4LexerLE, parser.P4LexerGE, parser.P4LexerEQ, parser.P4LexerNE,
		parser.P4LexerAND, parser.P4LexerXOR, parser.P4LexerOR, parser.P4LexerLAND, parser.P4LexerLOR,
		parser.P4LexerQUESTION, parser.P4LexerMASK, parser.P4LexerRANGE, parser.P4LexerPLUS_COLON:
		return true
	}
	return false
}

// continuesExpr reports whether a token after a closing brace makes the
// braces an operand (of an operator, a call, an index or a conditional)
// rather than the end of a block.
func continuesExpr(typ int) bool {
	switch typ {
	case parser.P4LexerDOT, parser.P4LexerLPAREN, parser.P4LexerLBRACKET, parser.P4LexerCOLON:
		return true
	}
	return isBinary(typ)
}

// isOperandEnd reports whether a token may end an operand, so that a + or
// - after it is a binary operator.
func isOperandEnd(typ int) bool {
	switch typ {
	case parser.P4LexerIDENTIFIER, parser.P4LexerINTEGER, parser.P4LexerRPAREN, parser.P4LexerRBRACKET, parser.P4LexerRBRACE,
		parser.P4LexerTRUE, parser.P4LexerFALSE, parser.P4LexerSTRING_LITERAL:
		return true
	}
	return false
}
