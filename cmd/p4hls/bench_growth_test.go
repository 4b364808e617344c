package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/synth"
)

// TestBenchGrowth runs `bench growth` at tiny sizes: every shape compiles
// at 1, and at 2 all but the @atomic chain, whose two operations in a row
// on the register no Tofino stateful ALU computes; a shape past a limit
// is refused with the limit named (200 tables, 12 stages of 16 on
// Tofino; a chain of statements deeper than synthesis's bound). It checks
// the table's rows and the JSON, not times.
func TestBenchGrowth(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles six programs")
	}
	tables, atomic := growthShapes[2], growthShapes[1]
	if tables.Name != "tables" || atomic.Name != "@atomic statements" {
		t.Fatalf("shapes %v: want tables third, @atomic statements second", growthShapes)
	}
	jsonPath := filepath.Join(t.TempDir(), "growth.json")
	var stdout, stderr bytes.Buffer
	ctx := context.Background()
	if code := benchGrowth(ctx, growthShapes, []int{1, 2}, time.Minute, jsonPath, &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, &stdout, &stderr)
	}
	if code := benchGrowth(ctx, []growthShape{tables}, []int{200}, time.Minute, jsonPath+".2", &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, &stdout, &stderr)
	}
	deep := synth.MaxTermDepth + 50
	if code := benchGrowth(ctx, []growthShape{atomic}, []int{deep}, time.Minute, jsonPath+".3", &stdout, &stderr); code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, &stdout, &stderr)
	}
	out := stdout.String()
	for _, re := range []string{
		`(?m)^load average: .*; time limit 1m0s per compile$`,
		`(?m)^peak heap: .*runtime/metrics`,
		`(?m)^shape +size +outcome +time +peak heap$`,
		`(?m)^else-if arms +2 +\d+ stages +\d+\.\d\ds +\d+\.\d MB$`,
		`(?m)^@atomic statements +1 +1 stages `,
		`(?m)^@atomic statements +2 +refused: does-not-fit `,
		`(?m)^tables +2 +\d+ stages `,
		`(?m)^tables +200 +refused: does-not-fit `,
		fmt.Sprintf(`(?m)^@atomic statements +%d +refused: does-not-fit `, deep),
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("stdout does not match %s:\n%s", re, out)
		}
	}
	var rows []growthRow
	for _, f := range []string{jsonPath, jsonPath + ".2", jsonPath + ".3"} {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var some []growthRow
		if err := json.Unmarshal(data, &some); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, some...)
	}
	if len(rows) != 8 {
		t.Fatalf("%d rows, want 8: %+v", len(rows), rows)
	}
	for i, r := range rows[:6] {
		shape, size := growthShapes[i/2], 1+i%2
		if r.Shape != shape.Name || r.Size != size || r.PeakHeapBytes == 0 {
			t.Errorf("row %d: %+v, want %s of size %d", i, r, shape.Name, size)
		}
		if i == 3 {
			continue // refused below
		}
		if r.Status != report.OK || r.Stages < 1 || r.Outcome != fmt.Sprintf("%d stages", r.Stages) || r.Message != "" {
			t.Errorf("row %d: %+v, want it placed", i, r)
		}
	}
	for _, c := range []struct {
		row  growthRow
		want string
	}{
		{rows[3], "growth_atomic_statements_2.p4:14:5: error: action a: no configuration of ALU stateful computes"},
		{rows[6], "growth_tables_200.p4:12:1: error: control I applies 200 tables, which need at least 13 stages at 16 tables per stage; the target has 12"},
		{rows[7], fmt.Sprintf("is %d operations deep, past synthesis's bound of %d", deep, synth.MaxTermDepth)},
	} {
		if c.row.Status != report.DoesNotFit || c.row.Outcome != "refused: does-not-fit" || !strings.Contains(c.row.Message, c.want) {
			t.Errorf("row %+v, want refused, the message saying %q", c.row, c.want)
		}
	}
	if !strings.Contains(stderr.String(), "tables 200: growth_tables_200.p4:12:1: error: control I applies 200 tables") {
		t.Errorf("stderr %q, want the refusal of 200 tables", stderr.String())
	}
}
