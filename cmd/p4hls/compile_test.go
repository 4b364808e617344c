package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCompile: sampling on Banzai's if_else_raw takes 2 stages (CaT Table
// 4): the count's ALU, then the comparison that sets the sample flag. The
// report carries the documented top-level fields.
func TestCompile(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI("compile", "--target", "banzai", "--alu", "if_else_raw", "--verify", "2000",
		"-o", out, filepath.Join(corpus, "ok/sampling.p4"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if !strings.Contains(stdout, "2 stages") {
		t.Errorf("stdout:\n%s", stdout)
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var report map[string]any
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"target", "stages", "per_stage", "phases", "solver_queries", "cache_hits", "diagnostics"} {
		if _, ok := report[key]; !ok {
			t.Errorf("report.json has no %q", key)
		}
	}
	if report["stages"] != 2.0 || report["target"] != "banzai" {
		t.Errorf("report: stages %v, target %v", report["stages"], report["target"])
	}
	phases, _ := report["phases"].(map[string]any)
	for _, p := range []string{"frontend", "transform", "synth", "alloc", "backend"} {
		if _, ok := phases[p]; !ok {
			t.Errorf("phases has no %q", p)
		}
	}
}

func TestCompileFailures(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
		want string
	}{
		{"does not fit", []string{"--target", "banzai", "--alu", "raw", "ok/conga.p4"}, exitDoesNotFit,
			"conga.p4:23:5: error: action conga: state variables best_path[hdr.app.dst] and best_path_util[hdr.app.dst] read each other; ALU raw holds 1"},
		{"unknown target", []string{"--target", "fpga", "ok/conga.p4"}, exitUsage, `unknown target "fpga"`},
		{"banzai without atom", []string{"--target", "banzai", "ok/conga.p4"}, exitUsage, "target banzai needs --alu"},
		{"time limit", []string{"--target", "banzai", "--alu", "pair", "--timeout", "1ms", "ok/conga.p4"}, exitUserErr,
			"stopped after the 1ms time limit"},
		{"bad program", []string{"--target", "banzai", "--alu", "pair", "bad/apply_in_action.p4"}, exitUserErr,
			"apply_in_action.p4:18:9: error:"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"compile", "-o", t.TempDir()}, tc.args[:len(tc.args)-1]...)
			args = append(args, filepath.Join(corpus, tc.args[len(tc.args)-1]))
			code, _, stderr := runCLI(args...)
			if code != tc.code || !strings.Contains(stderr, tc.want) {
				t.Errorf("exit %d, stderr:\n%s\nwant exit %d and %q", code, stderr, tc.code, tc.want)
			}
		})
	}
}

func TestBenchUsage(t *testing.T) {
	if code, _, stderr := runCLI("bench", "tables"); code != exitUsage || !strings.Contains(stderr, "usage: p4hls bench synth") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}
