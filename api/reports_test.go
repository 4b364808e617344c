package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// TestReports: a compile's response names its stage map in its header
// metadata (gRPC) and its HTTP header (REST), the same id both ways (the
// second answer comes from the cache), and GET /v1/reports/{id} serves
// the page: Marple new flow for Tofino, its table in a stage column.
// An unknown id is 404; a malformed one 400.
func TestReports(t *testing.T) {
	s := startServer(t, Config{Version: "test"})
	req := &pb.CompileRequest{Files: corpusFiles(t, "marple_new_flow.p4"), Main: "ok/marple_new_flow.p4", Target: "tofino"}
	var header metadata.MD
	if _, err := s.client.Compile(context.Background(), req, grpc.Header(&header)); err != nil {
		t.Fatal(err)
	}
	ids := header.Get(ReportHeader)
	if len(ids) != 1 || len(ids[0]) != 64 {
		t.Fatalf("header metadata %v: no report id", header)
	}
	id := ids[0]
	body, err := json.Marshal(map[string]any{"files": req.Files, "main": req.Main, "target": "tofino"})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Post(s.url+"/v1/compile", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if got := resp.Header.Get("Grpc-Metadata-" + ReportHeader); got != id {
		t.Errorf("REST's report header: got %q, want %q", got, id)
	}
	code, page := s.get(t, "/v1/reports/"+id)
	if code != http.StatusOK || !strings.Contains(page, `<svg class="stagemap"`) || !strings.Contains(page, `data-kind="table"`) ||
		!strings.Contains(page, "ok/marple_new_flow.p4") {
		t.Fatalf("GET the report: %d\n%.400s", code, page)
	}
	if code, _ := s.get(t, "/v1/reports/"+strings.Repeat("0", 64)); code != http.StatusNotFound {
		t.Errorf("an unknown report: got %d, want 404", code)
	}
	if code, _ := s.get(t, "/v1/reports/nosuch"); code != http.StatusBadRequest {
		t.Errorf("a malformed id: got %d, want 400", code)
	}
}
