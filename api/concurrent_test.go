package api

import (
	"bytes"
	"context"
	"sync"
	"testing"

	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// TestConcurrentCompiles: eight compiles at once (four requests, each
// twice) through one server, two running and the rest queued, share the
// caches and give each request one answer: the two copies' artifacts are
// the same bytes. make test runs it under -race.
func TestConcurrentCompiles(t *testing.T) {
	s := startServer(t, Config{MaxCompiles: 2, MaxQueue: 8})
	reqs := []*pb.CompileRequest{
		{Files: corpusFiles(t, "acl.p4"), Main: "ok/acl.p4"},
		{Files: corpusFiles(t, "five_tables.p4"), Main: "ok/five_tables.p4", Target: "banzai"},
		{Files: corpusFiles(t, "marple_new_flow.p4"), Main: "ok/marple_new_flow.p4", Target: "banzai", Options: &pb.CompileOptions{Alu: "pred_raw"}},
		{Files: corpusFiles(t, "acl.p4"), Main: "ok/acl.p4", Options: &pb.CompileOptions{Mode: "feasible"}},
	}
	got := make([]*pb.CompileResponse, 2*len(reqs))
	errs := make([]error, len(got))
	var wg sync.WaitGroup
	for i := range got {
		wg.Go(func() { got[i], errs[i] = s.client.Compile(context.Background(), reqs[i%len(reqs)]) })
	}
	wg.Wait()
	for i := range reqs {
		a, b := got[i], got[i+len(reqs)]
		if errs[i] != nil || errs[i+len(reqs)] != nil {
			t.Fatalf("request %d: %v, %v", i, errs[i], errs[i+len(reqs)])
		}
		if a.Report.Status != "ok" || b.Report.Status != "ok" || len(a.Artifacts) == 0 || len(a.Artifacts) != len(b.Artifacts) {
			t.Fatalf("request %d: %s, %s", i, a.Report.Status, b.Report.Status)
		}
		for j := range a.Artifacts {
			if !bytes.Equal(a.Artifacts[j].Data, b.Artifacts[j].Data) {
				t.Errorf("request %d: %s differs between its two compiles", i, a.Artifacts[j].Name)
			}
		}
	}
}
