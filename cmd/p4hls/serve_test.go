package main

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/p4hls/p4hls/internal/redistest"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// serveProcess is a `p4hls serve` process on free ports.
type serveProcess struct {
	cmd       *exec.Cmd
	grpc, url string
	stderr    *strings.Builder
	exited    chan error
}

var listening = regexp.MustCompile(`gRPC on (\S+), HTTP on (\S+) `)

// startServe starts the binary's serve on free loopback ports and reads
// the ports it prints.
func startServe(t *testing.T, bin string, args ...string) *serveProcess {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--grpc-addr", "127.0.0.1:0", "--http-addr", "127.0.0.1:0", "--log-format", "json"}, args...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p := &serveProcess{cmd: cmd, stderr: &strings.Builder{}, exited: make(chan error, 1)}
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { p.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-p.exited
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	m := listening.FindStringSubmatch(line)
	if err != nil || m == nil {
		t.Fatalf("serve printed %q (%v)", line, err)
	}
	p.grpc, p.url = m[1], m[2]
	return p
}

func buildBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "p4hls")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestServeReplicasShareRedis: two server processes with one real
// redis-server as their cache. A compile on the first is a cache hit on
// the second, with the same artifact; then SIGTERM stops each cleanly.
func TestServeReplicasShareRedis(t *testing.T) {
	bin := buildBinary(t)
	url := redistest.Start(t)
	a := startServe(t, bin, "--cache", url)
	b := startServe(t, bin, "--cache", url)
	files := map[string]string{}
	for _, rel := range []string{"ok/marple_new_flow.p4", "include/bench.p4"} {
		data, err := os.ReadFile(filepath.Join(corpus, rel))
		if err != nil {
			t.Fatal(err)
		}
		files[rel] = string(data)
	}
	req := &pb.CompileRequest{Files: files, Main: "ok/marple_new_flow.p4", Target: "tofino"}
	first, second := compileOn(t, a.grpc, req), compileOn(t, b.grpc, req)
	if first.Cached || first.Report.Status != "ok" {
		t.Fatalf("first compile: cached %v, status %s", first.Cached, first.Report.Status)
	}
	if !second.Cached || string(second.Artifacts[0].Data) != string(first.Artifacts[0].Data) {
		t.Errorf("the second server: cached %v", second.Cached)
	}
	for _, p := range []*serveProcess{a, b} {
		p.cmd.Process.Signal(syscall.SIGTERM)
		if err := <-p.exited; err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, p.stderr)
		}
		p.exited <- nil // for the cleanup
		if !strings.Contains(p.stderr.String(), `"msg":"stopped"`) {
			t.Errorf("no JSON log line saying it stopped:\n%s", p.stderr)
		}
	}
}

func compileOn(t *testing.T, addr string, req *pb.CompileRequest) *pb.CompileResponse {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	resp, err := pb.NewCompilerClient(conn).Compile(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	return resp
}

// TestCompileOnServer: `compile --server` writes what a local compile
// writes: the same tofino.p4 and report (times aside), run from the
// repository's root as a CI job would (tofino.p4 names its source, and
// the request names files relative to the working folder); and a
// program with errors exits 1 with its diagnostic on stderr, at its
// place, under the name the user gave.
func TestCompileOnServer(t *testing.T) {
	bin := buildBinary(t)
	srv := startServe(t, bin)
	file := "testdata/p4/ok/marple_new_flow.p4"
	local, remote := t.TempDir(), t.TempDir()
	for _, args := range [][]string{{"-o", local}, {"--server", srv.grpc, "-o", remote}} {
		cmd := exec.Command(bin, append(append([]string{"compile"}, args...), file)...)
		cmd.Dir = "../.."
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("compile %v: %v\n%s", args, err, out)
		}
	}
	if l, r := readFile(t, local, "tofino.p4"), readFile(t, remote, "tofino.p4"); l != r {
		t.Error("tofino.p4 differs")
	}
	if l, r := reportWithoutTimes(t, local), reportWithoutTimes(t, remote); l != r {
		t.Errorf("reports differ:\nlocal  %s\nremote %s", l, r)
	}
	bad := filepath.Join(t.TempDir(), "bad.p4")
	os.WriteFile(bad, []byte("const bit<8> X = Y;\n"), 0o644)
	code, stderr := runBinary(t, bin, "compile", "--server", srv.grpc, "-o", t.TempDir(), bad)
	if code != exitUserErr || !strings.Contains(stderr, bad+":1:18: error: undeclared name Y") {
		t.Errorf("a program with errors: exit %d\n%s", code, stderr)
	}
}

func readFile(t *testing.T, dir, name string) string {
	data, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// reportWithoutTimes is report.json without the keys that hold times.
func reportWithoutTimes(t *testing.T, dir string) string {
	var r map[string]any
	if err := json.Unmarshal([]byte(readFile(t, dir, reportFile)), &r); err != nil {
		t.Fatal(err)
	}
	delete(r, "phases")
	if a, ok := r["alloc"].(map[string]any); ok {
		delete(a, "seconds")
	}
	for _, a := range r["actions"].([]any) {
		delete(a.(map[string]any), "seconds")
	}
	data, _ := json.Marshal(r)
	return string(data)
}

// TestCompileJobs: three programs, two at once, one with errors: a line
// each in the order given, a summary line each, each program's files in
// its folder, and exit status 1 (the worst).
func TestCompileJobs(t *testing.T) {
	out := t.TempDir()
	bad := filepath.Join(t.TempDir(), "bad.p4")
	os.WriteFile(bad, []byte("const bit<8> X = Y;\n"), 0o644)
	files := []string{filepath.Join(corpus, "ok", "acl.p4"), filepath.Join(corpus, "ok", "five_tables.p4"), bad}
	var stdout, stderr strings.Builder
	code := run(context.Background(), append([]string{"compile", "--jobs", "2", "-o", out}, files...), &stdout, &stderr)
	if code != exitUserErr {
		t.Errorf("exit %d, want 1\n%s", code, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 3 || !strings.HasPrefix(lines[0], files[0]+": ok, 1 stages") || !strings.HasPrefix(lines[2], bad+": program-error, 0 stages") {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	summary := strings.Split(strings.TrimSpace(readFile(t, out, summaryFile)), "\n")
	for i, want := range []string{"ok", "ok", "program-error"} {
		var s jobSummary
		if i >= len(summary) || json.Unmarshal([]byte(summary[i]), &s) != nil || s.Status != want || s.File != files[i] {
			t.Errorf("summary line %d: %v, want status %s", i, summary, want)
		}
	}
	for _, name := range []string{"acl/tofino.p4", "five_tables/tofino.p4", "bad/report.json"} {
		if _, err := os.Stat(filepath.Join(out, name)); err != nil {
			t.Error(err)
		}
	}
	if code := run(context.Background(), []string{"compile", "a.p4", "b.p4"}, &stdout, &stderr); code != exitUsage {
		t.Errorf("two files without --jobs: exit %d", code)
	}
}
