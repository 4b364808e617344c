package lsp

import (
	"bytes"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/p4hls/p4hls/diag"
)

// encoding is how a Position's character counts: LSP's default is UTF-16
// code units; a client that offers UTF-8 gets bytes, which is what p4hls's
// columns count.
type encoding string

const (
	utf8Enc  encoding = "utf-8"
	utf16Enc encoding = "utf-16"
	utf32Enc encoding = "utf-32"
)

// chooseEncoding picks UTF-8 when the client offers it (no conversion),
// else UTF-16, which every client must take.
func chooseEncoding(offered []string) encoding {
	for _, e := range offered {
		if encoding(e) == utf8Enc {
			return utf8Enc
		}
	}
	return utf16Enc
}

// units counts s in enc's units.
func (enc encoding) units(s string) int {
	switch enc {
	case utf8Enc:
		return len(s)
	case utf32Enc:
		return utf8.RuneCountInString(s)
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}

// bytesFor is how many bytes of line the first n units take (all of it
// when n is past its end).
func (enc encoding) bytesFor(line string, n int) int {
	if enc == utf8Enc {
		return min(max(n, 0), len(line))
	}
	i, seen := 0, 0
	for i < len(line) && seen < n {
		r, size := utf8.DecodeRuneInString(line[i:])
		switch {
		case enc == utf16Enc && r >= 0x10000:
			seen += 2
		default:
			seen++
		}
		i += size
	}
	return i
}

// lineOf is the text of 1-based line n of text, without its newline ("" past
// the end).
func lineOf(text []byte, n int) string {
	start := 0
	for l := 1; l < n; l++ {
		i := bytes.IndexByte(text[start:], '\n')
		if i < 0 {
			return ""
		}
		start += i + 1
	}
	end := bytes.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text) - start
	}
	return strings.TrimSuffix(string(text[start:start+end]), "\r")
}

// position converts p4hls's place (1-based line, 1-based byte column) in
// text to an LSP position. Without the text, columns are taken as they
// are (right for ASCII).
func (enc encoding) position(text []byte, p diag.Pos) Position {
	if !p.IsValid() {
		return Position{}
	}
	col := max(p.Col-1, 0)
	if text == nil {
		return Position{Line: p.Line - 1, Character: col}
	}
	line := lineOf(text, p.Line)
	return Position{Line: p.Line - 1, Character: enc.units(line[:min(col, len(line))])}
}

// span converts a span to a range; a span with no place is the file's
// first character.
func (enc encoding) span(text []byte, s diag.Span) Range {
	start := enc.position(text, s.Start)
	end := start
	if s.End.IsValid() {
		end = enc.position(text, s.End)
	}
	return Range{Start: start, End: end}
}

// pos converts an LSP position in text to p4hls's place.
func (enc encoding) pos(text []byte, p Position) diag.Pos {
	line := lineOf(text, p.Line+1)
	return diag.Pos{Line: p.Line + 1, Col: enc.bytesFor(line, p.Character) + 1}
}

// offset is the byte offset of an LSP position in text, clamped to it:
// where an edit starts or ends.
func (enc encoding) offset(text string, p Position) int {
	start := 0
	for l := 0; l < p.Line; l++ {
		i := strings.IndexByte(text[start:], '\n')
		if i < 0 {
			return len(text)
		}
		start += i + 1
	}
	end := strings.IndexByte(text[start:], '\n')
	if end < 0 {
		end = len(text) - start
	}
	return start + enc.bytesFor(text[start:start+end], p.Character)
}

// pathOf is the file a file: URI names.
func pathOf(uri string) (string, error) {
	u, err := url.Parse(uri)
	if err != nil {
		return "", fmt.Errorf("document %q: %w", uri, err)
	}
	if u.Scheme != "file" || u.Path == "" {
		return "", fmt.Errorf("document %q: p4hls reads file: URIs only", uri)
	}
	return filepath.Clean(filepath.FromSlash(u.Path)), nil
}

// uriOf is the file: URI of a path; "" for a name that is no file (the
// bundled headers, "<v1model.p4>").
func uriOf(path string) string {
	if path == "" || strings.HasPrefix(path, "<") || !filepath.IsAbs(path) {
		return ""
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}
