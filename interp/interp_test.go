package interp

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
)

const corpus = "../testdata/p4"

// load compiles a corpus program for the interpreter.
func load(t testing.TB, name string) (*ir.Program, *Switch) {
	t.Helper()
	file := filepath.Join(corpus, "ok", name)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), file, src, frontend.Options{}, &d)
	if err != nil || prog == nil {
		t.Fatalf("%s: %v %s", name, err, &d)
	}
	sw, err := New(prog, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return prog, sw
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSTF runs every testdata/p4/ok/*.stf against its program. The
// expectations in those files are worked out by hand from each algorithm.
func TestSTF(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "ok", "*.stf"))
	if len(files) == 0 {
		t.Fatal("no .stf tests")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".stf")
		t.Run(name, func(t *testing.T) {
			_, sw := load(t, name+".p4")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cmds, err := ParseSTF(file, string(src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := sw.RunSTF(file, cmds)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range res.Mismatches {
				t.Errorf("%s", m)
			}
			if res.Expectations == 0 {
				t.Error("the test checks nothing")
			}
		})
	}
}
