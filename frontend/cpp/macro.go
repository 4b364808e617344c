package cpp

import (
	"strings"

	"github.com/p4hls/p4hls/diag"
)

type tokKind int

const (
	tokSpace tokKind = iota
	tokNewline
	tokIdent
	tokNumber
	tokString
	tokComment
	tokPunct
)

// token is a preprocessing token. hide is the set of macros that produced
// it and so must not expand it again (the classic hide-set algorithm, which
// lets `#define f(x) x f` stop instead of looping).
type token struct {
	kind tokKind
	text string
	hide *hideSet
}

// hideSet is a persistent list of macro names: extending it shares the
// tail, so a replacement costs O(1) however deep the expansion is.
type hideSet struct {
	name string
	next *hideSet
}

func (h *hideSet) with(name string) *hideSet { return &hideSet{name: name, next: h} }

func (h *hideSet) has(name string) bool {
	for ; h != nil; h = h.next {
		if h.name == name {
			return true
		}
	}
	return false
}

// union returns the names of h and of o (o's added in front of h).
func (h *hideSet) union(o *hideSet) *hideSet {
	for ; o != nil; o = o.next {
		if !h.has(o.name) {
			h = h.with(o.name)
		}
	}
	return h
}

func (t token) hidden(name string) bool { return t.hide.has(name) }

// macro is a #define.
type macro struct {
	name     string
	function bool
	params   []string
	variadic bool
	body     []token
}

// tokenize splits text into preprocessing tokens. It never fails: anything
// unexpected becomes a one-byte punctuation token.
func tokenize(s string) []token { return tokenizeUntil(s, nil) }

// tokenizeUntil is tokenize that gives up, with the tokens so far, when
// stop (looked at every 4,096 tokens) says so: a run of lines without a
// directive may be the whole file.
func tokenizeUntil(s string, stop func() bool) []token {
	var out []token
	for i := 0; i < len(s); {
		if stop != nil && len(out)%4096 == 0 && stop() {
			return out
		}
		c := s[i]
		start := i
		kind := tokPunct
		switch {
		case c == '\n':
			i++
			kind = tokNewline
		case c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v':
			for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r' || s[i] == '\f' || s[i] == '\v') {
				i++
			}
			kind = tokSpace
		case strings.HasPrefix(s[i:], "//"):
			for i < len(s) && s[i] != '\n' {
				i++
			}
			kind = tokComment
		case strings.HasPrefix(s[i:], "/*"):
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				i = len(s)
			} else {
				i += 2 + end + 2
			}
			kind = tokComment
		case c == '"':
			i++
			for i < len(s) && s[i] != '"' && s[i] != '\n' {
				if s[i] == '\\' && i+1 < len(s) {
					i++
				}
				i++
			}
			if i < len(s) && s[i] == '"' {
				i++
			}
			kind = tokString
		case isIdentByte(c) && !(c >= '0' && c <= '9'):
			for i < len(s) && isIdentByte(s[i]) {
				i++
			}
			kind = tokIdent
		case c >= '0' && c <= '9':
			for i < len(s) && isIdentByte(s[i]) {
				i++
			}
			kind = tokNumber
		case strings.HasPrefix(s[i:], "##"):
			i += 2
		default:
			i++
		}
		out = append(out, token{kind: kind, text: s[start:i]})
	}
	return out
}

func joinTokens(ts []token) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(t.text)
	}
	return b.String()
}

// trimSpace drops space and comment tokens at both ends.
func trimSpace(ts []token) []token {
	for len(ts) > 0 && (ts[0].kind == tokSpace || ts[0].kind == tokComment) {
		ts = ts[1:]
	}
	for len(ts) > 0 && (ts[len(ts)-1].kind == tokSpace || ts[len(ts)-1].kind == tokComment) {
		ts = ts[:len(ts)-1]
	}
	return ts
}

// define handles `#define NAME body` and `#define NAME(params) body`.
func (p *state) define(span diag.Span, rest string) {
	rest = strings.TrimLeft(rest, " \t")
	name, after := splitWord(rest)
	if !isIdent(name) {
		p.diags.Errorf(span, diag.BadDirective, "#define needs a macro name")
		return
	}
	m := &macro{name: name}
	if strings.HasPrefix(after, "(") {
		// Function-like: the parenthesis must touch the name.
		end := strings.IndexByte(after, ')')
		if end < 0 {
			p.diags.Errorf(span, diag.BadDirective, "#define %s: parameter list has no closing )", name)
			return
		}
		m.function = true
		for _, param := range strings.Split(after[1:end], ",") {
			param = strings.TrimSpace(param)
			switch {
			case param == "" && end == 1:
			case param == "...":
				m.variadic = true
				m.params = append(m.params, "__VA_ARGS__")
			case isIdent(param):
				m.params = append(m.params, param)
			default:
				p.diags.Errorf(span, diag.BadDirective, "#define %s: bad parameter %q", name, param)
				return
			}
		}
		after = after[end+1:]
	}
	m.body = trimSpace(tokenize(after))
	p.macros[name] = m
}

// expandRun macro-expands a run of ordinary lines that starts at line start
// of file, and emits it keeping one output line per input line.
func (p *state) expandRun(file string, start int, lines []string) {
	text := strings.Join(lines, "\n")
	if len(p.macros) == 0 || !p.mentionsMacro(text) {
		for k, l := range lines {
			p.emit(l, Origin{file, start + k})
		}
		return
	}
	span := diag.Span{File: file, Start: diag.Pos{Line: start, Col: 1}}
	out := strings.Split(joinTokens(p.expand(tokenizeUntil(text, p.cancelled), span)), "\n")
	for k := range lines {
		l := ""
		if k < len(out) {
			l = out[k]
		}
		p.emit(l, Origin{file, start + k})
	}
}

// cancelled reports whether the context has ended, and stops the
// preprocessor when it has.
func (p *state) cancelled() bool {
	if p.ctx.Err() != nil {
		p.stopped = true
	}
	return p.stopped
}

// mentionsMacro is a fast pre-check: does any identifier of text name a macro?
func (p *state) mentionsMacro(text string) bool {
	for i := 0; i < len(text); {
		c := text[i]
		if isIdentByte(c) && !(c >= '0' && c <= '9') {
			j := i
			for j < len(text) && isIdentByte(text[j]) {
				j++
			}
			if _, ok := p.macros[text[i:j]]; ok {
				return true
			}
			i = j
			continue
		}
		if c >= '0' && c <= '9' {
			for i < len(text) && isIdentByte(text[i]) {
				i++
			}
			continue
		}
		i++
	}
	return false
}

// expand replaces macros in ts. Newlines swallowed by a multi-line call are
// put back after its expansion so line numbers stay right. The input is
// kept as a stack (next token last) so a replacement costs only its own size.
func (p *state) expand(ts []token, span diag.Span) []token {
	stack := make([]token, len(ts))
	for i, t := range ts {
		stack[len(ts)-1-i] = t
	}
	push := func(body []token) {
		for i := len(body) - 1; i >= 0; i-- {
			stack = append(stack, body[i])
		}
	}
	space := token{kind: tokSpace, text: " "}
	var out []token
	for n := 0; len(stack) > 0 && !p.stopped; n++ {
		if n%4096 == 0 && p.cancelled() { // a run of lines may be the whole file
			break
		}
		t := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		m, ok := p.macros[t.text]
		if t.kind != tokIdent || !ok || t.hidden(t.text) {
			out = append(out, t)
			continue
		}
		p.expansions++
		if p.expansions > maxExpansions {
			p.diags.Errorf(span, diag.MacroError, "macro expansion does not end (more than %d replacements)", maxExpansions)
			p.stopped = true
			for i := len(stack) - 1; i >= 0; i-- {
				out = append(out, stack[i])
			}
			return out
		}
		hide := t.hide.with(m.name)
		if !m.function {
			out = append(out, space)
			push([]token{space})
			push(p.substitute(m, nil, hide, span))
			continue
		}
		args, used, newlines, ok := collectArgs(stack)
		if !ok {
			out = append(out, t) // a function-like macro name not followed by ( is left alone
			continue
		}
		if !argCountFits(m, args) {
			p.diags.Errorf(span, diag.MacroError, "macro %s takes %d arguments, got %d", m.name, len(m.params), len(args))
			out = append(out, t)
			continue
		}
		stack = stack[:len(stack)-used]
		for k := 0; k < newlines; k++ {
			push([]token{{kind: tokNewline, text: "\n"}})
		}
		push([]token{space})
		push(p.substitute(m, args, hide, span))
		out = append(out, space)
	}
	return out
}

func argCountFits(m *macro, args [][]token) bool {
	n := len(m.params)
	if n == 0 && len(args) == 1 && len(trimSpace(args[0])) == 0 {
		return true // F() for a macro of no parameters
	}
	if m.variadic {
		return len(args) >= n-1
	}
	return len(args) == n
}

// collectArgs reads `( a, b )` after a function-like macro's name from the
// top of stack (next token last). It returns the arguments, how many stack
// tokens they used, and how many newlines they swallowed.
func collectArgs(stack []token) (args [][]token, used, newlines int, ok bool) {
	i := len(stack) - 1
	for i >= 0 && (stack[i].kind == tokSpace || stack[i].kind == tokNewline || stack[i].kind == tokComment) {
		if stack[i].kind == tokNewline {
			newlines++
		}
		i--
	}
	if i < 0 || stack[i].text != "(" {
		return nil, 0, 0, false
	}
	depth := 0
	var cur []token
	for i--; i >= 0; i-- {
		t := stack[i]
		switch {
		case t.kind == tokNewline:
			newlines++
			cur = append(cur, token{kind: tokSpace, text: " "})
			continue
		case t.text == "(":
			depth++
		case t.text == ")" && depth == 0:
			args = append(args, cur)
			return args, len(stack) - i, newlines, true
		case t.text == ")":
			depth--
		case t.text == "," && depth == 0:
			args = append(args, cur)
			cur = nil
			continue
		}
		cur = append(cur, t)
	}
	return nil, 0, 0, false // unterminated call: leave it for the parser to report
}

// substitute instantiates a macro body: parameters become their expanded
// arguments, #param a string, and ## pastes its neighbours.
func (p *state) substitute(m *macro, args [][]token, hide *hideSet, span diag.Span) []token {
	param := func(name string) int {
		for i, pn := range m.params {
			if pn == name {
				return i
			}
		}
		return -1
	}
	argOf := func(i int) []token {
		if m.variadic && i == len(m.params)-1 {
			var all []token
			for k := i; k < len(args); k++ {
				if k > i {
					all = append(all, token{kind: tokPunct, text: ","})
				}
				all = append(all, args[k]...)
			}
			return all
		}
		if i < len(args) {
			return args[i]
		}
		return nil
	}
	var out []token
	body := m.body
	for i := 0; i < len(body); i++ {
		t := body[i]
		pasteNext := nextNonSpace(body, i) >= 0 && body[nextNonSpace(body, i)].text == "##"
		switch {
		case m.function && t.text == "#" && i+1 < len(body):
			j := nextNonSpace(body, i)
			if j >= 0 && param(body[j].text) >= 0 {
				s := joinTokens(trimSpace(argOf(param(body[j].text))))
				s = strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), `"`, `\"`)
				out = append(out, token{kind: tokString, text: `"` + s + `"`})
				i = j
				continue
			}
			out = append(out, t)
		case t.text == "##":
			// Drop the operator and the spaces around it: the neighbours touch.
			for len(out) > 0 && out[len(out)-1].kind == tokSpace {
				out = out[:len(out)-1]
			}
			j := nextNonSpace(body, i)
			if j < 0 {
				continue
			}
			var right []token
			if k := param(body[j].text); k >= 0 && m.function {
				right = trimSpace(argOf(k))
			} else {
				right = []token{body[j]}
			}
			if len(out) > 0 && len(right) > 0 {
				glued := tokenize(out[len(out)-1].text + right[0].text)
				out = append(out[:len(out)-1], glued...)
				right = right[1:]
			}
			out = append(out, right...)
			i = j
		case t.kind == tokIdent && param(t.text) >= 0:
			a := argOf(param(t.text))
			if pasteNext {
				out = append(out, trimSpace(a)...) // pasted arguments are not expanded first
			} else {
				out = append(out, p.expand(append([]token(nil), a...), span)...)
			}
		default:
			out = append(out, t)
		}
	}
	p.produced += len(out)
	if p.produced > maxExpansionTokens {
		if !p.stopped {
			p.diags.Errorf(span, diag.MacroError, "the expansion of macro %s grows past %d tokens; its arguments are expanded again at each use, so nested uses multiply",
				m.name, maxExpansionTokens)
		}
		p.stopped = true
		return nil
	}
	for i := range out {
		if out[i].hide == nil {
			out[i].hide = hide // shared: hide sets are never modified in place
		} else {
			out[i].hide = hide.union(out[i].hide)
		}
	}
	return out
}

func nextNonSpace(ts []token, i int) int {
	for j := i + 1; j < len(ts); j++ {
		if ts[j].kind != tokSpace {
			return j
		}
	}
	return -1
}
