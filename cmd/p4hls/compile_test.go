package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCompile: sampling on Banzai's if_else_raw takes 2 stages (CaT Table
// 4): the count's ALU, then the comparison that sets the sample flag. The
// report carries the documented top-level fields. On Menshen too: its
// stateful if-else counts, a stateless ALU compares.
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
	checkBanzaiPipeline(t, out)
	code, stdout, stderr = runCLI("compile", "--target", "menshen", "--verify", "2000", "-o", t.TempDir(), filepath.Join(corpus, "ok/sampling.p4"))
	if code != exitOK || !strings.Contains(stdout, "2 stages") {
		t.Errorf("menshen: exit %d\n%s%s", code, stdout, stderr)
	}
	// No work budget: the same mapping (sampling's has one plan).
	code, stdout, stderr = runCLI("compile", "--target", "banzai", "--alu", "if_else_raw", "--exhaustive", "-o", t.TempDir(), filepath.Join(corpus, "ok/sampling.p4"))
	if code != exitOK || !strings.Contains(stdout, "2 stages") {
		t.Errorf("--exhaustive: exit %d\n%s%s", code, stdout, stderr)
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
			"conga.p4:23:5: error: action conga: best_path[hdr.app.dst] and best_path_util[hdr.app.dst] read each other's old values"},
		{"unknown target", []string{"--target", "fpga", "ok/conga.p4"}, exitUsage, `unknown target "fpga"`},
		{"menshen compares signed", []string{"--target", "menshen", "ok/blue_increase.p4"}, exitDoesNotFit,
			"blue_increase.p4:22:5: error: action blue_increase: no configuration of ALU if_else computes"},
		{"an ALU the target lacks", []string{"--target", "tofino", "--alu", "pair", "ok/conga.p4"}, exitUsage,
			`target tofino has no stateful ALU "pair" (it has: stateful)`},
		{"an option the target lacks", []string{"--target", "tofino", "--option", "tenant=2", "ok/conga.p4"}, exitUsage,
			`target tofino takes no options; it was given "tenant"`},
		{"a bad option", []string{"--target", "menshen", "--option", "tenant", "ok/conga.p4"}, exitUsage,
			"--option tenant: want NAME=VALUE"},
		{"time limit", []string{"--target", "banzai", "--alu", "pair", "--timeout", "1ms", "ok/conga.p4"}, exitUserErr,
			"stopped after the 1ms time limit"},
		{"memory limit", []string{"--target", "banzai", "--alu", "pair", "--max-memory", "1M", "ok/conga.p4"}, exitUserErr,
			"p4hls: stopped at the memory limit: "},
		{"a bad memory limit", []string{"--max-memory", "2X", "ok/conga.p4"}, exitUsage,
			`--max-memory: "2X" is not a size`},
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
	want := "p4hls bench: unknown benchmark \"tables\": want synth, transform, alloc, sweep, edit, copies, serve, xdp, hxdp, sim, growth, conformance or stf\nrun 'p4hls bench --help' for usage\n"
	if code, _, stderr := runCLI("bench", "tables"); code != exitUsage || stderr != want {
		t.Errorf("exit %d, stderr:\n%s", code, stderr)
	}
}

// TestCompileEmitTransformed: ME-2's three ifs become one table; the
// transformed program is written, checks, and the report has phase 1's
// before and after.
func TestCompileEmitTransformed(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI("compile", "--emit", "transformed", "-o", out, filepath.Join(corpus, "ok/me2_disjoint_writes.p4"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if want := "transform: 3 gateways, 3 tables, 3 stages -> 0 gateways, 1 tables, 1 stages"; !strings.Contains(stdout, want) {
		t.Errorf("stdout:\n%s\nwant %q", stdout, want)
	}
	src, err := os.ReadFile(filepath.Join(out, "transformed.p4"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(src), "if_29.apply();") {
		t.Errorf("transformed.p4 does not apply the new table:\n%s", src)
	}
	if code, _, stderr := runCLI("check", "-I", filepath.Join(corpus, "ok"), filepath.Join(out, "transformed.p4")); code != exitOK {
		t.Errorf("check of transformed.p4: exit %d\n%s", code, stderr)
	}
	var report struct {
		Transform struct {
			Before, After struct{ Gateways, Tables, Stages int }
			Rewrites      []struct{ Table string }
		}
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &report); err != nil {
		t.Fatal(err)
	}
	tr := report.Transform
	if tr.Before.Gateways != 3 || tr.Before.Stages != 3 || tr.After.Gateways != 0 || tr.After.Stages != 1 || len(tr.Rewrites) != 1 {
		t.Errorf("report transform: %+v", tr)
	}
	if code, _, stderr := runCLI("compile", "--emit", "binary", "-o", out, filepath.Join(corpus, "ok/me2_disjoint_writes.p4")); code != exitUsage || !strings.Contains(stderr, "unknown artifact") {
		t.Errorf("--emit binary: exit %d\n%s", code, stderr)
	}
}

// TestBenchTransform: the motivating examples come first, with their
// before and after.
func TestBenchTransform(t *testing.T) {
	code, stdout, stderr := runCLI("bench", "transform", "--corpus", filepath.Join(corpus, "ok"))
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	if len(lines) < 4 || !strings.HasPrefix(lines[1], "siphash") || !strings.HasPrefix(lines[2], "me2_disjoint_writes") ||
		!strings.HasPrefix(lines[3], "me3_upf_rate_enforcer") {
		t.Fatalf("stdout:\n%s", stdout)
	}
	if f := strings.Fields(lines[3]); strings.Join(f[1:10], " ") != "8 -> 0 9 -> 1 2 -> 1" {
		t.Errorf("ME-3 row %q, want gateways 8 -> 0, tables 9 -> 1, stages 2 -> 1", lines[3])
	}
}

// TestAllocatedSwitchPrograms: switch programs with a stateful table
// compile end to end; their placement is validated and the synthesized
// ALUs, at their allocated stages, agree with the interpreter on random
// packets.
func TestAllocatedSwitchPrograms(t *testing.T) {
	cases := []struct{ file, target, alu string }{
		{"alloc/sampling_ipv4_lpm.p4", "tofino", ""},
		{"alloc/stfq_acl_ipv4_lpm.p4", "banzai", "nested_ifs"},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			out := t.TempDir()
			args := []string{"compile", "--target", c.target, "--verify", "2000", "-o", out}
			if c.alu != "" {
				args = append(args, "--alu", c.alu)
			}
			code, stdout, stderr := runCLI(append(args, filepath.Join(corpus, c.file))...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s", code, stderr)
			}
			var report struct {
				Stages int
				Alloc  struct{ Tables int }
			}
			data, err := os.ReadFile(filepath.Join(out, "report.json"))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(data, &report); err != nil {
				t.Fatal(err)
			}
			if report.Alloc.Tables < 3 || report.Stages < 1 {
				t.Errorf("report: %+v\n%s", report, stdout)
			}
		})
	}
}

// TestBenchSweep: a small generated switch program and its sweeps.
func TestBenchSweep(t *testing.T) {
	code, stdout, stderr := runCLI("bench", "sweep", "--tables", "24")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"switch-scale program: 24 tables", "entries per table", "stages", "tables per stage", "accepted"} {
		if !strings.Contains(stdout, want) {
			t.Errorf("stdout has no %q:\n%s", want, stdout)
		}
	}
}

// checkBanzaiPipeline: sampling's action on Banzai is the count's
// stateful ALU in stage 0 (its register cell count[0]) feeding a
// stateless ALU in stage 1 that writes hdr.app.sample; the drawing has a
// cluster per stage and the edge between them.
func checkBanzaiPipeline(t *testing.T, out string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, "pipeline.json"))
	if err != nil {
		t.Fatal(err)
	}
	var p struct {
		Stages  int
		Actions []struct {
			Name string
			ALUs []struct {
				Grammar, Kind string
				State         []string
			}
			Edges  []struct{ From, To, Input int }
			Writes []struct {
				Field string
				Value struct {
					Kind  string
					Index *int
				}
			}
			Placements []struct {
				Table  string
				Stages []int
			}
		}
	}
	if err := json.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if p.Stages != 2 || len(p.Actions) != 1 {
		t.Fatalf("pipeline.json: %d stages, %d actions", p.Stages, len(p.Actions))
	}
	a := p.Actions[0]
	switch {
	case len(a.ALUs) != 2 || a.ALUs[0].Kind != "stateful" || a.ALUs[0].Grammar != "if_else_raw" || len(a.ALUs[0].State) != 1 || a.ALUs[0].State[0] != "count[0]" || a.ALUs[1].Kind != "stateless":
		t.Errorf("ALUs: %+v", a.ALUs)
	case len(a.Edges) != 1 || a.Edges[0].From != 0 || a.Edges[0].To != 1:
		t.Errorf("edges: %+v", a.Edges)
	case len(a.Writes) != 1 || a.Writes[0].Field != "hdr.app.sample" || a.Writes[0].Value.Kind != "alu" || *a.Writes[0].Value.Index != 1:
		t.Errorf("writes: %+v", a.Writes)
	case len(a.Placements) != 1 || a.Placements[0].Table != "sampler" || fmt.Sprint(a.Placements[0].Stages) != "[0 1]":
		t.Errorf("placements: %+v", a.Placements)
	}
	dot, err := os.ReadFile(filepath.Join(out, "pipeline.dot"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"subgraph cluster_stage0", "subgraph cluster_stage1", "a0_alu0 -> a0_alu1", `a0_alu1 -> "hdr.app.sample"`} {
		if !strings.Contains(string(dot), want) {
			t.Errorf("pipeline.dot has no %q:\n%s", want, dot)
		}
	}
}

// TestCompileReplacesItsFiles: a compile into a folder replaces what the
// last compile there wrote: a failure leaves its report (with the
// reason, the phases reached and the diagnostic's place) and none of the
// earlier success's files; files of the user's stay.
func TestCompileReplacesItsFiles(t *testing.T) {
	out := t.TempDir()
	mine := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(mine, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI("compile", "--target", "tofino", "-o", out, filepath.Join(corpus, "ok/sampling.p4")); code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "tofino.p4")); err != nil {
		t.Fatal(err)
	}
	// flowlet.p4 hashes into 8000 values: Tofino's hash unit has no modulo.
	code, _, stderr := runCLI("compile", "--target", "tofino", "-o", out, filepath.Join(corpus, "ok/flowlet.p4"))
	if code != exitDoesNotFit {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "tofino.p4")); !os.IsNotExist(err) {
		t.Errorf("the earlier compile's tofino.p4 is still there (%v)", err)
	}
	if data, err := os.ReadFile(mine); err != nil || string(data) != "mine" {
		t.Errorf("notes.txt: %q, %v", data, err)
	}
	var r struct {
		Status, Error string
		Reached       []string
		Diagnostics   []struct {
			File         string
			Line, Column int
			Code         string
		}
		Artifacts []any
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "does-not-fit" || !strings.Contains(r.Error, "a hash with base 0 and max 8000") || len(r.Artifacts) != 0 {
		t.Errorf("report: status %q, error %q, %d artifacts", r.Status, r.Error, len(r.Artifacts))
	}
	if strings.Join(r.Reached, " ") != "frontend transform synth alloc backend" {
		t.Errorf("reached %v", r.Reached)
	}
	// The refusal, and notes about the compile before it (flowlet's
	// wrapping difference).
	var refusals []int
	for i, d := range r.Diagnostics {
		if d.Code == "DoesNotFit" {
			refusals = append(refusals, i)
		}
	}
	if len(refusals) != 1 || !strings.HasSuffix(r.Diagnostics[refusals[0]].File, "flowlet.p4") || r.Diagnostics[refusals[0]].Line == 0 {
		t.Errorf("diagnostics %+v", r.Diagnostics)
	}
}

// TestTargets: `p4hls targets` lists the registry, the default first,
// with each target's limits (Tofino's 12 stages, CaT §4.3; Menshen's 6,
// its RTL's) and ALUs.
func TestTargets(t *testing.T) {
	code, stdout, stderr := runCLI("targets", "--json")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	var infos []struct {
		Name    string
		Default bool
		Limits  struct{ Stages int }
		ALUs    []struct{ Name, Kind string }
		Options []struct{ Name, Default string }
	}
	if err := json.Unmarshal([]byte(stdout), &infos); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		name   string
		stages int
		alu    string
	}{{"tofino", 12, "stateful"}, {"menshen", 6, "if_else"}, {"banzai", 32, "pair"}}
	// Then xdp and hxdp, processors: no stages, no ALUs, the CPU port
	// option (hxdp's program is xdp's).
	if len(infos) != len(want)+2 {
		t.Fatalf("%d targets", len(infos))
	}
	for i, name := range []string{"xdp", "hxdp"} {
		if x := infos[3+i]; x.Name != name || x.Limits.Stages != 0 || len(x.ALUs) != 0 || len(x.Options) != 1 || x.Options[0].Name != "cpu-port" || x.Options[0].Default != "510" {
			t.Errorf("target %d: %+v, want %s without stages or ALUs, option cpu-port=510", 3+i, x, name)
		}
	}
	for i, w := range want {
		got := infos[i]
		hasALU := false
		for _, a := range got.ALUs {
			hasALU = hasALU || a.Name == w.alu && a.Kind == "stateful"
		}
		if got.Name != w.name || got.Limits.Stages != w.stages || !hasALU || got.Default != (i == 0) {
			t.Errorf("target %d: %+v, want %s with %d stages and ALU %s", i, got, w.name, w.stages, w.alu)
		}
	}
	if o := infos[1].Options; len(o) != 1 || o[0].Name != "tenant" || o[0].Default != "1" {
		t.Errorf("menshen's options: %+v", o)
	}
	code, stdout, _ = runCLI("targets")
	if code != exitOK || !strings.Contains(stdout, "tofino (default)") || !strings.Contains(stdout, "--option tenant=VALUE") {
		t.Errorf("exit %d\n%s", code, stdout)
	}
}

// TestCompileInterrupted: Ctrl-C (the context main cancels on SIGINT)
// during synthesis ends the compile as interrupted, not as an internal
// error: exit 1, a message naming the phase, and a report saying so.
func TestCompileInterrupted(t *testing.T) {
	out := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	var stdout, stderr bytes.Buffer
	// --exhaustive: BLUE's one-stage mapping is searched to the end,
	// which takes minutes.
	code := run(ctx, []string{"compile", "--target", "tofino", "--exhaustive", "-o", out, filepath.Join(corpus, "ok/blue_increase.p4")}, &stdout, &stderr)
	if code != exitUserErr || !strings.Contains(stderr.String(), "p4hls: interrupted: ") || !strings.Contains(stderr.String(), "synthesizing action blue_increase") {
		t.Errorf("exit %d\n%s", code, stderr.String())
	}
	var r struct{ Status, Error string }
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err == nil {
		err = json.Unmarshal(data, &r)
	}
	if err != nil || r.Status != "interrupted" {
		t.Errorf("report: %+v, %v", r, err)
	}
}
