package frontend

import (
	"context"
	"fmt"
	"strings"

	"github.com/antlr4-go/antlr/v4"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend/cpp"
	"github.com/p4hls/p4hls/frontend/parser"
)

// Limits on input, so no input can crash or hang the frontend. Each limit
// that is hit becomes a diagnostic where it was hit.
const (
	// MaxInputBytes is the largest source file accepted.
	MaxInputBytes = cpp.MaxFileBytes
	// maxNesting bounds brackets nested in brackets, and chains of prefix
	// operators, so the recursive-descent parser cannot exhaust the stack
	// (see shape).
	maxNesting = 500
	// MaxExpressionDepth bounds how deep one expression's tree may be: a
	// chain a + b + c + ... is a tree as deep as it is long, and every pass
	// over expressions (building the AST, checking, folding, lowering, the
	// backends) recurses that deep. The bound is counted on tokens (see
	// shape), over the operators; p4c's test programs stay under 30. It is
	// also what the outputs can hold: a backend writes an expression with a
	// bracket per operator, and the Tofino program must stay under the
	// nesting p4c (and maxNesting) accepts, the C of the xdp target under
	// what clang parses without exhausting its stack (about 1,000). The
	// count is an upper bound, about two per operator of a chain, so a
	// chain of about 400 terms is the longest accepted.
	MaxExpressionDepth = 800
	// MaxStatementDepth bounds how deep statements may nest without
	// braces, which maxNesting bounds: an else-if chain is an if in the
	// else of the one before, and the passes over statements recurse as
	// deep as the chain is long (counted on tokens too, see shape). The xdp
	// target's C nests a block per arm, and clang's parser exhausts its
	// stack between 2,000 and 5,000.
	MaxStatementDepth = 2000
	// maxSyntaxErrors stops the parser's error recovery early: after this
	// many, the rest are usually cascades of the first.
	maxSyntaxErrors = 20
	// cancelEvery is how many tokens the lexer reads between looks at its
	// context: far under a millisecond of work.
	cancelEvery = 4096
)

// Source is a preprocessed program: its text and where each line came from.
type Source struct {
	*cpp.Result
	File string // the file named on the command line

	lineStarts map[string][]int // byte offset of each line, per file; see lineLen
}

// FileText returns the original text of a file read during preprocessing, for
// printing source excerpts.
func (s *Source) FileText(file string) []byte {
	if s == nil || s.Result == nil {
		return nil
	}
	return s.Sources[file]
}

// Parse preprocesses src (the text of file), lexes and parses it, and builds
// the AST. Problems go to d; the AST is nil only when nothing could be
// parsed. The error is for cancellation only.
func Parse(ctx context.Context, file string, src []byte, opts Options, d *diag.List) (*File, *Source, error) {
	if len(src) > MaxInputBytes {
		d.Errorf(diag.Span{File: file, Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2}}, diag.InputTooLarge,
			"file is %d MiB; p4hls accepts programs up to %d MiB", len(src)>>20, MaxInputBytes>>20)
		return nil, nil, nil
	}
	pre, err := cpp.Preprocess(ctx, file, src, opts.cppOptions(), d)
	if err != nil {
		return nil, nil, err
	}
	if opts.Written != nil {
		pre.Sources[file] = opts.Written
	}
	source := &Source{Result: pre, File: file}
	if len(pre.Text) > MaxInputBytes {
		d.Errorf(diag.Span{File: file, Start: diag.Pos{Line: 1, Col: 1}}, diag.InputTooLarge,
			"preprocessed program is %d MiB; p4hls accepts up to %d MiB", len(pre.Text)>>20, MaxInputBytes>>20)
		return nil, source, nil
	}
	if err := ctx.Err(); err != nil {
		return nil, source, fmt.Errorf("parse %s: %w", file, err)
	}
	before := d.Len()
	toks, err := lex(ctx, source, d)
	if err != nil {
		return nil, source, fmt.Errorf("lex %s: %w", file, err)
	}
	if d.Len() > before {
		// Parsing around a bad character or comment only adds cascades,
		// and input nested too deep would exhaust the stack.
		return nil, source, nil
	}
	markTypeNames(toks)
	f, err := parseTokens(ctx, source, toks, d)
	if err != nil {
		return nil, source, fmt.Errorf("parse %s: %w", file, err)
	}
	if f == nil {
		return nil, source, nil
	}
	if !d.HasErrors() && !declaresAnything(f, file) {
		// Valid P4 (p4c accepts it), but rarely what was meant.
		d.Warnf(diag.Span{File: file, Start: diag.Pos{Line: 1, Col: 1}, End: diag.Pos{Line: 1, Col: 2}}, diag.EmptyProgram,
			"%s declares nothing", file)
	}
	return f, source, ctx.Err()
}

// declaresAnything reports whether file itself (not only what it
// includes) contributes a declaration.
func declaresAnything(f *File, file string) bool {
	for _, d := range f.Decls {
		if d.Span().File == file {
			return true
		}
	}
	return false
}

// span converts a token range to a source span through the line map.
func (s *Source) span(start, stop antlr.Token) diag.Span {
	sp := s.span1(start, stop)
	sp.Start = s.clamp(sp.File, sp.Start)
	sp.End = s.clamp(sp.File, sp.End)
	if sp.End.Less(sp.Start) {
		sp.End = sp.Start
	}
	return sp
}

// clamp keeps a position inside its source line: after a line splice or a
// macro expansion, a column in the preprocessed text can lie past the end
// of the line it came from.
func (s *Source) clamp(file string, p diag.Pos) diag.Pos {
	n, ok := s.lineLen(file, p.Line)
	if ok && p.Col > n+1 {
		p.Col = n + 1
	}
	return p
}

// lineLen returns the length of line n (1-based) of a source file, from
// line offsets computed once per file.
func (s *Source) lineLen(file string, n int) (int, bool) {
	if s.lineStarts == nil {
		s.lineStarts = map[string][]int{}
	}
	starts, ok := s.lineStarts[file]
	if !ok {
		text, known := s.Sources[file]
		if !known {
			return 0, false
		}
		starts = []int{0}
		for i, c := range text {
			if c == '\n' {
				starts = append(starts, i+1)
			}
		}
		starts = append(starts, len(text)+1) // a sentinel: the end of the last line
		s.lineStarts[file] = starts
	}
	if n < 1 || n >= len(starts) {
		return 0, false
	}
	return starts[n] - starts[n-1] - 1, true
}

func (s *Source) span1(start, stop antlr.Token) diag.Span {
	if start.GetTokenType() == antlr.TokenEOF {
		return s.endSpan()
	}
	o := s.Origin(start.GetLine())
	sp := diag.Span{File: o.File, Start: diag.Pos{Line: o.Line, Col: start.GetColumn() + 1}}
	if stop == nil || stop.GetTokenType() == antlr.TokenEOF || stop.GetTokenIndex() < start.GetTokenIndex() {
		stop = start
	}
	e := s.Origin(stop.GetLine())
	if e.File != o.File {
		e = o // a span never crosses files; cut it at the first
		stop = start
	}
	text := stop.GetText()
	if stop.GetTokenType() == antlr.TokenEOF {
		text = ""
	}
	lastLine := strings.LastIndexByte(text, '\n')
	if lastLine >= 0 { // a token spanning lines (block comment)
		sp.End = diag.Pos{Line: e.Line + strings.Count(text, "\n"), Col: len(text) - lastLine}
	} else {
		sp.End = diag.Pos{Line: e.Line, Col: stop.GetColumn() + 1 + max(len(text), 1)}
	}
	return sp
}

func (s *Source) tokenSpan(t antlr.Token) diag.Span { return s.span(t, t) }

// endSpan is where "end of input" is reported: just after the last
// character of the last line that has any.
func (s *Source) endSpan() diag.Span {
	lines := strings.Split(strings.TrimRight(string(s.Result.Text), "\n"), "\n")
	n := len(lines)
	o := s.Origin(n)
	col := len(lines[n-1]) + 1
	return diag.Span{File: o.File, Start: diag.Pos{Line: o.Line, Col: col}, End: diag.Pos{Line: o.Line, Col: col + 1}}
}

// typedToken overrides the type of a lexed token (IDENTIFIER → TYPE_IDENTIFIER).
type typedToken struct {
	antlr.Token
	typ int
}

func (t *typedToken) GetTokenType() int { return t.typ }

// lex runs the lexer over the whole text and returns the default-channel
// tokens, ending with EOF. Bad characters and unterminated comments and
// strings are reported here and dropped (or repaired) so parsing can go on.
// Input nested too deep is refused here (see shape), and lexing stops.
func lex(ctx context.Context, src *Source, d *diag.List) ([]antlr.Token, error) {
	lexer := parser.NewP4Lexer(antlr.NewInputStream(string(src.Text)))
	lexer.RemoveErrorListeners()
	var out []antlr.Token
	var body annotationBody
	shape := newShape(src, d)
	for n := 0; ; n++ {
		if n%cancelEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		t := lexer.NextToken()
		inBody := body.next(t)
		switch t.GetTokenType() {
		case parser.P4LexerBAD_CHAR:
			if inBody {
				break // an annotation's body may hold any token
			}
			d.Errorf(src.tokenSpan(t), diag.BadCharacter, "unexpected character %q", t.GetText())
			continue
		case parser.P4LexerUNTERMINATED_COMMENT:
			d.Errorf(src.span(t, t), diag.UnterminatedComment, "comment is not terminated (no */ before the end of the file)")
			continue
		case parser.P4LexerUNTERMINATED_STRING:
			d.Errorf(src.tokenSpan(t), diag.UnterminatedString, "string literal is not terminated (no closing quote before the end of the file)")
			t = &typedToken{t, parser.P4LexerSTRING_LITERAL}
		}
		if t.GetChannel() != antlr.TokenDefaultChannel {
			continue
		}
		if !shape.next(t) {
			return nil, nil
		}
		if !shape.deep { // the tokens of input to be refused are not needed
			out = append(out, t)
		}
		if t.GetTokenType() == antlr.TokenEOF {
			return out, nil
		}
	}
}

// annotationBody follows the tokens of @name(...) so that lex knows when a
// token is inside the parentheses, where P4 allows any token.
type annotationBody struct {
	state int // 0 outside, 1 after @, 2 after @name, 3 inside the body
	depth int
}

// next takes the next default-channel token and reports whether it is
// part of an annotation's body.
func (a *annotationBody) next(t antlr.Token) bool {
	if t.GetChannel() != antlr.TokenDefaultChannel {
		return false
	}
	typ := t.GetTokenType()
	switch a.state {
	case 1:
		a.state = 2
		return false
	case 2:
		a.state, a.depth = 0, 0
		if typ == parser.P4LexerLPAREN {
			a.state, a.depth = 3, 1
		}
	case 3:
		switch typ {
		case parser.P4LexerLPAREN:
			a.depth++
		case parser.P4LexerRPAREN:
			a.depth--
			if a.depth == 0 {
				a.state = 0
				return false
			}
		}
		return true
	}
	if typ == parser.P4LexerAT {
		a.state = 1
	}
	return false
}

// tokenList feeds a prepared token slice to the parser. It embeds the lexer
// only to satisfy antlr.Lexer, whose interface has unexported methods.
type tokenList struct {
	*parser.P4Lexer
	toks []antlr.Token
	next int
	read int // index of the furthest token the parser has asked for
}

func (l *tokenList) NextToken() antlr.Token {
	t := l.toks[l.next]
	l.read = l.next
	if l.next < len(l.toks)-1 {
		l.next++
	}
	return t
}

// bailout is the panic value of a parse that stops at its first syntax
// error.
type bailout struct{}

// bailStrategy stops at the first syntax error. antlr's own
// BailErrorStrategy in the Go runtime clears the error it sets and parses
// on, so p4hls uses this one.
type bailStrategy struct {
	*antlr.DefaultErrorStrategy
}

func (bailStrategy) Recover(antlr.Parser, antlr.RecognitionException) { panic(bailout{}) }
func (bailStrategy) RecoverInline(antlr.Parser) antlr.Token           { panic(bailout{}) }
func (bailStrategy) Sync(antlr.Parser)                                {}

// newParser returns a parser over toks without ANTLR's console listener,
// and the token source, which knows how far the parser read.
func newParser(toks []antlr.Token) (*parser.P4Parser, *tokenList) {
	input := &tokenList{P4Lexer: parser.NewP4Lexer(nil), toks: toks}
	p := parser.NewP4Parser(antlr.NewCommonTokenStream(input, antlr.TokenDefaultChannel))
	p.RemoveErrorListeners()
	return p, input
}

// bailParse parses toks until the first syntax error. It returns the tree,
// or the index of the token where parsing failed: the furthest one the
// parser read, since ANTLR blames the token where a failed prediction
// started, which may lie well before the one that ruled out every
// alternative.
func bailParse(toks []antlr.Token, mode int) (tree parser.IProgramContext, failed int) {
	p, input := newParser(toks)
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(bailout); !mine {
				panic(r)
			}
			tree, failed = nil, input.read
		}
	}()
	p.GetInterpreter().SetPredictionMode(mode)
	p.SetErrorHandler(bailStrategy{antlr.NewDefaultErrorStrategy()})
	return p.Program(), -1
}

// parseTokens parses in two stages, as ANTLR recommends, and builds the
// AST: SLL prediction with bail-out first (fast, and right for nearly all
// programs), then full LL with error recovery and reporting only if the
// first stage failed. Missing semicolons are repaired and reported before
// the second stage.
func parseTokens(ctx context.Context, src *Source, toks []antlr.Token, d *diag.List) (*File, error) {
	// The first stage builds each declaration, and each statement, as soon
	// as it is parsed, so that the parse tree of the program, several times
	// the size of its AST, is never in memory all at once. What the builder
	// reports counts only if the whole program parses.
	var built diag.List
	b := &builder{src: src, diags: &built, built: map[parser.IStatementContext]Stmt{}}
	var decls []Decl
	ok, err := bailParseDecls(ctx, toks, &stmtBuilder{b: b}, func(c parser.IDeclarationContext) { decls = b.appendDecl(decls, c) })
	if err != nil {
		return nil, err
	}
	if ok {
		d.Append(&built)
		return &File{At: b.programAt(toks), Decls: decls}, nil
	}
	toks, repaired, bad := repairTerminators(src, toks, d)
	var tree parser.IProgramContext
	switch {
	case bad && repaired < maxSyntaxErrors:
		tree = recoverParse(src, toks, repaired, d)
	case bad || repaired > 0:
	default:
		// SLL failed where LL succeeds: a true LL-only construct.
		tree, _ = bailParse(toks, antlr.PredictionModeLL)
	}
	if tree == nil {
		return nil, ctx.Err()
	}
	return (&builder{src: src, diags: d}).file(tree), ctx.Err()
}

// bailParseDecls parses toks one declaration at a time with SLL
// prediction, which decides the same whatever rule the parse started from,
// until the first syntax error. It hands each declaration to build as it is
// parsed, tells listener of every rule, and reports whether the whole input
// parsed. It stops, with ctx's error, when ctx ends.
func bailParseDecls(ctx context.Context, toks []antlr.Token, listener antlr.ParseTreeListener, build func(parser.IDeclarationContext)) (ok bool, err error) {
	p, _ := newParser(toks)
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(bailout); !mine {
				panic(r)
			}
			ok = false
		}
	}()
	p.GetInterpreter().SetPredictionMode(antlr.PredictionModeSLL)
	p.SetErrorHandler(bailStrategy{antlr.NewDefaultErrorStrategy()})
	p.AddParseListener(listener)
	for p.GetTokenStream().LA(1) != antlr.TokenEOF {
		if err := ctx.Err(); err != nil {
			return false, err
		}
		build(p.Declaration())
	}
	return true, nil
}

// recoverParse parses toks with ANTLR's error recovery and reports each
// syntax error, up to the cap less the `reported` ones already reported.
// It returns the tree only if there were none at all.
func recoverParse(src *Source, toks []antlr.Token, reported int, d *diag.List) (tree parser.IProgramContext) {
	p, _ := newParser(toks)
	p.GetInterpreter().SetPredictionMode(antlr.PredictionModeLL)
	listener := &syntaxErrors{src: src, toks: toks, diags: d, count: reported}
	p.AddErrorListener(listener)
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, mine := r.(bailout); !mine {
					panic(r)
				}
			}
		}()
		tree = p.Program()
	}()
	if listener.count == 0 {
		return tree // error recovery found nothing to recover from
	}
	return nil
}

// syntaxErrors turns ANTLR's reports into diagnostics.
type syntaxErrors struct {
	*antlr.DefaultErrorListener
	src   *Source
	toks  []antlr.Token
	diags *diag.List
	count int
}

func (s *syntaxErrors) SyntaxError(_ antlr.Recognizer, offending any, _, _ int, msg string, _ antlr.RecognitionException) {
	tok, ok := offending.(antlr.Token)
	if !ok {
		return
	}
	s.count++
	m := syntaxMessage(msg, tok)
	if isKeyword(tok) {
		m += fmt.Sprintf(" ('%s' is a keyword; it cannot be used as a name)", tok.GetText())
	} else if typ := s.undeclaredType(tok); typ != "" {
		m += fmt.Sprintf(" (is %s an undeclared type?)", typ)
	}
	s.diags.Errorf(s.src.tokenSpan(tok), diag.SyntaxError, "%s", m)
	if s.count >= maxSyntaxErrors {
		panic(bailout{})
	}
}

// undeclaredType recognizes `foo_t x` where foo_t names no type (so the
// pre-scan left it a plain name), with the error at either name, and
// returns foo_t.
func (s *syntaxErrors) undeclaredType(tok antlr.Token) string {
	at := func(i int) antlr.Token {
		if i < 0 || i >= len(s.toks) {
			return nil
		}
		return s.toks[i]
	}
	isName := func(t antlr.Token) bool { return t != nil && t.GetTokenType() == parser.P4LexerIDENTIFIER }
	i := tok.GetTokenIndex()
	if !isName(tok) {
		return ""
	}
	if prev := at(i - 1); isName(prev) {
		return prev.GetText()
	}
	if isName(at(i + 1)) {
		return tok.GetText()
	}
	return ""
}

// isKeyword reports whether tok is a reserved word of P4 (in, out, type...).
func isKeyword(tok antlr.Token) bool {
	t := tok.GetTokenType()
	if t <= 0 || t >= len(parser.P4LexerLexerStaticData.LiteralNames) {
		return false
	}
	lit := strings.Trim(parser.P4LexerLexerStaticData.LiteralNames[t], "'")
	return lit != "" && lit == tok.GetText() && (lit[0] >= 'a' && lit[0] <= 'z')
}

// syntaxMessage rewords ANTLR's message: "mismatched input 'x'" becomes
// "unexpected 'x'", long expected-token sets are dropped, <EOF> is spelled
// out, and "no viable alternative" names the token where parsing failed.
func syntaxMessage(msg string, tok antlr.Token) string {
	if strings.HasPrefix(msg, "no viable alternative") {
		text := "'" + tok.GetText() + "'"
		if tok.GetTokenType() == antlr.TokenEOF {
			text = "end of input"
		}
		return "syntax error: unexpected " + text
	}
	msg = strings.Replace(msg, "mismatched input", "unexpected", 1)
	msg = strings.Replace(msg, "extraneous input", "unexpected", 1)
	if i := strings.Index(msg, "expecting {"); i >= 0 {
		if j := strings.LastIndex(msg, "}"); j > i {
			set := msg[i+len("expecting {") : j]
			if strings.Count(set, ", ") >= 4 {
				msg = strings.TrimRight(msg[:i], " ") + msg[j+1:]
			} else {
				msg = msg[:i] + "expecting " + strings.ReplaceAll(set, ", ", " or ") + msg[j+1:]
			}
		}
	}
	msg = strings.ReplaceAll(msg, "'<EOF>'", "end of input")
	msg = strings.ReplaceAll(msg, "<EOF>", "end of input")
	return "syntax error: " + msg
}
