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

// TestRewriteTablesInBranches: ME-2 and ME-3 with tables in their
// branches. The conditions become a table keyed on what they test, and
// each branch's table runs in the case of the switch on the action it ran
// (the table's next-table choice, no gateway): ME-2's 3 gateways, 3
// tables and 3 stages become 0, 4 and 1; ME-3's 4 gateways and 4 tables
// become 0 and 3, in 1 stage. The meaning is checked on every corpus
// program by TestTransformKeepsMeaning; here the form.
func TestRewriteTablesInBranches(t *testing.T) {
	for _, c := range []struct {
		name, keys, entries string
		cases               []string
		before, after       Summary
	}{
		{"me2_tables.p4", "hdr.app.round: exact", "1:if_53_1 2:if_53_2 3:if_53_3", []string{"if_53_1:round1", "if_53_2:round2", "if_53_3:round3"},
			Summary{Gateways: 3, Tables: 3, Stages: 3}, Summary{Gateways: 0, Tables: 4, Stages: 1}},
		{"me3_tables.p4", "hdr.app.session_color: ternary, hdr.app.app_color: ternary", "(2, _):drop (_, 2):drop (1, _):if_58_1 (_, 1):if_58_2",
			[]string{"if_58_1:session_yellow", "if_58_2:app_yellow"},
			Summary{Gateways: 4, Tables: 4, Stages: 1}, Summary{Gateways: 0, Tables: 3, Stages: 1}},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, before, after := transformed(t, c.name, nil)
			if len(res.Rewrites) != 1 {
				t.Fatalf("%d rewrites, want 1; kept %+v", len(res.Rewrites), res.Kept)
			}
			if got := strings.Join(res.Rewrites[0].Keys, ", "); got != c.keys {
				t.Errorf("keys %q, want %q", got, c.keys)
			}
			ctl := after.Control("MyIngress")
			tbl := ctl.Table(res.Rewrites[0].Table)
			var entries []string
			for _, e := range tbl.Entries {
				var ks []string
				for _, k := range e.Keys {
					ks = append(ks, strings.ReplaceAll(k.String(), "default", "_"))
				}
				s := strings.Join(ks, ", ")
				if len(ks) > 1 {
					s = "(" + s + ")"
				}
				entries = append(entries, s+":"+e.Action.Action.Name)
			}
			if got := strings.Join(entries, " "); got != c.entries {
				t.Errorf("entries %q, want %q", got, c.entries)
			}
			var cases []string
			for _, st := range ctl.Body {
				if sw, ok := st.(*ir.SwitchAction); ok && sw.Table == tbl {
					for _, k := range sw.Cases {
						for _, b := range k.Body {
							if ap, ok := b.(*ir.ApplyTable); ok {
								cases = append(cases, k.Actions[0].Name+":"+ap.Table.Name)
							}
						}
					}
				}
			}
			if got, want := strings.Join(cases, " "), strings.Join(c.cases, " "); got != want {
				t.Errorf("switch cases %q, want %q\n%s", got, want, res.Source)
			}
			if b, a := analyze(t, before, 16), analyze(t, after, 16); b.Summary != c.before || a.Summary != c.after {
				t.Errorf("before %+v, after %+v; want %+v, then %+v", b.Summary, a.Summary, c.before, c.after)
			}
		})
	}
}

// TestKeepTableBranches: for a target whose tables cannot choose the
// tables after them, ME-2 with tables stays as written, and says why.
func TestKeepTableBranches(t *testing.T) {
	file := filepath.Join(corpus.Dir(), "ok", "me2_tables.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	prog := corpus.LoadSource(t, "me2_tables.p4", src)
	res, err := TransformWith(context.Background(), prog, file, src, RewriteOptions{KeepTableBranches: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Rewrites) != 0 || string(res.Source) != string(src) {
		t.Fatalf("%d rewrites; the program changed", len(res.Rewrites))
	}
	if len(res.Kept) != 1 || !strings.Contains(res.Kept[0].Reason, "a branch applies table round1 at") {
		t.Errorf("kept %+v, want the run kept because a branch applies round1", res.Kept)
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
			sameMeaning(t, before, after, c, res.Source)
			// As Tofino's compiles run it: register code made actions too.
			src, _ := os.ReadFile(filepath.Join(corpus.Dir(), "ok", name))
			regs, err := TransformWith(context.Background(), before, filepath.Join(corpus.Dir(), "ok", name), src, RewriteOptions{RegisterActions: true})
			if err != nil {
				t.Fatal(err)
			}
			if string(regs.Source) != string(res.Source) {
				sameMeaning(t, before, corpus.LoadSource(t, name, regs.Source), c, regs.Source)
			}
		})
	}
	t.Logf("%d of %d programs rewritten", rewritten, len(files))
}

// sameMeaning runs both programs on c (entries, registers and packets)
// and fails the test where they disagree.
func sameMeaning(t *testing.T, before, after *ir.Program, c *interp.Case, source []byte) {
	t.Helper()
	newA := func() (interp.Target, error) { return interp.New(before, interp.Options{Seed: 9}) }
	newB := func() (interp.Target, error) { return interp.New(after, interp.Options{Seed: 9}) }
	d, err := interp.Diff(newA, newB, c, interp.RegisterCells(before))
	if err != nil {
		t.Fatal(err)
	}
	if d != nil {
		t.Fatalf("the transformed program differs: %v\n%s\ntransformed:\n%s", d, d.STF(before), source)
	}
}

// TestRewriteME3: the UPF rate enforcer's 8 conditions become one table
// keyed on both colours and the QFI; 8 gateways and 9 keyless tables
// (17 logical tables, 2 stages of 16) before, one table in 1 stage after.
func TestRewriteME3(t *testing.T) {
	res, before, after := transformed(t, "me3_upf_rate_enforcer.p4", nil)
	if len(res.Rewrites) != 1 {
		t.Fatalf("%d rewrites, want 1; kept %+v", len(res.Rewrites), res.Kept)
	}
	rw := res.Rewrites[0]
	want := "hdr.app.session_color: ternary, hdr.app.app_color: ternary, hdr.app.qfi: ternary"
	if strings.Join(rw.Keys, ", ") != want || rw.Entries != 8 || rw.Gateways != 8 {
		t.Errorf("rewrite %+v, want keys %s, 8 entries, 8 gateways", rw, want)
	}
	b, a := analyze(t, before, 16), analyze(t, after, 16)
	if b.Summary != (Summary{Gateways: 8, Tables: 9, Stages: 2}) || a.Summary != (Summary{Gateways: 0, Tables: 1, Stages: 1}) {
		t.Errorf("before %+v, after %+v; want 8 gateways, 9 tables, 2 stages, then 0, 1, 1", b.Summary, a.Summary)
	}
	for _, comment := range []string{"// the session is over its rate", "// the application is over its rate"} {
		if !strings.Contains(string(res.Source), comment) {
			t.Errorf("the comment %q inside the rewritten statements was lost", comment)
		}
	}
}

// TestNoRewrite: programs where a rewrite must not happen; the output is
// the input, byte for byte, and the reason is reported.
func TestNoRewrite(t *testing.T) {
	decls := `
    bit<8> tag;
    action set_a() { hdr.app.result = hdr.app.a; }
    table t { key = { hdr.app.round: exact; } actions = { set_a; NoAction; } default_action = NoAction(); }`
	cases := []struct {
		name, apply, reason string
	}{
		{"real RAW between ifs", `if (hdr.app.x == 1) { hdr.app.a = 1; }
        if (hdr.app.y == 2) { hdr.app.b = hdr.app.a; }`, "depend on each other (RAW on hdr.app.a)"},
		{"real WAW, overlapping conditions", `if (hdr.app.x == 1) { hdr.app.result = hdr.app.a; }
        if (hdr.app.x <= 2) { hdr.app.result = hdr.app.b; }`, "depend on each other (WAW on hdr.app.result)"},
		{"branch writes its condition's field", `if (hdr.app.x == 1) { hdr.app.x = 2; }`, "reads hdr.app.x, which a branch writes"},
		{"earlier branch writes a later condition's field", `if (hdr.app.y == 1) { hdr.app.x = 5; }
        if (hdr.app.x == 5) { hdr.app.a = 1; }`, "reads hdr.app.x, which is written before it"},
		{"two fields compared", `if (hdr.app.x == hdr.app.y) { hdr.app.a = 1; }`, "not a test of fields against constants"},
		{"arithmetic on a field", `if (hdr.app.x + 1 == 3) { hdr.app.a = 1; }`, "not a test of fields against constants"},
		{"mask and range on one field", `if (hdr.app.x & 0xF0 == 0x10 && hdr.app.x < 0x18) { hdr.app.a = 1; }`, "a range and a mask"},
		{"a table in two alternatives", `if (hdr.app.x == 1) { t.apply(); }
        if (hdr.app.y == 2) { hdr.app.b = 1; }`, "table t, applied at"},
		{"one condition around a table", `if (hdr.app.x == 1) { t.apply(); }`, "one condition guards table t"},
		{"a table whose key a branch writes first", `if (hdr.app.x == 1) { hdr.app.round = 1; }
        if (hdr.app.y == 2) { t.apply(); }`, "depend on each other (RAW on hdr.app.round)"},
		{"table hit", `if (t.apply().hit) { hdr.app.a = 1; }`, "not a test of fields against constants"},
		{"apply-block local", `bit<8> tmp = hdr.app.x;
        if (tmp == 3) { hdr.app.a = 1; }`, "declared in the apply block"},
		{"return", `if (hdr.app.x == 1) { return; }`, "a return"},
		{"shares a line", `hdr.app.a = 1; if (hdr.app.x == 1) { hdr.app.b = 2; }`, "other code precedes"},
		{"signed compare", `if ((int<8>) hdr.app.x < 0) { hdr.app.a = 1; }`, "not a test of fields against constants"},
		{"a #define among the statements", `if (hdr.app.x == 1) {
#define LATER 1
            hdr.app.a = 1;
        }`, "line 12 holds a preprocessor directive (#define)"},
		// The if's first line is in an #else, its body after the #endif:
		// replacing its lines would drop the #endif (line 15: the apply
		// block opens on line 10).
		{"preprocessor directive", `#ifdef NOT_DEFINED
        if (hdr.app.y == 2) {
#else
        if (hdr.app.x == 1) {
#endif
            hdr.app.a = 1;
        }`, "line 15 holds a preprocessor directive (#endif)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assertKept(t, programSource(decls, c.apply), c.reason) })
	}
}

// assertKept transforms src and checks that it stays as written, kept for
// a reason containing reason.
func assertKept(t *testing.T, src, reason string) {
	t.Helper()
	res, _, _ := transformed(t, "transform_test.p4", []byte(src))
	if string(res.Source) != src {
		t.Errorf("the program changed:\n%s", res.Source)
	}
	var reasons []string
	for _, k := range res.Kept {
		reasons = append(reasons, k.Reason)
	}
	if !strings.Contains(strings.Join(reasons, "\n"), reason) {
		t.Errorf("reasons %q, want one containing %q", reasons, reason)
	}
}

// TestRewriteNeedsItsNames: a table needs the match kinds core.p4
// declares (a program without core.p4 keeps its ifs), and its actions are
// written in the apply block, where a sub-control's statements, inlined
// where it is applied, name what only the sub-control declares.
func TestRewriteNeedsItsNames(t *testing.T) {
	noCore := `header h_t { bit<8> a; bit<8> b; }
control c(inout h_t h) {
    apply {
        if (h.a == 1) { h.b = 2; }
        if (h.a == 2) { h.b = 3; }
    }
}
control ctrl(inout h_t h);
package top(ctrl _c);
top(c()) main;
`
	sub := strings.Replace(programSource("", `if (hdr.app.x == 1) { s.apply(hdr); }
        if (hdr.app.x == 2) { hdr.app.a = 1; }`), "control MyIngress(",
		"control Sub(inout headers hdr) {\n    table t { actions = { NoAction; } default_action = NoAction(); }\n    apply { t.apply(); }\n}\ncontrol MyIngress(", 1)
	sub = strings.Replace(sub, "    apply {\n        if", "    Sub() s;\n    apply {\n        if", 1)
	for _, c := range []struct{ name, src, reason string }{
		{"no match kinds", noCore, "a table would match with exact, a match kind the program does not declare"},
		{"a sub-control in a branch", sub, "outside this apply block (a sub-control's, applied here)"},
	} {
		t.Run(c.name, func(t *testing.T) { assertKept(t, c.src, c.reason) })
	}
}

// TestRewriteDropsBalancedDirectives: a conditional opened and closed
// among the statements a table replaces goes with them; the table does
// what the preprocessed statements did.
func TestRewriteDropsBalancedDirectives(t *testing.T) {
	src := programSource("", `if (hdr.app.x == 1) {
#ifdef NOT_DEFINED
            hdr.app.a = 2;
#else
            hdr.app.a = 1;
#endif
        }`)
	res, _, _ := transformed(t, "transform_test.p4", []byte(src))
	if len(res.Rewrites) != 1 {
		t.Fatalf("%d rewrites, want 1; kept: %v", len(res.Rewrites), res.Kept)
	}
	out := string(res.Source)
	if strings.Contains(out, "#ifdef") || strings.Contains(out, "#endif") || strings.Contains(out, "hdr.app.a = 2") {
		t.Errorf("the conditional stayed:\n%s", out)
	}
	if !strings.Contains(out, "hdr.app.a = 32w1;") {
		t.Errorf("the preprocessed statement is gone:\n%s", out)
	}
}

// TestRewriteShapes: the tables made for conditions of each kind, their
// entries in priority order (checked by the differential test of the
// whole corpus for meaning; here for form).
func TestRewriteShapes(t *testing.T) {
	cases := []struct {
		name, apply, keys, entries string
	}{
		{"duplicate condition", `if (hdr.app.x == 1) { hdr.app.a = 1; } else if (hdr.app.x == 1) { hdr.app.a = 2; }`,
			"hdr.app.x: exact", "1:if_8_1"},
		{"range", `if (hdr.app.x < 10) { hdr.app.a = 1; } else if (hdr.app.x >= 200) { hdr.app.a = 2; }`,
			"hdr.app.x: range", "0 .. 9:if_8_1 200 .. 255:if_8_2"},
		{"not equal", `if (hdr.app.x != 7) { hdr.app.a = 1; }`,
			"hdr.app.x: range", "0 .. 6:if_8_1 8 .. 255:if_8_1"},
		{"mask", `if (hdr.app.x & 0xF0 == 0x30) { hdr.app.a = 1; }`,
			"hdr.app.x: ternary", "0x30 &&& 0xf0:if_8_1"},
		{"slice", `if (hdr.app.a[15:8] == 2) { hdr.app.b = 1; }`,
			"hdr.app.a: ternary", "0x200 &&& 0xff00:if_8_1"},
		{"validity and field", `if (hdr.app.isValid() && hdr.app.y == 3) { hdr.app.a = 1; } else if (!hdr.app.isValid()) { hdr.app.a = 2; }`,
			"hdr.app.isValid(): exact, hdr.app.y: ternary", "(1, 3):if_8_1 (0, default):if_8_2"},
		{"disjunction", `if (hdr.app.x == 1 || hdr.app.y == 2) { hdr.app.a = 1; }`,
			"hdr.app.x: ternary, hdr.app.y: ternary", "(1, default):if_8_1 (default, 2):if_8_1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := programSource("", c.apply)
			res, _, after := transformed(t, "transform_test.p4", []byte(src))
			if len(res.Rewrites) != 1 {
				t.Fatalf("%d rewrites; kept %+v", len(res.Rewrites), res.Kept)
			}
			if got := strings.Join(res.Rewrites[0].Keys, ", "); got != c.keys {
				t.Errorf("keys %q, want %q", got, c.keys)
			}
			tbl := after.Control("MyIngress").Table(res.Rewrites[0].Table)
			var got []string
			for _, e := range tbl.Entries {
				var ks []string
				for _, k := range e.Keys {
					ks = append(ks, k.String())
				}
				s := strings.Join(ks, ", ")
				if len(ks) > 1 {
					s = "(" + s + ")"
				}
				got = append(got, s+":"+e.Action.Action.Name)
			}
			if strings.Join(got, " ") != c.entries {
				t.Errorf("entries %q, want %q\n%s", strings.Join(got, " "), c.entries, res.Source)
			}
		})
	}
}

// TestRewriteActionLocals: branches that call actions declaring locals of
// their own (bit<32> n in each) become one table: an action's locals are
// not the apply block's, which a table's action could not see.
func TestRewriteActionLocals(t *testing.T) {
	decls := `
    register<bit<32>>(1) hits;
    action bump() { bit<32> n; hits.read(n, 0); n = n + 1; hits.write(0, n); hdr.app.a = n; }
    action copy() { bit<32> n; n = hdr.app.b; hdr.app.a = n; }`
	src := programSource(decls, `if (hdr.app.x == 1) { bump(); } else if (hdr.app.x == 2) { copy(); }`)
	res, _, after := transformed(t, "transform_test.p4", []byte(src))
	if len(res.Rewrites) != 1 {
		t.Fatalf("%d rewrites, want 1; kept %+v", len(res.Rewrites), res.Kept)
	}
	tbl := after.Control("MyIngress").Table(res.Rewrites[0].Table)
	var got []string
	for _, e := range tbl.Entries {
		got = append(got, e.Keys[0].String()+":"+e.Action.Action.Name)
	}
	if want := "1:bump 2:copy"; strings.Join(got, " ") != want {
		t.Errorf("entries %q, want %q\n%s", strings.Join(got, " "), want, res.Source)
	}
}
