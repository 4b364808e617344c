package transform

import (
	"context"
	"errors"
	"fmt"
	"math/rand"
	"strconv"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/ir"
)

// program loads a v1model program whose ingress declares decls and
// applies apply. The app header has fields round, x, y (8 bits) and a,
// b, c, result (32 bits).
func program(t testing.TB, decls, apply string) *ir.Program {
	t.Helper()
	return corpus.LoadSource(t, "transform_test.p4", []byte(programSource(decls, apply)))
}

func programSource(decls, apply string) string {
	return `#include <core.p4>
#include <v1model.p4>
header app_t { bit<8> round; bit<8> x; bit<8> y; bit<32> a; bit<32> b; bit<32> c; bit<32> result; }
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
` + decls + `
    apply {
        ` + apply + `
    }
}
BENCH_MAIN
`
}

func analyze(t testing.TB, prog *ir.Program, perStage int) *Analysis {
	t.Helper()
	a, err := Analyze(context.Background(), prog, Options{TablesPerStage: perStage})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// depsText lists dependencies as "KIND HAZARD LOC FROM-LINE->TO-LINE".
func depsText(ds []Dep) string {
	var out []string
	for _, d := range ds {
		out = append(out, strings.TrimSpace(strings.Join([]string{d.Kind.String(), d.Hazard, d.Loc,
			itoa(d.From.Span.Start.Line) + "->" + itoa(d.To.Span.Start.Line)}, " ")))
	}
	return strings.Join(out, "; ")
}

var itoa = strconv.Itoa

// TestME2 is CaT's ME-2: three writes of one field under disjoint
// conditions. Without guards, WAW action dependencies chain the three
// default tables over 3 stages (what a compiler sees in the program); with
// them, all three are false and 1 stage would do.
func TestME2(t *testing.T) {
	a := analyze(t, corpus.Load(t, "me2_disjoint_writes.p4"), 16)
	ig := a.Controls[0]
	if got, want := (ig.Summary), (Summary{Gateways: 3, Tables: 3, Stages: 3}); got != want {
		t.Errorf("summary %+v, want %+v", got, want)
	}
	if ig.GuardedStages != 1 {
		t.Errorf("%d stages with guarded dependencies, want 1", ig.GuardedStages)
	}
	// set_a (line 30), set_b (33), set_c (36) all write hdr.app.result.
	want := "action WAW hdr.app.result 30->33; action WAW hdr.app.result 30->36; action WAW hdr.app.result 33->36"
	if got := depsText(ig.False); got != want {
		t.Errorf("false dependencies:\n got %s\nwant %s", got, want)
	}
	if got := depsText(ig.Deps); strings.Contains(got, "action") {
		t.Errorf("an action dependency was kept: %s", got)
	}
}

// TestGuards: which guards the solver finds unsatisfiable. Each case
// writes hdr.app.result under two conditions; the dependency is false
// exactly when no packet meets both.
func TestGuards(t *testing.T) {
	cases := []struct {
		name, c1, c2 string
		false_       bool
	}{
		{"different constants", "hdr.app.x == 1", "hdr.app.x == 2", true},
		{"same constant", "hdr.app.x == 1", "hdr.app.x == 1", false},
		{"ranges", "hdr.app.x < 10", "hdr.app.x >= 10", true},
		{"overlapping ranges", "hdr.app.x < 10", "hdr.app.x > 8", false},
		{"arithmetic", "hdr.app.x + 1 == 5", "hdr.app.x == 4", false},
		{"arithmetic disjoint", "hdr.app.x + 1 == 5", "hdr.app.x == 5", true},
		{"wraparound", "hdr.app.x + 1 == 0", "hdr.app.x == 255", false},
		{"masks", "hdr.app.x & 0xF0 == 0x10", "hdr.app.x & 0xF0 == 0x20", true},
		{"mask and value", "hdr.app.x & 0xF0 == 0x10", "hdr.app.x == 0x1F", false},
		{"conjunction", "hdr.app.x == 1 && hdr.app.y == 2", "hdr.app.x == 1 && hdr.app.y == 3", true},
		{"different fields", "hdr.app.x == 1", "hdr.app.y == 2", false},
		{"validity", "hdr.app.isValid()", "!hdr.app.isValid()", true},
		{"slice", "hdr.app.a[7:0] == 1", "hdr.app.a[7:0] == 2", true},
		{"unmodeled call stays", "hdr.app.x == 1", "hdr.app.x == 2 || hdr.app.y == 7", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			prog := program(t, "", "if ("+c.c1+") { hdr.app.result = 1; }\nif ("+c.c2+") { hdr.app.result = 2; }")
			ig := analyze(t, prog, 0).Controls[0]
			got := len(ig.False) == 1
			if got != c.false_ {
				t.Errorf("false dependencies %q, kept %q; want the WAW false: %v", depsText(ig.False), depsText(ig.Deps), c.false_)
			}
		})
	}
}

// TestUnstableConditions: a branch writes the field a later condition
// tests, so the two conditions see different values and the guard proves
// nothing: the dependency stays (CaT's conservative rule).
func TestUnstableConditions(t *testing.T) {
	prog := program(t, "", `if (hdr.app.x == 1) { hdr.app.x = 2; hdr.app.result = 1; }
        if (hdr.app.x == 2) { hdr.app.result = 2; }`)
	ig := analyze(t, prog, 0).Controls[0]
	if len(ig.False) != 0 {
		t.Errorf("false dependencies %s, want none", depsText(ig.False))
	}
	// The second gateway matches on x, written by the first branch: it
	// goes one stage later, and the second branch with it.
	if ig.GuardedStages != 2 {
		t.Errorf("%d stages, want 2; dependencies %s", ig.GuardedStages, depsText(ig.Deps))
	}
}

// TestTableDependencies: the four kinds of Jose et al.
func TestTableDependencies(t *testing.T) {
	decls := `
    action set_x(bit<8> v) { hdr.app.x = v; }
    action set_y(bit<8> v) { hdr.app.y = v; }
    action copy_x() { hdr.app.result = (bit<32>) hdr.app.x; }
    table by_round { key = { hdr.app.round: exact; } actions = { set_x; } }
    table by_x { key = { hdr.app.x: exact; } actions = { set_y; } }
    table by_y { key = { hdr.app.y: exact; } actions = { copy_x; } }
    table set_round { key = { hdr.app.a: exact; } actions = { set_x; } }
    table rewrite_round { key = { hdr.app.b: exact; } actions = { set_y; } }
    action maybe_x(bit<8> v) { if (hdr.app.y == 0) { return; } hdr.app.x = v; }
    table maybe_by_round { key = { hdr.app.round: exact; } actions = { maybe_x; } }`
	cases := []struct {
		name, apply, want string
		stages            int
	}{
		{"match", "by_round.apply();\nby_x.apply();", "match RAW hdr.app.x", 2},
		{"action", "by_round.apply();\nby_y.apply();", "action RAW hdr.app.x", 2},
		{"action waw", "by_round.apply();\nset_round.apply();", "action WAW hdr.app.x", 2},
		{"reverse match", "by_y.apply();\nrewrite_round.apply();", "reverse-match WAR hdr.app.y", 1},
		{"successor", "if (by_round.apply().hit) { rewrite_round.apply(); }", "successor", 1},
		// The next table matches on what the first's action writes: a
		// match dependency, which the successor relation does not relax.
		{"successor with a match", "if (by_round.apply().hit) { by_x.apply(); }", "match RAW hdr.app.x", 2},
		// A return leaves the action, not the control: the match stays.
		{"return in an action", "maybe_by_round.apply();\nby_x.apply();", "match RAW hdr.app.x", 2},
		{"independent", "by_round.apply();\nrewrite_round.apply();", "", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ig := analyze(t, program(t, decls, c.apply), 0).Controls[0]
			var got []string
			for _, d := range ig.Deps {
				got = append(got, strings.TrimSpace(strings.Join([]string{d.Kind.String(), d.Hazard, d.Loc}, " ")))
			}
			if strings.Join(got, "; ") != c.want {
				t.Errorf("dependencies %q, want %q", strings.Join(got, "; "), c.want)
			}
			if ig.Stages != c.stages {
				t.Errorf("%d stages, want %d", ig.Stages, c.stages)
			}
		})
	}
}

// TestStageCapacity: 17 independent gateways and tables do not fit a
// stage of 16.
func TestStageCapacity(t *testing.T) {
	fields := []string{"hdr.ipv4.ttl", "hdr.ipv4.diffserv", "hdr.ipv4.identification", "hdr.ipv4.srcAddr",
		"hdr.ipv4.dstAddr", "hdr.udp.srcPort", "hdr.udp.dstPort", "hdr.app.result"}
	var apply strings.Builder
	for i, f := range fields {
		apply.WriteString("if (hdr.app.round == " + itoa(i) + ") { " + f + " = 1; }\n")
	}
	apply.WriteString("hdr.app.a = 1;\n")
	ig := analyze(t, program(t, "", apply.String()), 16).Controls[0]
	if got, want := ig.Summary, (Summary{Gateways: 8, Tables: 9, Stages: 2}); got != want {
		t.Errorf("summary %+v, want %+v (dependencies %s)", got, want, depsText(ig.Deps))
	}
}

// TestCubesAgreeWithSolver: the guard analysis decides conditions that
// test fields against constants without the solver; on 300 random
// conditions over two 8-bit fields (comparisons, masks, slices, negations,
// conjunctions and disjunctions), every conjunction of two it decides
// gets the solver's answer.
func TestCubesAgreeWithSolver(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	fields := []string{"hdr.app.x", "hdr.app.y"}
	var atom func() string
	atom = func() string {
		f, c := fields[rng.Intn(2)], rng.Intn(256)
		switch rng.Intn(4) {
		case 0:
			ops := []string{"==", "!=", "<", "<=", ">", ">="}
			return fmt.Sprintf("%s %s %d", f, ops[rng.Intn(len(ops))], c)
		case 1:
			m := rng.Intn(256)
			return fmt.Sprintf("%s & %d == %d", f, m, c&m)
		case 2:
			return fmt.Sprintf("%s[7:4] != %d", f, c%16)
		}
		return fmt.Sprintf("%s == %d", f, c%4) // small values meet often
	}
	var condition func(depth int) string
	condition = func(depth int) string {
		if depth == 0 || rng.Intn(3) == 0 {
			return atom()
		}
		switch rng.Intn(3) {
		case 0:
			return "(" + condition(depth-1) + " && " + condition(depth-1) + ")"
		case 1:
			return "(" + condition(depth-1) + " || " + condition(depth-1) + ")"
		}
		return "!(" + condition(depth-1) + ")"
	}
	var apply strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&apply, "if (%s) { hdr.app.a = %d; }\n", condition(3), i)
	}
	prog := program(t, "", apply.String())
	var conds []ir.Expr
	for _, st := range prog.Control("MyIngress").Body {
		conds = append(conds, st.(*ir.If).Cond)
	}
	gs := newGuards(newNamer())
	defer gs.close()
	decided, sat := 0, 0
	for i := range conds {
		for _, pair := range [][]cond{
			{{expr: conds[i]}, {expr: conds[(i+1)%len(conds)]}},
			{{expr: conds[i]}, {expr: conds[(i+7)%len(conds)], neg: true}},
		} {
			byCubes, ok := gs.byCubes(pair)
			if !ok {
				continue
			}
			decided++
			bySolver, err := gs.solve(context.Background(), pair)
			if err != nil {
				t.Fatal(err)
			}
			if byCubes != bySolver {
				t.Errorf("%s && %v%s: cubes say %v, the solver %v", ir.Format(pair[0].expr), map[bool]string{true: "!"}[pair[1].neg],
					ir.Format(pair[1].expr), byCubes, bySolver)
			}
			if bySolver {
				sat++
			}
		}
	}
	if decided < 250 || sat == 0 || sat == decided {
		t.Errorf("cubes decided %d of 600 conjunctions, %d satisfiable: the test does not exercise both answers", decided, sat)
	}
}

// TestSynthesizedCallNode: a direct call of an action that uses a
// register is a node of its own (a keyless table, as p4c makes it, whose
// action's ALUs placement stages); a call of a plain action stays in the
// run of statements around it.
func TestSynthesizedCallNode(t *testing.T) {
	decls := `
    register<bit<32>>(1) hits;
    action bump() { bit<32> n; hits.read(n, 0); hits.write(0, n + 1); }
    action mark() { hdr.app.b = 1; }`
	prog := corpus.LoadSource(t, "transform_test.p4", []byte(programSource(decls, `hdr.app.a = 1; bump(); mark(); hdr.app.c = 2;`)))
	a := analyze(t, prog, 16)
	var nodes []string
	for _, n := range a.Controls[0].Nodes {
		nodes = append(nodes, fmt.Sprintf("%s:%d", n.Kind, len(n.Stmts)))
	}
	if want := "default table:1 default table:1 default table:2"; strings.Join(nodes, " ") != want {
		t.Errorf("nodes %q, want %q", strings.Join(nodes, " "), want)
	}
}

// TestCheckKeys: a table whose key applies another table is refused at
// the key; one whose key reads a variable set from the hit is not.
func TestCheckKeys(t *testing.T) {
	const decls = `
    action a() { hdr.app.x = 1; }
    table inner { key = { hdr.app.y : exact; } actions = { a; NoAction; } default_action = NoAction(); }
    table outer { key = { KEY : exact @name("k"); } actions = { a; NoAction; } default_action = NoAction(); }
`
	inKey := program(t, strings.Replace(decls, "KEY", "inner.apply().hit", 1), "outer.apply();")
	err := CheckKeys(inKey)
	var u *UnsupportedError
	if !errors.As(err, &u) || u.Span.Start.Line != 9 || !strings.Contains(u.Msg, "the key of table outer applies a table") {
		t.Errorf("got %v, want the key refused at line 9 (outer's)", err)
	}
	before := program(t, "    bool hit;\n"+strings.Replace(decls, "KEY", "hit", 1), "hit = inner.apply().hit; outer.apply();")
	if err := CheckKeys(before); err != nil {
		t.Errorf("a key reading a variable: %v", err)
	}
}
