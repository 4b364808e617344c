package grammar

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/p4hls/p4hls/diag"
)

// The parser is hand-written: the language is a few dozen productions,
// and a hand-written parser gives exact positions in every diagnostic.

type token struct {
	kind string // "ident", "int", "eof", or the punctuation itself
	text string
	pos  diag.Pos
}

func lexGrammar(file string, src []byte, d *diag.List) []token {
	var toks []token
	line, col := 1, 1
	s := string(src)
	advance := func(n int) {
		for i := 0; i < n; i++ {
			if s[i] == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
		}
		s = s[n:]
	}
	for len(s) > 0 {
		c := s[0]
		pos := diag.Pos{Line: line, Col: col}
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			advance(1)
		case strings.HasPrefix(s, "//"):
			n := strings.IndexByte(s, '\n')
			if n < 0 {
				n = len(s)
			}
			advance(n)
		case strings.HasPrefix(s, "/*"):
			n := strings.Index(s[2:], "*/")
			if n < 0 {
				d.Errorf(diag.Span{File: file, Start: pos, End: pos}, diag.UnterminatedComment, "comment is not terminated")
				return append(toks, token{kind: "eof", pos: pos})
			}
			advance(n + 4)
		case isLetter(c):
			n := 1
			for n < len(s) && (isLetter(s[n]) || isDigit(s[n])) {
				n++
			}
			toks = append(toks, token{kind: "ident", text: s[:n], pos: pos})
			advance(n)
		case isDigit(c):
			n := 1
			for n < len(s) && (isLetter(s[n]) || isDigit(s[n])) {
				n++
			}
			toks = append(toks, token{kind: "int", text: s[:n], pos: pos})
			advance(n)
		default:
			op := string(c)
			for _, two := range []string{"<<", ">>", "==", "!=", "<=", ">=", "&&", "||"} {
				if strings.HasPrefix(s, two) {
					op = two
				}
			}
			if !strings.Contains("(){}<>,;:=+-*&|^~!?@", string(c)) {
				d.Errorf(diag.Span{File: file, Start: pos, End: diag.Pos{Line: line, Col: col + 1}}, diag.BadCharacter, "unexpected character %q", c)
				advance(1)
				continue
			}
			toks = append(toks, token{kind: op, text: op, pos: pos})
			advance(len(op))
		}
	}
	return append(toks, token{kind: "eof", pos: diag.Pos{Line: line, Col: col}})
}

func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

type parser struct {
	file   string
	toks   []token
	pos    int
	diags  *diag.List
	g      *Grammar
	locals map[string]bool
	anon   []*Hole // anonymous holes, numbered after the named ones
	depth  int     // how many if-branches enclose the statement being read
}

// errBail stops parsing at the first error: grammar files are short and
// written by the team, so one clear error is what is wanted.
type errBail struct{}

func (p *parser) peek() token { return p.toks[p.pos] }

func (p *parser) next() token {
	t := p.toks[p.pos]
	if t.kind != "eof" {
		p.pos++
	}
	return t
}

func (p *parser) span(t token) diag.Span {
	return diag.Span{File: p.file, Start: t.pos, End: diag.Pos{Line: t.pos.Line, Col: t.pos.Col + max(len(t.text), 1)}}
}

func (p *parser) fail(t token, format string, args ...any) {
	p.diags.Errorf(p.span(t), diag.SyntaxError, format, args...)
	panic(errBail{})
}

func (p *parser) expect(kind string) token {
	t := p.next()
	if t.kind != kind {
		p.fail(t, "expected %s, found %s", describeKind(kind), describeTok(t))
	}
	return t
}

func (p *parser) accept(kind string) bool {
	if p.peek().kind == kind {
		p.next()
		return true
	}
	return false
}

func (p *parser) acceptWord(word string) bool {
	if t := p.peek(); t.kind == "ident" && t.text == word {
		p.next()
		return true
	}
	return false
}

func describeKind(k string) string {
	switch k {
	case "ident":
		return "a name"
	case "int":
		return "a number"
	case "eof":
		return "the end of the file"
	}
	return "'" + k + "'"
}

func describeTok(t token) string {
	if t.kind == "eof" {
		return "the end of the file"
	}
	return "'" + t.text + "'"
}

// Parse parses one grammar file. It returns nil, with the error in d, when
// the file is malformed.
func Parse(file string, src []byte, d *diag.List) (g *Grammar) {
	p := &parser{file: file, toks: lexGrammar(file, src, d), diags: d, g: &Grammar{File: file, Source: src}, locals: map[string]bool{}}
	if d.HasErrors() {
		return nil
	}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(errBail); !ok {
				panic(r)
			}
			g = nil
		}
	}()
	p.grammar()
	return p.g
}

func (p *parser) grammar() {
	t := p.expect("ident")
	switch t.text {
	case "stateful":
		p.g.Kind = Stateful
	case "stateless":
		p.g.Kind = Stateless
	default:
		p.fail(t, "a grammar starts with stateful or stateless, not '%s'", t.text)
	}
	p.g.Name = p.expect("ident").text
	p.expect("(")
	for {
		group := p.expect("ident")
		if group.text != "state" && group.text != "packet" {
			p.fail(group, "parameters are 'state NAMES' or 'packet NAMES', not '%s'", group.text)
		}
		for {
			name := p.expect("ident")
			p.declareName(name)
			if group.text == "state" {
				p.g.States = append(p.g.States, name.text)
			} else {
				p.g.Packets = append(p.g.Packets, name.text)
			}
			if !p.accept(",") {
				break
			}
		}
		if !p.accept(";") {
			break
		}
	}
	p.expect(")")
	if p.g.Kind == Stateful && len(p.g.States) == 0 {
		p.fail(t, "a stateful grammar needs at least one state variable")
	}
	if p.g.Kind == Stateless && len(p.g.States) > 0 {
		p.fail(t, "a stateless grammar has no state variables")
	}
	p.expect("{")
	for p.peek().kind == "ident" && p.peek().text == "hole" {
		p.next()
		p.holeDecl()
	}
	for {
		if p.acceptWord("output") {
			p.g.Output = p.expr()
			p.expect(";")
			p.expect("}")
			break
		}
		if p.peek().kind == "}" || p.peek().kind == "eof" {
			p.fail(p.peek(), "the body must end with 'output EXPR;'")
		}
		p.g.Body = append(p.g.Body, p.stmt())
	}
	if t := p.peek(); t.kind != "eof" {
		p.fail(t, "unexpected %s after the grammar", describeTok(t))
	}
	p.g.Holes = append(p.g.Holes, p.anon...)
	// Anonymous holes were numbered from 0 in source order; they follow the
	// named ones.
	p.renumber(len(p.g.Holes) - len(p.anon))
}

func (p *parser) declareName(t token) {
	taken := func(names []string) bool {
		for _, n := range names {
			if n == t.text {
				return true
			}
		}
		return false
	}
	if taken(p.g.States) || taken(p.g.Packets) || p.g.Hole(t.text) != nil || p.locals[t.text] || isKeyword(t.text) {
		p.fail(t, "'%s' is already declared or is a keyword", t.text)
	}
}

func isKeyword(s string) bool {
	switch s {
	case "stateful", "stateless", "state", "packet", "hole", "let", "if", "else", "output", "choose", "const", "sconst",
		"opt", "mux2", "mux3", "mux4", "rel", "cmp", "ult", "ugt", "arith", "new", "rotl", "min", "max":
		return true
	}
	return false
}

func (p *parser) holeDecl() {
	name := p.expect("ident")
	p.declareName(name)
	p.expect(":")
	kind := p.expect("ident")
	h := &Hole{Name: name.text, Span: p.span(name)}
	switch kind.text {
	case "const":
		h.Kind = HoleConst
	case "sconst":
		h.Kind = HoleSConst
	default:
		p.fail(kind, "a hole is const<BITS> or sconst<BITS>, not '%s'", kind.text)
	}
	h.Bits = p.width()
	p.expect(";")
	p.g.Holes = append(p.g.Holes, h)
}

// width reads <BITS> after const, sconst or choose.
func (p *parser) width() int {
	p.expect("<")
	t := p.expect("int")
	n, err := strconv.Atoi(t.text)
	if err != nil || n < 1 || n > 64 {
		p.fail(t, "a hole width must be from 1 to 64 bits, not %s", t.text)
	}
	p.expect(">")
	return n
}

func (p *parser) stmt() Stmt {
	t := p.peek()
	switch {
	case p.acceptWord("let"):
		if p.depth > 0 {
			p.fail(t, "let is allowed only at the top of the body, not inside an if")
		}
		name := p.expect("ident")
		p.declareName(name)
		p.expect("=")
		v := p.expr()
		p.expect(";")
		p.locals[name.text] = true
		return &Let{Name: name.text, Value: v}
	case p.acceptWord("if"):
		p.expect("(")
		c := p.expr()
		p.expect(")")
		s := &If{Cond: c, Then: p.block()}
		if p.acceptWord("else") {
			if t := p.peek(); t.kind == "ident" && t.text == "if" {
				s.Else = []Stmt{p.stmt()}
			} else {
				s.Else = p.block()
			}
		}
		return s
	case t.kind == "ident":
		p.next()
		idx := -1
		for i, s := range p.g.States {
			if s == t.text {
				idx = i
			}
		}
		if idx < 0 {
			p.fail(t, "only state variables can be assigned; '%s' is not one (use let for a name)", t.text)
		}
		p.expect("=")
		v := p.expr()
		p.expect(";")
		return &Assign{State: idx, Value: v}
	}
	p.fail(t, "expected a statement, found %s", describeTok(t))
	return nil
}

func (p *parser) block() []Stmt {
	p.depth++
	defer func() { p.depth-- }()
	if !p.accept("{") {
		return []Stmt{p.stmt()}
	}
	var out []Stmt
	for !p.accept("}") {
		if p.peek().kind == "eof" {
			p.fail(p.peek(), "block is not closed")
		}
		out = append(out, p.stmt())
	}
	return out
}

// Binary operator precedence, loosest first (as in C).
var levels = [][]string{
	{"||"}, {"&&"}, {"|"}, {"^"}, {"&"}, {"==", "!="}, {"<", ">", "<=", ">="}, {"<<", ">>"}, {"+", "-"}, {"*"},
}

func (p *parser) expr() Expr {
	c := p.binary(0)
	if !p.accept("?") {
		return c
	}
	then := p.expr()
	p.expect(":")
	return &Cond{C: c, Then: then, Else: p.expr()}
}

func (p *parser) binary(level int) Expr {
	if level == len(levels) {
		return p.unary()
	}
	x := p.binary(level + 1)
	for {
		op := p.peek().kind
		found := false
		for _, o := range levels[level] {
			found = found || o == op
		}
		if !found {
			return x
		}
		p.next()
		x = &Binary{Op: op, X: x, Y: p.binary(level + 1)}
	}
}

func (p *parser) unary() Expr {
	switch op := p.peek().kind; op {
	case "-", "~", "!":
		p.next()
		return &Unary{Op: op, X: p.unary()}
	}
	return p.primary()
}

func (p *parser) primary() Expr {
	t := p.next()
	switch t.kind {
	case "int":
		v, err := strconv.ParseUint(t.text, 0, 64)
		if err != nil {
			p.fail(t, "bad number '%s'", t.text)
		}
		return &Lit{Value: v}
	case "(":
		e := p.expr()
		p.expect(")")
		return e
	case "ident":
		return p.name(t)
	}
	p.fail(t, "expected an expression, found %s", describeTok(t))
	return nil
}

func (p *parser) name(t token) Expr {
	switch t.text {
	case "const", "sconst":
		h := &Hole{Kind: HoleConst, Bits: p.width(), Span: p.span(t), Label: fmt.Sprintf("%s at %d:%d", t.text, t.pos.Line, t.pos.Col)}
		if t.text == "sconst" {
			h.Kind = HoleSConst
		}
		return &HoleRef{Index: p.newAnon(h)}
	case "choose":
		bits := p.width()
		alts, labels := p.args(t, -1, true)
		return p.choose(t, bits, alts, labels)
	case "opt":
		a, _ := p.args(t, 1, false)
		return p.choose(t, 1, []Expr{a[0], &Lit{}}, nil)
	case "mux2", "mux3", "mux4":
		n := int(t.text[3] - '0')
		a, _ := p.args(t, n, false)
		return p.choose(t, map[int]int{2: 1, 3: 2, 4: 2}[n], a, nil)
	case "rel":
		a, _ := p.args(t, 2, false)
		x, y := a[0], a[1]
		return p.choose(t, 2, []Expr{
			&Binary{Op: "!=", X: x, Y: y}, &Binary{Op: "<", X: x, Y: y},
			&Binary{Op: ">", X: x, Y: y}, &Binary{Op: "==", X: x, Y: y}}, nil)
	case "cmp":
		a, _ := p.args(t, 2, false)
		x, y := a[0], a[1]
		return p.choose(t, 3, []Expr{
			&Binary{Op: "!=", X: x, Y: y, Exact: true}, &Binary{Op: "<", X: x, Y: y, Exact: true},
			&Binary{Op: ">", X: x, Y: y, Exact: true}, &Binary{Op: "==", X: x, Y: y, Exact: true},
			&Binary{Op: "ult", X: x, Y: y, Exact: true}, &Binary{Op: "ugt", X: x, Y: y, Exact: true}}, nil)
	case "ult", "ugt":
		a, _ := p.args(t, 2, false)
		return &Binary{Op: t.text, X: a[0], Y: a[1]}
	case "arith":
		a, _ := p.args(t, 2, false)
		return p.choose(t, 1, []Expr{&Binary{Op: "+", X: a[0], Y: a[1]}, &Binary{Op: "-", X: a[0], Y: a[1]}}, nil)
	case "rotl", "min", "max":
		a, _ := p.args(t, 2, false)
		return &Binary{Op: t.text, X: a[0], Y: a[1]}
	case "new":
		p.expect("(")
		s := p.expect("ident")
		p.expect(")")
		for i, name := range p.g.States {
			if name == s.text {
				return &New{State: i}
			}
		}
		p.fail(s, "new() takes a state variable; '%s' is not one", s.text)
	}
	for i, s := range p.g.States {
		if s == t.text {
			return &Input{State: true, Index: i}
		}
	}
	for i, s := range p.g.Packets {
		if s == t.text {
			return &Input{Index: i}
		}
	}
	for i, h := range p.g.Holes {
		if h.Name == t.text {
			return &HoleRef{Index: i}
		}
	}
	if p.locals[t.text] {
		return &Local{Name: t.text}
	}
	p.fail(t, "'%s' is not declared", t.text)
	return nil
}

// args reads (e, ...) and the labels written `e @ N` (allowed only when
// labels is set). n >= 0 requires that many arguments.
func (p *parser) args(call token, n int, labels bool) ([]Expr, []*int64) {
	p.expect("(")
	var out []Expr
	var labs []*int64
	for {
		out = append(out, p.expr())
		var label *int64
		if p.accept("@") {
			t := p.expect("int")
			if !labels {
				p.fail(t, "only choose<...> alternatives take labels")
			}
			v, err := strconv.ParseInt(t.text, 0, 64)
			if err != nil {
				p.fail(t, "bad label '%s'", t.text)
			}
			label = &v
		}
		labs = append(labs, label)
		if !p.accept(",") {
			break
		}
	}
	p.expect(")")
	if n >= 0 && len(out) != n {
		p.fail(call, "%s takes %d arguments, got %d", call.text, n, len(out))
	}
	return out, labs
}

// choose makes a choice hole over alts.
func (p *parser) choose(t token, bits int, alts []Expr, labels []*int64) Expr {
	if len(alts) > 1<<uint(bits) && bits < 63 {
		p.fail(t, "%s has %d alternatives; %d bits choose among at most %d", t.text, len(alts), bits, 1<<uint(bits))
	}
	h := &Hole{Kind: HoleChoice, Bits: bits, Alternatives: len(alts), Span: p.span(t),
		Label: fmt.Sprintf("%s at %d:%d", t.text, t.pos.Line, t.pos.Col)}
	for _, l := range labels {
		if l != nil {
			h.Labels = labels
			break
		}
	}
	return &Choose{Hole: p.newAnon(h), Alts: alts}
}

// newAnon records an anonymous hole; its index is fixed up by renumber
// once the named holes are all known.
func (p *parser) newAnon(h *Hole) int {
	p.anon = append(p.anon, h)
	return -len(p.anon) // a placeholder: -(position among anonymous holes)
}

// renumber replaces the placeholders of anonymous holes by their final
// index (first + position).
func (p *parser) renumber(first int) {
	fix := func(i int) int {
		if i < 0 {
			return first - i - 1
		}
		return i
	}
	var visitE func(e Expr)
	visitE = func(e Expr) {
		switch e := e.(type) {
		case *HoleRef:
			e.Index = fix(e.Index)
		case *Choose:
			e.Hole = fix(e.Hole)
			for _, a := range e.Alts {
				visitE(a)
			}
		case *Unary:
			visitE(e.X)
		case *Binary:
			visitE(e.X)
			visitE(e.Y)
		case *Cond:
			visitE(e.C)
			visitE(e.Then)
			visitE(e.Else)
		}
	}
	var visitS func(ss []Stmt)
	visitS = func(ss []Stmt) {
		for _, s := range ss {
			switch s := s.(type) {
			case *Let:
				visitE(s.Value)
			case *Assign:
				visitE(s.Value)
			case *If:
				visitE(s.Cond)
				visitS(s.Then)
				visitS(s.Else)
			}
		}
	}
	visitS(p.g.Body)
	visitE(p.g.Output)
}

// Load parses every *.alu file of fsys. The error lists every diagnostic.
func Load(fsys fs.FS) ([]*Grammar, error) {
	names, err := fs.Glob(fsys, "*.alu")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	var d diag.List
	var out []*Grammar
	for _, name := range names {
		src, err := fs.ReadFile(fsys, name)
		if err != nil {
			return nil, err
		}
		if g := Parse(path.Base(name), src, &d); g != nil {
			out = append(out, g)
		}
	}
	if err := d.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// MustLoad is Load for grammar files embedded in a target package: they are
// part of p4hls, so an error is a bug.
func MustLoad(fsys fs.FS) []*Grammar {
	gs, err := Load(fsys)
	if err != nil {
		panic(fmt.Sprintf("grammar: embedded grammars do not parse: %v", err))
	}
	return gs
}

// Embedded returns a function that loads, once, the grammars in folder dir
// of an embedded file system: a target package's alus/*.alu. Every call
// returns a new slice, since each target.Target owns its list and
// concurrent compiles must not see one another's edits to it; the
// grammars in it are shared by every call and must not be changed.
func Embedded(fsys fs.FS, dir string) func() []*Grammar {
	load := sync.OnceValue(func() []*Grammar {
		sub, err := fs.Sub(fsys, dir)
		if err != nil {
			panic(fmt.Sprintf("grammar: embedded folder %s: %v", dir, err))
		}
		return MustLoad(sub)
	})
	return func() []*Grammar { return slices.Clone(load()) }
}
