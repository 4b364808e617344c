package frontend

import (
	"context"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// TestAnalyzeKeepsWhatItLearned: a program with a type error still has
// its other names resolved and typed (an editor hovers over them), and
// Check still returns nil for it.
func TestAnalyzeKeepsWhatItLearned(t *testing.T) {
	src := "const bit<8> A = 1;\nconst bit<8> B = A;\nconst bit<8> C = nosuch;\n"
	var d diag.List
	c, _, err := Analyze(context.Background(), "t.p4", []byte(src), Options{}, &d)
	if err != nil {
		t.Fatal(err)
	}
	if !d.HasErrors() {
		t.Fatal("got no error for an undeclared name")
	}
	var a *Symbol
	for e, sym := range c.Uses {
		if e.Name == "A" {
			a = sym
		}
	}
	if a == nil || a.Kind != SymConst || a.Type.String() != "bit<8>" {
		t.Fatalf("the use of A resolves to %+v, want the constant A of type bit<8>", a)
	}
	var d2 diag.List
	if checked, _, _ := Check(context.Background(), "t.p4", []byte(src), Options{}, &d2); checked != nil {
		t.Error("Check returned a program with errors")
	}
}

// TestAnalyzeAfterSyntaxError: a program that does not parse gives its
// AST, as far as parsing recovered (none here), and nothing checked.
func TestAnalyzeAfterSyntaxError(t *testing.T) {
	src := "const bit<8> A = 1;\ncontrol C() { apply { x = ; } }\n"
	var d diag.List
	c, _, err := Analyze(context.Background(), "t.p4", []byte(src), Options{}, &d)
	if err != nil {
		t.Fatal(err)
	}
	if c == nil || len(c.Uses) != 0 || c.Globals != nil {
		t.Fatalf("got %+v, want a program with nothing resolved", c)
	}
	if !d.HasErrors() {
		t.Fatal("got no syntax error")
	}
}
