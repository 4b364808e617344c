// Package report is a compile's account of itself: the types of
// report.json (docs/output.md documents every key), which the command
// line writes and a service returns. The driver fills a Report as the
// phases run.
package report

import (
	"crypto/sha256"
	"encoding/hex"
	"time"

	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/transform"
)

// Report is a compile's account of itself, OUTDIR/report.json. Its names
// are read by other tools; docs/report.md documents every one, and a test
// checks that the documented names are the written ones.
type Report struct {
	Target string `json:"target"`
	ALU    string `json:"alu"`
	// Status says how the compile ended (one of the Status constants);
	// Error is why it failed ("" when it did not).
	Status Status `json:"status"`
	Error  string `json:"error"`
	// Reached lists the phases that started, in order.
	Reached []string `json:"reached"`
	// Stages is the number of pipeline stages the program uses.
	Stages   int                    `json:"stages"`
	PerStage []placement.StageUsage `json:"per_stage"`
	// Phases holds seconds per phase; a phase that did not run has 0.
	Phases        map[string]float64 `json:"phases"`
	SolverQueries int                `json:"solver_queries"`
	CacheHits     int                `json:"cache_hits"`
	// CacheRejected counts query answers from a cache folder or a shared
	// store that did not hold for their query (damaged or forged); their
	// queries ran again.
	CacheRejected int          `json:"cache_rejected"`
	Diagnostics   []Diagnostic `json:"diagnostics"`
	// Transform is phase 1's outcome (nil until it ran); Alloc phase 3's.
	Transform *Transform `json:"transform"`
	Alloc     *Alloc     `json:"alloc"`
	Actions   []Action   `json:"actions"`
	// Backend is the target's own section (nil when it has none or the
	// backend did not run); Artifacts lists the files written.
	Backend   any        `json:"backend"`
	Artifacts []Artifact `json:"artifacts"`
}

// Status is how a compile ended.
type Status string

const (
	OK           Status = "ok"
	BadRequest   Status = "bad-request"   // no such target, ALU, option or solver
	ProgramError Status = "program-error" // the program has errors
	DoesNotFit   Status = "does-not-fit"  // the target cannot hold the program
	Timeout      Status = "timeout"
	Interrupted  Status = "interrupted"
	MemoryLimit  Status = "memory-limit"   // the process passed --max-memory
	Internal     Status = "internal-error" // a bug in p4hls
)

// Diagnostic is one diagnostic as the report writes it: 1-based lines
// and columns, the end just after the last byte.
type Diagnostic struct {
	File      string    `json:"file"`
	Line      int       `json:"line"`
	Column    int       `json:"column"`
	EndLine   int       `json:"end_line"`
	EndColumn int       `json:"end_column"`
	Severity  string    `json:"severity"`
	Code      string    `json:"code"`
	Message   string    `json:"message"`
	Related   []Related `json:"related"`
}

// Related is a diagnostic's secondary place.
type Related struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

// Alloc is phase 3's outcome.
type Alloc struct {
	Solver string `json:"solver"`
	Mode   string `json:"mode"`
	Proven bool   `json:"proven_optimal"`
	// LowerBound is the stages no placement can go below (the longest
	// dependency chain; the parts and ALUs at the limits per stage).
	LowerBound int     `json:"lower_bound"`
	Seconds    float64 `json:"seconds"`
	Tables     int     `json:"tables"`
}

// Action describes one synthesized action.
type Action struct {
	Name          string  `json:"name"`
	StatefulALUs  int     `json:"stateful_alus"`
	StatelessALUs int     `json:"stateless_alus"`
	Depth         int     `json:"depth"`
	Queries       int     `json:"queries"`
	CacheHits     int     `json:"cache_hits"`
	Seconds       float64 `json:"seconds"`
	// Preconditions are the action's assume and assert statements: its
	// ALUs are proven right only on inputs that meet them (omitted when
	// it states none).
	Preconditions []Precondition `json:"preconditions,omitempty"`
}

// Precondition is one assume(C) or assert(C) a synthesized action states.
type Precondition struct {
	Kind      string `json:"kind"`
	Condition string `json:"condition"`
	At        string `json:"at"`
}

// Artifact is one file the compile produced.
type Artifact struct {
	Name      string `json:"name"`
	MediaType string `json:"media_type"`
	Bytes     int    `json:"bytes"`
	SHA256    string `json:"sha256"`
}

// Transform is report.json's "transform": what phase 1 traded.
// Before and after count what a compiler sees in the program as written
// and as rewritten.
type Transform struct {
	Before   transform.Summary `json:"before"`
	After    transform.Summary `json:"after"`
	Rewrites []Rewrite         `json:"rewrites"`
	Kept     []Kept            `json:"kept"`
	// SolverQueries counts the guard queries of both analyses and the
	// rewrite.
	SolverQueries int `json:"solver_queries"`
}

// Rewrite is one run of if statements that became a table.
type Rewrite struct {
	Control  string   `json:"control"`
	Table    string   `json:"table"`
	At       string   `json:"at"`
	Keys     []string `json:"keys"`
	Entries  int      `json:"entries"`
	Gateways int      `json:"gateways"`
}

// Kept is an if statement that stays, and why.
type Kept struct {
	At     string `json:"at"`
	Reason string `json:"reason"`
}

// NewRewrites are phase 1's rewrites as the report lists them.
func NewRewrites(rs []transform.Rewrite) []Rewrite {
	out := []Rewrite{}
	for _, rw := range rs {
		out = append(out, Rewrite{Control: rw.Control, Table: rw.Table, At: rw.Span.String(), Keys: rw.Keys,
			Entries: rw.Entries, Gateways: rw.Gateways})
	}
	return out
}

// NewKept are the if statements phase 1 kept, as the report lists them.
func NewKept(ks []transform.Kept) []Kept {
	out := []Kept{}
	for _, k := range ks {
		out = append(out, Kept{At: k.Span.String(), Reason: k.Reason})
	}
	return out
}

// Phases are the report's phase names, in the order they run.
func Phases() []string {
	return []string{"frontend", "transform", "synth", "alloc", "verify", "backend"}
}

// New is the report of a compile for target that has not started.
func New(target string) Report {
	r := Report{Target: target, Status: OK, Reached: []string{}, Phases: map[string]float64{},
		PerStage: []placement.StageUsage{}, Diagnostics: []Diagnostic{}, Actions: []Action{}, Artifacts: []Artifact{}}
	for _, p := range Phases() {
		r.Phases[p] = 0
	}
	return r
}

// NewAction reports a synthesized action: its graph, from tx.
func NewAction(g *synth.Graph, tx *synth.Transaction, stats synth.Stats, took time.Duration) Action {
	r := Action{Name: g.Action.Name, Depth: g.Depth(), Queries: stats.Queries, CacheHits: stats.CacheHits, Seconds: took.Seconds()}
	for _, p := range tx.Preconditions {
		r.Preconditions = append(r.Preconditions, Precondition{Kind: p.Kind, Condition: ir.Format(p.Cond), At: p.Span.String()})
	}
	for _, a := range g.ALUs {
		if len(a.State) > 0 {
			r.StatefulALUs++
		} else {
			r.StatelessALUs++
		}
	}
	return r
}

// NewArtifact reports a file the compile produced.
func NewArtifact(name, mediaType string, data []byte) Artifact {
	sum := sha256.Sum256(data)
	return Artifact{Name: name, MediaType: mediaType, Bytes: len(data), SHA256: hex.EncodeToString(sum[:])}
}

// NewDiagnostic is a diagnostic as the report writes it.
func NewDiagnostic(d diag.Diagnostic) Diagnostic {
	out := Diagnostic{File: d.Span.File, Line: d.Span.Start.Line, Column: d.Span.Start.Col, EndLine: d.Span.End.Line,
		EndColumn: d.Span.End.Col, Severity: d.Severity.String(), Code: d.Code.String(), Message: d.Msg, Related: []Related{}}
	for _, rel := range d.Related {
		out.Related = append(out.Related, Related{File: rel.Span.File, Line: rel.Span.Start.Line, Column: rel.Span.Start.Col, Message: rel.Msg})
	}
	return out
}
