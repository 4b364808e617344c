package api

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
	"google.golang.org/grpc/status"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/corpus"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// testServer is a server on free loopback ports, its gRPC client, and
// its HTTP base URL.
type testServer struct {
	*Server
	client pb.CompilerClient
	conn   *grpc.ClientConn
	url    string
}

func startServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	s, err := Listen(context.Background(), ServerConfig{Service: cfg, GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0"})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- s.Serve() }()
	conn, err := grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		conn.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &testServer{Server: s, client: pb.NewCompilerClient(conn), conn: conn, url: "http://" + s.HTTPAddr()}
}

// corpusFiles are a corpus program and the header it includes, as a
// request holds them: "ok/NAME.p4" includes "../include/bench.p4".
func corpusFiles(t *testing.T, name string) map[string]string {
	t.Helper()
	files := map[string]string{}
	for _, rel := range []string{"ok/" + name, "include/bench.p4"} {
		data, err := os.ReadFile(filepath.Join(corpus.Dir(), rel))
		if err != nil {
			t.Fatal(err)
		}
		files[rel] = string(data)
	}
	return files
}

// post sends a JSON body to the REST endpoint and returns the status and
// the body.
func (s *testServer) post(t *testing.T, path string, body any) (int, []byte) {
	t.Helper()
	data, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.url+path, "application/json", bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

func (s *testServer) get(t *testing.T, path string) (int, string) {
	t.Helper()
	resp, err := http.Get(s.url + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

// TestCompileOverGRPCAndHTTP compiles Marple new flow for Tofino over a
// real socket both ways, and compares with the driver run in this
// process on the same text: the same status, stages, action and
// tofino.p4 bytes. The second identical request, over the other
// transport, comes from the cache with the same bytes.
func TestCompileOverGRPCAndHTTP(t *testing.T) {
	s := startServer(t, Config{Version: "test"})
	files := corpusFiles(t, "marple_new_flow.p4")
	req := &pb.CompileRequest{Files: files, Main: "ok/marple_new_flow.p4", Target: "tofino"}
	resp, err := s.client.Compile(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	local, err := driver.Compile(context.Background(), driver.Request{File: "ok/marple_new_flow.p4", Source: []byte(files["ok/marple_new_flow.p4"]),
		Frontend: frontendFiles(files), Target: "tofino"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := resp.Report
	if r.Status != "ok" || resp.Cached || r.Target != "tofino" || int(r.Stages) != local.Report.Stages || len(r.Actions) != 1 || r.Actions[0].Name != "new_flow" {
		t.Fatalf("report: status %s, cached %v, target %s, %d stages (driver: %d), actions %v", r.Status, resp.Cached, r.Target, r.Stages, local.Report.Stages, r.Actions)
	}
	if len(resp.Artifacts) != 1 || resp.Artifacts[0].Name != "tofino.p4" || resp.Artifacts[0].MediaType != "text/x-p4" ||
		!bytes.Equal(resp.Artifacts[0].Data, local.Artifacts[0].Data) {
		t.Fatalf("artifacts differ from the driver's: %d", len(resp.Artifacts))
	}
	if len(r.Artifacts) != 1 || r.Artifacts[0].Sha256 != local.Report.Artifacts[0].SHA256 {
		t.Errorf("report's artifacts %v", r.Artifacts)
	}

	code, body := s.post(t, "/v1/compile", map[string]any{"files": files, "main": "ok/marple_new_flow.p4", "target": "tofino"})
	var again struct {
		Report struct {
			Status   string `json:"status"`
			Stages   int    `json:"stages"`
			PerStage []any  `json:"per_stage"`
		} `json:"report"`
		Artifacts []struct {
			Name string `json:"name"`
			Data []byte `json:"data"`
		} `json:"artifacts"`
		Cached bool `json:"cached"`
	}
	if err := json.Unmarshal(body, &again); err != nil || code != http.StatusOK {
		t.Fatalf("POST /v1/compile: %d %v\n%s", code, err, body)
	}
	if !again.Cached || again.Report.Status != "ok" || again.Report.Stages != local.Report.Stages || len(again.Report.PerStage) != local.Report.Stages ||
		len(again.Artifacts) != 1 || !bytes.Equal(again.Artifacts[0].Data, local.Artifacts[0].Data) {
		t.Errorf("the second request over HTTP: cached %v, %+v", again.Cached, again.Report)
	}
}

// TestProgramErrorsAreResults: a program with errors is a successful
// call holding the diagnostic, placed by hand: Y at line 1, columns 18
// to 19 of `const bit<8> X = Y;`.
func TestProgramErrorsAreResults(t *testing.T) {
	s := startServer(t, Config{})
	files := map[string]string{"main.p4": "const bit<8> X = Y;\n"}
	resp, err := s.client.Compile(context.Background(), &pb.CompileRequest{Files: files, Main: "main.p4"})
	if err != nil {
		t.Fatal(err)
	}
	want := "main.p4:1:18-1:19 error UndeclaredName"
	if resp.Report.Status != "program-error" || !hasDiagnostic(resp.Report.Diagnostics, want) {
		t.Errorf("compile: status %s, diagnostics %v; want %s", resp.Report.Status, resp.Report.Diagnostics, want)
	}
	check, err := s.client.Check(context.Background(), &pb.CheckRequest{Files: files, Main: "main.p4"})
	if err != nil {
		t.Fatal(err)
	}
	if check.Ok || !hasDiagnostic(check.Diagnostics, want) {
		t.Errorf("check: ok %v, diagnostics %v; want %s", check.Ok, check.Diagnostics, want)
	}
	code, body := s.post(t, "/v1/check", map[string]any{"files": files, "main": "main.p4"})
	if code != http.StatusOK || !strings.Contains(string(body), `"code":"UndeclaredName"`) || !strings.Contains(string(body), `"end_column":19`) {
		t.Errorf("POST /v1/check: %d %s", code, body)
	}
}

func hasDiagnostic(ds []*pb.Diagnostic, want string) bool {
	for _, d := range ds {
		if fmt.Sprintf("%s:%d:%d-%d:%d %s %s", d.File, d.Line, d.Column, d.EndLine, d.EndColumn, d.Severity, d.Code) == want {
			return true
		}
	}
	return false
}

// TestIncludesStayInTheRequest: an #include of a file that exists on the
// server's disk, by absolute path or climbing out of the request, is not
// found; one among the request's files is.
func TestIncludesStayInTheRequest(t *testing.T) {
	s := startServer(t, Config{})
	secret := filepath.Join(t.TempDir(), "secret.p4")
	os.WriteFile(secret, []byte("const bit<8> S = 1;\n"), 0o644)
	for _, tc := range []struct {
		include string
		found   bool
	}{
		{`#include "` + secret + `"`, false},
		{`#include "../../../../../../../../` + secret + `"`, false},
		{`#include "lib/x.p4"`, true},
	} {
		files := map[string]string{"main.p4": tc.include + "\n", "lib/x.p4": "const bit<8> X = 1;\n"}
		resp, err := s.client.Check(context.Background(), &pb.CheckRequest{Files: files, Main: "main.p4"})
		if err != nil {
			t.Fatal(err)
		}
		notFound := false
		for _, d := range resp.Diagnostics {
			notFound = notFound || d.Code == "IncludeNotFound"
		}
		if notFound == tc.found {
			t.Errorf("%s: not found %v, want %v", tc.include, notFound, !tc.found)
		}
	}
}

// TestBadRequests: every malformed request is InvalidArgument, and its
// message names the field; over HTTP it is a 400.
func TestBadRequests(t *testing.T) {
	s := startServer(t, Config{})
	ok := map[string]string{"main.p4": "const bit<8> X = 1;\n"}
	tests := []struct {
		req   *pb.CompileRequest
		field string
	}{
		{&pb.CompileRequest{Files: ok}, "main: missing"},
		{&pb.CompileRequest{Files: ok, Main: "other.p4"}, `main: "other.p4" is not a key of files`},
		{&pb.CompileRequest{Main: "main.p4"}, "files: no files"},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Target: "fpga"}, `target: unknown target "fpga"`},
		{&pb.CompileRequest{Files: map[string]string{"../main.p4": "x"}, Main: "../main.p4"}, `files["../main.p4"]: a path must be clean`},
		{&pb.CompileRequest{Files: map[string]string{"/etc/passwd": "x"}, Main: "/etc/passwd"}, `files["/etc/passwd"]: an absolute path`},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{Limits: &pb.Limits{Stages: -1}}}, "options.limits.stages: -1"},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{VerifyPackets: 2_000_000_000}}, "options.verify_packets: 2000000000"},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{Alu: "pair"}}, `options.alu: target tofino has no stateful ALU "pair"`},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{Solver: "gurobi"}}, `options.solver: unknown solver "gurobi"`},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{Mode: "fast"}}, `options.mode: "fast"`},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{TargetOptions: map[string]string{"tenant": "3"}}}, "options.target_options: target tofino takes no options"},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{Defines: map[string]string{"1X": "2"}}}, `defines["1X"]: not a macro name`},
		{&pb.CompileRequest{Files: ok, Main: "main.p4", Options: &pb.CompileOptions{IncludeDirs: []string{"../up"}}}, "include_dirs[0]: a path must be clean"},
	}
	for _, tc := range tests {
		_, err := s.client.Compile(context.Background(), tc.req)
		if status.Code(err) != codes.InvalidArgument || !strings.Contains(status.Convert(err).Message(), tc.field) {
			t.Errorf("%v: got %v, want InvalidArgument naming %q", tc.req, err, tc.field)
		}
	}
	code, body := s.post(t, "/v1/compile", map[string]any{"files": ok, "main": "nope.p4"})
	if code != http.StatusBadRequest || !strings.Contains(string(body), `main: \"nope.p4\" is not a key of files`) {
		t.Errorf("POST /v1/compile with a bad main: %d %s", code, body)
	}
	code, body = s.post(t, "/v1/compile", map[string]any{"files": ok, "main": "main.p4", "bogus": 1})
	if code != http.StatusBadRequest {
		t.Errorf("POST /v1/compile with an unknown field: %d %s", code, body)
	}
}

// TestStream: the stream tells each phase as it starts, the action once
// synthesized, the placement, then the result, over gRPC and as
// newline-delimited JSON over HTTP.
func TestStream(t *testing.T) {
	s := startServer(t, Config{})
	req := &pb.CompileRequest{Files: corpusFiles(t, "marple_new_flow.p4"), Main: "ok/marple_new_flow.p4", Target: "tofino"}
	stream, err := s.client.CompileStream(context.Background(), req)
	if err != nil {
		t.Fatal(err)
	}
	var seen []string
	last := 0.0
	for {
		ev, err := stream.Recv()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.ElapsedSeconds < last {
			t.Errorf("elapsed time went back: %v after %v", ev.ElapsedSeconds, last)
		}
		last = ev.ElapsedSeconds
		switch e := ev.Event.(type) {
		case *pb.CompileEvent_Phase:
			if len(seen) == 0 || seen[len(seen)-1] != e.Phase.Phase {
				seen = append(seen, e.Phase.Phase)
			}
		case *pb.CompileEvent_Action:
			seen = append(seen, "action "+e.Action.Action.Name)
		case *pb.CompileEvent_Alloc:
			seen = append(seen, fmt.Sprintf("placed %v", e.Alloc.Solved))
		case *pb.CompileEvent_Result:
			seen = append(seen, "result "+e.Result.Report.Status)
		}
	}
	want := "frontend transform synth action new_flow alloc placed true backend result ok"
	if got := strings.Join(seen, " "); got != want {
		t.Errorf("events %q, want %q", got, want)
	}

	// Over HTTP, a new request (another target) so it is not a cache hit.
	req.Target = "banzai"
	req.Options = &pb.CompileOptions{Alu: "pred_raw"}
	code, body := s.post(t, "/v1/compile:stream", map[string]any{"files": req.Files, "main": req.Main, "target": "banzai", "options": map[string]any{"alu": "pred_raw"}})
	if code != http.StatusOK {
		t.Fatalf("POST /v1/compile:stream: %d %s", code, body)
	}
	var kinds []string
	sc := bufio.NewScanner(bytes.NewReader(body))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var chunk struct {
			Result map[string]json.RawMessage `json:"result"`
		}
		if err := json.Unmarshal(sc.Bytes(), &chunk); err != nil {
			t.Fatalf("a line that is not JSON: %v\n%s", err, sc.Bytes())
		}
		for k := range chunk.Result {
			if k != "elapsed_seconds" {
				kinds = append(kinds, k)
			}
		}
	}
	if len(kinds) < 6 || kinds[0] != "phase" || kinds[len(kinds)-1] != "result" {
		t.Errorf("HTTP stream chunks %v", kinds)
	}
}

// TestTargetsAndPages: ListTargets over both transports, and the
// server's own pages.
func TestTargetsAndPages(t *testing.T) {
	s := startServer(t, Config{})
	resp, err := s.client.ListTargets(context.Background(), &pb.ListTargetsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tg := range resp.Targets {
		names = append(names, tg.Name)
	}
	if strings.Join(names, " ") != "tofino menshen banzai xdp hxdp" || !resp.Targets[0].Default || resp.Targets[1].Options[0].Name != "tenant" ||
		resp.Targets[0].Limits.Stages != 12 {
		t.Errorf("targets %v", names)
	}
	if code, body := s.get(t, "/v1/targets"); code != 200 || !strings.Contains(body, `"name":"menshen"`) || !strings.Contains(body, `"alus_per_stage"`) {
		t.Errorf("GET /v1/targets: %d %.200s", code, body)
	}
	if code, body := s.get(t, "/healthz"); code != 200 || body != "ok\n" {
		t.Errorf("/healthz: %d %q", code, body)
	}
	if code, _ := s.get(t, "/readyz"); code != 200 {
		t.Errorf("/readyz: %d", code)
	}
	var doc struct {
		Paths map[string]any `json:"paths"`
	}
	code, body := s.get(t, "/openapi.json")
	if code != 200 || json.Unmarshal([]byte(body), &doc) != nil || doc.Paths["/v1/compile"] == nil || doc.Paths["/v1/compile:stream"] == nil {
		t.Errorf("/openapi.json: %d %.200s", code, body)
	}
	if code, body := s.get(t, "/metrics"); code != 200 || !strings.Contains(body, `p4hls_requests_total{code="OK",method="/p4hls.v1.Compiler/ListTargets"} 2`) {
		t.Errorf("/metrics: %d, no count of the two ListTargets calls", code)
	}
	h, err := healthpb.NewHealthClient(s.conn).Check(context.Background(), &healthpb.HealthCheckRequest{Service: "p4hls.v1.Compiler"})
	if err != nil || h.Status != healthpb.HealthCheckResponse_SERVING {
		t.Errorf("health: %v %v", h, err)
	}
	// Reflection lists the services, as grpcurl's `list` asks.
	refl, err := reflectionpb.NewServerReflectionClient(s.conn).ServerReflectionInfo(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	refl.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}})
	listed, err := refl.Recv()
	if err != nil {
		t.Fatal(err)
	}
	var services []string
	for _, svc := range listed.GetListServicesResponse().GetService() {
		services = append(services, svc.Name)
	}
	if !slices.Contains(services, "p4hls.v1.Compiler") || !slices.Contains(services, "grpc.health.v1.Health") {
		t.Errorf("reflection lists %v", services)
	}
}

// frontendFiles is the driver's frontend options for a request's files.
func frontendFiles(files map[string]string) frontend.Options {
	return frontend.Options{Files: requestFiles(files)}
}

// twoActions is Marple new flow with a second synthesized action, a
// packet counter, in a table of its own; count's increment is step.
func twoActions(step int) string {
	return fmt.Sprintf(`#include <core.p4>
#include <v1model.p4>
header app_t { bit<32> flow; bit<32> new_flow; }
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1024) seen;
    register<bit<32>>(1) packets;
    action new_flow() {
        bit<32> idx = hdr.app.flow & 1023;
        @atomic {
            bit<32> s;
            seen.read(s, idx);
            if (s == 0) { hdr.app.new_flow = 1; s = 1; } else { hdr.app.new_flow = 0; }
            seen.write(idx, s);
        }
    }
    action count() {
        @atomic {
            bit<32> c;
            packets.read(c, 0);
            c = c + %d;
            packets.write(0, c);
        }
    }
    table flows { actions = { new_flow; } default_action = new_flow(); }
    table counts { actions = { count; } default_action = count(); }
    apply {
        if (hdr.app.isValid()) { flows.apply(); counts.apply(); }
    }
}
BENCH_MAIN
`, step)
}

// TestEditResynthesizesOneAction: after a compile, an edit to one action
// (count's increment) asks the solver nothing: new_flow's queries all
// come from the shared query cache, and count's configurations, found for
// the old increment, move to the new one and are proved for it.
func TestEditResynthesizesOneAction(t *testing.T) {
	s := startServer(t, Config{})
	files := corpusFiles(t, "marple_new_flow.p4")
	delete(files, "ok/marple_new_flow.p4")
	compile := func(step int) map[string]*pb.Action {
		files["ok/two.p4"] = twoActions(step)
		resp, err := s.client.Compile(context.Background(), &pb.CompileRequest{Files: files, Main: "ok/two.p4", Target: "banzai", Options: &pb.CompileOptions{Alu: "pred_raw"}})
		if err != nil {
			t.Fatal(err)
		}
		if resp.Report.Status != "ok" {
			t.Fatalf("step %d: %s %s %v", step, resp.Report.Status, resp.Report.Error, resp.Report.Diagnostics)
		}
		out := map[string]*pb.Action{}
		for _, a := range resp.Report.Actions {
			out[a.Name] = a
		}
		return out
	}
	first := compile(1)
	if first["new_flow"].Queries == 0 || first["count"].Queries == 0 {
		t.Fatalf("the first compile asked no queries: %v", first)
	}
	edited := compile(3)
	if nf := edited["new_flow"]; nf.Queries != 0 || nf.CacheHits == 0 {
		t.Errorf("new_flow, unchanged: %d queries, %d cache hits; want 0 and some", nf.Queries, nf.CacheHits)
	}
	if c := edited["count"]; c.Queries != 0 || c.CacheHits == 0 {
		t.Errorf("count, edited: %d queries, %d cache hits; want 0 and some", c.Queries, c.CacheHits)
	}
}
