package frontend

import (
	"strings"

	"github.com/antlr4-go/antlr/v4"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend/parser"
)

// A missing ';' is the commonest syntax error, and ANTLR reports it at the
// token after the gap, where the user did nothing wrong ("unexpected
// 'transition'"). Before general error reporting, parseTokens looks for
// syntax errors that a ';' inserted at the error, or a little before it,
// repairs: each is reported where the ';' belongs, and parsing goes on as
// if it were there, so one missing ';' yields one diagnostic, not a cascade.

// maxRepairBack bounds how far before a syntax error the missing ';' is
// looked for.
const maxRepairBack = 64

// repairWindow is how many tokens past the error a trial parse reads: a ';'
// that lets parsing go past the error has repaired it, and reading the rest
// of the file for each trial would make a file with many errors slow.
const repairWindow = 16

// maxRepairTrials bounds the trial parses for all errors together: each
// parses a whole top-level declaration, which may be most of the file.
const maxRepairTrials = 2 * maxSyntaxErrors

// maxTerminatorText bounds the statement quoted in the message.
const maxTerminatorText = 40

// repairTerminators finds syntax errors in toks that a missing ';' explains,
// reports each, and returns the tokens with those ';' inserted, how many it
// inserted, and whether the result still has a syntax error.
func repairTerminators(src *Source, toks []antlr.Token, d *diag.List) (repaired []antlr.Token, n int, bad bool) {
	from := 0 // the parse before this top-level declaration is known good
	budget := maxRepairTrials
	for n < maxSyntaxErrors {
		at := firstError(toks[from:])
		if at < 0 {
			return toks, n, false
		}
		at += from
		gap, tried := missingSemicolon(toks, at, budget)
		budget -= tried
		if gap < 0 {
			return toks, n, true
		}
		reportMissingSemicolon(src, toks, gap, d)
		toks = withSemicolon(toks, gap)
		// The type-name pre-scan ends a typedef at its ';': without it,
		// `typedef bit<8> byte_t` declared no type.
		markTypeNames(toks)
		from = declStart(toks, gap)
		n++
	}
	return toks, n, true
}

// firstError parses toks (a sequence of top-level declarations ending with
// EOF), stopping at the first syntax error, and returns the index of the
// token where parsing failed, or -1 if toks parse.
func firstError(toks []antlr.Token) int {
	_, failed := bailParse(toks, antlr.PredictionModeLL)
	return failed
}

// missingSemicolon returns the index of the token before which a ';' repairs
// the syntax error at toks[at], or -1, and how many of at most budget
// trial parses it ran. The gap may lie before the error:
// in `if (c) { f() } x = 1;` the parser reads `{ f() }` as a list
// expression and fails only at x. So every place between the last ';' and
// the error is tried, earliest first, as the user's mistake is the first
// place where the text stops making sense.
func missingSemicolon(toks []antlr.Token, at, budget int) (gap, tried int) {
	lo := max(at-maxRepairBack, 1)
	for i := at - 1; i >= lo; i-- {
		if toks[i].GetTokenType() == parser.P4LexerSEMI {
			lo = i + 1
			break
		}
	}
	for gap := lo; gap <= at && tried < budget; gap++ {
		if !mayEndBefore(toks, gap) {
			continue
		}
		tried++
		if semicolonRepairs(toks, gap, at) {
			return gap, tried
		}
	}
	return -1, tried
}

// mayEndBefore reports whether a statement may have ended just before
// toks[i] without its ';': toks[i] cannot continue a statement (a keyword,
// '}', the end of input) or starts a later line, and something precedes it
// that a ';' could end. A name on the same line is excluded: `foo_t x;`
// with foo_t undeclared is not `foo_t; x;`.
func mayEndBefore(toks []antlr.Token, i int) bool {
	if i == 0 {
		return false
	}
	switch toks[i-1].GetTokenType() {
	case parser.P4LexerSEMI, parser.P4LexerLBRACE:
		return false
	}
	tok := toks[i]
	switch tok.GetTokenType() {
	case antlr.TokenEOF, parser.P4LexerRBRACE:
		return true
	}
	return isKeyword(tok) || tok.GetLine() > toks[i-1].GetLine()
}

// semicolonRepairs reports whether inserting ';' before toks[gap] lets the
// parse of the enclosing top-level declaration go past the error at
// toks[at].
func semicolonRepairs(toks []antlr.Token, gap, at int) bool {
	start := declStart(toks, gap-1)
	end := min(at+repairWindow, len(toks)-1)
	trial := make([]antlr.Token, 0, end-start+2)
	trial = append(trial, toks[start:gap]...)
	trial = append(trial, &insertedSemi{Token: toks[gap-1]})
	trial = append(trial, toks[gap:end]...)
	trial = append(trial, toks[len(toks)-1]) // EOF
	failed := firstError(trial)
	return failed < 0 || failed > at-start+1 // at-start+1: toks[at] in trial
}

// withSemicolon returns a copy of toks with ';' inserted before toks[at].
func withSemicolon(toks []antlr.Token, at int) []antlr.Token {
	out := make([]antlr.Token, 0, len(toks)+1)
	out = append(out, toks[:at]...)
	out = append(out, &insertedSemi{Token: toks[at-1]})
	return append(out, toks[at:]...)
}

// declStart returns the index of the first token of the top-level
// declaration holding toks[i]: the token after the last ';' or '}' before
// it at bracket depth 0. Every top-level declaration ends in one of them,
// and a stray one is harmless since a lone ';' is a declaration too.
func declStart(toks []antlr.Token, i int) int {
	start, depth := 0, 0
	for j := 0; j < i; j++ {
		switch toks[j].GetTokenType() {
		case parser.P4LexerLPAREN, parser.P4LexerLBRACKET, parser.P4LexerLBRACE:
			depth++
		case parser.P4LexerRPAREN, parser.P4LexerRBRACKET:
			depth = max(depth-1, 0)
		case parser.P4LexerRBRACE:
			depth = max(depth-1, 0)
			if depth == 0 {
				start = j + 1
			}
		case parser.P4LexerSEMI:
			if depth == 0 {
				start = j + 1
			}
		}
	}
	return start
}

// reportMissingSemicolon reports the ';' missing before toks[at] just after
// the token before it, quoting the statement it would end.
func reportMissingSemicolon(src *Source, toks []antlr.Token, at int, d *diag.List) {
	last := toks[at-1]
	end := src.tokenSpan(last).End
	sp := diag.Span{File: src.tokenSpan(last).File, Start: end, End: diag.Pos{Line: end.Line, Col: end.Col + 1}}
	d.Errorf(sp, diag.SyntaxError, "expected ';' after '%s'", statementText(src, toks, at-1))
}

// statementText returns the source text of the statement or declaration
// that ends with toks[last], as the user would recognize it: from the last
// ';', '{', '}' or 'else' before it, or from just after an if's condition,
// with white space collapsed and a long text cut short.
func statementText(src *Source, toks []antlr.Token, last int) string {
	first := last
	for i := last; i >= 0; i-- {
		switch toks[i].GetTokenType() {
		case parser.P4LexerSEMI, parser.P4LexerLBRACE, parser.P4LexerRBRACE, parser.P4LexerELSE:
			return quoteTokens(src, toks[first], toks[last])
		case parser.P4LexerRPAREN, parser.P4LexerRBRACKET:
			open := matchingOpen(toks, i)
			if open < 0 {
				return quoteTokens(src, toks[first], toks[last])
			}
			if open > 0 && toks[open-1].GetTokenType() == parser.P4LexerIF && i < last {
				return quoteTokens(src, toks[first], toks[last])
			}
			i = open
		}
		first = i
	}
	return quoteTokens(src, toks[first], toks[last])
}

// matchingOpen returns the index of the bracket that the closing bracket
// toks[close] closes, or -1.
func matchingOpen(toks []antlr.Token, close int) int {
	depth := 0
	for i := close; i >= 0; i-- {
		switch toks[i].GetTokenType() {
		case parser.P4LexerRPAREN, parser.P4LexerRBRACKET:
			depth++
		case parser.P4LexerLPAREN, parser.P4LexerLBRACKET:
			depth--
			if depth == 0 {
				return i
			}
		case parser.P4LexerLBRACE, parser.P4LexerRBRACE, parser.P4LexerSEMI:
			return -1 // unbalanced within the statement
		}
	}
	return -1
}

// quoteTokens returns the preprocessed text from first to last with white
// space (line breaks, comments' places) collapsed to one space.
func quoteTokens(src *Source, first, last antlr.Token) string {
	text := string(src.Text)
	lo, hi := first.GetStart(), last.GetStop()+1
	if lo < 0 || hi > len(text) || lo >= hi {
		return last.GetText()
	}
	s := strings.Join(strings.Fields(text[lo:hi]), " ")
	if r := []rune(s); len(r) > maxTerminatorText {
		s = string(r[:maxTerminatorText-4])
		if i := strings.LastIndexByte(s, ' '); i > 0 {
			s = s[:i] // not in the middle of a name
		}
		s += " ..."
	}
	return s
}

// insertedSemi is a ';' that the repair put after the token it embeds (for
// its position); it keeps its own index, which the token stream sets.
type insertedSemi struct {
	antlr.Token
	index int
}

func (t *insertedSemi) GetTokenType() int   { return parser.P4LexerSEMI }
func (t *insertedSemi) GetText() string     { return ";" }
func (t *insertedSemi) GetColumn() int      { return t.Token.GetColumn() + len(t.Token.GetText()) }
func (t *insertedSemi) GetStart() int       { return t.Token.GetStop() + 1 }
func (t *insertedSemi) GetStop() int        { return t.Token.GetStop() }
func (t *insertedSemi) GetTokenIndex() int  { return t.index }
func (t *insertedSemi) SetTokenIndex(i int) { t.index = i }
