package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/p4hls/p4hls/api"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/frontend/cpp"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
	"github.com/p4hls/p4hls/report"
)

// `compile --server ADDR` runs the compile on a p4hls server and writes
// what it sends as a local compile writes its own. The server reads no
// disk of the client's: the request carries the main file and every file
// it includes, found by running the preprocessor here.

// remoteCompiler compiles on a server, through one connection.
type remoteCompiler struct {
	client pb.CompilerClient
	conn   *grpc.ClientConn
}

func dialServer(addr string) (*remoteCompiler, error) {
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(1<<30), grpc.MaxCallSendMsgSize(64<<20)))
	if err != nil {
		return nil, fmt.Errorf("server %s: %w", addr, err)
	}
	return &remoteCompiler{client: pb.NewCompilerClient(conn), conn: conn}, nil
}

// requestFiles finds the files a compile of file reads (the preprocessor
// run here, with the same folders and macros) and names them relative to
// the folder that holds them all. names maps each request path back to
// the name the user knows.
func requestFiles(ctx context.Context, file string, src []byte, opts frontend.Options) (files map[string]string, main string, dirs []string, names map[string]string, err error) {
	var d diag.List
	res, err := cpp.Preprocess(ctx, file, src, cpp.Options{IncludeDirs: opts.IncludeDirs, Bundled: frontend.Bundled(), Defines: opts.Defines, ReadFile: frontend.ReadSource}, &d)
	if err != nil {
		return nil, "", nil, nil, err
	}
	var local []string // files read from disk, not bundled
	for name := range res.Sources {
		if !strings.HasPrefix(name, "<") {
			local = append(local, name)
		}
	}
	slices.Sort(local)
	root, err := requestRoot(append(append([]string{}, local...), opts.IncludeDirs...), opts.IncludeDirs)
	if err != nil {
		return nil, "", nil, nil, err
	}
	rel := func(p string) (string, error) {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		r, err := filepath.Rel(root, abs)
		return filepath.ToSlash(r), err
	}
	files, names = map[string]string{}, map[string]string{}
	for _, name := range local {
		key, err := rel(name)
		if err != nil {
			return nil, "", nil, nil, err
		}
		files[key], names[key] = string(res.Sources[name]), name
	}
	if main, err = rel(file); err != nil {
		return nil, "", nil, nil, err
	}
	for _, dir := range opts.IncludeDirs {
		r, err := rel(dir)
		if err != nil {
			return nil, "", nil, nil, err
		}
		dirs = append(dirs, r)
	}
	return files, main, dirs, names, nil
}

// requestRoot is the folder the request's paths are relative to: the
// working folder when it holds them all, so the server names the files
// as the user did (the artifacts that name the source are then the same
// bytes as a local compile's), else the deepest folder that does.
func requestRoot(paths, dirs []string) (string, error) {
	common, err := commonDir(paths, dirs)
	if err != nil {
		return "", err
	}
	wd, err := os.Getwd()
	if err == nil && strings.HasPrefix(common+string(filepath.Separator), wd+string(filepath.Separator)) {
		return wd, nil
	}
	return common, nil
}

// commonDir is the deepest folder holding every path (files and, listed
// in dirs too, folders).
func commonDir(paths, dirs []string) (string, error) {
	var common string
	for i, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			return "", err
		}
		if !slices.Contains(dirs, p) {
			abs = filepath.Dir(abs)
		}
		if i == 0 {
			common = abs
			continue
		}
		for !strings.HasPrefix(abs+string(filepath.Separator), strings.TrimSuffix(common, string(filepath.Separator))+string(filepath.Separator)) {
			common = filepath.Dir(common)
		}
	}
	return common, nil
}

// compileRequest is the request for the compile req describes.
func compileRequest(req driver.Request, files map[string]string, main string, dirs []string, timeout time.Duration) *pb.CompileRequest {
	o := &pb.CompileOptions{Alu: req.ALU, TargetOptions: req.Options, Solver: req.Solver, Mode: req.AllocMode.String(),
		VerifyPackets: int32(req.VerifyPackets), Timeout: durationpb.New(timeout), NoTransform: req.NoTransform,
		NoPredPack: req.Synth.NoPredecessorPacking, NoPreprocess: req.NoPreprocess, Exhaustive: req.Synth.AttemptBudget < 0,
		EmitTransformed: req.EmitTransformed, Defines: req.Frontend.Defines, IncludeDirs: dirs,
		Limits: &pb.Limits{Stages: int32(req.Stages), AlusPerStage: int32(req.ALUsPerStage), TablesPerStage: int32(req.TablesPerStage),
			EntriesPerTable: int32(req.EntriesPerTable)}}
	return &pb.CompileRequest{Files: files, Main: main, Target: req.Target, Options: o}
}

// compile runs req on the server, showing its progress, and returns the
// result as a local compile gives it, with the names the user knows.
func (rc *remoteCompiler) compile(ctx context.Context, req driver.Request, timeout time.Duration, progress driver.Progress) (*driver.Result, error) {
	files, main, dirs, names, err := requestFiles(ctx, req.File, req.Source, req.Frontend)
	if err != nil {
		return &driver.Result{Report: report.New(req.Target)}, err
	}
	stream, err := rc.client.CompileStream(ctx, compileRequest(req, files, main, dirs, timeout))
	if err != nil {
		return remoteFailure(req, err)
	}
	for {
		ev, err := stream.Recv()
		if err != nil {
			return remoteFailure(req, err)
		}
		if p := ev.GetPhase(); p != nil && p.Detail != "" && progress != nil {
			progress(p.Phase, p.Detail)
		}
		if r := ev.GetResult(); r != nil {
			return remoteResult(r, names)
		}
	}
}

// remoteResult is the server's result with the user's file names.
func remoteResult(r *pb.CompileResponse, names map[string]string) (*driver.Result, error) {
	rename := func(f string) string {
		if n, ok := names[f]; ok {
			return n
		}
		return f
	}
	res := &driver.Result{Report: api.ReportFromProto(r.Report)}
	for i := range res.Report.Diagnostics {
		d := &res.Report.Diagnostics[i]
		d.File = rename(d.File)
		for j := range d.Related {
			d.Related[j].File = rename(d.Related[j].File)
		}
		res.Diagnostics.Add(diagnosticOf(*d))
	}
	for _, a := range r.Artifacts {
		res.Artifacts = append(res.Artifacts, backends.Artifact{Name: a.Name, MediaType: a.MediaType, Data: a.Data})
	}
	res.Source = func(file string) []byte {
		data, _ := os.ReadFile(file)
		return data
	}
	return res, remoteStatusError(res.Report)
}

// diagnosticOf is a report's diagnostic as the printer takes it.
func diagnosticOf(d report.Diagnostic) diag.Diagnostic {
	sev := map[string]diag.Severity{"error": diag.Error, "warning": diag.Warning, "note": diag.Note}[d.Severity]
	out := diag.Diagnostic{Span: diag.Span{File: d.File, Start: diag.Pos{Line: d.Line, Col: d.Column}, End: diag.Pos{Line: d.EndLine, Col: d.EndColumn}},
		Severity: sev, Msg: d.Message}
	for _, r := range d.Related {
		out.Related = append(out.Related, diag.Related{Span: diag.Span{File: r.File, Start: diag.Pos{Line: r.Line, Col: r.Column}}, Msg: r.Message})
	}
	return out
}

// remoteStatusError is the error a local compile would return for a
// report's status, so the exit status is the same.
func remoteStatusError(r report.Report) error {
	switch r.Status {
	case report.OK:
		return nil
	case report.ProgramError:
		return driver.ErrProgram
	case report.DoesNotFit:
		return &driver.DoesNotFitError{Err: fmt.Errorf("%s", r.Error)}
	}
	return fmt.Errorf("%s: %s", r.Status, r.Error)
}

// remoteFailure is the result of a call the server refused or could not
// finish: a report saying why, and the error a local compile would give.
func remoteFailure(req driver.Request, err error) (*driver.Result, error) {
	res := &driver.Result{Report: report.New(req.Target)}
	st := status.Convert(err)
	switch st.Code() {
	case codes.InvalidArgument:
		err = fmt.Errorf("%w: %s", driver.ErrRequest, st.Message())
	case codes.DeadlineExceeded:
		err = fmt.Errorf("server: %s: %w", st.Message(), context.DeadlineExceeded)
	case codes.Canceled:
		err = fmt.Errorf("server: %s: %w", st.Message(), context.Canceled)
	default:
		err = fmt.Errorf("server: %s: %s", st.Code(), st.Message())
	}
	res.Report.Status = driver.StatusOf(err)
	res.Report.Error = err.Error()
	return res, err
}
