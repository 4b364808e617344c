package diag

import (
	"bytes"
	"fmt"
	"io"
	"strings"
)

// Sources finds the text of a file by name, so a printer can show the line a
// diagnostic points at. It returns nil for a file it does not know.
type Sources func(file string) []byte

// Print writes every diagnostic of l as FILE:LINE:COL: SEVERITY: MESSAGE, one
// per line. With excerpt set (stderr is a terminal) each is followed by its
// source line and a caret under the column.
func Print(w io.Writer, l *List, src Sources, excerpt bool) {
	for _, d := range l.Items() {
		fmt.Fprintln(w, d.String())
		if excerpt {
			printExcerpt(w, d.Span, src)
		}
		for _, r := range d.Related {
			fmt.Fprintf(w, "%s: note: %s\n", r.Span, r.Msg)
			if excerpt {
				printExcerpt(w, r.Span, src)
			}
		}
	}
}

// maxExcerptBytes is the longest source line printed under a diagnostic.
const maxExcerptBytes = 500

func printExcerpt(w io.Writer, s Span, src Sources) {
	if src == nil || !s.Start.IsValid() {
		return
	}
	line, ok := sourceLine(src(s.File), s.Start.Line)
	if !ok {
		return
	}
	if len(line) > maxExcerptBytes || s.Start.Col-1 > len(line) {
		return // a line this long quoted would bury the message
	}
	// Keep tabs where they are so the caret lines up under them.
	var pad strings.Builder
	for i := 0; i < s.Start.Col-1 && i < len(line); i++ {
		if line[i] == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	width := 1
	if s.End.Line == s.Start.Line && s.End.Col > s.Start.Col {
		width = s.End.Col - s.Start.Col
	}
	if rest := len(line) - (s.Start.Col - 1); width > rest && rest > 0 {
		width = rest
	}
	fmt.Fprintf(w, "  %s\n  %s^%s\n", line, pad.String(), strings.Repeat("~", width-1))
}

// sourceLine returns line n (1-based) of text without its newline.
func sourceLine(text []byte, n int) (string, bool) {
	for i := 1; i < n; i++ {
		j := bytes.IndexByte(text, '\n')
		if j < 0 {
			return "", false
		}
		text = text[j+1:]
	}
	if j := bytes.IndexByte(text, '\n'); j >= 0 {
		text = text[:j]
	}
	return strings.TrimRight(string(text), "\r"), true
}
