package driver

import (
	"time"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/synth"
)

// Report is OUTDIR/report.json. Its top-level names are read by other
// tools; README.md documents them.
type Report struct {
	Target string `json:"target"`
	ALU    string `json:"alu"`
	// Stages is the number of pipeline stages the placement uses.
	Stages   int          `json:"stages"`
	PerStage []StageUsage `json:"per_stage"`
	// Phases holds seconds per phase; a phase that did not run has 0.
	Phases        map[string]float64 `json:"phases"`
	SolverQueries int                `json:"solver_queries"`
	CacheHits     int                `json:"cache_hits"`
	Diagnostics   []string           `json:"diagnostics"`
	// Transform is phase 1's outcome (nil until it ran); Alloc phase 3's.
	Transform *TransformReport `json:"transform"`
	Alloc     *AllocReport     `json:"alloc"`
	Menshen   *MenshenReport   `json:"menshen,omitempty"`
	Actions   []ActionReport   `json:"actions"`
}

// StageUsage is what one stage holds.
type StageUsage struct {
	Tables     int `json:"tables"`
	ALUs       int `json:"alus"`
	Gateways   int `json:"gateways"`
	Containers int `json:"containers"`
}

// ActionReport describes one synthesized action.
type ActionReport struct {
	Name          string  `json:"name"`
	StatefulALUs  int     `json:"stateful_alus"`
	StatelessALUs int     `json:"stateless_alus"`
	Depth         int     `json:"depth"`
	Queries       int     `json:"queries"`
	CacheHits     int     `json:"cache_hits"`
	Seconds       float64 `json:"seconds"`
}

// phases are the report's phase names, in order.
var phases = []string{"frontend", "transform", "synth", "alloc", "backend"}

func newReport(req Request) Report {
	r := Report{Target: req.Target, Phases: map[string]float64{}, PerStage: []StageUsage{}, Diagnostics: []string{}, Actions: []ActionReport{}}
	for _, p := range phases {
		r.Phases[p] = 0
	}
	return r
}

func actionReport(g *synth.Graph, stats synth.Stats, took time.Duration) ActionReport {
	r := ActionReport{Name: g.Action.Name, Depth: g.Depth(), Queries: stats.Queries, CacheHits: stats.CacheHits, Seconds: took.Seconds()}
	for _, a := range g.ALUs {
		if len(a.State) > 0 {
			r.StatefulALUs++
		} else {
			r.StatelessALUs++
		}
	}
	return r
}

func diagnosticLines(d *diag.List) []string {
	out := []string{}
	for _, item := range d.Items() {
		out = append(out, item.String())
	}
	return out
}
