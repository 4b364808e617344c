package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestBenchEdit runs `bench edit` on one Banzai row: the edited compile
// answers the query whose configuration moves with the constant from the
// cache, and keeps the stage count (sampling on if_else_raw: 2, CaT's).
// It checks the row and the JSON, not times.
func TestBenchEdit(t *testing.T) {
	rows := []editRow{{Program: "sampling", Target: "banzai", ALU: "if_else_raw", define: "N", value: "20"}}
	jsonPath := filepath.Join(t.TempDir(), "edit.json")
	var stdout, stderr bytes.Buffer
	if code := benchEdit(context.Background(), "../../testdata/p4/ok", rows, jsonPath, time.Minute, &stdout, &stderr); code != exitOK || stderr.Len() > 0 {
		t.Fatalf("exit %d\n%s%s", code, &stdout, &stderr)
	}
	re := `(?m)^sampling +banzai +if_else_raw +N 30 -> 20 +\d+\.\d\ds +\d+\.\d\ds +\d+\.\d\ds +\d+ +[1-9]\d* +2 -> 2$`
	if !regexp.MustCompile(re).MatchString(stdout.String()) {
		t.Errorf("stdout does not match %s:\n%s", re, &stdout)
	}
	data, err := os.ReadFile(jsonPath)
	if err != nil {
		t.Fatal(err)
	}
	var got []editRow
	if err := json.Unmarshal(data, &got); err != nil || len(got) != 1 {
		t.Fatalf("JSON: %v, %d rows\n%s", err, len(got), data)
	}
	if r := got[0]; r.Edit != "N 30 -> 20" || r.CacheHits == 0 || r.Stages != 2 || r.EditedStages != 2 {
		t.Errorf("JSON row %+v", r)
	}
}

// TestBenchCopies compiles 4 copies of RCP on pred_raw, the same and
// alike: each in 2 stages (RCP's on pred_raw, Table 4), the same copies
// asking no more queries than the alike ones, and both answering some
// from the cache (a copy's queries by the first copy's answers).
func TestBenchCopies(t *testing.T) {
	same := copiesOne(context.Background(), 4, false, time.Minute)
	alike := copiesOne(context.Background(), 4, true, time.Minute)
	for _, r := range []copiesRow{same, alike} {
		if r.Error != "" || r.Stages != 2 || r.CacheHits == 0 {
			t.Errorf("%+v: want 2 stages and some cache hits", r)
		}
	}
	if same.Queries > alike.Queries {
		t.Errorf("the same copies asked %d queries, alike ones %d", same.Queries, alike.Queries)
	}
}
