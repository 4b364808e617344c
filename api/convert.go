package api

import (
	"encoding/json"
	"fmt"

	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/backends"
	pb "github.com/p4hls/p4hls/proto/p4hls/v1"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/transform"
)

// The conversions between report.json's types and the contract's. Both
// directions: the server sends a report, `compile --server` writes the
// report.json it got, and the two must say the same.

// ReportProto is r as the contract sends it.
func ReportProto(r report.Report) (*pb.Report, error) {
	out := &pb.Report{Target: r.Target, Alu: r.ALU, Status: string(r.Status), Error: r.Error, Reached: r.Reached,
		Stages: int32(r.Stages), Phases: r.Phases, SolverQueries: int32(r.SolverQueries), CacheHits: int32(r.CacheHits),
		CacheRejected: int32(r.CacheRejected)}
	for _, u := range r.PerStage {
		out.PerStage = append(out.PerStage, &pb.StageUsage{Tables: int32(u.Tables), Alus: int32(u.ALUs), Gateways: int32(u.Gateways), Containers: int32(u.Containers)})
	}
	for _, d := range r.Diagnostics {
		out.Diagnostics = append(out.Diagnostics, DiagnosticProto(d))
	}
	out.Transform = transformProto(r.Transform)
	if a := r.Alloc; a != nil {
		out.Alloc = &pb.Alloc{Solver: a.Solver, Mode: a.Mode, ProvenOptimal: a.Proven, Seconds: a.Seconds, Tables: int32(a.Tables), LowerBound: int32(a.LowerBound)}
	}
	for _, a := range r.Actions {
		out.Actions = append(out.Actions, ActionProto(a))
	}
	for _, a := range r.Artifacts {
		out.Artifacts = append(out.Artifacts, &pb.ArtifactInfo{Name: a.Name, MediaType: a.MediaType, Bytes: int64(a.Bytes), Sha256: a.SHA256})
	}
	backend, err := backendProto(r.Backend)
	if err != nil {
		return nil, err
	}
	out.Backend = backend
	return out, nil
}

// backendProto is the target's own section as a JSON object: what
// report.json holds there.
func backendProto(section any) (*structpb.Struct, error) {
	if section == nil {
		return nil, nil
	}
	data, err := json.Marshal(section)
	if err != nil {
		return nil, fmt.Errorf("the backend's report: %w", err)
	}
	if string(data) == "null" {
		return nil, nil
	}
	var s structpb.Struct
	if err := protojson.Unmarshal(data, &s); err != nil {
		return nil, fmt.Errorf("the backend's report is not a JSON object: %w", err)
	}
	return &s, nil
}

func transformProto(t *report.Transform) *pb.Transform {
	if t == nil {
		return nil
	}
	sum := func(s transform.Summary) *pb.Summary {
		return &pb.Summary{Gateways: int32(s.Gateways), Tables: int32(s.Tables), Stages: int32(s.Stages)}
	}
	out := &pb.Transform{Before: sum(t.Before), After: sum(t.After), SolverQueries: int32(t.SolverQueries)}
	for _, r := range t.Rewrites {
		out.Rewrites = append(out.Rewrites, &pb.Rewrite{Control: r.Control, Table: r.Table, At: r.At, Keys: r.Keys,
			Entries: int32(r.Entries), Gateways: int32(r.Gateways)})
	}
	for _, k := range t.Kept {
		out.Kept = append(out.Kept, &pb.Kept{At: k.At, Reason: k.Reason})
	}
	return out
}

// ActionProto is a synthesized action's line of the report.
func ActionProto(a report.Action) *pb.Action {
	out := &pb.Action{Name: a.Name, StatefulAlus: int32(a.StatefulALUs), StatelessAlus: int32(a.StatelessALUs), Depth: int32(a.Depth),
		Queries: int32(a.Queries), CacheHits: int32(a.CacheHits), Seconds: a.Seconds}
	for _, p := range a.Preconditions {
		out.Preconditions = append(out.Preconditions, &pb.Precondition{Kind: p.Kind, Condition: p.Condition, At: p.At})
	}
	return out
}

// DiagnosticProto is a diagnostic as the contract sends it.
func DiagnosticProto(d report.Diagnostic) *pb.Diagnostic {
	out := &pb.Diagnostic{File: d.File, Line: int32(d.Line), Column: int32(d.Column), EndLine: int32(d.EndLine),
		EndColumn: int32(d.EndColumn), Severity: d.Severity, Code: d.Code, Message: d.Message}
	for _, r := range d.Related {
		out.Related = append(out.Related, &pb.Related{File: r.File, Line: int32(r.Line), Column: int32(r.Column), Message: r.Message})
	}
	return out
}

// ArtifactsProto are the target's files with their bytes.
func ArtifactsProto(as []backends.Artifact) []*pb.Artifact {
	var out []*pb.Artifact
	for _, a := range as {
		out = append(out, &pb.Artifact{Name: a.Name, MediaType: a.MediaType, Data: a.Data})
	}
	return out
}

// ReportFromProto is the report.json of a report the server sent. Lists
// and maps are never nil, as report.New makes them.
func ReportFromProto(p *pb.Report) report.Report {
	r := report.New(p.GetTarget())
	r.ALU, r.Status, r.Error, r.Stages = p.GetAlu(), report.Status(p.GetStatus()), p.GetError(), int(p.GetStages())
	r.Reached = append(r.Reached, p.GetReached()...)
	for name, s := range p.GetPhases() {
		r.Phases[name] = s
	}
	r.SolverQueries, r.CacheHits, r.CacheRejected = int(p.GetSolverQueries()), int(p.GetCacheHits()), int(p.GetCacheRejected())
	for _, u := range p.GetPerStage() {
		r.PerStage = append(r.PerStage, placement.StageUsage{Tables: int(u.Tables), ALUs: int(u.Alus), Gateways: int(u.Gateways), Containers: int(u.Containers)})
	}
	for _, d := range p.GetDiagnostics() {
		r.Diagnostics = append(r.Diagnostics, DiagnosticFromProto(d))
	}
	r.Transform = transformFromProto(p.GetTransform())
	if a := p.GetAlloc(); a != nil {
		r.Alloc = &report.Alloc{Solver: a.Solver, Mode: a.Mode, Proven: a.ProvenOptimal, Seconds: a.Seconds, Tables: int(a.Tables), LowerBound: int(a.LowerBound)}
	}
	for _, a := range p.GetActions() {
		r.Actions = append(r.Actions, report.Action{Name: a.Name, StatefulALUs: int(a.StatefulAlus), StatelessALUs: int(a.StatelessAlus),
			Depth: int(a.Depth), Queries: int(a.Queries), CacheHits: int(a.CacheHits), Seconds: a.Seconds,
			Preconditions: preconditionsFromProto(a.Preconditions)})
	}
	for _, a := range p.GetArtifacts() {
		r.Artifacts = append(r.Artifacts, report.Artifact{Name: a.Name, MediaType: a.MediaType, Bytes: int(a.Bytes), SHA256: a.Sha256})
	}
	if b := p.GetBackend(); b != nil {
		r.Backend = b.AsMap()
	}
	return r
}

// DiagnosticFromProto is a diagnostic the server sent, as report.json
// writes it.
func DiagnosticFromProto(d *pb.Diagnostic) report.Diagnostic {
	out := report.Diagnostic{File: d.File, Line: int(d.Line), Column: int(d.Column), EndLine: int(d.EndLine), EndColumn: int(d.EndColumn),
		Severity: d.Severity, Code: d.Code, Message: d.Message, Related: []report.Related{}}
	for _, r := range d.Related {
		out.Related = append(out.Related, report.Related{File: r.File, Line: int(r.Line), Column: int(r.Column), Message: r.Message})
	}
	return out
}

func transformFromProto(t *pb.Transform) *report.Transform {
	if t == nil {
		return nil
	}
	sum := func(s *pb.Summary) transform.Summary {
		return transform.Summary{Gateways: int(s.GetGateways()), Tables: int(s.GetTables()), Stages: int(s.GetStages())}
	}
	out := &report.Transform{Before: sum(t.Before), After: sum(t.After), SolverQueries: int(t.SolverQueries),
		Rewrites: []report.Rewrite{}, Kept: []report.Kept{}}
	for _, r := range t.Rewrites {
		out.Rewrites = append(out.Rewrites, report.Rewrite{Control: r.Control, Table: r.Table, At: r.At, Keys: r.Keys,
			Entries: int(r.Entries), Gateways: int(r.Gateways)})
	}
	for _, k := range t.Kept {
		out.Kept = append(out.Kept, report.Kept{At: k.At, Reason: k.Reason})
	}
	return out
}

// preconditionsFromProto is nil for none, as report.json omits them then.
func preconditionsFromProto(ps []*pb.Precondition) []report.Precondition {
	var out []report.Precondition
	for _, p := range ps {
		out = append(out, report.Precondition{Kind: p.Kind, Condition: p.Condition, At: p.At})
	}
	return out
}
