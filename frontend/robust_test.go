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

// TestLongExpressionChain: a flat chain of 20,000 operands is not nesting
// and must check (the parser loops; the checker recurses along one side).
func TestLongExpressionChain(t *testing.T) {
	src := "const bit<32> x = 1" + strings.Repeat(" + 1", 20000) + ";\n"
	d, ok := load(t, []byte(src))
	if !ok {
		t.Fatalf("want the program accepted, got %s", d)
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
