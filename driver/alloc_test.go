package driver

import (
	"context"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/target"
)

func limits() target.Limits {
	return target.Limits{Stages: 6, ALUsPerStage: 4, StatefulALUsPerStage: 1, TablesPerStage: 2, EntriesPerTable: 100,
		Containers: 8, ContainerBits: 32, WordBits: 32}
}

// chainOf is an action of n ALUs, each reading the one before.
func chainOf(name string, n int, stateful bool) alloc.Action {
	a := alloc.Action{Name: name}
	for u := 0; u < n; u++ {
		alu := alloc.ALU{Stateful: stateful}
		if u > 0 {
			alu.Reads = []int{u - 1}
		}
		a.ALUs = append(a.ALUs, alu)
	}
	return a
}

// TestExplain: an infeasible problem is explained by the one limit whose
// relaxation makes it feasible, in the program's terms.
func TestExplain(t *testing.T) {
	parallel := func(name string, n int, stateful bool) alloc.Action {
		a := alloc.Action{Name: name, ModifiesKey: true} // its ALUs must share the match's stage
		for u := 0; u < n; u++ {
			a.ALUs = append(a.ALUs, alloc.ALU{Stateful: stateful})
		}
		return a
	}
	cases := []struct {
		name string
		p    alloc.Problem
		want string
	}{
		{"stages", alloc.Problem{Limits: limits(),
			Tables:  []alloc.Table{{Name: "t1", Actions: []int{0}}, {Name: "t2", Actions: []int{1}}, {Name: "t3", Actions: []int{0}}},
			Actions: []alloc.Action{chainOf("one", 1, false), chainOf("a", 5, false)},
			Deps:    []alloc.Dep{{From: 0, To: 1, Kind: alloc.Match}, {From: 1, To: 2, Kind: alloc.ActionDep}}},
			"needs 7 stages, the target has 6: the chain t1 -> t2 -> action a (5 ALUs deep) -> t3 is the longest (7 stages)"},
		{"stateful ALUs", alloc.Problem{Limits: limits(),
			Tables: []alloc.Table{{Name: "t", Actions: []int{0}}}, Actions: []alloc.Action{parallel("a", 3, true)}},
			"stage 0 needs 3 stateful ALUs, the target allows 1"},
		{"ALUs", alloc.Problem{Limits: limits(),
			Tables: []alloc.Table{{Name: "t", Actions: []int{0}}}, Actions: []alloc.Action{parallel("a", 5, false)}},
			"stage 0 needs 5 ALUs, the target allows 4"},
	}
	// The chain alone shows the first problem cannot fit, before any solver.
	if got, want := chainTooLong(&cases[0].p), "needs at least 7 stages, the target has 6: the chain t1 -> t2 -> action a (5 ALUs deep) -> t3 is the longest (7 stages)"; got != want {
		t.Errorf("chainTooLong: got %q, want %q", got, want)
	}
	for _, c := range cases[1:] {
		if got := chainTooLong(&c.p); got != "" {
			t.Errorf("%s: chainTooLong says %q of a problem whose chain fits", c.name, got)
		}
	}
	for _, c := range cases {
		for _, s := range Solvers {
			t.Run(c.name+"/"+s.Name(), func(t *testing.T) {
				if _, err := s.Solve(context.Background(), &c.p, alloc.Optimal); err == nil {
					t.Fatal("the problem has a placement")
				}
				if got := explain(context.Background(), s, &c.p); !strings.Contains(got, c.want) {
					t.Errorf("got %q, want %q", got, c.want)
				}
			})
		}
	}
}
