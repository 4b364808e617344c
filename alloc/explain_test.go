package alloc

import (
	"context"
	"strings"
	"testing"
)

// TestExplain: an infeasible problem is explained by the one limit whose
// relaxation makes it feasible, in the program's terms.
func TestExplain(t *testing.T) {
	parallel := func(name string, n int, stateful bool) Action {
		a := Action{Name: name, ModifiesKey: true} // its ALUs must share the match's stage
		for u := 0; u < n; u++ {
			a.ALUs = append(a.ALUs, ALU{Stateful: stateful})
		}
		return a
	}
	cases := []struct {
		name string
		p    Problem
		want string
	}{
		{"stages", Problem{Limits: small(),
			Tables:  []Table{{Name: "t1", Actions: []int{0}}, {Name: "t2", Actions: []int{1}}, {Name: "t3", Actions: []int{0}}},
			Actions: []Action{chain("one", 1), chain("a", 5)},
			Deps:    []Dep{{From: 0, To: 1, Kind: Match}, {From: 1, To: 2, Kind: ActionDep}}},
			"needs 7 stages, the target has 6: the chain t1 -> t2 -> action a (5 ALUs deep) -> t3 is the longest (7 stages); shorten it (fewer tables that depend on each other, a shallower action), or compile for 7 stages (--stages 7)"},
		{"stateful ALUs", Problem{Limits: small(),
			Tables: []Table{{Name: "t", Actions: []int{0}}}, Actions: []Action{parallel("a", 3, true)}},
			"stage 0 needs 3 stateful ALUs (3 of action a), the target allows 1, and more stages would not help"},
		{"ALUs", Problem{Limits: small(),
			Tables: []Table{{Name: "t", Actions: []int{0}}}, Actions: []Action{parallel("a", 5, false)}},
			"stage 0 needs 5 ALUs (5 of action a; 0 carry results to later stages), the target allows 4, and more stages would not help: they must share it; allow 5 ALUs per stage (--alus-per-stage 5)"},
	}
	// The chain alone shows the first problem cannot fit, before any solver.
	if got, want := ChainTooLong(&cases[0].p), "needs at least 7 stages, the target has 6: the chain t1 -> t2 -> action a (5 ALUs deep) -> t3 is the longest (7 stages); shorten it (fewer tables that depend on each other, a shallower action), or compile for 7 stages (--stages 7)"; got != want {
		t.Errorf("ChainTooLong: got %q, want %q", got, want)
	}
	for _, c := range cases[1:] {
		if got := ChainTooLong(&c.p); got != "" {
			t.Errorf("%s: ChainTooLong says %q of a problem whose chain fits", c.name, got)
		}
	}
	for _, c := range cases {
		for _, s := range Solvers() {
			t.Run(c.name+"/"+s.Name(), func(t *testing.T) {
				if _, err := s.Solve(context.Background(), &c.p, Optimal); err == nil {
					t.Fatal("the problem has a placement")
				}
				if got := Explain(context.Background(), s, &c.p); !strings.Contains(got, c.want) {
					t.Errorf("got %q, want %q", got, c.want)
				}
			})
		}
	}
}

func TestSolverNamed(t *testing.T) {
	for _, c := range []struct{ name, want, err string }{
		{"", "cbc", ""}, {"z3", "z3", ""}, {"cbc", "cbc", ""},
		{"gurobi", "", `unknown solver "gurobi" (solvers: cbc, z3)`},
	} {
		s, err := SolverNamed(c.name)
		switch {
		case c.err != "":
			if err == nil || err.Error() != c.err {
				t.Errorf("SolverNamed(%q): %v, want %q", c.name, err, c.err)
			}
		case err != nil || s.Name() != c.want:
			t.Errorf("SolverNamed(%q): %v, %v; want %s", c.name, s, err, c.want)
		}
	}
}

// TestKeyWrittenEarly: an action that computes its table's key and then
// reads it has no placement however many stages there are; the reason
// names the action, the key, the table and the ALUs, before any solver.
func TestKeyWrittenEarly(t *testing.T) {
	p := &Problem{Limits: small(),
		Tables:  []Table{{Name: "fw", Entries: 1, Match: "exact", Actions: []int{0}}},
		Actions: []Action{{Name: "firewall", ALUs: []ALU{{WritesKey: "meta.idx"}, {Stateful: true, Reads: []int{0}}}}}}
	want := "action firewall writes meta.idx, a key of table fw, in the stage of its ALU 0, and its ALU 1 reads that result a stage later"
	if got := KeyWrittenEarly(p); !strings.HasPrefix(got, want) || !strings.Contains(got, "key fw on a field the action does not write") {
		t.Errorf("got %q, want it to start %q and say what to change", got, want)
	}
	p.Actions[0].ALUs[0].WritesKey, p.Actions[0].ALUs[1].WritesKey = "", "meta.idx"
	if got := KeyWrittenEarly(p); got != "" {
		t.Errorf("the key written by the last ALU: got %q, want none", got)
	}
}
