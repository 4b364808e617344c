package lsp

import (
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// TestPositions: byte columns to each encoding and back, on a line with
// a two-byte letter and a four-byte one (two UTF-16 units), counted by
// hand: "// " and the space after the letters are a byte and a unit each;
// "é" is 2 bytes, 1 unit; "𝄞" is 4 bytes, 2 UTF-16 units, 1 UTF-32.
func TestPositions(t *testing.T) {
	text := []byte("x\n// é𝄞 y\n")
	at := diag.Pos{Line: 2, Col: 11} // the y: 3 + 2 + 4 + 1 bytes before it
	for _, tc := range []struct {
		enc  encoding
		want int
	}{{utf8Enc, 10}, {utf16Enc, 7}, {utf32Enc, 6}} {
		got := tc.enc.position(text, at)
		if got != (Position{Line: 1, Character: tc.want}) {
			t.Errorf("%s: position = %+v, want line 1 character %d", tc.enc, got, tc.want)
		}
		if back := tc.enc.pos(text, got); back != at {
			t.Errorf("%s: pos(%+v) = %+v, want %+v", tc.enc, got, back, at)
		}
		if off := tc.enc.offset(string(text), got); off != 12 {
			t.Errorf("%s: offset = %d, want 12", tc.enc, off)
		}
	}
}

func TestURIs(t *testing.T) {
	p, err := pathOf("file:///tmp/a%20b/x.p4")
	if err != nil || p != "/tmp/a b/x.p4" {
		t.Fatalf("pathOf = %q, %v", p, err)
	}
	if u := uriOf(p); u != "file:///tmp/a%20b/x.p4" {
		t.Errorf("uriOf = %q", u)
	}
	if _, err := pathOf("untitled:1"); err == nil {
		t.Error("pathOf took a URI that is not a file")
	}
	if u := uriOf("<v1model.p4>"); u != "" {
		t.Errorf("a bundled header has URI %q, want none", u)
	}
}

func TestChooseEncoding(t *testing.T) {
	if e := chooseEncoding([]string{"utf-16", "utf-8"}); e != utf8Enc {
		t.Errorf("got %s, want utf-8 when offered", e)
	}
	if e := chooseEncoding(nil); e != utf16Enc {
		t.Errorf("got %s, want LSP's default utf-16", e)
	}
}
