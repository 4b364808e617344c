package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/report"
)

// summaryFile is the JSON-lines summary of `compile --jobs`, in OUTDIR.
const summaryFile = "summary.jsonl"

// jobSummary is one program's line of the summary.
type jobSummary struct {
	File          string  `json:"file"`
	Target        string  `json:"target"`
	Status        string  `json:"status"`
	Stages        int     `json:"stages"`
	Seconds       float64 `json:"seconds"`
	SolverQueries int     `json:"solver_queries"`
	CacheHits     int     `json:"cache_hits"`
	Diagnostics   int     `json:"diagnostics"`
	Out           string  `json:"out"`
	Error         string  `json:"error,omitempty"`
}

// compileJobs is `p4hls compile --jobs N FILE.p4...`: the programs
// compiled n at once in this process (or on a server), sharing req's
// query cache, each written into out/NAME as one compile writes out; a
// line per program on stdout, in the order given, and the same as JSON
// lines in out/summary.jsonl. The status is the worst program's.
func compileJobs(ctx context.Context, run runner, req driver.Request, files []string, n int, out string, stdout, stderr io.Writer) int {
	dirs := jobDirs(files, out)
	lines := make([]jobSummary, len(files))
	codes := make([]int, len(files))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(n, len(files)) {
		wg.Go(func() {
			for i := range next {
				lines[i], codes[i] = compileJob(ctx, run, req, files[i], dirs[i], stderr)
			}
		})
	}
	for i := range files {
		next <- i
	}
	close(next)
	wg.Wait()
	if err := writeSummary(out, lines); err != nil {
		fmt.Fprintf(stderr, "p4hls: writing %s: %v\n", filepath.Join(out, summaryFile), err)
		codes = append(codes, exitUserErr)
	}
	worst := exitOK
	for i, l := range lines {
		fmt.Fprintf(stdout, "%s: %s, %d stages, %.2fs, %d queries, %d cache hits -> %s\n",
			l.File, l.Status, l.Stages, l.Seconds, l.SolverQueries, l.CacheHits, l.Out)
		worst = max(worst, codes[i])
	}
	return worst
}

// compileJob compiles one program of a --jobs run.
func compileJob(ctx context.Context, run runner, req driver.Request, file, dir string, stderr io.Writer) (jobSummary, int) {
	line := jobSummary{File: file, Target: req.Target, Out: dir}
	src, err := frontend.ReadSource(file)
	if err != nil {
		line.Status, line.Error = string(report.BadRequest), unwrapPathError(err).Error()
		return line, exitUserErr
	}
	req.File, req.Source = file, src
	start := time.Now()
	res, err := run(ctx, req, nil)
	line.Seconds = time.Since(start).Seconds()
	r := res.Report
	line.Status, line.Stages, line.SolverQueries, line.CacheHits, line.Diagnostics = string(r.Status), r.Stages, r.SolverQueries, r.CacheHits, len(r.Diagnostics)
	if err != nil {
		line.Error = err.Error()
	}
	code, _ := compileFailure(err, 0, io.Discard)
	if werr := writeOutput(dir, res, nil); werr != nil {
		fmt.Fprintf(stderr, "p4hls: writing %s: %v\n", dir, werr)
		code = max(code, exitUserErr)
	}
	return line, code
}

// jobDirs names each program's output folder after its file, with a
// number after a name seen before (two folders' main.p4).
func jobDirs(files []string, out string) []string {
	seen := map[string]int{}
	dirs := make([]string, len(files))
	for i, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".p4")
		seen[name]++
		if seen[name] > 1 {
			name = fmt.Sprintf("%s-%d", name, seen[name])
		}
		dirs[i] = filepath.Join(out, name)
	}
	return dirs
}

// writeSummary writes the summary lines, through a temporary file.
func writeSummary(out string, lines []jobSummary) error {
	var b strings.Builder
	for _, l := range lines {
		data, err := json.Marshal(l)
		if err != nil {
			return err
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	return writeFileAtomic(out, summaryFile, []byte(b.String()))
}
