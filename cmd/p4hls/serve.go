package main

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/p4hls/p4hls/api"
	"github.com/p4hls/p4hls/store"
)

// runServe implements `p4hls serve`: the compiler as a gRPC and REST
// service on loopback, until SIGTERM or an interrupt, which drain it.
func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	grpcAddr := fs.String("grpc-addr", envOr("P4HLS_GRPC_ADDR", "127.0.0.1:50451"), "serve gRPC on `ADDR` (env P4HLS_GRPC_ADDR; port 0 picks a free one)")
	httpAddr := fs.String("http-addr", envOr("P4HLS_HTTP_ADDR", "127.0.0.1:8451"), "serve REST, /metrics, /healthz, /readyz and /openapi.json on `ADDR` (env P4HLS_HTTP_ADDR)")
	cacheSpec := fs.String("cache", envOr("P4HLS_CACHE", "memory"), "keep results and solver queries in `STORE`: memory, a folder, or redis://HOST:PORT (env P4HLS_CACHE)")
	maxCompiles := fs.Int("max-compiles", 0, "run at most `N` compiles at once (default: one per core)")
	maxQueue := fs.Int("max-queue", 0, "let at most `N` more compiles wait, then refuse with ResourceExhausted (default: 4 per running compile)")
	timeout := fs.Duration("timeout", 5*time.Minute, "a compile's time limit `D` when its request sets none")
	maxTimeout := fs.Duration("max-timeout", 30*time.Minute, "no compile runs longer than `D`")
	drain := fs.Duration("drain", 30*time.Second, "on SIGTERM, let compiles in flight finish for `D`, then cancel them")
	logFormat := fs.String("log-format", envOr("P4HLS_LOG_FORMAT", "text"), "write logs as `FORMAT`: text or json (env P4HLS_LOG_FORMAT)")
	want := operands{}
	fs.Usage = func() { printHelp(stdout, fs, want) }
	if _, code, done := parseArgs(ctx, fs, args, want, stderr); done {
		return code
	}
	log, err := newLogger(*logFormat, stderr)
	if err != nil {
		return usageError(stderr, "serve", "%v", err)
	}
	results, queries, err := openCaches(ctx, *cacheSpec)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls serve: %v\n", err)
		return exitUserErr
	}
	cfg := api.ServerConfig{GRPCAddr: *grpcAddr, HTTPAddr: *httpAddr, Service: api.Config{
		Version: compilerVersion(), Results: results, Queries: store.NewQueryCache(queries, 2*time.Second),
		MaxCompiles: *maxCompiles, MaxQueue: *maxQueue, DefaultTimeout: *timeout, MaxTimeout: *maxTimeout, Logger: log}}
	srv, err := api.Listen(ctx, cfg)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls serve: %v\n", err)
		return exitUserErr
	}
	fmt.Fprintf(stdout, "p4hls serve: gRPC on %s, HTTP on http://%s (cache: %s)\n", srv.GRPCAddr(), srv.HTTPAddr(), results.Name())
	return serveUntilSignal(ctx, srv, *drain, log)
}

// serveUntilSignal serves until SIGTERM or an interrupt, then drains.
func serveUntilSignal(ctx context.Context, srv *api.Server, drain time.Duration, log *slog.Logger) int {
	ctx, stop := signal.NotifyContext(ctx, syscall.SIGTERM, os.Interrupt)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()
	select {
	case err := <-served:
		log.Error("serving", "error", err)
		return exitUserErr
	case <-ctx.Done():
	}
	log.Info("draining", "for", drain.String())
	dctx, cancel := context.WithTimeout(context.Background(), drain)
	defer cancel()
	err := srv.Shutdown(dctx)
	if serr := <-served; serr != nil && err == nil {
		err = serr
	}
	if err != nil {
		log.Error("stopping", "error", err)
		return exitUserErr
	}
	log.Info("stopped")
	return exitOK
}

// openCaches opens the result store and the query store spec names. A
// shared store (a folder, Redis) gets a memory store in front, so each
// key crosses to it once per server.
func openCaches(ctx context.Context, spec string) (results, queries store.Store, err error) {
	if spec == "" || spec == "memory" {
		return store.NewMemory(store.DefaultMemoryBytes), store.NewMemory(store.DefaultMemoryBytes), nil
	}
	shared, err := store.Open(ctx, spec)
	if err != nil {
		return nil, nil, err
	}
	return store.Tiered{Front: store.NewMemory(store.DefaultMemoryBytes), Back: shared},
		store.Tiered{Front: store.NewMemory(store.DefaultMemoryBytes), Back: nopClose{shared}}, nil
}

// nopClose shares a store without closing it twice.
type nopClose struct{ store.Store }

func (nopClose) Close() error { return nil }

func newLogger(format string, w io.Writer) (*slog.Logger, error) {
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, nil)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, nil)), nil
	}
	return nil, fmt.Errorf("--log-format %s: want text or json", format)
}

func envOr(name, dflt string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return dflt
}

// compilerVersion is the version and a hash of this executable, so that
// a rebuilt compiler (a "dev" build too) never answers from the cache of
// another: results are keyed by it.
func compilerVersion() string {
	exe, err := os.Executable()
	if err != nil {
		return version
	}
	data, err := os.ReadFile(exe)
	if err != nil {
		return version
	}
	sum := sha256.Sum256(data)
	return version + "+" + hex.EncodeToString(sum[:8])
}
