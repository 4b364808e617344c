package diag

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"
)

func span(file string, line, col, endCol int) Span {
	return Span{File: file, Start: Pos{line, col}, End: Pos{line, endCol}}
}

func TestListSortsAndCounts(t *testing.T) {
	var l List
	if l.Err() != nil {
		t.Fatalf("empty list: got error %v, want nil", l.Err())
	}
	l.Errorf(span("b.p4", 1, 1, 2), SyntaxError, "second file")
	l.Errorf(span("a.p4", 3, 5, 6), UndeclaredName, "later")
	l.Warnf(span("a.p4", 1, 2, 3), Unsupported, "a warning")
	l.Errorf(span("a.p4", 1, 9, 10), Redeclared, "earlier")

	var got []string
	for _, d := range l.Items() {
		got = append(got, d.String())
	}
	want := []string{
		"a.p4:1:2: warning: a warning",
		"a.p4:1:9: error: earlier",
		"a.p4:3:5: error: later",
		"b.p4:1:1: error: second file",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if msg := l.Error(); msg != "a.p4:1:9: error: earlier (and 2 more errors)" {
		t.Errorf("Error() = %q", msg)
	}
}

func TestListStopsAfterMaxErrors(t *testing.T) {
	var l List
	for i := 0; i < MaxErrors+50; i++ {
		l.Errorf(span("x.p4", i+1, 1, 2), SyntaxError, "e%d", i)
	}
	if l.Len() != MaxErrors+1 {
		t.Fatalf("got %d diagnostics, want %d", l.Len(), MaxErrors+1)
	}
	last := l.Items()[l.Len()-1]
	if last.Code != TooManyErrors || !l.Limited() {
		t.Errorf("last diagnostic is %v (code %v), want too many errors", last, last.Code)
	}
}

func TestPrintExcerpt(t *testing.T) {
	src := []byte("control C() {\n\tapply { x = 1; }\n}\n")
	var l List
	l.Errorf(span("c.p4", 2, 10, 11), UndeclaredName, "x is not declared")
	var out bytes.Buffer
	Print(&out, &l, func(string) []byte { return src }, true)
	want := "c.p4:2:10: error: x is not declared\n" +
		"  \tapply { x = 1; }\n" +
		"  \t        ^\n"
	if out.String() != want {
		t.Errorf("got\n%q\nwant\n%q", out.String(), want)
	}
	out.Reset()
	Print(&out, &l, nil, false)
	if out.String() != "c.p4:2:10: error: x is not declared\n" {
		t.Errorf("plain print: got %q", out.String())
	}
}

func TestSpanJoin(t *testing.T) {
	a := Span{File: "f", Start: Pos{2, 5}, End: Pos{2, 9}}
	b := Span{File: "f", Start: Pos{1, 3}, End: Pos{2, 7}}
	got := a.Join(b)
	want := Span{File: "f", Start: Pos{1, 3}, End: Pos{2, 9}}
	if got != want {
		t.Errorf("got %v-%v, want %v-%v", got.Start, got.End, want.Start, want.End)
	}
	if got := (Span{}).Join(a); got != a {
		t.Errorf("joining the zero span: got %v, want %v", got, a)
	}
}

// TestBounded: a message quoting a huge name keeps the name's first 200
// bytes and says how long it was; ordinary messages are untouched; a
// cut never splits a UTF-8 sequence.
func TestBounded(t *testing.T) {
	huge := strings.Repeat("a", 1<<20)
	var l List
	l.Errorf(Span{File: "x.p4"}, UndeclaredName, "%s is not declared", huge)
	want := strings.Repeat("a", 200) + "... (1048576 bytes) is not declared"
	if got := l.Items()[0].Msg; got != want {
		t.Errorf("got %d bytes %.40q..., want %d bytes", len(got), got, len(want))
	}
	for _, msg := range []string{"", "short", "A is already declared in this scope"} {
		if got := Bounded(msg); got != msg {
			t.Errorf("Bounded(%q) = %q", msg, got)
		}
	}
	if got := Bounded(strings.Repeat("é", 150)); !utf8.ValidString(got) || !strings.HasSuffix(got, "... (300 bytes)") {
		t.Errorf("a cut in a UTF-8 word: %q", got)
	}
	if got := Bounded(strings.Repeat("ab ", 1000)); len(got) != 1003 || !strings.HasSuffix(got, "...") {
		t.Errorf("a long message: %d bytes", len(got))
	}
}
