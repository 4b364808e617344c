package alloc

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/p4hls/p4hls/target"
)

var solvers = []Solver{CBC{}, Z3{}}

// small is a pipeline small enough to reason about by hand.
func small() target.Limits {
	return target.Limits{Stages: 6, ALUsPerStage: 4, StatefulALUsPerStage: 1, TablesPerStage: 2, EntriesPerTable: 100,
		Containers: 8, ContainerBits: 32, WordBits: 32}
}

// chain is an action of n stateless ALUs, each reading the one before.
func chain(name string, n int) Action {
	a := Action{Name: name}
	for u := 0; u < n; u++ {
		alu := ALU{}
		if u > 0 {
			alu.Reads = []int{u - 1}
		}
		a.ALUs = append(a.ALUs, alu)
	}
	return a
}

func stateful(name string) Action { return Action{Name: name, ALUs: []ALU{{Stateful: true}}} }

// TestOptimum: problems whose optimal stage count is worked out by hand;
// every solver finds it, proves it, and the validator accepts the
// placement.
func TestOptimum(t *testing.T) {
	lim := small()
	narrow := lim
	narrow.ALUsPerStage = 2
	cases := []struct {
		name   string
		p      Problem
		stages int
	}{
		{"a three-ALU chain spans three stages", Problem{Limits: lim,
			Tables: []Table{{Name: "t", Entries: 10, Match: "exact", Actions: []int{0}}}, Actions: []Action{chain("a", 3)}}, 3},
		{"a match dependency costs a stage", Problem{Limits: lim,
			Tables:  []Table{{Name: "t1", Actions: []int{0}}, {Name: "t2", Actions: []int{1}}},
			Actions: []Action{chain("a", 1), chain("b", 1)}, Deps: []Dep{{0, 1, Match}}}, 2},
		{"a successor dependency does not", Problem{Limits: lim,
			Tables:  []Table{{Name: "t1", Actions: []int{0}}, {Name: "t2", Actions: []int{1}}},
			Actions: []Action{chain("a", 1), chain("b", 1)}, Deps: []Dep{{0, 1, Successor}}}, 1},
		{"two tables per stage", Problem{Limits: lim,
			Tables:  []Table{{Name: "t1", Actions: []int{0}}, {Name: "t2", Actions: []int{0}}, {Name: "t3", Actions: []int{0}}},
			Actions: []Action{chain("a", 1)}}, 2},
		{"one stateful ALU per stage", Problem{Limits: lim,
			Tables:  []Table{{Name: "t1", Actions: []int{0}}, {Name: "t2", Actions: []int{1}}},
			Actions: []Action{stateful("a"), stateful("b")}}, 2},
		{"250 entries in three parts, two per stage", Problem{Limits: lim,
			Tables: []Table{{Name: "big", Entries: 250, Match: "exact", Actions: []int{0}}}, Actions: []Action{chain("a", 1)}}, 2},
		{"ternary parts in order", Problem{Limits: lim,
			Tables: []Table{{Name: "acl", Entries: 250, Match: "ternary", Actions: []int{0}}}, Actions: []Action{chain("a", 1)}}, 2},
		{"an output carried through a stage takes a slot", Problem{Limits: narrow,
			Tables:  []Table{{Name: "t", Actions: []int{0}}},
			Actions: []Action{{Name: "a", ALUs: []ALU{{}, {Reads: []int{0}}, {Reads: []int{0, 1}}}}}}, 3},
		{"an action that writes its key last spans stages (sampling: count, then sample = count == N)", Problem{Limits: lim,
			Tables:  []Table{{Name: "sampler", Entries: 1, Match: "exact", Actions: []int{0}}},
			Actions: []Action{{Name: "sample", ALUs: []ALU{{Stateful: true}, {Reads: []int{0}, WritesKey: "meta.sample"}}}}}, 2},
		{"no ALU of the part after its key changes: the other action's chain ends with the write", Problem{Limits: lim,
			Tables:  []Table{{Name: "t", Entries: 1, Match: "exact", Actions: []int{0, 1}}},
			Actions: []Action{{Name: "w", ALUs: []ALU{{WritesKey: "meta.k"}}}, chain("long", 3)}}, 3},
		{"a chain after a dependency", Problem{Limits: lim,
			Tables:  []Table{{Name: "t1", Actions: []int{0}}, {Name: "t2", Actions: []int{1}}, {Name: "t3", Actions: []int{2}}},
			Actions: []Action{chain("a", 2), chain("b", 1), stateful("c")}, Deps: []Dep{{0, 1, ActionDep}, {1, 2, ReverseMatch}}}, 3},
	}
	for _, c := range cases {
		for _, s := range solvers {
			t.Run(c.name+"/"+s.Name(), func(t *testing.T) {
				sol, err := s.Solve(context.Background(), &c.p, Optimal)
				if err != nil {
					t.Fatal(err)
				}
				if err := Validate(&c.p, sol); err != nil {
					t.Fatalf("the placement breaks a constraint: %v\n%+v", err, sol)
				}
				if sol.Stages != c.stages || !sol.Proven {
					t.Errorf("%d stages (proven %v), want %d; %+v", sol.Stages, sol.Proven, c.stages, sol)
				}
			})
		}
	}
}

// TestInfeasible: placements that cannot exist.
func TestInfeasible(t *testing.T) {
	lim := small()
	oneALU := lim
	oneALU.ALUsPerStage = 1
	cases := []struct {
		name string
		p    Problem
	}{
		{"a chain longer than the pipeline", Problem{Limits: lim,
			Tables: []Table{{Name: "t", Actions: []int{0}}}, Actions: []Action{chain("a", 7)}}},
		{"an action that writes its key cannot span stages", Problem{Limits: lim,
			Tables: []Table{{Name: "t", Actions: []int{0}}}, Actions: []Action{{Name: "a", ModifiesKey: true, ALUs: chain("a", 2).ALUs}}}},
		{"an action that writes its key, then reads it, cannot span stages", Problem{Limits: lim,
			Tables:  []Table{{Name: "fw", Entries: 1, Match: "exact", Actions: []int{0}}},
			Actions: []Action{{Name: "a", ALUs: []ALU{{WritesKey: "meta.idx"}, {Stateful: true, Reads: []int{0}}}}}}},
		{"an action that writes its key in the match's stage keeps the part there", Problem{Limits: lim,
			Tables:  []Table{{Name: "t", Entries: 1, Match: "exact", Actions: []int{0, 1}}},
			Actions: []Action{{Name: "set", ModifiesKey: true, ALUs: []ALU{{}}}, chain("long", 2)}}},
		{"no slot to carry an output", Problem{Limits: oneALU,
			Tables:  []Table{{Name: "t", Actions: []int{0}}},
			Actions: []Action{{Name: "a", ALUs: []ALU{{}, {Reads: []int{0}}, {Reads: []int{0, 1}}}}}}},
	}
	for _, c := range cases {
		for _, s := range solvers {
			t.Run(c.name+"/"+s.Name(), func(t *testing.T) {
				sol, err := s.Solve(context.Background(), &c.p, Optimal)
				var inf *InfeasibleError
				if !errors.As(err, &inf) {
					t.Errorf("got %+v, %v; want an InfeasibleError", sol, err)
				}
			})
		}
	}
}

// randomProblem draws a problem of a few tables with small actions and
// forward dependencies.
func randomProblem(rng *rand.Rand) *Problem {
	lim := small()
	lim.Stages = 4 + rng.Intn(4)
	lim.ALUsPerStage = 2 + rng.Intn(4)
	lim.TablesPerStage = 1 + rng.Intn(3)
	p := &Problem{Limits: lim}
	for a := 0; a < 4; a++ {
		act := Action{Name: fmt.Sprintf("a%d", a)}
		for u := 0; u < 1+rng.Intn(3); u++ {
			alu := ALU{Stateful: rng.Intn(4) == 0}
			if rng.Intn(8) == 0 {
				alu.WritesKey = "k"
			}
			for r := 0; r < u; r++ {
				if rng.Intn(2) == 0 {
					alu.Reads = append(alu.Reads, r)
				}
			}
			act.ALUs = append(act.ALUs, alu)
		}
		p.Actions = append(p.Actions, act)
	}
	kinds := []string{"exact", "ternary", "lpm", ""}
	for t := 0; t < 2+rng.Intn(4); t++ {
		tab := Table{Name: fmt.Sprintf("t%d", t), Entries: rng.Intn(250), Match: kinds[rng.Intn(len(kinds))]}
		for _, a := range rng.Perm(4)[:1+rng.Intn(2)] {
			tab.Actions = append(tab.Actions, a)
		}
		for from := 0; from < t; from++ {
			if rng.Intn(3) == 0 {
				p.Deps = append(p.Deps, Dep{From: from, To: t, Kind: DepKind(rng.Intn(4))})
			}
		}
		p.Tables = append(p.Tables, tab)
	}
	return p
}

// TestSolversAgree: on 60 random problems, CBC and Z3 find the same
// optimum (or both prove there is none), their placements validate, and
// a feasible placement validates and uses no fewer stages.
func TestSolversAgree(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	feasible := 0
	for i := 0; i < 60; i++ {
		p := randomProblem(rng)
		var stages []int
		for _, s := range solvers {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			sol, err := s.Solve(ctx, p, Optimal)
			cancel()
			var inf *InfeasibleError
			switch {
			case errors.As(err, &inf):
				stages = append(stages, -1)
				continue
			case err != nil:
				t.Fatalf("problem %d, %s: %v", i, s.Name(), err)
			}
			if err := Validate(p, sol); err != nil {
				t.Fatalf("problem %d, %s: %v\n%+v\n%+v", i, s.Name(), err, p, sol)
			}
			stages = append(stages, sol.Stages)
			any, err := s.Solve(context.Background(), p, Feasible)
			if err != nil {
				t.Fatalf("problem %d, %s, feasible: %v", i, s.Name(), err)
			}
			if err := Validate(p, any); err != nil || any.Stages < sol.Stages {
				t.Fatalf("problem %d, %s: a feasible placement of %d stages (optimum %d): %v", i, s.Name(), any.Stages, sol.Stages, err)
			}
		}
		if stages[0] != stages[1] {
			t.Errorf("problem %d: CBC says %d stages, Z3 %d (-1: none)\n%+v", i, stages[0], stages[1], p)
		}
		if stages[0] > 0 {
			feasible++
		}
	}
	if feasible < 20 || feasible == 60 {
		t.Errorf("%d of 60 random problems have a placement: the test does not exercise both answers", feasible)
	}
}

// switchProblem is the shape of a switch-scale program: n tables in 8
// layers, each matching what one table of the layer before set, sizes
// from 512 to 16,384 entries (split into parts of 4,096), every 20th
// table also writing one shared field; Tofino's limits.
func switchProblem(n int) *Problem {
	p := &Problem{Limits: target.Limits{Stages: 12, ALUsPerStage: 224, StatefulALUsPerStage: 4, TablesPerStage: 16,
		EntriesPerTable: 4096, Containers: 224, ContainerBits: 32, WordBits: 32}}
	sizes := []int{512, 1024, 2048, 4096, 1024, 8192, 2048, 16384}
	width := (n + 7) / 8
	last := -1
	for k := 0; k < n; k++ {
		p.Actions = append(p.Actions, chain(fmt.Sprintf("set%d", k), 1))
		p.Tables = append(p.Tables, Table{Name: fmt.Sprintf("t%d", k), Entries: sizes[k%len(sizes)], Match: "exact", Actions: []int{k}})
		if layer := k / width; layer > 0 {
			p.Deps = append(p.Deps, Dep{From: (layer-1)*width + k%width, To: k, Kind: Match})
		}
		if k%20 == 19 {
			if last >= 0 {
				p.Deps = append(p.Deps, Dep{From: last, To: k, Kind: ActionDep})
			}
			last = k
		}
	}
	return p
}

// TestCancelAllocation: a cancelled allocation returns promptly with the
// context's error, for each solver (the latency is logged; the bound
// only catches a solve that ran on).
func TestCancelAllocation(t *testing.T) {
	for _, s := range solvers {
		t.Run(s.Name(), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			var at time.Time
			time.AfterFunc(300*time.Millisecond, func() { at = time.Now(); cancel() })
			_, err := s.Solve(ctx, switchProblem(120), Optimal)
			late := time.Since(at)
			if !errors.Is(err, context.Canceled) {
				t.Fatalf("got %v, want context.Canceled", err)
			}
			t.Logf("returned %v after the cancellation", late)
			if late > time.Second {
				t.Errorf("returned %v after the cancellation", late)
			}
		})
	}
}

// BenchmarkSwitchScale: optimal allocation of 120 tables for Tofino.
func BenchmarkSwitchScale(b *testing.B) {
	for _, s := range solvers {
		b.Run(s.Name(), func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				sol, err := s.Solve(context.Background(), switchProblem(120), Optimal)
				if err != nil {
					b.Fatal(err)
				}
				b.ReportMetric(float64(sol.Stages), "stages")
			}
		})
	}
}

// TestTooFull: a problem whose table parts or ALUs alone need more
// stages than the target has is refused by counting, naming the limit
// that binds and the number that would do.
func TestTooFull(t *testing.T) {
	lim := small() // 6 stages, 2 tables and 1 stateful ALU per stage
	var tables []Table
	for i := range 13 {
		tables = append(tables, Table{Name: fmt.Sprint("t", i), Actions: []int{0}})
	}
	p := &Problem{Limits: lim, Tables: tables, Actions: []Action{chain("a", 1)}}
	want := "needs at least 7 stages, the target has 6: its 13 table parts"
	if got := TooFull(p); !strings.HasPrefix(got, want) || !strings.Contains(got, "--tables-per-stage 3") {
		t.Errorf("TooFull = %q, want %q... and --tables-per-stage 3", got, want)
	}
	if _, err := (Z3{}).Solve(context.Background(), p, Optimal); err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("Solve: %v, want the same refusal", err)
	}
	p.Tables = p.Tables[:12]
	if got := TooFull(p); got != "" {
		t.Errorf("12 tables in 6 stages of 2: TooFull = %q, want \"\"", got)
	}
	p.Actions = []Action{stateful("s")}
	p.Tables = p.Tables[:7]
	if got, want := TooFull(p), "its 7 stateful ALUs need at least 7 stages at 1 per stage"; !strings.Contains(got, want) {
		t.Errorf("TooFull = %q, want %q", got, want)
	}
}
