package placement

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/transform"
)

// chained: b matches the field a's action writes (a match dependency),
// and c, keyless, writes the field b's action writes (an action
// dependency): each sits a stage after the one before.
const chained = `#include <core.p4>
#include <v1model.p4>
header app_t { bit<32> x; bit<32> y; bit<32> z; }
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    action set_y(bit<32> v) { hdr.app.y = v; }
    action set_z() { hdr.app.z = 7; }
    table a { key = { hdr.app.x: exact; } actions = { set_y; NoAction; } default_action = NoAction(); size = 64; }
    table b { key = { hdr.app.y: exact; } actions = { set_z; NoAction; } default_action = NoAction(); size = 64; }
    table c { actions = { set_z; } default_action = set_z(); }
    apply { a.apply(); b.apply(); c.apply(); }
}
BENCH_MAIN
`

func limits(stages int) target.Limits {
	return target.Limits{Stages: stages, ALUsPerStage: 4, StatefulALUsPerStage: 1, TablesPerStage: 2, EntriesPerTable: 64,
		Containers: 16, ContainerBits: 32, WordBits: 32}
}

func build(t *testing.T, l target.Limits) *Placement {
	prog := corpus.LoadSource(t, "chained.p4", []byte(chained))
	an, err := transform.Analyze(context.Background(), prog, transform.Options{TablesPerStage: l.TablesPerStage})
	if err != nil {
		t.Fatal(err)
	}
	return Build(an, nil, l)
}

// TestBuildAndUsage: a table per node with its actions (one ALU per
// assignment), and a placement of 3 stages, a table and its one
// assignment in each (NoAction has none).
func TestBuildAndUsage(t *testing.T) {
	pl := build(t, limits(4))
	var names []string
	for _, tab := range pl.Problem.Tables {
		names = append(names, tab.Name)
	}
	if got := strings.Join(names, " "); got != "a b c" {
		t.Fatalf("tables %q, want a b c", got)
	}
	if c := pl.Problem.Tables[2]; c.Entries != 1 || c.Match != "" {
		t.Errorf("keyless c: %d entries, match %q; want 1 and none", c.Entries, c.Match)
	}
	if err := pl.Solve(context.Background(), alloc.Z3{}, alloc.Optimal); err != nil {
		t.Fatal(err)
	}
	want := []StageUsage{{Tables: 1, ALUs: 1}, {Tables: 1, ALUs: 1}, {Tables: 1, ALUs: 1}}
	if got := pl.Usage(); !slices.Equal(got, want) {
		t.Errorf("usage %+v, want %+v", got, want)
	}
}

// TestSolveExplains: with one stage, the chain a -> b -> c cannot fit,
// and the error says so before any solver runs.
func TestSolveExplains(t *testing.T) {
	pl := build(t, limits(1))
	err := pl.Solve(context.Background(), alloc.Z3{}, alloc.Optimal)
	var inf *alloc.InfeasibleError
	if !errors.As(err, &inf) || !strings.Contains(inf.Why, "needs at least 3 stages, the target has 1: the chain a -> b -> c") {
		t.Errorf("got %v", err)
	}
}
