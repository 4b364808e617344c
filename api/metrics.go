package api

import (
	"context"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"google.golang.org/grpc"
	"google.golang.org/grpc/status"

	"github.com/p4hls/p4hls/report"
)

// Metrics are a server's Prometheus metrics, in a registry of their own
// (not the process-wide default: two servers in one test process count
// apart).
type Metrics struct {
	Registry       *prometheus.Registry
	requests       *prometheus.CounterVec
	requestSeconds *prometheus.HistogramVec
	phaseSeconds   *prometheus.HistogramVec
	compiles       *prometheus.CounterVec
	queued         prometheus.Gauge
	inFlight       prometheus.Gauge
	cache          *prometheus.CounterVec
	queries        *prometheus.CounterVec
}

// NewMetrics makes the metrics, with Go's runtime and the process's.
func NewMetrics() *Metrics {
	m := &Metrics{
		Registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "p4hls_requests_total",
			Help: "Requests by method and gRPC status code."}, []string{"method", "code"}),
		requestSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "p4hls_request_seconds",
			Help: "Request time by method.", Buckets: prometheus.ExponentialBuckets(0.001, 4, 10)}, []string{"method"}),
		phaseSeconds: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "p4hls_phase_seconds",
			Help:    "Time of each phase of the compiles run (not those answered from cache).",
			Buckets: prometheus.ExponentialBuckets(0.001, 4, 10)}, []string{"phase"}),
		compiles: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "p4hls_compiles_total",
			Help: "Compiles run, by the report's status."}, []string{"status"}),
		queued: prometheus.NewGauge(prometheus.GaugeOpts{Name: "p4hls_queue_length",
			Help: "Compiles waiting for a turn."}),
		inFlight: prometheus.NewGauge(prometheus.GaugeOpts{Name: "p4hls_compiles_in_flight",
			Help: "Compiles running."}),
		cache: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "p4hls_result_cache_total",
			Help: "Result cache lookups, by outcome (hit or miss)."}, []string{"outcome"}),
		queries: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "p4hls_synth_queries_total",
			Help: "Synthesis queries, by who answered them (solver or cache)."}, []string{"answered"}),
	}
	m.Registry.MustRegister(m.requests, m.requestSeconds, m.phaseSeconds, m.compiles, m.queued, m.inFlight, m.cache, m.queries,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return m
}

// queueChanged is the queue's report of compiles running and waiting.
func (m *Metrics) queueChanged(running, waiting int) {
	m.inFlight.Set(float64(running))
	m.queued.Set(float64(waiting))
}

// compiled counts a compile that ran.
func (m *Metrics) compiled(r report.Report) {
	m.compiles.WithLabelValues(string(r.Status)).Inc()
	for _, phase := range r.Reached {
		m.phaseSeconds.WithLabelValues(phase).Observe(r.Phases[phase])
	}
	// synth.Stats counts the queries the solver ran and those the cache
	// answered apart.
	m.queries.WithLabelValues("cache").Add(float64(r.CacheHits))
	m.queries.WithLabelValues("solver").Add(float64(r.SolverQueries))
}

func (m *Metrics) cacheLookup(hit bool) {
	if hit {
		m.cache.WithLabelValues("hit").Inc()
	} else {
		m.cache.WithLabelValues("miss").Inc()
	}
}

// observe counts a finished request.
func (m *Metrics) observe(method string, start time.Time, err error) {
	m.requests.WithLabelValues(method, status.Code(err).String()).Inc()
	m.requestSeconds.WithLabelValues(method).Observe(time.Since(start).Seconds())
}

// UnaryInterceptor and StreamInterceptor count requests.
func (m *Metrics) UnaryInterceptor(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := next(ctx, req)
	m.observe(info.FullMethod, start, err)
	return resp, err
}

func (m *Metrics) StreamInterceptor(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	start := time.Now()
	err := next(srv, ss)
	m.observe(info.FullMethod, start, err)
	return err
}

// codeOf is an error's gRPC code as text.
func codeOf(err error) string { return status.Code(err).String() }
