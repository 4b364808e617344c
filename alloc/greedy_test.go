package alloc

import (
	"context"
	"errors"
	"math/rand"
	"testing"
)

// TestGreedy: on 60 random problems, a greedy placement validates, uses
// no fewer stages than the optimum, and none exists where no placement
// does; the lower bound is never above the optimum.
func TestGreedy(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	placed, optimal := 0, 0
	for i := 0; i < 60; i++ {
		p := randomProblem(rng)
		sol, err := Z3{}.Solve(context.Background(), p, Optimal)
		var inf *InfeasibleError
		g := Greedy(p)
		switch {
		case errors.As(err, &inf):
			if g != nil {
				t.Errorf("problem %d: a greedy placement of a problem with none: %+v", i, g)
			}
			continue
		case err != nil:
			t.Fatal(err)
		}
		if lb := LowerBound(p); lb > sol.Stages {
			t.Errorf("problem %d: lower bound %d above the optimum %d", i, lb, sol.Stages)
		}
		if g == nil {
			continue
		}
		placed++
		if err := Validate(p, g); err != nil || g.Stages < sol.Stages {
			t.Errorf("problem %d: greedy %d stages (optimum %d): %v", i, g.Stages, sol.Stages, err)
		}
		if g.Stages == sol.Stages {
			optimal++
		}
	}
	t.Logf("greedy placed %d problems, %d of them optimally", placed, optimal)
	if placed < 10 {
		t.Errorf("greedy placed %d problems: the test does not exercise it", placed)
	}
}

// TestGreedySwitchScale: the switch-scale program's 120 and 400 tables
// (8 layers of matches; 12 table parts every 8 tables, 16 parts a stage)
// are placed in the lower bound's stages, so no solver has anything to
// prove: 120 tables in 12 stages; 400 tables, 600 parts, in 38.
func TestGreedySwitchScale(t *testing.T) {
	for _, c := range []struct{ tables, stages int }{{120, 12}, {400, 38}} {
		p := switchProblem(c.tables)
		p.Limits.Stages = 64
		g := Greedy(p)
		if g == nil {
			t.Fatalf("%d tables: no greedy placement", c.tables)
		}
		if err := Validate(p, g); err != nil {
			t.Fatal(err)
		}
		if lb := LowerBound(p); g.Stages != c.stages || lb != c.stages {
			t.Errorf("%d tables: greedy %d stages, lower bound %d; want %d", c.tables, g.Stages, lb, c.stages)
		}
	}
}
