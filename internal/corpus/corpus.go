// Package corpus loads the shared test programs (testdata/p4) for the
// tests of every package, so each need not find and check them itself.
package corpus

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
)

// Dir is the absolute path of testdata/p4.
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "p4")
}

// Load checks and lowers testdata/p4/ok/NAME, failing the test on any
// error.
func Load(t testing.TB, name string) *ir.Program {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(Dir(), "ok", name))
	if err != nil {
		t.Fatal(err)
	}
	return LoadSource(t, name, src)
}

// LoadSource loads src as if it were the corpus program name (its
// includes resolve the same way): a test's rewriting of a program.
func LoadSource(t testing.TB, name string, src []byte) *ir.Program {
	t.Helper()
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), filepath.Join(Dir(), "ok", name), src, frontend.Options{}, &d)
	if err != nil || prog == nil {
		t.Fatalf("%s: %v\n%s", name, err, &d)
	}
	return prog
}

// AtomicAction returns the program's one action with an @atomic block.
func AtomicAction(t testing.TB, prog *ir.Program) *ir.Action {
	t.Helper()
	actions := prog.AtomicActions()
	if len(actions) != 1 {
		t.Fatalf("%d actions with an @atomic block, want 1", len(actions))
	}
	return actions[0]
}
