package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestSTFBench runs the packet-test bench over a checkout made up here:
// p4include is p4hls's bundled headers; the samples are two corpus
// programs with their tests, one test broken by hand, a program whose
// main is no V1Switch (no program of the bench), and a program whose test
// the interpreter cannot run.
func TestSTFBench(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{}
	for _, name := range []string{"core.p4", "v1model.p4"} {
		text, err := os.ReadFile(filepath.Join("..", "..", "frontend", "include", name))
		if err != nil {
			t.Fatal(err)
		}
		files["p4include/"+name] = string(text)
	}
	for _, name := range []string{"lpm_entries", "action_forms"} {
		for _, ext := range []string{".p4", ".stf"} {
			text, err := os.ReadFile(filepath.Join(corpus, "ok", name+ext))
			if err != nil {
				t.Fatal(err)
			}
			files["testdata/p4_16_samples/"+name+ext] = string(text)
		}
	}
	// The broken copy expects port 2 where the default sends it to 9.
	broken := strings.Replace(files["testdata/p4_16_samples/lpm_entries.stf"], "expect 9 ", "expect 2 ", 1)
	files["testdata/p4_16_samples/broken.p4"] = files["testdata/p4_16_samples/lpm_entries.p4"]
	files["testdata/p4_16_samples/broken.stf"] = broken
	files["testdata/p4_16_samples/core_only.p4"] = "#include <core.p4>\ncontrol C() { apply { } }\n"
	files["testdata/p4_16_samples/core_only.stf"] = "packet 0 00\n"
	files["testdata/p4_16_samples/bad_test.p4"] = files["testdata/p4_16_samples/lpm_entries.p4"]
	files["testdata/p4_16_samples/bad_test.stf"] = "add nosuch k:1 a()\n"
	writeFiles(t, root, files)

	progs, err := stfCorpus(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) != 4 {
		t.Fatalf("got %d programs, want 4 (core_only is no v1model program): %v", len(progs), progs)
	}
	outs := runSTFBench(context.Background(), progs, stfBenchOptions{Root: root, Target: "tofino", Jobs: 2, Timeout: time.Minute})
	want := map[string]stfOutcome{
		"action_forms": {Interp: "pass", Compile: "ok", Output: "pass"},
		"lpm_entries":  {Interp: "pass", Compile: "ok", Output: "pass"},
		"broken":       {Interp: "mismatch"},
		"bad_test":     {Interp: "error"},
	}
	for _, o := range outs {
		name := strings.TrimSuffix(filepath.Base(o.Path), ".p4")
		w := want[name]
		if o.Interp != w.Interp || o.Compile != w.Compile || o.Output != w.Output {
			t.Errorf("%s: got %s/%s/%s (%s), want %s/%s/%s", name, o.Interp, o.Compile, o.Output, o.Why, w.Interp, w.Compile, w.Output)
		}
	}
	c := countSTF(outs)
	if c.InterpPass != 2 || c.InterpMismatch != 1 || c.InterpError != 1 || c.Compiled != 2 || c.OutputPass != 2 {
		t.Errorf("counts: %+v", c)
	}
	var b strings.Builder
	printSTFFailures(&b, outs)
	if !strings.Contains(b.String(), "broken.p4\tinterpreter mismatch\tline ") || !strings.Contains(b.String(), "bad_test.p4\tinterpreter error\t") {
		t.Errorf("the failures list:\n%s", b.String())
	}
}

// TestProgramsBench runs the bench over a folder of programs, as one
// brings others' checkouts: with a test or without, or not checking; an
// included file and a program of another architecture are none of them.
func TestProgramsBench(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for _, ext := range []string{".p4", ".stf"} {
		text, err := os.ReadFile(filepath.Join(corpus, "ok", "lpm_entries"+ext))
		if err != nil {
			t.Fatal(err)
		}
		files["a/tested"+ext] = string(text)
	}
	files["b/untested.p4"] = files["a/tested.p4"]
	files["b/broken.p4"] = strings.Replace(files["a/tested.p4"], "apply { route.apply(); }", "apply { nosuch.apply(); }", 1)
	files["b/inc.p4"] = "const bit<8> K = 1;\n"
	files["c/other.p4"] = "#include <core.p4>\ncontrol C() { apply { } }\n"
	writeFiles(t, dir, files)
	progs, err := programsCorpus(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(progs) != 3 {
		t.Fatalf("got %v, want the 3 v1model programs", progs)
	}
	outs := runSTFBench(context.Background(), progs, stfBenchOptions{Programs: dir, Target: "tofino", Jobs: 2, Timeout: time.Minute})
	want := map[string]stfOutcome{
		"a/tested.p4":   {Interp: "pass", Compile: "ok", Output: "pass"},
		"b/untested.p4": {Interp: "no test", Compile: "ok", Output: "pass"}, // random packets on both
		"b/broken.p4":   {Interp: "no test", Compile: "does not check"},
	}
	for _, o := range outs {
		w := want[o.Path]
		if o.Interp != w.Interp || o.Compile != w.Compile || o.Output != w.Output {
			t.Errorf("%s: got %s/%s/%s (%s), want %s/%s/%s", o.Path, o.Interp, o.Compile, o.Output, o.Why, w.Interp, w.Compile, w.Output)
		}
	}
}
