package transform

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
)

// transformed rewrites a corpus program (or src, when given, as if it
// were that program) and loads the result: it must be a valid program.
func transformed(t *testing.T, name string, src []byte) (*Result, *ir.Program, *ir.Program) {
	t.Helper()
	if src == nil {
		var err error
		if src, err = os.ReadFile(filepath.Join(corpus.Dir(), "ok", name)); err != nil {
			t.Fatal(err)
		}
	}
	before := corpus.LoadSource(t, name, src)
	file := filepath.Join(corpus.Dir(), "ok", name)
	res, err := Transform(context.Background(), before, file, src)
	if err != nil {
		t.Fatal(err)
	}
	after := corpus.LoadSource(t, name, res.Source)
	return res, before, after
}

// TestRewriteME2: the three ifs of ME-2 become one table keyed on round,
// exact, one entry per branch and NoAction for the rest; 3 gateways and
// 3 stages before, none and 1 after.
func TestRewriteME2(t *testing.T) {
	res, before, after := transformed(t, "me2_disjoint_writes.p4", nil)
	if len(res.Rewrites) != 1 {
		t.Fatalf("%d rewrites, want 1; kept %+v\n%s", len(res.Rewrites), res.Kept, res.Source)
	}
	rw := res.Rewrites[0]
	if strings.Join(rw.Keys, ", ") != "hdr.app.round: exact" || rw.Entries != 3 || rw.Gateways != 3 {
		t.Errorf("rewrite %+v, want key hdr.app.round: exact, 3 entries, 3 gateways", rw)
	}
	tbl := after.Control("MyIngress").Table(rw.Table)
	if tbl == nil {
		t.Fatalf("no table %s in\n%s", rw.Table, res.Source)
	}
	var got []string
	for _, e := range tbl.Entries {
		got = append(got, e.Keys[0].String()+":"+e.Action.Action.Name)
	}
	if want := "1:set_a 2:set_b 3:set_c"; strings.Join(got, " ") != want {
		t.Errorf("entries %q, want %q", strings.Join(got, " "), want)
	}
	if tbl.Default.Action.Name != "NoAction" || !tbl.DefaultConst {
		t.Errorf("default action %s (const %v), want const NoAction", tbl.Default.Action.Name, tbl.DefaultConst)
	}
	b, a := analyze(t, before, 16), analyze(t, after, 16)
	if b.Summary != (Summary{Gateways: 3, Tables: 3, Stages: 3}) || a.Summary != (Summary{Gateways: 0, Tables: 1, Stages: 1}) {
		t.Errorf("before %+v, after %+v; want 3 gateways, 3 tables, 3 stages, then 0, 1, 1", b.Summary, a.Summary)
	}
	if !strings.Contains(string(res.Source), "// ME-2 (CaT Figure 3") {
		t.Error("the file's comments were lost")
	}
}

// TestTransformKeepsMeaning: for every program of the corpus, the
// transformed program and the original agree in the interpreter on 10,000
// random packets, with the same random entries in the original's tables
// and the same register contents.
func TestTransformKeepsMeaning(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus.Dir(), "ok", "*.stf"))
	rewritten := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".stf") + ".p4"
		t.Run(name, func(t *testing.T) {
			res, before, after := transformed(t, name, nil)
			rewritten += min(len(res.Rewrites), 1)
			c := interp.NewGenerator(before, 5).Case(10000, 6, 8)
			newA := func() (interp.Target, error) { return interp.New(before, interp.Options{Seed: 9}) }
			newB := func() (interp.Target, error) { return interp.New(after, interp.Options{Seed: 9}) }
			d, err := interp.Diff(newA, newB, c, interp.RegisterCells(before))
			if err != nil {
				t.Fatal(err)
			}
			if d != nil {
				t.Fatalf("the transformed program differs: %v\n%s\ntransformed:\n%s", d, d.STF(before), res.Source)
			}
		})
	}
	t.Logf("%d of %d programs rewritten", rewritten, len(files))
}
