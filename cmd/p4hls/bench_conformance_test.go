package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestP4cVerdict reads reference stderr written in p4c's formats.
func TestP4cVerdict(t *testing.T) {
	tests := []struct {
		name             string
		stderr           string
		rejected, syntax bool
	}{
		{"empty", "", false, false},
		{"warnings only", "x.p4(3): [--Wwarn=unused] warning: 'y' is unused\n    bit<8> y;\n", false, false},
		{"an error comment quoted from the program", "x.p4(3): [--Wwarn=unused] warning: 'y' is unused\n  bit<8> y = e << 3; // p4c error: \"no\"\n", false, false},
		{"type error", "x.p4(14): [--Werror=type-error] error: y: argument does not match\n", true, false},
		{"error kind with spaces", "[--Werror=Target model error] error: Declaration of the action NoAction not found\n", true, false},
		{"bare error", "error: main: no such declaration\n", true, false},
		{"syntax error", "x.p4(1):syntax error, unexpected END_ANNOTATION\n@pkginfo\n^\n", true, true},
		{"a check before the syntax error", "x.p4(6): [--Werror=duplicate] error: f: Duplicates declaration f\nx.p4(9):syntax error, unexpected IDENTIFIER\n", true, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rejected, syntax := p4cVerdict([]byte(tc.stderr))
			if rejected != tc.rejected || syntax != tc.syntax {
				t.Errorf("got rejected=%v syntax=%v, want %v %v", rejected, syntax, tc.rejected, tc.syntax)
			}
		})
	}
}

// writeFiles creates files (path → text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for path, text := range files {
		full := filepath.Join(dir, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConformanceRun runs the bench over a checkout of four programs made
// up here: one valid, one with a type error, one with a syntax error p4hls
// misses (a program p4c accepts, to count a disagreement), and a file
// included by another, which has no reference output and is no program.
func TestConformanceRun(t *testing.T) {
	root := t.TempDir()
	const valid = "#include <core.p4>\nconst bit<8> X = 1;\n"
	writeFiles(t, root, map[string]string{
		"p4include/core.p4":                                    "error { NoError }\n",
		"p4include/v1model.p4":                                 "#include <core.p4>\n",
		"testdata/p4_16_samples/ok.p4":                         valid,
		"testdata/p4_16_samples/sub/uses_v1.p4":                "#include \"inc/arch.p4\"\nconst bit<8> Y = 2;\n",
		"testdata/p4_16_samples/sub/inc/arch.p4":               "#include <v1model.p4>\n",
		"testdata/p4_16_samples_outputs/ok.p4-stderr":          "",
		"testdata/p4_16_samples_outputs/sub/uses_v1.p4-stderr": "",
		"testdata/p4_16_errors/type.p4":                        "const bit<8> X = true;\n",
		"testdata/p4_16_errors_outputs/type.p4-stderr":         "type.p4(1): [--Werror=type-error] error: X: bad\n",
		"testdata/p4_16_errors/syntax.p4":                      "const bit<8> X = 1\n",
		"testdata/p4_16_errors_outputs/syntax.p4-stderr":       "syntax.p4(2):syntax error, unexpected end of file\n",
	})
	progs, err := conformanceCorpus(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) != 4 {
		t.Fatalf("got %d programs, want 4 (the included file is none): %+v", len(progs), progs)
	}
	outs := runConformance(context.Background(), progs, conformanceOptions{Root: root, Jobs: 2, Timeout: time.Minute}, nil)
	want := map[string]struct {
		arch, verdict string
		agrees        bool
	}{
		"testdata/p4_16_samples/ok.p4":          {"core", "accepted", true},
		"testdata/p4_16_samples/sub/uses_v1.p4": {"v1model", "accepted", true},
		"testdata/p4_16_errors/type.p4":         {"core", "rejected", true},
		"testdata/p4_16_errors/syntax.p4":       {"core", "rejected", true},
	}
	for _, o := range outs {
		w, ok := want[o.Path]
		if !ok {
			t.Errorf("unexpected program %s", o.Path)
			continue
		}
		if o.Arch != w.arch || o.Verdict != w.verdict || o.agrees() != w.agrees {
			t.Errorf("%s: got arch %s, verdict %s (%s), agrees %v; want %s, %s, %v", o.Path, o.Arch, o.Verdict, o.First, o.agrees(), w.arch, w.verdict, w.agrees)
		}
	}
	rows := conformanceTable(outs)
	all := rows[len(rows)-1]
	if all.Valid != 2 || all.ValidOK != 2 || all.Semantic != 1 || all.SemanticOK != 1 || all.Syntax != 1 || all.SyntaxOK != 1 {
		t.Errorf("totals: got %+v", all)
	}
}
