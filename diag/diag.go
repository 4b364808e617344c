// Package diag holds source spans and the diagnostics reported against them.
// It is the leaf every package may import: a user error always carries the
// span of the construct at fault, so there is no error without a location.
package diag

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
)

// Pos is a 1-based line and column. Columns count bytes, as GCC's do.
type Pos struct {
	Line, Col int
}

// Less reports whether p comes before q.
func (p Pos) Less(q Pos) bool {
	if p.Line != q.Line {
		return p.Line < q.Line
	}
	return p.Col < q.Col
}

// IsValid reports whether p names a place (the zero Pos does not).
func (p Pos) IsValid() bool { return p.Line > 0 }

// Span is a range of source text: Start is the first byte, End the byte just
// after the last one (both 1-based line and column).
type Span struct {
	File       string
	Start, End Pos
}

// Span makes a Span satisfy Spanned, so a bare span may be reported against.
func (s Span) Span() Span { return s }

// String prints FILE:LINE:COL, the form GCC and editors read.
func (s Span) String() string {
	if !s.Start.IsValid() {
		if s.File == "" {
			return "<unknown>"
		}
		return s.File
	}
	return fmt.Sprintf("%s:%d:%d", s.File, s.Start.Line, s.Start.Col)
}

// Join returns the smallest span covering s and t (which must be in one file).
func (s Span) Join(t Span) Span {
	if !s.Start.IsValid() {
		return t
	}
	if !t.Start.IsValid() {
		return s
	}
	out := s
	if t.Start.Less(out.Start) {
		out.Start = t.Start
	}
	if out.End.Less(t.End) {
		out.End = t.End
	}
	return out
}

// Contains reports whether span t lies inside s.
func (s Span) Contains(t Span) bool {
	return t.File == s.File && !t.Start.Less(s.Start) && !s.End.Less(t.End)
}

// Spanned is anything with a place in the source: AST and IR nodes, spans.
type Spanned interface {
	Span() Span
}

// Severity orders diagnostics by how bad they are.
type Severity int

const (
	Error Severity = iota
	Warning
	Note
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "note"
	}
}

// Related is a secondary location for a diagnostic ("previous declaration
// is here").
type Related struct {
	Span Span
	Msg  string
}

// Diagnostic is one message about the user's program.
type Diagnostic struct {
	Span     Span
	Severity Severity
	Code     Code
	Msg      string
	Related  []Related
}

// String prints FILE:LINE:COL: SEVERITY: MESSAGE.
func (d Diagnostic) String() string {
	return fmt.Sprintf("%s: %s: %s", d.Span, d.Severity, d.Msg)
}

// Bounds on what a message quotes, so that a hostile program (a name of
// a megabyte) cannot make a diagnostic as large as itself.
const (
	maxWordBytes    = 200  // a word quoted (a name, a literal) keeps its first bytes
	maxMessageBytes = 1000 // and a message its first bytes
)

// Bounded shortens each word of msg longer than maxWordBytes to its first
// bytes and a note of its length, and msg to maxMessageBytes.
func Bounded(msg string) string {
	if len(msg) <= maxWordBytes {
		return msg
	}
	var b strings.Builder
	for i := 0; i < len(msg); {
		j := i
		for j < len(msg) && msg[j] != ' ' {
			j++
		}
		if word := msg[i:j]; len(word) > maxWordBytes {
			fmt.Fprintf(&b, "%s... (%d bytes)", validPrefix(word, maxWordBytes), len(word))
		} else {
			b.WriteString(word)
		}
		if j < len(msg) {
			b.WriteByte(' ')
		}
		i = j + 1
	}
	if b.Len() > maxMessageBytes {
		return validPrefix(b.String(), maxMessageBytes) + "..."
	}
	return b.String()
}

// validPrefix is s's first n bytes, shortened not to cut a UTF-8
// sequence.
func validPrefix(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// MaxErrors is how many errors a List keeps before it records "too many
// errors" and drops the rest.
const MaxErrors = 100

// List collects diagnostics. The zero List is ready to use.
type List struct {
	items   []Diagnostic
	errors  int
	limited bool
}

// Add appends d, unless MaxErrors errors were already recorded. Its
// messages are bounded (Bounded).
func (l *List) Add(d Diagnostic) {
	d.Msg = Bounded(d.Msg)
	if len(d.Related) > 0 {
		d.Related = append([]Related(nil), d.Related...)
		for i := range d.Related {
			d.Related[i].Msg = Bounded(d.Related[i].Msg)
		}
	}
	if d.Severity == Error {
		if l.errors >= MaxErrors {
			if !l.limited {
				l.limited = true
				l.items = append(l.items, Diagnostic{Span: d.Span, Severity: Error, Code: TooManyErrors,
					Msg: fmt.Sprintf("too many errors (stopped after %d)", MaxErrors)})
			}
			return
		}
		l.errors++
	}
	l.items = append(l.items, d)
}

// Errorf records an error at n's span.
func (l *List) Errorf(n Spanned, code Code, format string, args ...any) *Diagnostic {
	l.Add(Diagnostic{Span: n.Span(), Severity: Error, Code: code, Msg: fmt.Sprintf(format, args...)})
	return l.last()
}

// Warnf records a warning at n's span.
func (l *List) Warnf(n Spanned, code Code, format string, args ...any) *Diagnostic {
	l.Add(Diagnostic{Span: n.Span(), Severity: Warning, Code: code, Msg: fmt.Sprintf(format, args...)})
	return l.last()
}

// last returns the most recent diagnostic so a caller may attach notes, or a
// throw-away one when the list is full.
func (l *List) last() *Diagnostic {
	if len(l.items) == 0 || l.limited {
		return &Diagnostic{}
	}
	return &l.items[len(l.items)-1]
}

// Note attaches a related location to d.
func (d *Diagnostic) Note(n Spanned, format string, args ...any) {
	d.Related = append(d.Related, Related{Span: n.Span(), Msg: fmt.Sprintf(format, args...)})
}

// Limited reports whether the list stopped taking errors.
func (l *List) Limited() bool { return l.limited }

// HasErrors reports whether any error was recorded.
func (l *List) HasErrors() bool { return l.errors > 0 }

// Len is the number of diagnostics, of every severity.
func (l *List) Len() int { return len(l.items) }

// Items returns the diagnostics sorted by file and position; equal positions
// keep the order they were reported in.
func (l *List) Items() []Diagnostic {
	out := append([]Diagnostic(nil), l.items...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].Span, out[j].Span
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Start.Less(b.Start)
	})
	return out
}

// Append adds every diagnostic of m to l.
func (l *List) Append(m *List) {
	for _, d := range m.items {
		l.Add(d)
	}
}

// Err returns nil when no error was recorded, and the list as an error
// otherwise.
func (l *List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return l
}

// Error is the first error and how many more there are.
func (l *List) Error() string {
	var first *Diagnostic
	items := l.Items()
	for i := range items {
		if items[i].Severity == Error {
			first = &items[i]
			break
		}
	}
	if first == nil {
		return "no errors"
	}
	if l.errors == 1 {
		return first.String()
	}
	return fmt.Sprintf("%s (and %d more errors)", first, l.errors-1)
}

// String prints every diagnostic, one per line, sorted.
func (l *List) String() string {
	var b strings.Builder
	for _, d := range l.Items() {
		b.WriteString(d.String())
		b.WriteByte('\n')
		for _, r := range d.Related {
			fmt.Fprintf(&b, "%s: note: %s\n", r.Span, r.Msg)
		}
	}
	return b.String()
}
