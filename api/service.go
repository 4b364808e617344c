// Package api is p4hls as a service: the Compiler service of
// proto/p4hls/v1 over gRPC, the same through grpc-gateway as REST, and
// the server around them (health, reflection, metrics, limits, a bounded
// queue, a result cache, draining). Handlers validate the request, then
// call the driver with the request's files: nothing is read from the
// server's disk on a client's behalf.
package api

import (
	"cmp"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/check"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/store"
	"github.com/p4hls/p4hls/synth"
)

// Config configures a Service. The zero Config works: the built-in
// targets, memory caches, a compile per core and four times as many
// waiting, DefaultLimits.
type Config struct {
	// Version is the compiler's version; it is part of every result's
	// cache key, so a new compiler never answers with an old one's result.
	Version string
	// Registry holds the targets (nil: driver.Registry()).
	Registry *backends.Registry
	// Results keeps compile results by the hash of their request (nil: a
	// memory store). Queries is synthesis's query cache, shared by every
	// request (nil: one over a memory store).
	Results store.Store
	Queries synth.Cache
	// MaxCompiles run at once (0: one per core); MaxQueue more wait for a
	// turn (0: four times MaxCompiles; negative: none); past that a
	// compile is refused with ResourceExhausted. Checks, which are
	// quick, have a queue of their own of the same size.
	MaxCompiles, MaxQueue int
	// DefaultTimeout bounds a compile whose request sets none (0: 5
	// minutes); MaxTimeout bounds every compile (0: 30 minutes). A
	// client's own deadline applies too.
	DefaultTimeout, MaxTimeout time.Duration
	// Limits bound a request (zero: DefaultLimits()).
	Limits  Limits
	Logger  *slog.Logger
	Metrics *Metrics
}

// withDefaults fills what c leaves unset.
func (c Config) withDefaults() Config {
	if c.Registry == nil {
		c.Registry = driver.Registry()
	}
	if c.Results == nil {
		c.Results = store.NewMemory(store.DefaultMemoryBytes)
	}
	if c.Queries == nil {
		c.Queries = store.NewQueryCache(store.NewMemory(store.DefaultMemoryBytes), 0)
	}
	c.MaxCompiles = cmp.Or(c.MaxCompiles, runtime.NumCPU())
	switch {
	case c.MaxQueue == 0:
		c.MaxQueue = 4 * c.MaxCompiles
	case c.MaxQueue < 0:
		c.MaxQueue = 0
	}
	c.DefaultTimeout = cmp.Or(c.DefaultTimeout, 5*time.Minute)
	c.MaxTimeout = cmp.Or(c.MaxTimeout, 30*time.Minute)
	if c.Limits == (Limits{}) {
		c.Limits = DefaultLimits()
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Metrics == nil {
		c.Metrics = NewMetrics()
	}
	c.Version = cmp.Or(c.Version, "dev")
	return c
}

// Service implements the Compiler service.
type Service struct {
	pb.UnimplementedCompilerServer
	cfg      Config
	compiles *queue
	checks   *queue
}

// NewService makes a service.
func NewService(cfg Config) *Service {
	cfg = cfg.withDefaults()
	return &Service{cfg: cfg,
		compiles: newQueue(cfg.MaxCompiles, cfg.MaxQueue, cfg.Metrics.queueChanged),
		checks:   newQueue(cfg.MaxCompiles, cfg.MaxQueue, nil)}
}

// Running is the number of compiles running: a compile gives back its
// turn only once the driver, and so every solver it called, returned.
func (s *Service) Running() int { return len(s.compiles.slots) }

// Metrics are the service's metrics.
func (s *Service) Metrics() *Metrics { return s.cfg.Metrics }

// Compile runs one compile, or answers from the result cache.
func (s *Service) Compile(ctx context.Context, req *pb.CompileRequest) (*pb.CompileResponse, error) {
	return s.compile(ctx, req, nil)
}

// CompileStream runs one compile, sending its steps as they happen and
// the result last. A result from the cache comes alone.
func (s *Service) CompileStream(req *pb.CompileRequest, stream grpc.ServerStreamingServer[pb.CompileEvent]) error {
	start := time.Now()
	var sendErr error
	send := func(ev *pb.CompileEvent) {
		if sendErr != nil {
			return
		}
		ev.ElapsedSeconds = time.Since(start).Seconds()
		sendErr = stream.Send(ev)
	}
	resp, err := s.compile(stream.Context(), req, send)
	if err != nil {
		return err
	}
	send(&pb.CompileEvent{Event: &pb.CompileEvent_Result{Result: resp}})
	return sendErr
}

// compile is Compile and CompileStream: validate, look in the cache,
// wait for a turn, run the driver, keep a result that another identical
// request would get.
func (s *Service) compile(ctx context.Context, req *pb.CompileRequest, events func(*pb.CompileEvent)) (*pb.CompileResponse, error) {
	if err := s.cfg.Limits.checkCompile(req, s.cfg.Registry); err != nil {
		return nil, err
	}
	norm := s.normalize(req)
	key := ResultKey(norm, s.cfg.Version)
	if resp := s.cached(ctx, key); resp != nil {
		tellReport(ctx, key)
		return resp, nil
	}
	release, err := s.compiles.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	ctx, cancel := context.WithTimeout(ctx, s.timeout(norm))
	defer cancel()
	res, err := driver.Compile(ctx, s.driverRequest(norm, events), nil)
	s.cfg.Metrics.compiled(res.Report)
	if err := s.callError(ctx, res, err); err != nil {
		return nil, err
	}
	resp, err := s.response(res)
	if err != nil {
		return nil, s.internal(ctx, err)
	}
	if cacheable(res.Report.Status) && key != "" {
		s.keepReport(ctx, key, norm.Main, res)
		s.keep(ctx, key, resp)
		tellReport(ctx, key)
	}
	return resp, nil
}

// normalize spells a request one way, defaults filled in, so that two
// requests that mean the same compile have the same cache key.
func (s *Service) normalize(req *pb.CompileRequest) *pb.CompileRequest {
	n := proto.Clone(req).(*pb.CompileRequest)
	b, _ := s.cfg.Registry.Lookup(n.Target)
	if n.Target == "" {
		b = s.cfg.Registry.Backends()[0]
	}
	n.Target = b.Target().Name
	if n.Options == nil {
		n.Options = &pb.CompileOptions{}
	}
	o := n.Options
	o.Alu = cmp.Or(o.Alu, b.Target().Stateful)
	o.Mode = cmp.Or(o.Mode, "optimal")
	if solver, err := alloc.SolverNamed(o.Solver); err == nil {
		o.Solver = solver.Name()
	}
	if proto.Equal(o.Limits, &pb.Limits{}) {
		o.Limits = nil
	}
	return n
}

// timeout is the compile's time limit: the request's, or the default,
// and never more than the server's maximum.
func (s *Service) timeout(req *pb.CompileRequest) time.Duration {
	t := s.cfg.DefaultTimeout
	if d := req.GetOptions().GetTimeout(); d != nil {
		t = d.AsDuration()
	}
	return min(t, s.cfg.MaxTimeout)
}

// driverRequest is the driver's request for a (valid, normalized) one.
func (s *Service) driverRequest(req *pb.CompileRequest, events func(*pb.CompileEvent)) driver.Request {
	o := req.GetOptions()
	files := requestFiles(req.GetFiles())
	dr := driver.Request{
		File: req.Main, Source: files[req.Main], Targets: s.cfg.Registry, Target: req.Target, ALU: o.GetAlu(),
		Frontend:      frontend.Options{Files: files, IncludeDirs: o.GetIncludeDirs(), Defines: o.GetDefines()},
		Synth:         synth.Options{NoPredecessorPacking: o.GetNoPredPack(), Cache: s.cfg.Queries},
		NoPreprocess:  o.GetNoPreprocess(),
		VerifyPackets: int(o.GetVerifyPackets()),
		NoTransform:   o.GetNoTransform(), EmitTransformed: o.GetEmitTransformed(),
		Solver: o.GetSolver(), Stages: int(o.GetLimits().GetStages()), ALUsPerStage: int(o.GetLimits().GetAlusPerStage()),
		TablesPerStage: int(o.GetLimits().GetTablesPerStage()), EntriesPerTable: int(o.GetLimits().GetEntriesPerTable()),
	}
	if len(o.GetTargetOptions()) > 0 {
		dr.Options = backends.Options(o.GetTargetOptions())
	}
	if o.GetMode() == "feasible" {
		dr.AllocMode = alloc.Feasible
	}
	if o.GetExhaustive() {
		dr.Synth.AttemptBudget = -1 // synth.Options: negative, no bound
	}
	if events != nil {
		dr.Events = func(e driver.Event) { events(eventProto(e)) }
	}
	return dr
}

// requestFiles are the request's files as the frontend reads them.
func requestFiles(files map[string]string) map[string][]byte {
	out := make(map[string][]byte, len(files))
	for name, text := range files {
		out[name] = []byte(text)
	}
	return out
}

// eventProto is a step of the compile as the stream sends it.
func eventProto(e driver.Event) *pb.CompileEvent {
	switch {
	case e.Action != nil:
		return &pb.CompileEvent{Event: &pb.CompileEvent_Action{Action: &pb.ActionEvent{Action: ActionProto(*e.Action)}}}
	case e.Alloc != nil:
		return &pb.CompileEvent{Event: &pb.CompileEvent_Alloc{Alloc: &pb.AllocEvent{Detail: e.Detail, Tables: int32(e.Alloc.Tables),
			Stages: int32(e.Stages), ProvenOptimal: e.Alloc.Proven, Solved: true}}}
	}
	return &pb.CompileEvent{Event: &pb.CompileEvent_Phase{Phase: &pb.PhaseEvent{Phase: e.Phase, Detail: e.Detail}}}
}

// callError is the gRPC error of a compile that ended with err, or nil
// when the call succeeds: a compile that ran to its end, a program with
// errors and a program the target cannot hold are results, not errors.
func (s *Service) callError(ctx context.Context, res *driver.Result, err error) error {
	switch res.Report.Status {
	case report.OK, report.ProgramError, report.DoesNotFit:
		return nil
	case report.BadRequest:
		return status.Error(codes.InvalidArgument, err.Error())
	case report.Timeout, report.Interrupted:
		return contextStatus(ctx.Err(), fmt.Sprintf("compiling (phases reached: %v)", res.Report.Reached))
	case report.MemoryLimit:
		return status.Error(codes.ResourceExhausted, err.Error())
	}
	return s.internal(ctx, err)
}

// internal logs a p4hls bug with an id and tells the client the id only.
func (s *Service) internal(ctx context.Context, err error) error {
	var b [6]byte
	rand.Read(b[:])
	id := hex.EncodeToString(b[:])
	s.cfg.Logger.ErrorContext(ctx, "internal error", "id", id, "error", err)
	return status.Errorf(codes.Internal, "internal error in p4hls (the server's log has it as %s)", id)
}

// contextStatus is the status of a call whose context ended while doing
// what.
func contextStatus(err error, what string) error {
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return status.Errorf(codes.DeadlineExceeded, "deadline exceeded %s", what)
	case errors.Is(err, context.Canceled):
		return status.Errorf(codes.Canceled, "canceled %s", what)
	}
	return status.Errorf(codes.Unknown, "%s: %v", what, err)
}

// response is the contract's form of a compile's result.
func (s *Service) response(res *driver.Result) (*pb.CompileResponse, error) {
	rep, err := ReportProto(res.Report)
	if err != nil {
		return nil, err
	}
	return &pb.CompileResponse{Report: rep, Artifacts: ArtifactsProto(res.Artifacts)}, nil
}

// cacheable says whether a compile that ended so would end so again:
// timeouts and interruptions would not, and an internal error is kept
// out so a fixed compiler is asked again.
func cacheable(st report.Status) bool {
	return st == report.OK || st == report.ProgramError || st == report.DoesNotFit
}

// Check runs the frontend on the request's files: the check the editor
// server and `p4hls check` run (package check).
func (s *Service) Check(ctx context.Context, req *pb.CheckRequest) (*pb.CheckResponse, error) {
	if err := s.cfg.Limits.checkCheck(req); err != nil {
		return nil, err
	}
	release, err := s.checks.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	res, err := check.Run(ctx, check.Files(req.Main, requestFiles(req.GetFiles()), req.GetIncludeDirs(), req.GetDefines()))
	if err != nil {
		return nil, contextStatus(ctx.Err(), "checking")
	}
	resp := &pb.CheckResponse{Ok: res.OK()}
	for _, it := range res.Diagnostics.Items() {
		resp.Diagnostics = append(resp.Diagnostics, DiagnosticProto(report.NewDiagnostic(it)))
	}
	return resp, nil
}

// ListTargets lists the registry.
func (s *Service) ListTargets(context.Context, *pb.ListTargetsRequest) (*pb.ListTargetsResponse, error) {
	resp := &pb.ListTargetsResponse{}
	for i, b := range s.cfg.Registry.Backends() {
		tg := b.Target()
		l := tg.Limits
		t := &pb.Target{Name: tg.Name, Description: tg.Description, Default: i == 0,
			Limits: &pb.TargetLimits{Stages: int32(l.Stages), AlusPerStage: int32(l.ALUsPerStage), StatefulAlusPerStage: int32(l.StatefulALUsPerStage),
				HeaderAlus: int32(l.HeaderALUs), TablesPerStage: int32(l.TablesPerStage), EntriesPerTable: int32(l.EntriesPerTable),
				Containers: int32(l.Containers), ContainerBits: int32(l.ContainerBits), WordBits: int32(l.WordBits)}}
		for _, g := range tg.Grammars {
			t.Alus = append(t.Alus, &pb.Grammar{Name: g.Name, Kind: g.Kind.String(), Default: g.Name == tg.Stateful || g.Name == tg.Stateless,
				Source: string(g.Source)})
		}
		for _, o := range b.Options() {
			t.Options = append(t.Options, &pb.TargetOption{Name: o.Name, Description: o.Description, Default: o.Default})
		}
		resp.Targets = append(resp.Targets, t)
	}
	return resp, nil
}
