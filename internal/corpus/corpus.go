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

// CounterProgram loads a program whose one action holds an @atomic block
// around body, which reads the register cell count[0] into c before it and
// writes c back after; the header field hdr.app.sample is the one field.
func CounterProgram(t testing.TB, body string) *ir.Program {
	t.Helper()
	src := `#include <core.p4>
#include <v1model.p4>
header app_t { bit<32> sample; }
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) count;
    action a() {
        @atomic {
            bit<32> c;
            count.read(c, 0);
` + body + `
            count.write(0, c);
        }
    }
    table t { actions = { a; } default_action = a(); }
    apply { t.apply(); }
}
BENCH_MAIN
`
	return LoadSource(t, "counter.p4", []byte(src))
}
