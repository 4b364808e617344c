package api

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/grpc-ecosystem/grpc-gateway/v2/runtime"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/reflection"
	"google.golang.org/protobuf/encoding/protojson"

	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
)

// ServerConfig configures a Server: the service and where it listens.
type ServerConfig struct {
	Service Config
	// GRPCAddr and HTTPAddr are the listening addresses (":0" or
	// "127.0.0.1:0" for a free port).
	GRPCAddr, HTTPAddr string
}

// Server serves the Compiler service over gRPC (with health checking
// and reflection) and, through grpc-gateway, over HTTP with /healthz,
// /readyz, /metrics and /openapi.json beside it.
type Server struct {
	svc      *Service
	log      *slog.Logger
	grpc     *grpc.Server
	health   *health.Server
	http     *http.Server
	gateway  *grpc.ClientConn
	grpcLis  net.Listener
	httpLis  net.Listener
	draining atomic.Bool
}

// Listen binds both addresses and builds the server; Serve serves.
// Binding first lets a caller print the ports (":0" picks free ones).
func Listen(ctx context.Context, cfg ServerConfig) (*Server, error) {
	svc := NewService(cfg.Service)
	s := &Server{svc: svc, log: svc.cfg.Logger}
	var err error
	if s.grpcLis, err = net.Listen("tcp", cfg.GRPCAddr); err != nil {
		return nil, fmt.Errorf("gRPC: %w", err)
	}
	if s.httpLis, err = net.Listen("tcp", cfg.HTTPAddr); err != nil {
		s.grpcLis.Close()
		return nil, fmt.Errorf("HTTP: %w", err)
	}
	s.grpc = grpc.NewServer(
		grpc.ForceServerCodec(textCodec{}),
		grpc.MaxRecvMsgSize(svc.cfg.Limits.MaxRequestBytes),
		grpc.ChainUnaryInterceptor(svc.cfg.Metrics.UnaryInterceptor, s.logUnary, s.recoverUnary),
		grpc.ChainStreamInterceptor(svc.cfg.Metrics.StreamInterceptor, s.logStream, s.recoverStream),
	)
	pb.RegisterCompilerServer(s.grpc, svc)
	s.health = health.NewServer()
	healthpb.RegisterHealthServer(s.grpc, s.health)
	reflection.Register(s.grpc)
	handler, err := s.httpHandler(ctx)
	if err != nil {
		s.grpcLis.Close()
		s.httpLis.Close()
		return nil, err
	}
	s.http = &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	return s, nil
}

// GRPCAddr and HTTPAddr are the addresses listened on.
func (s *Server) GRPCAddr() string { return s.grpcLis.Addr().String() }
func (s *Server) HTTPAddr() string { return s.httpLis.Addr().String() }

// Service is the server's service.
func (s *Server) Service() *Service { return s.svc }

// httpHandler routes HTTP: the REST routes to the gateway, which calls
// the gRPC server through a connection of its own (in-process
// registration cannot stream), and the server's own pages.
func (s *Server) httpHandler(ctx context.Context) (http.Handler, error) {
	var err error
	maxMsg := s.svc.cfg.Limits.MaxRequestBytes
	s.gateway, err = grpc.NewClient(s.GRPCAddr(), grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(maxMsg)))
	if err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	gw := runtime.NewServeMux(
		// The JSON names of report.json (per_stage, not perStage), every
		// field written as report.json writes every key.
		runtime.WithMarshalerOption(runtime.MIMEWildcard, &runtime.JSONPb{
			MarshalOptions: protojson.MarshalOptions{UseProtoNames: true, EmitUnpopulated: true}}),
	)
	if err := pb.RegisterCompilerHandler(ctx, gw, s.gateway); err != nil {
		return nil, fmt.Errorf("gateway: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("/v1/", limitBody(gw, int64(maxMsg)))
	mux.HandleFunc("GET /v1/reports/{id}", s.report)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) { fmt.Fprintln(w, "ok") })
	mux.HandleFunc("GET /readyz", s.readyz)
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.svc.cfg.Metrics.Registry, promhttp.HandlerOpts{}))
	mux.HandleFunc("GET /openapi.json", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write(pb.OpenAPI)
	})
	return mux, nil
}

// readyz is 200 while the server takes requests, 503 once it drains.
func (s *Server) readyz(w http.ResponseWriter, _ *http.Request) {
	if s.draining.Load() {
		http.Error(w, "draining", http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintln(w, "ready")
}

// limitBody refuses a body larger than max with 413, as grpc-gateway
// writes errors (a JSON status), before the gateway reads it.
func limitBody(next http.Handler, max int64) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength > max {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusRequestEntityTooLarge)
			json.NewEncoder(w).Encode(map[string]any{"code": 8, "message": fmt.Sprintf("the request has %d bytes; at most %d", r.ContentLength, max)})
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, max)
		next.ServeHTTP(w, r)
	})
}

// Serve serves until Shutdown, then returns nil, or the first error of
// either listener.
func (s *Server) Serve() error {
	s.health.SetServingStatus("", healthpb.HealthCheckResponse_SERVING)
	s.health.SetServingStatus(pb.Compiler_ServiceDesc.ServiceName, healthpb.HealthCheckResponse_SERVING)
	var wg sync.WaitGroup
	errs := make([]error, 2)
	wg.Go(func() { errs[0] = s.grpc.Serve(s.grpcLis) })
	wg.Go(func() {
		if err := s.http.Serve(s.httpLis); !errors.Is(err, http.ErrServerClosed) {
			errs[1] = err
		}
	})
	wg.Wait()
	return errors.Join(errs...)
}

// Shutdown drains: /readyz and health checks say not serving, no new
// request is taken, and those in flight finish; when ctx ends first, the
// compiles still running are cancelled (their solvers stop) and their
// clients told so. The server writes nothing but its caches, and a
// result is kept only once complete, so nothing is left half-written.
func (s *Server) Shutdown(ctx context.Context) error {
	s.draining.Store(true)
	s.health.Shutdown()
	var wg sync.WaitGroup
	var httpErr error
	wg.Go(func() { httpErr = s.http.Shutdown(ctx) })
	stopped := make(chan struct{})
	go func() {
		s.grpc.GracefulStop()
		close(stopped)
	}()
	select {
	case <-stopped:
	case <-ctx.Done():
		s.log.Warn("drain deadline: cancelling the compiles in flight")
		s.grpc.Stop()
		<-stopped
	}
	wg.Wait()
	if httpErr != nil {
		s.http.Close()
	}
	return errors.Join(s.gateway.Close(), s.svc.cfg.Results.Close())
}

// logUnary and logStream write a line per request.
func (s *Server) logUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (any, error) {
	start := time.Now()
	resp, err := next(ctx, req)
	attrs := []any{"method", info.FullMethod, "code", codeOf(err), "seconds", time.Since(start).Seconds()}
	if r, ok := resp.(*pb.CompileResponse); ok {
		attrs = append(attrs, "status", r.GetReport().GetStatus(), "cached", r.GetCached())
	}
	s.logCall(ctx, err, attrs)
	return resp, err
}

func (s *Server) logStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) error {
	start := time.Now()
	err := next(srv, ss)
	s.logCall(ss.Context(), err, []any{"method", info.FullMethod, "code", codeOf(err), "seconds", time.Since(start).Seconds()})
	return err
}

func (s *Server) logCall(ctx context.Context, err error, attrs []any) {
	if err != nil {
		attrs = append(attrs, "error", err.Error())
	}
	s.log.InfoContext(ctx, "request", attrs...)
}

// recoverUnary and recoverStream turn a handler's panic, a p4hls bug,
// into an Internal error for its client rather than the end of the
// server and every other compile in it.
func (s *Server) recoverUnary(ctx context.Context, req any, info *grpc.UnaryServerInfo, next grpc.UnaryHandler) (resp any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = s.svc.internal(ctx, fmt.Errorf("panic in %s: %v\n%s", info.FullMethod, r, debug.Stack()))
		}
	}()
	return next(ctx, req)
}

func (s *Server) recoverStream(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, next grpc.StreamHandler) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = s.svc.internal(ss.Context(), fmt.Errorf("panic in %s: %v\n%s", info.FullMethod, r, debug.Stack()))
		}
	}()
	return next(srv, ss)
}
