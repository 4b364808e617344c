package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/transform"
)

// transformResult is one program's row of `p4hls bench transform`.
type transformResult struct {
	Program  string            `json:"program"`
	Before   transform.Summary `json:"before"`
	After    transform.Summary `json:"after"`
	Rewrites int               `json:"rewrites"`
	Seconds  float64           `json:"seconds"`
	Error    string            `json:"error,omitempty"`
}

// motivating are CaT's motivating examples, printed first.
var motivating = []string{"siphash", "me2_disjoint_writes", "me3_upf_rate_enforcer"}

// benchTransform implements `p4hls bench transform`: gateways, tables and
// stages before and after phase 1 for ME-1, ME-2, ME-3 and every other
// v1model program of the corpus (those with an .stf test), for Tofino's
// stage limits.
func benchTransform(ctx context.Context, corpus, jsonOut string, stdout, stderr io.Writer) int {
	names := append([]string(nil), motivating...)
	stfs, _ := filepath.Glob(filepath.Join(corpus, "*.stf"))
	sort.Strings(stfs)
	for _, f := range stfs {
		name := strings.TrimSuffix(filepath.Base(f), ".stf")
		if !contains(motivating, name) {
			names = append(names, name)
		}
	}
	const format = "%-24s %17s %15s %15s %9s %8s\n"
	fmt.Fprintf(stdout, format, "program", "gateways", "tables", "stages", "rewrites", "time")
	var results []transformResult
	for _, name := range names {
		if ctx.Err() != nil {
			return exitUserErr
		}
		r := transformOne(ctx, filepath.Join(corpus, name+".p4"))
		r.Program = name
		results = append(results, r)
		if r.Error != "" {
			fmt.Fprintf(stderr, "%s: %s\n", name, r.Error)
			continue
		}
		arrow := func(a, b int) string { return fmt.Sprintf("%d -> %d", a, b) }
		fmt.Fprintf(stdout, format, name, arrow(r.Before.Gateways, r.After.Gateways), arrow(r.Before.Tables, r.After.Tables),
			arrow(r.Before.Stages, r.After.Stages), fmt.Sprint(r.Rewrites), fmt.Sprintf("%.2fs", r.Seconds))
	}
	return writeJSON(jsonOut, results, stderr)
}

func transformOne(ctx context.Context, file string) transformResult {
	var r transformResult
	src, err := os.ReadFile(file)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	start := time.Now()
	res, err := driver.Transform(ctx, driver.Request{File: file, Source: src, Target: "tofino"}, nil)
	r.Seconds = time.Since(start).Seconds()
	if err != nil {
		r.Error = err.Error()
		return r
	}
	t := res.Report.Transform
	r.Before, r.After, r.Rewrites = t.Before, t.After, len(t.Rewrites)
	return r
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
