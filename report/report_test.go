package report

import (
	"testing"

	"github.com/p4hls/p4hls/diag"
)

func TestNewArtifact(t *testing.T) {
	// SHA-256("abc") from FIPS 180-2's example.
	a := NewArtifact("x.txt", "text/plain", []byte("abc"))
	if a.Bytes != 3 || a.SHA256 != "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad" {
		t.Errorf("%+v", a)
	}
}

func TestNewDiagnostic(t *testing.T) {
	d := diag.Diagnostic{Span: diag.Span{File: "a.p4", Start: diag.Pos{Line: 4, Col: 14}, End: diag.Pos{Line: 4, Col: 15}},
		Severity: diag.Error, Code: diag.Redeclared, Msg: "A is already declared in this scope",
		Related: []diag.Related{{Span: diag.Span{File: "a.p4", Start: diag.Pos{Line: 3, Col: 14}}, Msg: "previous declaration of A"}}}
	got := NewDiagnostic(d)
	if got.File != "a.p4" || got.Line != 4 || got.Column != 14 || got.EndLine != 4 || got.EndColumn != 15 ||
		got.Severity != "error" || got.Code != "Redeclared" || got.Message != d.Msg {
		t.Errorf("%+v", got)
	}
	if len(got.Related) != 1 || got.Related[0] != (Related{File: "a.p4", Line: 3, Column: 14, Message: "previous declaration of A"}) {
		t.Errorf("related %+v", got.Related)
	}
}

// TestNew: a report before the compile starts lists every phase at 0 and
// empty lists (not nulls), so a reader finds every key.
func TestNew(t *testing.T) {
	r := New("tofino")
	if r.Target != "tofino" || r.Status != OK || len(r.Phases) != len(Phases()) {
		t.Errorf("%+v", r)
	}
	if r.Reached == nil || r.PerStage == nil || r.Diagnostics == nil || r.Actions == nil || r.Artifacts == nil {
		t.Error("a list is nil")
	}
}
