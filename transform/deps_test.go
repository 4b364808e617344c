package transform

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/ir"
)

// elseIfChain is an apply block of an if/else-if chain of n arms on one
// field, each arm an assignment.
func elseIfChain(n int) string {
	var b strings.Builder
	for i := range n {
		if i > 0 {
			b.WriteString(" else ")
		}
		fmt.Fprintf(&b, "if (hdr.app.a == %d) { hdr.app.b = %d; }", i, i+1)
	}
	return b.String()
}

// TestPairsAsWalked: the dependency analysis skips the other branches of
// each gateway by ranges of Orders and finds the nodes a node decides by
// subtree ends; on every corpus program and an else-if chain, these agree
// with walking the paths' conditions and the parents, node by node; and
// CheckTableCount's tables are the graph's.
func TestPairsAsWalked(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(), "ok", "*.p4"))
	progs := map[string]*ir.Program{"chain": program(t, "", elseIfChain(30)),
		"nested": program(t, "", "if (hdr.app.x == 1) { if (hdr.app.y == 2) { hdr.app.a = 1; } else { hdr.app.b = 1; } hdr.app.c = 1; } else if (hdr.app.x == 2) { hdr.app.a = 2; }\nhdr.app.b = 3;")}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs[filepath.Base(f)] = corpus.LoadSource(t, filepath.Base(f), src)
	}
	for name, prog := range progs {
		for _, c := range matchActionControls(prog) {
			nodes := buildGraph(c, newNamer()).nodes
			applied, want := map[*ir.Table]bool{}, map[*ir.Table]bool{}
			appliedTables(c.Body, applied)
			for _, n := range nodes {
				if n.Kind == TableNode {
					want[n.Table] = true
				}
			}
			if len(applied) != len(want) {
				t.Errorf("%s, %s: appliedTables finds %d tables, the graph %d", name, c.Name, len(applied), len(want))
			}
			end := subtreeEnds(nodes)
			for j, b := range nodes {
				skip := earlierBranches(b, nil)
				for i, a := range nodes[:j] {
					skipped := false
					for _, s := range skip {
						skipped = skipped || s.at < i && i < s.first
					}
					want := walkedExclusive(a, b)
					if skipped != want || exclusive(a, b) != want {
						t.Errorf("%s, %s: nodes %d and %d: skipped %v, exclusive %v, want %v", name, c.Name, i, j, skipped, exclusive(a, b), want)
					}
					if got, want := b.Order <= end[i], walkedControls(a, b); got != want {
						t.Errorf("%s, %s: node %d decides node %d: %v, want %v", name, c.Name, i, j, got, want)
					}
				}
			}
		}
	}
}

// walkedExclusive compares the paths' conditions one by one.
func walkedExclusive(a, b *Node) bool {
	x, y := a.path.conds(), b.path.conds()
	for i := 0; i < len(x) && i < len(y); i++ {
		if x[i].at != y[i].at {
			return false
		}
		if x[i].expr != y[i].expr || x[i].neg != y[i].neg || x[i].run != y[i].run {
			return true
		}
	}
	return false
}

// walkedControls walks b's parents.
func walkedControls(a, b *Node) bool {
	for p := b.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}

// TestElseIfChainLinear: in an else-if chain, each gateway decides every
// later arm, but only a node's parent gives it a successor dependency
// (the farther ones are implied): the dependencies are linear in the
// arms, and the stage estimate is what the full set gave.
func TestElseIfChainLinear(t *testing.T) {
	const arms = 200
	ig := analyze(t, program(t, "", elseIfChain(arms)), 0).Controls[0]
	if len(ig.Nodes) != 2*arms {
		t.Fatalf("%d nodes, want %d (a gateway and an assignment per arm)", len(ig.Nodes), 2*arms)
	}
	if len(ig.Deps) != 2*arms-1 {
		t.Errorf("%d dependencies, want %d, one from each node's parent", len(ig.Deps), 2*arms-1)
	}
	for _, d := range ig.Deps {
		if d.Kind != SuccessorDep || d.To.Parent != d.From {
			t.Errorf("dependency %v, want a successor dependency from the node's parent", d)
		}
	}
	if ig.Stages != 1 {
		t.Errorf("%d stages, want 1 (with no limit per stage, gateways and their branches share it)", ig.Stages)
	}
}

// TestTableCountRefused: a control that applies more tables than the
// target's stages hold is refused before the analysis, at the control,
// naming the limit; one that fits passes.
func TestTableCountRefused(t *testing.T) {
	var decls, apply strings.Builder
	for i := range 40 {
		fmt.Fprintf(&decls, "    table t%d { key = { hdr.app.a: exact; } actions = { NoAction; } }\n", i)
		fmt.Fprintf(&apply, "t%d.apply();\n", i)
	}
	prog := program(t, decls.String(), apply.String())
	if err := CheckTableCount(prog, 10, 4); err != nil {
		t.Errorf("40 tables in 10 stages of 4: %v, want none", err)
	}
	err := CheckTableCount(prog, 12, 3)
	var tm *TooManyTablesError
	if !errors.As(err, &tm) {
		t.Fatalf("40 tables in 12 stages of 3: %v, want a *TooManyTablesError", err)
	}
	want := "control MyIngress applies 40 tables, which need at least 14 stages at 3 tables per stage; the target has 12"
	if !strings.Contains(tm.Msg, want) || !strings.Contains(tm.Msg, "--tables-per-stage 4") {
		t.Errorf("message %q, want %q and the tables per stage that would do", tm.Msg, want)
	}
	if tm.Span != prog.Pipeline[ir.V1Ingress].Control.Span {
		t.Errorf("at %v, want the ingress control", tm.Span)
	}
}

// TestChainBound: an else-if chain becomes a table while the arms after
// its first, with the last else, make at most maxCubes alternatives: of
// chains without a last else, maxCubes arms do and maxCubes+1 do not.
func TestChainBound(t *testing.T) {
	for _, c := range []struct {
		arms     int
		rewrites int
	}{{maxCubes, 1}, {maxCubes + 1, 0}} {
		src := programSource("", elseIfChain(c.arms))
		prog := program(t, "", elseIfChain(c.arms))
		res, err := Transform(context.Background(), prog, prog.Pipeline[ir.V1Ingress].Control.Span.File, []byte(src))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Rewrites) != c.rewrites {
			t.Errorf("%d arms: %d rewrites, want %d", c.arms, len(res.Rewrites), c.rewrites)
		}
		if c.rewrites == 0 && (len(res.Kept) == 0 || res.Kept[0].Reason != fmt.Sprintf("more than %d alternatives", maxCubes)) {
			t.Errorf("%d arms: kept %+v, want the chain kept for more than %d alternatives", c.arms, res.Kept, maxCubes)
		}
	}
}
