package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/menshen"
)

// TestCompileMenshen: compile --target menshen writes the configuration
// as text and as control frames (one per header of each line), and
// records the compile; sim --target menshen runs a packet test on the
// model configured by it, and reports broken expectations.
func TestCompileMenshen(t *testing.T) {
	out := t.TempDir()
	code, stdout, stderr := runCLI("compile", "--target", "menshen", "-o", out, filepath.Join(corpus, "ok/sampling.p4"))
	if code != exitOK || !strings.Contains(stdout, "menshen: "+filepath.Join(out, "menshen.conf")) {
		t.Fatalf("exit %d\n%s%s", code, stdout, stderr)
	}
	// sampler is applied under hdr.app.isValid(), which Menshen folds into
	// the table's key (it has no gateways); the count, then the
	// comparison: 2 stages, the table's match in each.
	var report struct {
		PerStage []map[string]int `json:"per_stage"`
	}
	data, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err == nil {
		err = json.Unmarshal(data, &report)
	}
	if err != nil {
		t.Fatal(err)
	}
	for s, u := range report.PerStage {
		if u["gateways"] != 0 || u["tables"] != 1 || u["containers"] == 0 {
			t.Errorf("stage %d: %v, want 1 table, no gateway, containers", s, u)
		}
	}
	if len(report.PerStage) != 2 {
		t.Errorf("%d stages, want 2", len(report.PerStage))
	}
	conf, err := os.ReadFile(filepath.Join(out, "menshen.conf"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(conf)), "\n")
	// A parser entry, a deparser entry, then per table and stage:
	// key-extract, mask, one CAM entry, one action (sampling: the count in
	// stage 0, the comparison in stage 1, each with its copy of the match).
	kinds := []string{"Parser", "Deparser", "KeyExtractConf", "CAMMaskConf", "CAMConf", "RAMConf", "KeyExtractConf", "CAMMaskConf", "CAMConf", "RAMConf"}
	if len(lines) != len(kinds) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(kinds), conf)
	}
	for i, k := range kinds {
		if !strings.HasPrefix(lines[i], k+" ") {
			t.Errorf("line %d is %.30s, want %s", i+1, lines[i], k)
		}
	}
	pcap, err := os.ReadFile(filepath.Join(out, "menshen-config.pcap"))
	if err != nil {
		t.Fatal(err)
	}
	frames, err := menshen.ReadPcap(bytes.NewReader(pcap))
	if err != nil || len(frames) != len(lines) {
		t.Fatalf("%d frames in the pcap (%v), want %d", len(frames), err, len(lines))
	}

	stf := filepath.Join(corpus, "..", "menshen", "sampling.stf")
	if code, stdout, stderr := runCLI("sim", "--target", "menshen", out, stf); code != exitOK || !strings.Contains(stdout, "31 packets, 32 expectations, 0 mismatches") {
		t.Errorf("sim: exit %d\n%s%s", code, stdout, stderr)
	}
	// The interpreter's test starts the count at 27: Menshen cannot.
	if code, _, stderr := runCLI("sim", "--target", "menshen", out, filepath.Join(corpus, "ok/sampling.stf")); code != exitUserErr || !strings.Contains(stderr, "cannot be configured") {
		t.Errorf("sim with a register write: exit %d\n%s", code, stderr)
	}
	bad := filepath.Join(t.TempDir(), "bad.stf")
	text, _ := os.ReadFile(stf)
	os.WriteFile(bad, []byte(strings.Replace(string(text), "00000001 $\n", "00000000 $\n", 1)), 0o644)
	if code, _, stderr := runCLI("sim", "--target", "menshen", out, bad); code != exitUserErr || !strings.Contains(stderr, "packet 30: byte 45") {
		t.Errorf("sim with a wrong expectation: exit %d\n%s", code, stderr)
	}
	if code, _, stderr := runCLI("sim", "--target", "menshen", t.TempDir(), stf); code != exitUserErr || !strings.Contains(stderr, "compile with --target menshen") {
		t.Errorf("sim without a compile: exit %d\n%s", code, stderr)
	}
}

// TestCompileMenshenDoesNotFit: what the target lacks is named, at the
// place in the source, with exit status 2.
func TestCompileMenshenDoesNotFit(t *testing.T) {
	code, _, stderr := runCLI("compile", "--target", "menshen", "-o", t.TempDir(), filepath.Join(corpus, "ok/marple_new_flow.p4"))
	if code != exitDoesNotFit || !strings.Contains(stderr, "marple_new_flow.p4:19:5: error: register seen has 1024 cells") {
		t.Errorf("exit %d\n%s", code, stderr)
	}
	code, _, stderr = runCLI("compile", "--target", "menshen", "-D", "NUM_FLOWS=1", "-o", t.TempDir(), filepath.Join(corpus, "ok/marple_new_flow.p4"))
	if code != exitOK {
		t.Errorf("one-cell variant: exit %d\n%s", code, stderr)
	}
}
