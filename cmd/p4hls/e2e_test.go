package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/driver"
)

// TestBinaryOverCorpus builds the p4hls binary and compiles every program
// of the corpus with it for Banzai's pred_raw atom, as a CI job would:
// the exit status is 0, or 2 for the programs whose stateful update
// pred_raw cannot hold (CaT's Table 4 gives them richer atoms), and a
// successful compile leaves a report with the documented fields and the
// ALU pipeline. Then every program for Tofino (tofinoOverCorpus) and for
// every other registered target (no exit 3 on any), and one Menshen and
// one Tofino compile checked more closely.
func TestBinaryOverCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary and compiles the corpus")
	}
	bin := filepath.Join(t.TempDir(), "p4hls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// Programs pred_raw cannot hold, and why (CaT Table 4's atoms).
	doesNotFit := map[string]string{
		"blue_decrease.p4":        "no configuration of ALU pred_raw",  // sub
		"blue_decrease_sat.p4":    "no configuration of ALU pred_raw",  // sub
		"sampling.p4":             "no configuration of ALU pred_raw",  // if_else_raw
		"dns_ttl_change.p4":       "no configuration of ALU pred_raw",  // nested_ifs
		"stfq.p4":                 "no configuration of ALU pred_raw",  // nested_ifs
		"conga.p4":                "read each other",                   // pair
		"snap_heavy_hitter.p4":    "read each other",                   // pair
		"siphash.p4":              "no configuration of ALU stateless", // Banzai has no xor
		"sampling_keyed.p4":       "no configuration of ALU pred_raw",  // if_else_raw
		"blue_decrease_assume.p4": "no configuration of ALU pred_raw",  // sub
		"conga_two_index.p4":      "read each other",                   // refused on every target
	}
	files, err := filepath.Glob(filepath.Join(corpus, "ok", "*.p4"))
	if err != nil || len(files) < 40 {
		t.Fatalf("%d corpus programs (%v)", len(files), err)
	}
	for _, file := range files {
		name := filepath.Base(file)
		out := t.TempDir()
		code, stderr := runBinary(t, bin, "compile", "--target", "banzai", "--alu", "pred_raw", "-o", out, file)
		if why, ok := doesNotFit[name]; ok {
			if code != exitDoesNotFit || !strings.Contains(stderr, name+":") || !strings.Contains(stderr, why) {
				t.Errorf("%s: exit %d, want 2 with %q\n%s", name, code, why, stderr)
			}
			continue
		}
		if code != exitOK {
			t.Errorf("%s: exit %d\n%s", name, code, stderr)
			continue
		}
		stages := checkReport(t, name, out, "banzai")
		var p struct{ Stages int }
		if data, err := os.ReadFile(filepath.Join(out, "pipeline.json")); err != nil || json.Unmarshal(data, &p) != nil || p.Stages != stages {
			t.Errorf("%s: pipeline.json: %v, %d stages, report %d", name, err, p.Stages, stages)
		}
		if _, err := os.Stat(filepath.Join(out, "pipeline.dot")); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	tofinoOverCorpus(t, bin, files)
	otherTargetsOverCorpus(t, bin, files, "banzai", "tofino")
	out := t.TempDir()
	if code, stderr := runBinary(t, bin, "compile", "--target", "menshen", "-o", out, filepath.Join(corpus, "ok", "sampling.p4")); code != exitOK {
		t.Errorf("menshen: exit %d\n%s", code, stderr)
	}
	checkReport(t, "sampling.p4 (menshen)", out, "menshen")
	for _, f := range []string{"menshen.conf", "menshen-config.pcap", "menshen.json", "menshen.txt"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("menshen: %v", err)
		}
	}
	out = t.TempDir()
	if code, stderr := runBinary(t, bin, "compile", "--target", "tofino", "-o", out, filepath.Join(corpus, "ok", "marple_new_flow.p4")); code != exitOK {
		t.Errorf("tofino: exit %d\n%s", code, stderr)
	}
	checkReport(t, "marple_new_flow.p4 (tofino)", out, "tofino")
	// The TNA program checks against the bundled tna.p4 and passes the
	// original's packet test.
	if code, stderr := runBinary(t, bin, "check", filepath.Join(out, "tofino.p4")); code != exitOK {
		t.Errorf("tofino.p4 does not check: exit %d\n%s", code, stderr)
	}
	if code, stderr := runBinary(t, bin, "sim", filepath.Join(out, "tofino.p4"), filepath.Join(corpus, "ok", "marple_new_flow.stf")); code != exitOK {
		t.Errorf("tofino.p4 fails marple_new_flow.stf: exit %d\n%s", code, stderr)
	}
	if code, _ := runBinary(t, bin, "compile", "--target", "banzai", "--alu", "pred_raw", "-o", t.TempDir(), filepath.Join(corpus, "bad", "undeclared_name.p4")); code != exitUserErr {
		t.Errorf("a wrong program: exit %d, want 1", code)
	}
}

// tofinoOverCorpus compiles every corpus program for Tofino with the
// binary: the exit status is 0, or 2 for the programs the backend refuses
// (with the reason); a TNA program written checks with the bundled
// tna.p4 and passes the original's packet test.
func tofinoOverCorpus(t *testing.T, bin string, files []string) {
	refused := map[string]string{
		"custom_arch.p4":     "the Tofino backend takes v1model programs",
		"ecmp.p4":            "hash with max size: a Tofino hash unit has no modulo",
		"flowlet.p4":         "a hash with base 0 and max 8000",
		"flowlet_sat.p4":     "a hash with base 0 and max 8000",
		"random_clone.p4":    "random(32w0, 32w1000): a Tofino Random unit draws uniform bits",
		"flowlet_assume.p4":  "a hash with base 0 and max 8000",
		"conga_two_index.p4": "read each other's old values",
		"special_ops.p4":     "parser state start uses standard metadata, which a Tofino parser does not have",
	}
	// Refused after long searches (no Tofino mapping of their update;
	// SipHash needs 35 stages): the synth tests cover them.
	slow := map[string]bool{"learn_filter.p4": true, "stateful_firewall.p4": true, "stfq.p4": true, "siphash.p4": true,
		"stateful_firewall_keyed.p4": true}
	for _, file := range files {
		name := filepath.Base(file)
		out := t.TempDir()
		if slow[name] {
			// Refused or not, never an internal error.
			if code, stderr := runBinary(t, bin, "compile", "--target", "tofino", "-o", out, file); code == exitInternal {
				t.Errorf("tofino %s: exit 3, an internal error\n%s", name, stderr)
			}
			continue
		}
		code, stderr := runBinary(t, bin, "compile", "--target", "tofino", "-o", out, file)
		if why, ok := refused[name]; ok {
			if code != exitDoesNotFit || !strings.Contains(stderr, why) {
				t.Errorf("tofino %s: exit %d, want 2 with %q\n%s", name, code, why, stderr)
			}
			continue
		}
		if code != exitOK {
			t.Errorf("tofino %s: exit %d\n%s", name, code, stderr)
			continue
		}
		checkReport(t, name+" (tofino)", out, "tofino")
		tna := filepath.Join(out, "tofino.p4")
		if code, stderr := runBinary(t, bin, "check", tna); code != exitOK {
			t.Errorf("tofino %s: the TNA program does not check: exit %d\n%s", name, code, stderr)
			continue
		}
		// With Intel's tna.p4 too, where P4HLS_INTEL_TNA names its folder
		// (p4c's backends/tofino/bf-p4c/p4include): the bundled tna.p4
		// declares what Intel's does, so a program checking with one
		// checks with the other.
		if intel := os.Getenv("P4HLS_INTEL_TNA"); intel != "" {
			if code, stderr := runBinary(t, bin, "check", "-D__TARGET_TOFINO__=1", "-I"+intel, tna); code != exitOK {
				t.Errorf("tofino %s: the TNA program does not check with Intel's tna.p4: exit %d\n%s", name, code, stderr)
			}
		}
		stf := strings.TrimSuffix(file, ".p4") + ".stf"
		if _, err := os.Stat(stf); err == nil {
			if code, stderr := runBinary(t, bin, "sim", tna, stf); code != exitOK {
				t.Errorf("tofino %s: the TNA program fails %s: exit %d\n%s", name, filepath.Base(stf), code, stderr)
			}
		}
	}
}

// otherTargetsOverCorpus compiles every corpus program for every
// registered target but the ones the test checks in detail (done): a
// target may refuse a program (exit 2, saying why), but an internal error
// (exit 3) is p4hls's bug on a user's program.
func otherTargetsOverCorpus(t *testing.T, bin string, files []string, done ...string) {
	for _, target := range driver.Registry().Names() {
		if slices.Contains(done, target) {
			continue
		}
		for _, file := range files {
			code, stderr := runBinary(t, bin, "compile", "--target", target, "-o", t.TempDir(), file)
			if code == exitInternal {
				t.Errorf("%s %s: exit 3, an internal error\n%s", target, filepath.Base(file), stderr)
			}
		}
	}
}

// runBinary runs the built binary and returns its exit status and stderr.
func runBinary(t *testing.T, bin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), stderr.String()
	}
	if err != nil {
		t.Fatal(err)
	}
	return 0, stderr.String()
}

// checkReport checks report.json's documented top level and returns its
// stage count.
func checkReport(t *testing.T, name, dir, target string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Errorf("%s: %v", name, err)
		return 0
	}
	var r struct {
		Target        *string
		Stages        *int
		PerStage      []map[string]int `json:"per_stage"`
		Phases        map[string]float64
		SolverQueries *int `json:"solver_queries"`
		CacheHits     *int `json:"cache_hits"`
		Diagnostics   []map[string]any
		Status        string
	}
	if err := json.Unmarshal(data, &r); err != nil {
		t.Errorf("%s: report.json: %v", name, err)
		return 0
	}
	switch {
	case r.Target == nil || *r.Target != target:
		t.Errorf("%s: target %v, want %s", name, r.Target, target)
	case r.Stages == nil || *r.Stages < 1 || len(r.PerStage) != *r.Stages:
		t.Errorf("%s: stages %v, %d per_stage entries", name, r.Stages, len(r.PerStage))
	case r.SolverQueries == nil || r.CacheHits == nil || *r.SolverQueries < 0 || *r.CacheHits < 0:
		t.Errorf("%s: solver_queries %v, cache_hits %v", name, r.SolverQueries, r.CacheHits)
	case r.Diagnostics == nil || r.Status != "ok":
		t.Errorf("%s: status %q, diagnostics %v", name, r.Status, r.Diagnostics)
	default:
		for _, s := range r.PerStage {
			for _, k := range []string{"tables", "alus", "gateways", "containers"} {
				if _, ok := s[k]; !ok {
					t.Errorf("%s: per_stage has no %q", name, k)
				}
			}
		}
		for _, k := range []string{"frontend", "transform", "synth", "alloc", "verify", "backend"} {
			if v, ok := r.Phases[k]; !ok || v < 0 {
				t.Errorf("%s: phases[%q] = %v, %v", name, k, v, ok)
			}
		}
		return *r.Stages
	}
	return 0
}
