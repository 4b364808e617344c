package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/p4hls/p4hls/api"
	"github.com/p4hls/p4hls/frontend"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/store"
)

// benchServeOptions are `p4hls bench serve`'s flags.
type benchServeOptions struct {
	server                string // "" starts a server in this process
	corpus                string
	concurrency, soak     int
	maxCompiles, maxQueue int
	jsonOut               string
	// results is the started server's result cache, whose size the soak
	// prints (its entries are heap the soak means to keep).
	results *store.Memory
}

// serveFigures are the benchmark's results, as --json writes them.
type serveFigures struct {
	Requests       int                 `json:"requests"`
	Concurrency    int                 `json:"concurrency"`
	Cold           latency             `json:"cold"`
	Warm           latency             `json:"warm"`
	Throughput     float64             `json:"cold_compiles_per_second"`
	Overload       map[string]int      `json:"overload_codes"`
	Check1000      latency             `json:"check_1000_lines"`
	CancelLatency  latency             `json:"cancel_latency"`
	PeakRSSMiB     float64             `json:"peak_rss_mib"`
	Soak           map[string][2]int64 `json:"soak_start_end,omitempty"`
	ErrorsBeyondRE int                 `json:"errors_other_than_resource_exhausted"`
}

// latency is a set of times' median and 99th percentile, in ms.
type latency struct {
	N   int     `json:"n"`
	P50 float64 `json:"p50_ms"`
	P99 float64 `json:"p99_ms"`
}

func latencyOf(ds []time.Duration) latency {
	if len(ds) == 0 {
		return latency{}
	}
	slices.Sort(ds)
	at := func(q float64) float64 { return float64(ds[int(q*float64(len(ds)-1)+0.5)]) / float64(time.Millisecond) }
	return latency{N: len(ds), P50: at(0.5), P99: at(0.99)}
}

func (l latency) String() string {
	return fmt.Sprintf("p50 %.1f ms, p99 %.1f ms (n=%d)", l.P50, l.P99, l.N)
}

// benchServe is `p4hls bench serve`: a load test of the service over
// loopback, against a server in this process (which also lets it read
// its RSS, goroutines, heap and live solver contexts) or a started one.
func benchServe(ctx context.Context, o benchServeOptions, stdout, stderr io.Writer) int {
	addr, running, stop, err := benchServer(ctx, o)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls bench serve: %v\n", err)
		return exitUserErr
	}
	defer stop()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30)))
	if err != nil {
		fmt.Fprintf(stderr, "p4hls bench serve: %v\n", err)
		return exitUserErr
	}
	defer conn.Close()
	client := pb.NewCompilerClient(conn)
	reqs, err := benchRequests(ctx, o.corpus)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls bench serve: %v\n", err)
		return exitUserErr
	}
	fig := serveFigures{Concurrency: o.concurrency, Overload: map[string]int{}}
	burst := make([]*pb.CompileRequest, o.concurrency)
	for i := range burst {
		burst[i] = reqs[i%len(reqs)]
	}
	start := time.Now()
	cold, codes := fire(ctx, client, burst)
	fig.Throughput = float64(len(cold)) / time.Since(start).Seconds()
	fig.Cold = latencyOf(cold)
	fmt.Fprintf(stdout, "cold: %d concurrent compiles of %d programs: %v; %.2f compiles/s; codes %v\n", len(burst), len(reqs), fig.Cold, fig.Throughput, codes)
	fig.ErrorsBeyondRE += othersThanRE(codes)
	warm, codes := fire(ctx, client, burst)
	fig.Warm = latencyOf(warm)
	fmt.Fprintf(stdout, "warm: %d concurrent identical requests: %v; codes %v\n", len(burst), fig.Warm, codes)
	fig.ErrorsBeyondRE += othersThanRE(codes)
	_, fig.Overload = fire(ctx, client, overloadBurst(reqs[0], 2*o.concurrency))
	fmt.Fprintf(stdout, "overload: %d distinct requests at once: codes %v\n", 2*o.concurrency, fig.Overload)
	fig.ErrorsBeyondRE += othersThanRE(fig.Overload)
	fig.Check1000 = benchCheck(ctx, client, stdout)
	fig.CancelLatency = benchCancel(ctx, client, reqs, running, stdout)
	if o.soak > 0 && o.server == "" {
		fig.Soak = benchSoak(ctx, client, soakRequest(reqs), o.soak, o.results, stdout)
	}
	fig.PeakRSSMiB = peakRSS()
	fig.Requests = 2*len(burst) + 2*o.concurrency
	fmt.Fprintf(stdout, "peak RSS of this process: %.0f MiB; errors other than ResourceExhausted: %d\n", fig.PeakRSSMiB, fig.ErrorsBeyondRE)
	return writeJSON(o.jsonOut, fig, stderr)
}

// benchServer is the server to load: the one at o.server, or one started
// here on free loopback ports with a bounded queue, whose running
// compiles the benchmark can count (running is nil for the other).
func benchServer(ctx context.Context, o benchServeOptions) (addr string, running func() int, stop func(), err error) {
	if o.server != "" {
		return o.server, nil, func() {}, nil
	}
	srv, err := api.Listen(ctx, api.ServerConfig{GRPCAddr: "127.0.0.1:0", HTTPAddr: "127.0.0.1:0",
		Service: api.Config{Version: compilerVersion(), MaxCompiles: o.maxCompiles, MaxQueue: o.maxQueue, Results: o.results}})
	if err != nil {
		return "", nil, nil, err
	}
	go srv.Serve()
	return srv.GRPCAddr(), srv.Service().Running, func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}, nil
}

// benchRequests are CaT's Table 4 rows as requests, SipHash aside (not a
// Table 4 row, and minutes long).
func benchRequests(ctx context.Context, dir string) ([]*pb.CompileRequest, error) {
	var out []*pb.CompileRequest
	for _, row := range table4 {
		if row.File == "siphash" {
			continue
		}
		file := filepath.Join(dir, row.File+".p4")
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		files, main, _, _, err := requestFiles(ctx, file, src, frontend.Options{})
		if err != nil {
			return nil, err
		}
		out = append(out, &pb.CompileRequest{Files: files, Main: main, Target: row.Target, Options: &pb.CompileOptions{Alu: row.ALU}})
	}
	return out, nil
}

// overloadBurst is n distinct requests (a macro nobody reads tells them
// apart, so none is a cache hit) of req.
func overloadBurst(req *pb.CompileRequest, n int) []*pb.CompileRequest {
	out := make([]*pb.CompileRequest, n)
	for i := range out {
		r := proto.Clone(req).(*pb.CompileRequest)
		r.Options.Defines = map[string]string{"P4HLS_BENCH_OVERLOAD": fmt.Sprint(time.Now().UnixNano(), i)}
		out[i] = r
	}
	return out
}

// fire sends the requests at once and returns the times of those that
// succeeded and the count of each status code.
func fire(ctx context.Context, client pb.CompilerClient, reqs []*pb.CompileRequest) ([]time.Duration, map[string]int) {
	times := make([]time.Duration, len(reqs))
	errs := make([]error, len(reqs))
	var wg sync.WaitGroup
	for i, r := range reqs {
		wg.Go(func() {
			start := time.Now()
			_, errs[i] = client.Compile(ctx, r)
			times[i] = time.Since(start)
		})
	}
	wg.Wait()
	var ok []time.Duration
	counts := map[string]int{}
	for i, err := range errs {
		counts[status.Code(err).String()]++
		if err == nil {
			ok = append(ok, times[i])
		}
	}
	return ok, counts
}

func othersThanRE(counts map[string]int) int {
	n := 0
	for code, c := range counts {
		if code != codes.OK.String() && code != codes.ResourceExhausted.String() {
			n += c
		}
	}
	return n
}

// benchCheck times Check of a generated program of about 1,000 lines.
func benchCheck(ctx context.Context, client pb.CompilerClient, stdout io.Writer) latency {
	src := switchProgram(86, 6)
	lines := strings.Count(src, "\n")
	req := &pb.CheckRequest{Files: map[string]string{"switch.p4": src}, Main: "switch.p4"}
	var times []time.Duration
	for range 50 {
		start := time.Now()
		resp, err := client.Check(ctx, req)
		if err != nil || !resp.Ok {
			fmt.Fprintf(stdout, "check: %v %v\n", err, resp.GetDiagnostics())
			return latency{}
		}
		times = append(times, time.Since(start))
	}
	l := latencyOf(times)
	fmt.Fprintf(stdout, "check of a %d-line program: %v\n", lines, l)
	return l
}

// benchCancel measures how long a compile that would run for minutes
// (BLUE increase on Tofino, --exhaustive) takes to stop once its client
// cancels during synthesis: from the cancel until the server's driver,
// and the solver it was in, returned and gave back the compile's turn
// (running, polled). Against a server elsewhere it can only see its
// stream end.
func benchCancel(ctx context.Context, client pb.CompilerClient, reqs []*pb.CompileRequest, running func() int, stdout io.Writer) latency {
	var long *pb.CompileRequest
	for _, r := range reqs {
		if strings.HasSuffix(r.Main, "blue_increase.p4") && r.Target == "tofino" {
			long = proto.Clone(r).(*pb.CompileRequest)
		}
	}
	if long == nil {
		return latency{}
	}
	long.Options.Exhaustive = true
	var times []time.Duration
	for i := range 10 {
		long.Options.Defines = map[string]string{"P4HLS_BENCH_CANCEL": fmt.Sprint(i)}
		cctx, cancel := context.WithCancel(ctx)
		stream, err := client.CompileStream(cctx, long)
		for err == nil {
			var ev *pb.CompileEvent
			if ev, err = stream.Recv(); err == nil && ev.GetAction() == nil && ev.GetPhase().GetDetail() == "action blue_increase" {
				time.Sleep(200 * time.Millisecond) // inside the solver
				start := time.Now()
				cancel()
				for err == nil {
					_, err = stream.Recv()
				}
				for running != nil && running() > 0 && time.Since(start) < time.Minute {
					time.Sleep(100 * time.Microsecond)
				}
				times = append(times, time.Since(start))
			}
		}
		cancel()
	}
	l := latencyOf(times)
	fmt.Fprintf(stdout, "cancel of a minutes-long compile during synthesis: %v\n", l)
	return l
}

// soakRequest is Marple new flow for Tofino: one action, a quick compile
// that still runs every phase and the solvers (the proof and allocation
// on Z3) when its queries come from the cache.
func soakRequest(reqs []*pb.CompileRequest) *pb.CompileRequest {
	for _, r := range reqs {
		if strings.HasSuffix(r.Main, "marple_new_flow.p4") && r.Target == "tofino" {
			return r
		}
	}
	return reqs[0]
}

// benchSoak runs n compiles in a loop, each distinct (so each runs the
// phases, its queries answered by the cache after the first), and
// prints goroutines, heap and live Z3 contexts before and after.
func benchSoak(ctx context.Context, client pb.CompilerClient, req *pb.CompileRequest, n int, results *store.Memory, stdout io.Writer) map[string][2]int64 {
	count := func() (int64, int64, int64, int64) {
		runtime.GC()
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return int64(runtime.NumGoroutine()), int64(m.HeapAlloc), z3.LiveContexts(), int64(results.Bytes())
	}
	failed := 0
	// One compile first, so the caches and the connection are warm.
	client.Compile(ctx, req)
	g0, h0, z0, c0 := count()
	for i := range n {
		r := proto.Clone(req).(*pb.CompileRequest)
		r.Options.Defines = map[string]string{"P4HLS_BENCH_SOAK": fmt.Sprint(i)}
		if _, err := client.Compile(ctx, r); err != nil {
			failed++
		}
	}
	g1, h1, z1, c1 := count()
	fmt.Fprintf(stdout, "soak: %d compiles (%d failed): goroutines %d -> %d, heap %.1f -> %.1f MiB (of which the result cache's entries %.1f -> %.1f MiB), live Z3 contexts %d -> %d\n",
		n, failed, g0, g1, float64(h0)/(1<<20), float64(h1)/(1<<20), float64(c0)/(1<<20), float64(c1)/(1<<20), z0, z1)
	return map[string][2]int64{"goroutines": {g0, g1}, "heap_bytes": {h0, h1}, "result_cache_bytes": {c0, c1}, "z3_contexts": {z0, z1}}
}

// peakRSS is this process's peak resident set (VmHWM), in MiB.
func peakRSS() float64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			var kb float64
			fmt.Sscanf(strings.TrimSpace(rest), "%f", &kb)
			return kb / 1024
		}
	}
	return 0
}
