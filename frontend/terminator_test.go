package frontend

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// terminatorPrelude declares what the snippets below use; it is lines 1-3,
// so a snippet's first line is line 4.
const terminatorPrelude = `#include <core.p4>
header eth_t { bit<48> dst; }
struct headers { eth_t eth; }
`

// TestMissingSemicolon checks where a missing ';' is reported: just after
// the statement that lacks it, each once, with nothing else reported. The
// columns are counted by hand in the snippets.
func TestMissingSemicolon(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string // LINE:COL: message, all the errors in order
	}{{
		name: "parser state, before transition",
		src: `parser P(packet_in pkt, out headers hdr) {
    state start { pkt.extract(hdr.eth) transition accept; }
}`,
		// "    state start { " is 18 columns; pkt.extract(hdr.eth) is 20.
		want: []string{"5:39: expected ';' after 'pkt.extract(hdr.eth)'"},
	}, {
		name: "apply block, next statement on the next line",
		src: `control C(inout headers hdr) {
    apply {
        hdr.eth.dst = 1
        hdr.eth.dst = 2;
    }
}`,
		// 8 spaces, then hdr.eth.dst = 1 in 15 columns.
		want: []string{"6:24: expected ';' after 'hdr.eth.dst = 1'"},
	}, {
		name: "apply block, before a keyword",
		src: `control C(inout headers hdr) {
    apply {
        hdr.eth.dst = 1
        exit;
    }
}`,
		want: []string{"6:24: expected ';' after 'hdr.eth.dst = 1'"},
	}, {
		name: "action body, before the closing brace",
		src: `control C(inout headers hdr) {
    action a() { hdr.eth.dst = 1 }
    apply { a(); }
}`,
		// "    action a() { " is 17 columns.
		want: []string{"5:33: expected ';' after 'hdr.eth.dst = 1'"},
	}, {
		name: "if block that would parse as a list expression",
		src: `control C(inout headers hdr) {
    action a(bit<48> v) { hdr.eth.dst = v; }
    apply {
        if (hdr.eth.isValid()) { a(1) }
        a(2);
    }
}`,
		// "        if (hdr.eth.isValid()) { " is 33 columns.
		want: []string{"7:38: expected ';' after 'a(1)'"},
	}, {
		name: "top-level declarations, the last at the end of input",
		src: `const bit<8> X = 1
const bit<8> Y = 2;
typedef bit<8> byte_t
const byte_t Z = 3`,
		want: []string{
			"4:19: expected ';' after 'const bit<8> X = 1'",
			"6:22: expected ';' after 'typedef bit<8> byte_t'",
			"7:19: expected ';' after 'const byte_t Z = 3'",
		},
	}, {
		name: "a long statement is quoted cut short",
		src: `control C(inout headers hdr) {
    apply {
        hdr.eth.dst = hdr.eth.dst + hdr.eth.dst + hdr.eth.dst
    }
}`,
		// 8 spaces, then 53 columns of statement, cut at a space.
		want: []string{"6:62: expected ';' after 'hdr.eth.dst = hdr.eth.dst + ...'"},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseErrors(t, terminatorPrelude+tc.src)
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("got errors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// TestNotMissingSemicolon checks that syntax errors a ';' does not explain
// keep their own messages.
func TestNotMissingSemicolon(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{"undeclared type", "control C() { apply { foo_t x; } }", "4:29: syntax error: unexpected 'x' (is foo_t an undeclared type?)"},
		{"keyword as a name", "header h_t { bit<8> out; }", "4:21: syntax error: unexpected 'out' ('out' is a keyword; it cannot be used as a name)"},
		{"missing operand", "control C(inout headers hdr) { apply { hdr.eth.dst = ; } }", "4:54: syntax error: unexpected ';'"},
		{"missing closing brace", "control C() { apply { }", "4:24: syntax error: missing '}' at end of input"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := parseErrors(t, terminatorPrelude+tc.src)
			if len(got) == 0 || got[0] != tc.want {
				t.Errorf("got errors %q, want first %q", got, tc.want)
			}
		})
	}
}

// parseErrors parses src as main.p4 and returns its errors as LINE:COL: MSG.
func parseErrors(t *testing.T, src string) []string {
	t.Helper()
	var d diag.List
	if _, _, err := Parse(context.Background(), "main.p4", []byte(src), Options{}, &d); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, x := range d.Items() {
		if x.Severity == diag.Error {
			got = append(got, fmt.Sprintf("%d:%d: %s", x.Span.Start.Line, x.Span.Start.Col, x.Msg))
		}
	}
	return got
}
