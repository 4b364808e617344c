package driver

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/internal/corpus"
)

// compileCorpus compiles testdata/p4/ok/NAME for target (and stateful
// ALU) with --verify packets, failing the test on an error.
func compileCorpus(t *testing.T, name, target, alu string, packets int) *Result {
	t.Helper()
	res, err := compileCorpusErr(t, name, target, alu, packets)
	if err != nil {
		t.Fatalf("%s on %s %s: %v\n%s", name, target, alu, err, res.Diagnostics.String())
	}
	return res
}

func compileCorpusErr(t *testing.T, name, target, alu string, packets int) (*Result, error) {
	t.Helper()
	file := filepath.Join(corpus.Dir(), "ok", name)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return Compile(context.Background(), Request{File: file, Source: src, Target: target, ALU: alu, VerifyPackets: packets}, nil)
}

// TestKeyedMultiStageActions: a keyed table whose action is a
// multi-stage transaction that writes the table's key compiles at CaT's
// counts on Banzai (sampling 2 on if_else_raw; stateful firewall 4 on
// pred_raw) and runs as the interpreter does: the key changes
// with the transaction's last ALU, so the match repeated in each of its
// stages sees the key the packet came with.
func TestKeyedMultiStageActions(t *testing.T) {
	for _, c := range []struct {
		name, alu string
		stages    int
	}{
		{"sampling_keyed.p4", "if_else_raw", 2},
		{"stateful_firewall_keyed.p4", "pred_raw", 4},
	} {
		t.Run(c.name, func(t *testing.T) {
			res := compileCorpus(t, c.name, "banzai", c.alu, 2000)
			if res.Report.Stages != c.stages {
				t.Errorf("%d stages, want %d", res.Report.Stages, c.stages)
			}
			p, sol := res.Placement.Problem, res.Placement.Solution
			for ti, tab := range p.Tables {
				for k, a := range tab.Actions {
					for u, alu := range p.Actions[a].ALUs {
						parts := sol.Parts[ti][0]
						if alu.WritesKey != "" && sol.ALUs[ti][0][k][u] != parts[len(parts)-1] {
							t.Errorf("%s: ALU %d writes %s in stage %d, before the part's last (%v)", tab.Name, u, alu.WritesKey, sol.ALUs[ti][0][k][u], parts)
						}
					}
				}
			}
		})
	}
}

// TestKeyWrittenThenRead: a transaction that computes its table's key
// and then reads it has no placement; the refusal says why and what to
// change, whichever target.
func TestKeyWrittenThenRead(t *testing.T) {
	src := strings.NewReplacer("key = { meta.verdict: exact; }", "key = { meta.slot: exact; }",
		"#define BENCH_METADATA bit<32> verdict;", "#define BENCH_METADATA bit<32> verdict; bit<32> slot;",
		"bit<32> idx = (hdr.app.src * 1 + hdr.app.dst) & (NUM_CONNS - 1);", "meta.slot = hdr.app.src * 1 + hdr.app.dst; bit<32> idx = meta.slot & (NUM_CONNS - 1);")
	file := filepath.Join(corpus.Dir(), "ok", "stateful_firewall_keyed.p4")
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := src.Replace(string(orig))
	if text == string(orig) {
		t.Fatal("the rewrite of the program changed nothing")
	}
	res, err := Compile(context.Background(), Request{File: file, Source: []byte(text), Target: "banzai", ALU: "pred_raw"}, nil)
	want := "action firewall writes meta.slot, a key of table fw, in the stage of its ALU"
	if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), "key fw on a field the action does not write") {
		t.Errorf("got %v (%s), want %q", err, res.Diagnostics.String(), want)
	}
}

// TestTablesInBranchesOnTofino: ME-2 and ME-3 with tables in their
// branches compile for Tofino with no gateway left, in 1 stage, and the
// placed ALUs and the TNA program agree with the interpreter.
func TestTablesInBranchesOnTofino(t *testing.T) {
	for _, name := range []string{"me2_tables.p4", "me3_tables.p4"} {
		t.Run(name, func(t *testing.T) {
			res := compileCorpus(t, name, "tofino", "", 2000)
			tr := res.Report.Transform
			if tr.After.Gateways != 0 || tr.After.Stages != 1 || res.Report.Stages != 1 {
				t.Errorf("after phase 1 %+v, %d stages placed; want no gateway and 1 stage", tr.After, res.Report.Stages)
			}
		})
	}
}

// TestWrapNotes: BLUE increase on Tofino takes 2 stages because now - 10
// wraps, and the compile says so with the precondition that would save
// the stage; with it stated (blue_increase_assume.p4) the action takes
// 1 stage, the report lists the precondition, and no note is made.
func TestWrapNotes(t *testing.T) {
	if testing.Short() {
		t.Skip("two Tofino syntheses")
	}
	res := compileCorpus(t, "blue_increase.p4", "tofino", "", 0)
	var notes []string
	for _, d := range res.Diagnostics.Items() {
		if d.Code == diag.WrapCostsStage {
			notes = append(notes, d.Msg)
		}
	}
	want := "(hdr.app.now - 32w10) wraps where hdr.app.now < 32w10"
	if len(notes) != 1 || !strings.Contains(notes[0], want) || !strings.Contains(notes[0], "assume(hdr.app.now >= 32w10);") {
		t.Errorf("notes %q, want one naming %q and its assume", notes, want)
	}
	res = compileCorpus(t, "blue_increase_assume.p4", "tofino", "", 1000)
	if res.Report.Stages != 1 || len(res.Report.Actions) != 1 {
		t.Fatalf("%d stages, want 1", res.Report.Stages)
	}
	pre := res.Report.Actions[0].Preconditions
	if len(pre) != 1 || pre[0].Kind != "assume" || pre[0].Condition != "(hdr.app.now >= 32w10)" || !strings.HasSuffix(pre[0].At, "blue_increase_assume.p4:30:13") {
		t.Errorf("preconditions %+v", pre)
	}
	for _, d := range res.Diagnostics.Items() {
		if d.Code == diag.WrapCostsStage {
			t.Errorf("a note with the precondition stated: %s", d.Msg)
		}
	}
}

// TestTwoIndexRefusal: CONGA with its registers at two indexes is refused
// on every target before any query, and the refusal says why no mapping
// exists (the cycle between the two updates), the rule of the target's
// ALU it breaks, and the rewrite that would fit.
func TestTwoIndexRefusal(t *testing.T) {
	for _, c := range []struct{ target, alu, rule string }{
		{"tofino", "", "ALU stateful holds its 2 state variables at one address"},
		{"banzai", "pair", "ALU pair holds its 2 state variables at one address"},
		{"menshen", "", "ALU if_else holds 1 state variable(s)"},
	} {
		t.Run(c.target, func(t *testing.T) {
			_, err := compileCorpusErr(t, "conga_two_index.p4", c.target, c.alu, 0)
			var fit *DoesNotFitError
			if !errors.As(err, &fit) {
				t.Fatalf("got %v, want a refusal", err)
			}
			for _, want := range []string{"read each other's old values (the new best_path reads the old best_path_util; the new best_path_util reads the old best_path)",
				c.rule, "reak the cycle so that no update reads another's old value"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%v\nwant it to say %q", err, want)
				}
			}
		})
	}
}

// TestRejectedRewriteStays: a table of phase 1 the frontend rejects (its
// action writes a new type's variable from a bit<16> constant: the IR
// keeps no new types, so the printed statement loses the cast) leaves
// the statements it replaced as written, with a warning there, and the
// program's other rewrites stand.
func TestRejectedRewriteStays(t *testing.T) {
	const src = `#include <core.p4>
#include <v1model.p4>
header app_t { bit<8> round; bit<8> x; bit<8> y; bit<32> a; bit<32> b; bit<32> c; bit<32> result; }
#include "../include/bench.p4"
type bit<16> Sid_t;
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    Sid_t sid;
    apply {
        if (hdr.app.x == 1) { sid = (Sid_t) 5; hdr.app.a = (bit<32>) (bit<16>) sid; }
        if (hdr.app.x == 2) { hdr.app.b = 2; }
        hdr.app.result = 0;
        if (hdr.app.y == 1) { hdr.app.c = 3; }
        if (hdr.app.y == 2) { hdr.app.c = 4; }
    }
}
BENCH_MAIN
`
	file := filepath.Join(corpus.Dir(), "ok", "rejected_rewrite.p4")
	res, err := Compile(context.Background(), Request{File: file, Source: []byte(src), Target: "banzai", VerifyPackets: 1000}, nil)
	if err != nil {
		t.Fatal(err, res.Diagnostics.String())
	}
	rws := res.Report.Transform.Rewrites
	if len(rws) != 1 || !strings.HasSuffix(rws[0].At, "rejected_rewrite.p4:12:9") {
		t.Errorf("rewrites %+v, want the one of line 12", rws)
	}
	var warnings []string
	for _, d := range res.Diagnostics.Items() {
		if d.Code == diag.RewriteRejected {
			warnings = append(warnings, d.Span.String()+": "+d.Msg)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "rejected_rewrite.p4:9:9") || !strings.Contains(warnings[0], "cannot use a value of type bit<16> as Sid_t") {
		t.Errorf("warnings %q, want one at line 9 saying why", warnings)
	}
}
