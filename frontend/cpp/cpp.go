// Package cpp is the C preprocessor step that p4c runs before parsing P4:
// #include (with bundled architecture files and -I folders), object- and
// function-like #define, #undef, #if/#ifdef/#ifndef/#elif/#else/#endif,
// #error, and line markers. It keeps one output line per input line, so a
// position in the output maps back to a file and line through Result.Origin.
//
// It is written here rather than calling cpp(1) because diagnostics must
// point into the right file and line, bad input must never hang it (every
// expansion is bounded), and the bundled includes live inside the binary.
package cpp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/internal/fsread"
)

// Limits that keep hostile input from hanging or exhausting the preprocessor.
const (
	maxIncludeDepth = 200
	maxOutputBytes  = 256 << 20
	// MaxFileBytes is the largest source file read (real P4 programs are
	// well under a megabyte; the largest public switch.p4 is ~0.5 MB).
	MaxFileBytes  = 16 << 20
	maxExpansions = 200_000 // macro replacements in one translation unit
	// maxExpansionTokens bounds the tokens macro bodies produce in one
	// translation unit, arguments expanded at each use included: a few
	// macros that double their argument make 2^n tokens from n
	// replacements, which maxExpansions alone does not stop.
	maxExpansionTokens = 1_000_000
)

// Options say where includes come from and what is predefined.
type Options struct {
	// IncludeDirs are searched, in order, for #include after the including
	// file's own folder (for "...") and before Bundled.
	IncludeDirs []string
	// Bundled holds the include files shipped with p4hls (core.p4, v1model.p4).
	Bundled fs.FS
	// Defines are predefined object-like macros (NAME → body).
	Defines map[string]string
	// ReadFile reads an include file from disk; nil means os.ReadFile.
	ReadFile func(name string) ([]byte, error)
}

// Origin is where an output line came from.
type Origin struct {
	File string
	Line int
}

// Result is a preprocessed translation unit.
type Result struct {
	Text []byte
	// Lines[i] is the origin of output line i+1.
	Lines []Origin
	// Sources holds the text of every file read, by the name diagnostics use.
	Sources map[string][]byte
}

// Origin maps a 1-based output line to its file and line.
func (r *Result) Origin(line int) Origin {
	if line < 1 || len(r.Lines) == 0 {
		return Origin{}
	}
	if line > len(r.Lines) {
		last := r.Lines[len(r.Lines)-1]
		return Origin{last.File, last.Line + line - len(r.Lines)}
	}
	return r.Lines[line-1]
}

// Preprocess runs the preprocessor over src, the text of file. Problems go to
// d; the result is always usable (possibly partial). The error is only for
// cancellation.
func Preprocess(ctx context.Context, file string, src []byte, opts Options, d *diag.List) (*Result, error) {
	p := &state{
		ctx:     ctx,
		opts:    opts,
		diags:   d,
		macros:  map[string]*macro{},
		sources: map[string][]byte{},
	}
	if p.opts.ReadFile == nil {
		p.opts.ReadFile = func(name string) ([]byte, error) { return fsread.ReadRegular(name, MaxFileBytes) }
	}
	for name, body := range opts.Defines {
		p.macros[name] = &macro{name: name, body: tokenize(body)}
	}
	p.file(file, src, diag.Span{File: file})
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("preprocess %s: %w", file, err)
	}
	return &Result{Text: p.out.Bytes(), Lines: p.lines, Sources: p.sources}, nil
}

type state struct {
	ctx        context.Context
	opts       Options
	diags      *diag.List
	macros     map[string]*macro
	sources    map[string][]byte
	stack      []string // files being read, for cycle detection
	out        bytes.Buffer
	lines      []Origin
	expansions int
	produced   int  // tokens macro substitutions produced (maxExpansionTokens)
	stopped    bool // output limit or cancellation: read no more
}

// cond is one open #if group.
type cond struct {
	span      diag.Span
	active    bool // lines of the current branch are kept
	taken     bool // some branch of this group was kept
	outerLive bool // the enclosing group is active
	sawElse   bool
}

func (p *state) emit(text string, origin Origin) {
	if p.stopped {
		return
	}
	if p.out.Len()+len(text) > maxOutputBytes {
		p.diags.Errorf(diag.Span{File: origin.File, Start: diag.Pos{Line: origin.Line, Col: 1}}, diag.InputTooLarge,
			"preprocessed program is larger than %d MiB", maxOutputBytes>>20)
		p.stopped = true
		return
	}
	p.out.WriteString(text)
	p.out.WriteByte('\n')
	p.lines = append(p.lines, origin)
}

// file preprocesses one file's text; from is the #include that asked for it.
func (p *state) file(name string, src []byte, from diag.Span) {
	for _, open := range p.stack {
		if open == name {
			p.diags.Errorf(from, diag.IncludeCycle, "#include cycle: %s includes itself (through %s)",
				name, strings.Join(p.stack, " -> "))
			return
		}
	}
	if len(p.stack) >= maxIncludeDepth {
		p.diags.Errorf(from, diag.IncludeCycle, "#include nested more than %d deep", maxIncludeDepth)
		return
	}
	p.stack = append(p.stack, name)
	defer func() { p.stack = p.stack[:len(p.stack)-1] }()
	p.sources[name] = src
	if pos, bad := notText(src); bad {
		p.diags.Errorf(diag.Span{File: name, Start: pos, End: diag.Pos{Line: pos.Line, Col: pos.Col + 1}}, diag.BadCharacter,
			"%s is not a P4 source file: it is not UTF-8 text (a NUL or invalid byte is here)", name)
		return
	}

	lines := splitLines(src)
	var conds []cond
	live := func() bool { return len(conds) == 0 || conds[len(conds)-1].active }
	inComment := false // inside a block comment that began on an earlier line

	// A run of text lines is expanded together, so a macro call may span lines.
	var pending []string
	pendingStart := 0
	// offset maps the file's lines to the lines a #line directive names.
	offset := 0
	flush := func() {
		if len(pending) == 0 {
			return
		}
		p.expandRun(name, pendingStart+offset, pending)
		pending = pending[:0]
	}

	for i := 0; i < len(lines) && !p.stopped; i++ {
		if i%1024 == 0 && p.ctx.Err() != nil {
			p.stopped = true
			return
		}
		lineNo := i + 1
		line := lines[i]
		// Splice lines that end in a backslash; keep the line count by
		// emitting empty lines for the continuation lines. A backslash
		// followed by spaces splices too, with a warning, as gcc does.
		extra, physical := 0, 0 // physical: where the last spliced line starts in line
		for i+1 < len(lines) {
			trimmed := strings.TrimRight(line, " \t")
			if !strings.HasSuffix(trimmed, "\\") {
				break
			}
			if len(trimmed) < len(line) {
				at := diag.Pos{Line: lineNo + extra, Col: len(trimmed) - physical}
				p.diags.Warnf(diag.Span{File: name, Start: at, End: diag.Pos{Line: at.Line, Col: at.Col + 1}}, diag.BadDirective,
					"backslash and newline separated by space")
			}
			physical = len(trimmed) - 1
			line = trimmed[:physical] + lines[i+1]
			i++
			extra++
		}
		directive, isDirective := "", false
		if !inComment {
			directive, isDirective = directiveText(line)
		}
		inComment = endsInComment(line, inComment)
		if !isDirective {
			if live() {
				if len(pending) == 0 {
					pendingStart = lineNo
				}
				pending = append(pending, line)
				for k := 0; k < extra; k++ {
					pending = append(pending, "")
				}
			} else {
				flush()
				for k := 0; k <= extra; k++ {
					p.emit("", Origin{name, lineNo + offset + k})
				}
			}
			continue
		}
		flush()
		span := diag.Span{File: name, Start: diag.Pos{Line: lineNo, Col: 1}, End: diag.Pos{Line: lineNo, Col: len(line) + 1}}
		p.directive(name, span, directive, &conds, live)
		for k := 0; k <= extra; k++ {
			p.emit("", Origin{name, lineNo + offset + k})
		}
		if n, ok := lineDirective(directive); ok && live() {
			offset = n - (lineNo + extra + 1)
		}
	}
	flush()
	for _, c := range conds {
		p.diags.Errorf(c.span, diag.UnbalancedConditional, "#if without #endif")
	}
}

// directive handles one preprocessor line (text after the '#').
func (p *state) directive(file string, span diag.Span, text string, conds *[]cond, live func() bool) {
	word, rest := splitWord(text)
	switch word {
	case "if", "ifdef", "ifndef":
		c := cond{span: span, outerLive: live()}
		if c.outerLive {
			switch word {
			case "if":
				c.active = p.evalCondition(span, rest)
			case "ifdef", "ifndef":
				name, _ := splitWord(rest)
				if !isIdent(name) {
					p.diags.Errorf(span, diag.BadDirective, "#%s needs a macro name", word)
				}
				_, defined := p.macros[name]
				c.active = defined == (word == "ifdef")
			}
			c.taken = c.active
		}
		*conds = append(*conds, c)
	case "elif", "else":
		if len(*conds) == 0 {
			p.diags.Errorf(span, diag.UnbalancedConditional, "#%s without #if", word)
			return
		}
		c := &(*conds)[len(*conds)-1]
		if c.sawElse {
			p.diags.Errorf(span, diag.UnbalancedConditional, "#%s after #else", word)
			return
		}
		if word == "else" {
			c.sawElse = true
			c.active = c.outerLive && !c.taken
		} else {
			c.active = c.outerLive && !c.taken && p.evalCondition(span, rest)
		}
		c.taken = c.taken || c.active
	case "endif":
		if len(*conds) == 0 {
			p.diags.Errorf(span, diag.UnbalancedConditional, "#endif without #if")
			return
		}
		*conds = (*conds)[:len(*conds)-1]
	default:
		if !live() {
			return // unknown directives in skipped groups are fine, as in cpp
		}
		p.activeDirective(file, span, word, rest)
	}
}

func (p *state) activeDirective(file string, span diag.Span, word, rest string) {
	switch word {
	case "":
		// The null directive.
	case "include":
		p.include(file, span, rest)
	case "define":
		p.define(span, rest)
	case "undef":
		name, _ := splitWord(rest)
		if !isIdent(name) {
			p.diags.Errorf(span, diag.BadDirective, "#undef needs a macro name")
			return
		}
		delete(p.macros, name)
	case "error":
		p.diags.Errorf(span, diag.ErrorDirective, "#error %s", strings.TrimSpace(rest))
	case "warning":
		p.diags.Warnf(span, diag.ErrorDirective, "#warning %s", strings.TrimSpace(rest))
	case "line", "pragma", "ident":
		// #line is read by file (lineDirective); the others are ignored.
	default:
		if isNumber(word) {
			return // a line marker from an earlier preprocessing run
		}
		p.diags.Errorf(span, diag.BadDirective, "unknown preprocessor directive #%s", word)
	}
}

// lineDirective reads "line N" (and an optional file name, which p4hls
// does not follow: the lines stay the file's): the next line is line N.
func lineDirective(text string) (int, bool) {
	word, rest := splitWord(strings.TrimSpace(text))
	if word != "line" {
		return 0, false
	}
	num, _ := splitWord(strings.TrimSpace(rest))
	n, err := strconv.Atoi(num)
	return n, err == nil && n > 0
}

func (p *state) include(file string, span diag.Span, rest string) {
	rest = strings.TrimSpace(rest)
	if rest != "" && rest[0] != '"' && rest[0] != '<' {
		// #include MACRO: expand, then read the name.
		rest = strings.TrimSpace(joinTokens(p.expand(tokenize(rest), span)))
	}
	var name string
	quoted := false
	switch {
	case len(rest) >= 2 && rest[0] == '"':
		end := strings.IndexByte(rest[1:], '"')
		if end < 0 {
			p.diags.Errorf(span, diag.BadDirective, "#include name has no closing \"")
			return
		}
		name, quoted = rest[1:1+end], true
	case len(rest) >= 2 && rest[0] == '<':
		end := strings.IndexByte(rest, '>')
		if end < 0 {
			p.diags.Errorf(span, diag.BadDirective, "#include name has no closing >")
			return
		}
		name = rest[1:end]
	default:
		p.diags.Errorf(span, diag.BadDirective, "#include expects \"FILE\" or <FILE>")
		return
	}
	resolved, src, err := p.find(file, name, quoted)
	var unreadable *unreadableError
	switch {
	case errors.As(err, &unreadable):
		p.diags.Errorf(span, diag.IncludeNotFound, "cannot read include file %q: %v", name, unreadable.err)
		return
	case err != nil:
		p.diags.Errorf(span, diag.IncludeNotFound, "cannot find include file %q (searched %s)", name, err)
		return
	}
	p.file(resolved, src, span)
}

// unreadableError is an include file that exists but cannot be read as
// source (a device, a FIFO, too large, no permission).
type unreadableError struct{ err error }

func (e *unreadableError) Error() string { return e.err.Error() }

// find looks for an include file: next to the including file (quoted form
// only), in each -I folder, then among the bundled files.
func (p *state) find(from, name string, quoted bool) (string, []byte, error) {
	var dirs []string
	if quoted && !strings.HasPrefix(from, "<") {
		dirs = append(dirs, filepath.Dir(from))
	}
	dirs = append(dirs, p.opts.IncludeDirs...)
	if filepath.IsAbs(name) {
		dirs = []string{""}
	}
	for _, dir := range dirs {
		full := filepath.Join(dir, name)
		if src, ok := p.sources[full]; ok {
			return full, src, nil
		}
		src, err := p.opts.ReadFile(full)
		switch {
		case err == nil:
			return full, src, nil
		case !errors.Is(err, fs.ErrNotExist):
			var pe *fs.PathError
			if errors.As(err, &pe) {
				err = pe.Err // the diagnostic names the file already
			}
			return "", nil, &unreadableError{err} // found, but not a source file
		}
	}
	if p.opts.Bundled != nil {
		if src, err := fs.ReadFile(p.opts.Bundled, path.Clean(name)); err == nil {
			return "<" + name + ">", src, nil
		}
	}
	searched := append([]string{}, dirs...)
	if p.opts.Bundled != nil {
		searched = append(searched, "the bundled include files")
	}
	return "", nil, fmt.Errorf("%s", strings.Join(searched, ", "))
}

// notText finds the first NUL byte or invalid UTF-8 sequence in src.
func notText(src []byte) (diag.Pos, bool) {
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, size := utf8.DecodeRune(src[i:])
		if r == 0 || r == utf8.RuneError && size <= 1 {
			return diag.Pos{Line: line, Col: col}, true
		}
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col += size
		}
		i += size
	}
	return diag.Pos{}, false
}

// splitLines splits text into lines without their line endings.
func splitLines(src []byte) []string {
	s := string(src)
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// directiveText returns the text after '#' when line is a directive.
func directiveText(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if !strings.HasPrefix(t, "#") {
		return "", false
	}
	return strings.TrimLeft(t[1:], " \t"), true
}

// endsInComment reports whether a block comment is still open at the end of
// line, given whether one was open at its start. Strings and line comments
// are skipped so that "/*" inside them does not count.
func endsInComment(line string, open bool) bool {
	for i := 0; i < len(line); i++ {
		if open {
			if strings.HasPrefix(line[i:], "*/") {
				open = false
				i++
			}
			continue
		}
		switch {
		case strings.HasPrefix(line[i:], "//"):
			return false
		case strings.HasPrefix(line[i:], "/*"):
			open = true
			i++
		case line[i] == '"':
			for i++; i < len(line) && line[i] != '"'; i++ {
				if line[i] == '\\' {
					i++
				}
			}
		}
	}
	return open
}

func splitWord(s string) (string, string) {
	s = strings.TrimLeft(s, " \t")
	i := 0
	for i < len(s) && (isIdentByte(s[i]) || (i == 0 && s[i] >= '0' && s[i] <= '9')) {
		i++
	}
	return s[:i], s[i:]
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isIdent(s string) bool {
	if s == "" || s[0] >= '0' && s[0] <= '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isIdentByte(s[i]) {
			return false
		}
	}
	return true
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}
