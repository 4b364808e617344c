package api

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/transform"
)

// fullReport sets every field of a report, so a field the contract does
// not carry shows as a difference after the round trip.
func fullReport() report.Report {
	r := report.Report{
		Target: "tofino", ALU: "stateful", Status: report.OK, Error: "e",
		Reached: []string{"frontend", "transform"}, Stages: 3,
		PerStage:      []placement.StageUsage{{Tables: 1, ALUs: 2, Gateways: 3, Containers: 4}},
		SolverQueries: 7, CacheHits: 2, CacheRejected: 1,
		Diagnostics: []report.Diagnostic{{File: "a.p4", Line: 1, Column: 2, EndLine: 3, EndColumn: 4,
			Severity: "error", Code: "c", Message: "m",
			Related: []report.Related{{File: "b.p4", Line: 5, Column: 6, Message: "r"}}}},
		Transform: &report.Transform{
			Before:        transform.Summary{Gateways: 1, Tables: 2, Stages: 3},
			After:         transform.Summary{Gateways: 4, Tables: 5, Stages: 6},
			Rewrites:      []report.Rewrite{{Control: "c", Table: "t", At: "a.p4:1:1", Keys: []string{"k"}, Entries: 2, Gateways: 1}},
			Kept:          []report.Kept{{At: "a.p4:2:1", Reason: "why"}},
			SolverQueries: 4,
		},
		Alloc: &report.Alloc{Solver: "cbc", Mode: "optimal", Proven: true, LowerBound: 2, Seconds: 0.25, Tables: 9},
		Actions: []report.Action{{Name: "a", StatefulALUs: 1, StatelessALUs: 2, Depth: 3, Queries: 4,
			CacheHits: 5, Seconds: 0.5,
			Preconditions: []report.Precondition{{Kind: "assume", Condition: "x >= 1", At: "a.p4:3:9"}}}},
		Backend:   map[string]any{"k": "v"},
		Artifacts: []report.Artifact{{Name: "tofino.p4", MediaType: "text/x-p4", Bytes: 10, SHA256: "ab"}},
	}
	// Every phase is listed, as report.New lists them.
	r.Phases = report.New("tofino").Phases
	r.Phases["frontend"] = 0.5
	return r
}

// zeroFields names the fields of v (followed through pointers, slices and
// structs) that hold their zero value.
func zeroFields(v reflect.Value, path string) []string {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return []string{path}
		}
		return zeroFields(v.Elem(), path)
	case reflect.Slice, reflect.Map:
		if v.Len() == 0 {
			return []string{path}
		}
		if v.Kind() == reflect.Slice {
			return zeroFields(v.Index(0), path+"[0]")
		}
		return nil
	case reflect.Struct:
		var out []string
		for i := range v.NumField() {
			out = append(out, zeroFields(v.Field(i), path+"."+v.Type().Field(i).Name)...)
		}
		return out
	}
	if v.IsZero() {
		return []string{path}
	}
	return nil
}

func TestReportRoundTrip(t *testing.T) {
	want := fullReport()
	if zero := zeroFields(reflect.ValueOf(want), "Report"); len(zero) > 0 {
		t.Fatalf("fullReport leaves fields unset, so the test cannot see them lost: %v", zero)
	}
	p, err := ReportProto(want)
	if err != nil {
		t.Fatal(err)
	}
	got := ReportFromProto(p)
	// Compare as report.json would be written: that is what a client sees.
	w, _ := json.Marshal(want)
	g, _ := json.Marshal(got)
	if string(w) != string(g) {
		t.Errorf("the report changed over the contract:\nsent     %s\nreceived %s", w, g)
	}
}
