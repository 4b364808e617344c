package frontend

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/p4hls/p4hls/diag"
)

// load runs the whole frontend on src as main.p4, with the corpus's
// include folder readable, and returns the diagnostics.
func load(t testing.TB, src []byte) (*diag.List, bool) {
	t.Helper()
	var d diag.List
	prog, _, err := Load(context.Background(), "main.p4", src, Options{ReadFile: corpusInclude}, &d)
	if err != nil {
		t.Fatal(err)
	}
	return &d, prog != nil
}

// corpusInclude serves ../include/*.p4 of the corpus to in-memory programs.
func corpusInclude(name string) ([]byte, error) {
	if strings.HasPrefix(filepath.ToSlash(name), "../include/") || strings.HasPrefix(filepath.ToSlash(name), "include/") {
		return os.ReadFile(filepath.Join(corpus, "include", filepath.Base(name)))
	}
	return nil, os.ErrNotExist
}

// TestEmptyProgram: a file that declares nothing is valid P4, as p4c
// has it; p4hls warns.
func TestEmptyProgram(t *testing.T) {
	for name, src := range map[string][]byte{"empty file": nil, "only comments": []byte("// nothing\n/* here */\n")} {
		t.Run(name, func(t *testing.T) {
			d, ok := load(t, src)
			items := d.Items()
			if !ok || len(items) != 1 || items[0].Code != diag.EmptyProgram || items[0].Severity != diag.Warning {
				t.Errorf("got accepted %v, diagnostics %v; want accepted with one EmptyProgram warning", ok, items)
			}
		})
	}
}

// TestHostileInput feeds inputs that must produce one clear diagnostic
// each, never a crash or a hang.
func TestHostileInput(t *testing.T) {
	nested := func(open, close string, n int, middle string) []byte {
		return []byte("const bit<8> x = " + strings.Repeat(open, n) + middle + strings.Repeat(close, n) + ";\n")
	}
	garbage := make([]byte, 4096)
	rand.New(rand.NewSource(1)).Read(garbage)
	tests := []struct {
		name string
		src  []byte
		code diag.Code
	}{
		{"binary garbage", garbage, diag.BadCharacter},
		{"NUL byte", []byte("const bit<8> x = 1;\x00\n"), diag.BadCharacter},
		{"50 MB file", bytes.Repeat([]byte("// padding padding padding padding padding padding\n"), 50<<20/51), diag.InputTooLarge},
		{"10,000 nested parentheses", nested("(", ")", 10000, "1"), diag.NestingTooDeep},
		{"10,000 nested unary minus", []byte("const bit<8> x = " + strings.Repeat("- ", 10000) + "1;\n"), diag.NestingTooDeep},
		{"10,000 nested blocks", []byte("control C() { apply " + strings.Repeat("{", 10000) + strings.Repeat("}", 10000) + " }\n"), diag.NestingTooDeep},
		{"unterminated comment", []byte("const bit<8> x = 1; /* never\nclosed\n"), diag.UnterminatedComment},
		{"include cycle", []byte("#include \"main.p4\"\n"), diag.IncludeCycle},
		{"macro bomb", []byte("#define A0 x\n" + macroBomb(30) + "A30\n"), diag.MacroError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, ok := load(t, tc.src)
			if ok {
				t.Fatal("the input was accepted")
			}
			items := d.Items()
			if len(items) == 0 || items[0].Code != tc.code {
				t.Fatalf("got diagnostics %v, want one with code %v first", items, tc.code)
			}
			if len(items) > 3 {
				t.Errorf("got %d diagnostics, want a clear one or two: %v", len(items), items[:4])
			}
		})
	}
}

func macroBomb(levels int) string {
	var b strings.Builder
	for i := 1; i <= levels; i++ {
		fmt.Fprintf(&b, "#define A%d A%d A%d\n", i, i-1, i-1)
	}
	return b.String()
}

// v1modelApply returns a v1model program whose ingress applies stmt,
// the shape of the generated programs that crashed or slowed the frontend.
func v1modelApply(stmt string) string {
	return `#include <core.p4>
#include <v1model.p4>
header h_t { bit<32> a; bit<32> b; }
struct headers { h_t h; }
struct metadata { }
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.h); } }
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply { ` + stmt + ` }
}
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
`
}

// TestStatementDepth: an else-if chain is an if nested in the else of the
// one before, as deep as the chain is long, though no brace nests. A chain
// of MaxStatementDepth arms checks (the checker took time quadratic in its
// length, looking names up through a scope per arm before); a statement
// nested deeper, in any shape, is refused before it is parsed, with one
// diagnostic at its first if that says how deep it is.
func TestStatementDepth(t *testing.T) {
	const limit = MaxStatementDepth
	chain := func(arms int, arm, last string) string {
		var b strings.Builder
		for i := 0; i < arms; i++ {
			if i > 0 {
				b.WriteString("\nelse ")
			}
			fmt.Fprintf(&b, arm, i, i+1)
		}
		return b.String() + last
	}
	const arm = "if (hdr.h.a == %d) { hdr.h.b = %d; }"
	tests := []struct {
		name string
		stmt string
		// want is the depth reported at line 14, column 13, or 0 for a
		// program that checks.
		want int
	}{
		{"an else-if chain at the limit", chain(limit, arm, ""), 0},
		{"an else-if chain past the limit", chain(limit+1, arm, ""), limit + 1},
		{"an else-if chain of statements", chain(limit+1, "if (hdr.h.a == %d) hdr.h.b = %d;", " else hdr.h.b = 0;"), limit + 1},
		{"an else-if chain of lists", chain(limit+1, "if (hdr.h.a == %d) hdr.h = {%d, 0};", ""), limit + 1},
		{"ifs in ifs", strings.Repeat("if (hdr.h.a == 1) ", limit+1) + "hdr.h.b = 1;", limit + 1},
		{"an else-if chain in an else", "if (hdr.h.a == 1) { } else { " + chain(limit, arm, "") + " }", limit + 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkDepth(t, v1modelApply(tc.stmt), "statement", tc.want, limit, diag.Pos{Line: 14, Col: 13})
		})
	}
	// Each arm's block is a scope of its own.
	d, ok := load(t, []byte(v1modelApply("if (hdr.h.a == 0) { bit<32> x = 1; } else if (hdr.h.a == 1) { hdr.h.b = x; } else { hdr.h.b = x; }")))
	items := d.Items()
	if ok || len(items) != 2 || items[0].Code != diag.UndeclaredName || items[1].Code != diag.UndeclaredName {
		t.Errorf("got accepted %v, diagnostics %v; want x undeclared in both arms after its own", ok, items)
	}
}

// TestExpressionDepth: an expression whose tree is MaxExpressionDepth deep
// checks; one deeper, in any shape, is refused before it is parsed, with
// one diagnostic at its start that says how deep it is. A program of many
// blocks is not one deep expression.
func TestExpressionDepth(t *testing.T) {
	const limit = MaxExpressionDepth
	chain := func(first, op string, n int) string { return first + strings.Repeat(op, n) }
	tests := []struct {
		name string
		src  string
		// want is the depth reported and where, or 0 for a program that
		// checks.
		want      int
		line, col int
	}{
		{"a chain at the limit", "const bit<32> x = " + chain("1", " + 1", limit) + ";\n", 0, 0, 0},
		{"a chain past the limit", "const bit<32> x = " + chain("1", " + 1", limit+1) + ";\n", limit + 1, 1, 19},
		{"500,000 terms of members", v1modelApply("hdr.h.b = " + chain("hdr.h.a", " + hdr.h.a", 500000-1) + ";"), 500000 + 1, 14, 23},
		{"parenthesized chains", "const bit<32> x = 1 + (" + chain("1", " + 1", limit) + ");\n", limit + 2, 1, 19},
		{"conditionals", "const bit<32> x = " + chain("", "true ? 1 : ", limit+1) + "1;\n", limit + 1, 1, 19},
		{"members", "const bit<32> x = " + chain("a", ".b", limit+1) + ";\n", limit + 1, 1, 19},
		{"indexes", "const bit<32> x = " + chain("a", "[0]", limit+1) + ";\n", limit + 1, 1, 19},
		{"calls", "const bit<32> x = " + chain("f", "()", limit+1) + ";\n", limit + 1, 1, 19},
		// < and > count as binary operators: the bound is not exact.
		{"casts", "const bit<32> x = " + chain("", "(bit<32>)", limit+1) + "1;\n", limit + 3, 1, 19},
		{"lists as operands", "const bit<32> x = " + chain("{1}", " + {1}", limit+1) + ";\n", limit + 2, 1, 19},
		{"an argument", "const bit<32> x = f(1, " + chain("1", " + 1", limit+1) + ");\n", limit + 1, 1, 24},
		{"blocks in a row", v1modelApply(strings.Repeat("if (hdr.h.a == 1) { hdr.h.b = 2; } ", 2*limit)), 0, 0, 0},
		{"blocks and statements in a row", v1modelApply(strings.Repeat("{ hdr.h.b = 2; } { } hdr.h.a = 1; ", 2*limit)), 0, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			checkDepth(t, tc.src, "expression", tc.want, limit, diag.Pos{Line: tc.line, Col: tc.col})
		})
	}
}

// FuzzFrontend runs the whole frontend on arbitrary input. Invariants: no
// panic; a rejected program has at least one error; every diagnostic about
// main.p4 points inside it.
func FuzzFrontend(f *testing.F) {
	for _, dir := range []string{"ok", "bad"} {
		files, _ := filepath.Glob(filepath.Join(corpus, dir, "*.p4"))
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(src)
		}
	}
	// Shapes the depth check follows: operands in braces, conditionals,
	// casts, postfix chains, blocks in a row, brackets left open.
	f.Add([]byte("const bit<8> x = {1} + {1} ? (bit<8>)a.b[0]() : -~!1;\n"))
	f.Add([]byte("control C() { apply { if (a) { } else if (b) { x = 1; } { } .f(); } }\n"))
	f.Add([]byte("const bit<8> x = (1 + [2 + {3 +\n"))
	f.Add([]byte("control C() { apply { if (a) x = {1}; else if (b) if (c) { } else for (;;) y = 1; } }\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return // large inputs only slow the fuzzer down; TestHostileInput covers size
		}
		// The fuzzer has no per-input time limit: a hang would stall it
		// silently. Crashing the worker makes it save the input.
		watchdog := time.AfterFunc(10*time.Second, func() {
			panic(fmt.Sprintf("the frontend ran for more than 10 s on a %d-byte input", len(src)))
		})
		defer watchdog.Stop()
		var d diag.List
		prog, _, err := Load(context.Background(), "main.p4", src, Options{ReadFile: corpusInclude}, &d)
		if err != nil {
			t.Fatal(err)
		}
		if prog == nil && !d.HasErrors() {
			t.Fatal("program rejected without an error")
		}
		lines := bytes.Split(src, []byte("\n"))
		for _, x := range d.Items() {
			if x.Span.File != "main.p4" {
				continue
			}
			p := x.Span.Start
			if p.Line < 1 || p.Line > len(lines) || p.Col < 1 || p.Col > len(lines[p.Line-1])+2 {
				t.Fatalf("diagnostic %q points outside the input (%d lines)", x, len(lines))
			}
		}
	})
}

// checkDepth loads src: accepted when want is 0, else refused with one
// NestingTooDeep diagnostic at at saying that the kind ("statement" or
// "expression") is nested want deep.
func checkDepth(t *testing.T, src, kind string, want, limit int, at diag.Pos) {
	t.Helper()
	d, ok := load(t, []byte(src))
	if want == 0 {
		if !ok {
			t.Fatalf("want the program accepted, got %s", d)
		}
		return
	}
	items := d.Items()
	if ok || len(items) != 1 {
		t.Fatalf("got accepted %v, diagnostics %v; want one NestingTooDeep", ok, items)
	}
	x := items[0]
	msg := fmt.Sprintf("%s nested %d deep (the limit is %d); split it up", kind, want, limit)
	if x.Code != diag.NestingTooDeep || x.Msg != msg || x.Span.Start != at {
		t.Errorf("got %v (%v); want main.p4:%d:%d: %s", x, x.Code, at.Line, at.Col, msg)
	}
}
