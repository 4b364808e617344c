package api

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// longCompile is a compile that runs for minutes: BLUE increase on
// Tofino with --exhaustive searches the one-stage mapping to its end
// (README: 2 min 23 s).
func longCompile(t *testing.T) *pb.CompileRequest {
	return &pb.CompileRequest{Files: corpusFiles(t, "blue_increase.p4"), Main: "ok/blue_increase.p4", Target: "tofino",
		Options: &pb.CompileOptions{Exhaustive: true}}
}

// startLong starts the long compile as a stream and returns once
// synthesis has begun (so it holds a turn), with the stream's cancel.
func startLong(t *testing.T, s *testServer) (pb.Compiler_CompileStreamClient, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stream, err := s.client.CompileStream(ctx, longCompile(t))
	if err != nil {
		t.Fatal(err)
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			t.Fatalf("the long compile ended early: %v", err)
		}
		if ev.GetPhase().GetPhase() == "synth" {
			return stream, cancel
		}
	}
}

// waitIdle waits until no compile runs: the cancelled one has stopped
// and given back its turn. The bound is for a hung test, not a measure.
func waitIdle(t *testing.T, s *testServer) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); len(s.svc.compiles.slots) > 0; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the cancelled compile still holds its turn after a minute")
		}
	}
}

// TestQueueBoundAndCancel: with one compile at a time and none waiting,
// a second compile is refused with ResourceExhausted (429 over HTTP);
// a client that goes away cancels its compile, which gives back its
// turn, and the next compile runs.
func TestQueueBoundAndCancel(t *testing.T) {
	s := startServer(t, Config{MaxCompiles: 1, MaxQueue: -1})
	stream, cancel := startLong(t, s)
	other := &pb.CompileRequest{Files: map[string]string{"main.p4": "const bit<8> X = 1;\n"}, Main: "main.p4"}
	_, err := s.client.Compile(context.Background(), other)
	if status.Code(err) != codes.ResourceExhausted || !strings.Contains(err.Error(), "1 compiles running and 0 waiting") {
		t.Errorf("a compile past the bound: %v, want ResourceExhausted", err)
	}
	if code, body := s.post(t, "/v1/compile", map[string]any{"files": other.Files, "main": "main.p4"}); code != http.StatusTooManyRequests {
		t.Errorf("over HTTP: %d %s, want 429", code, body)
	}
	cancel()
	for {
		if _, err := stream.Recv(); err != nil {
			if status.Code(err) != codes.Canceled {
				t.Errorf("the cancelled stream: %v", err)
			}
			break
		}
	}
	waitIdle(t, s)
	if _, err := s.client.Compile(context.Background(), other); err != nil {
		t.Errorf("a compile after the cancelled one: %v", err)
	}
}

// TestDeadlines: the request's own time limit and the client's deadline
// both end a long compile with DeadlineExceeded, and the compile stops.
func TestDeadlines(t *testing.T) {
	s := startServer(t, Config{MaxCompiles: 1})
	req := longCompile(t)
	req.Options.Timeout = durationpb.New(500 * time.Millisecond)
	if _, err := s.client.Compile(context.Background(), req); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("options.timeout: %v, want DeadlineExceeded", err)
	}
	waitIdle(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	if _, err := s.client.Compile(ctx, longCompile(t)); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("the client's deadline: %v, want DeadlineExceeded", err)
	}
	waitIdle(t, s)
	s2 := startServer(t, Config{MaxTimeout: 300 * time.Millisecond})
	if _, err := s2.client.Compile(context.Background(), longCompile(t)); status.Code(err) != codes.DeadlineExceeded {
		t.Errorf("the server's maximum: %v, want DeadlineExceeded", err)
	}
}

// TestDrain: Shutdown with a compile in flight says not ready at once,
// and at its deadline cancels the compile, whose client gets an error
// rather than a result.
func TestDrain(t *testing.T) {
	s := startServer(t, Config{})
	stream, cancel := startLong(t, s)
	defer cancel()
	ctx, stop := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- s.Shutdown(ctx) }()
	for !s.draining.Load() {
		time.Sleep(time.Millisecond)
	}
	rec := &statusRecorder{}
	s.readyz(rec, nil)
	if rec.code != http.StatusServiceUnavailable {
		t.Errorf("/readyz while draining: %d", rec.code)
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			if c := status.Code(err); c != codes.Unavailable && c != codes.Canceled {
				t.Errorf("the drained compile ended with %v", err)
			}
			break
		}
		if ev.GetResult() != nil {
			t.Fatal("the minutes-long compile gave a result during a 300 ms drain")
		}
	}
	if err := <-done; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	waitIdle(t, s)
}

// statusRecorder is the least http.ResponseWriter that keeps the status.
type statusRecorder struct {
	code int
	head http.Header
}

func (r *statusRecorder) Header() http.Header {
	if r.head == nil {
		r.head = http.Header{}
	}
	return r.head
}
func (r *statusRecorder) Write(b []byte) (int, error) {
	if r.code == 0 {
		r.code = 200
	}
	return len(b), nil
}
func (r *statusRecorder) WriteHeader(code int) { r.code = code }
