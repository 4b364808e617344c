package stagemap_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/stagemap"
	"github.com/p4hls/p4hls/synth"
)

// compile compiles a corpus program (ok/NAME or bad/NAME) for a target.
func compile(t testing.TB, name, target, alu string, cache synth.Cache) *driver.Result {
	t.Helper()
	file := filepath.Join(corpus.Dir(), name)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	req := driver.Request{File: file, Source: src, Target: target, ALU: alu}
	req.Synth.Cache = cache
	res, _ := driver.Compile(context.Background(), req, nil)
	return res
}

func input(file string, res *driver.Result) stagemap.Input {
	return stagemap.Input{File: file, Report: res.Report, Target: res.Target, Placement: res.Placement, Graphs: res.Graphs, Source: res.Source}
}

// placed lists what a compile's placement puts in each stage, as the
// page's data attributes name it: "STAGE KIND NAME TABLE PART".
func placed(res *driver.Result) []string {
	pl := res.Placement
	if pl == nil || pl.Solution == nil {
		return nil
	}
	var out []string
	p, sol := pl.Problem, pl.Solution
	for t, tab := range p.Tables {
		kind := "table"
		if pl.Nodes[t].Kind.String() == "gateway" {
			kind = "gateway"
		}
		for i, stages := range sol.Parts[t] {
			for _, s := range stages {
				out = append(out, fmt.Sprintf("%d %s %s %s %d", s, kind, tab.Name, tab.Name, i))
			}
			for k, a := range tab.Actions {
				for u, s := range sol.ALUs[t][i][k] {
					out = append(out, fmt.Sprintf("%d alu %s#%d %s %d", s, p.Actions[a].Name, u, tab.Name, i))
				}
			}
		}
	}
	return out
}

var itemAttrs = regexp.MustCompile(`<g class="item [^"]*" data-kind="([^"]*)" data-name="([^"]*)" data-table="([^"]*)" data-part="(\d+)" data-stage="(\d+)"`)

// TestSampling: sampling on Banzai's if_else_raw takes 2 stages (CaT
// Table 4): the page has two stage columns, and every table part and ALU
// of the placement is in its stage's column.
func TestSampling(t *testing.T) {
	res := compile(t, "ok/sampling.p4", "banzai", "if_else_raw", nil)
	if res.Report.Stages != 2 {
		t.Fatalf("sampling takes %d stages, want 2", res.Report.Stages)
	}
	page, err := stagemap.Render(input("sampling.p4", res))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	if n := strings.Count(html, `<g class="stage" data-stage=`); n != 2 {
		t.Errorf("%d stage columns, want 2", n)
	}
	var got []string
	for _, m := range itemAttrs.FindAllStringSubmatch(html, -1) {
		got = append(got, fmt.Sprintf("%s %s %s %s %s", m[5], m[1], m[2], m[3], m[4]))
	}
	want := placed(res)
	sort.Strings(got)
	sort.Strings(want)
	if strings.Join(got, "\n") != strings.Join(want, "\n") || len(want) == 0 {
		t.Errorf("items on the page:\n%s\nwant the placement's:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if !strings.Contains(html, "action sample") || !strings.Contains(html, "<th>holes</th>") {
		t.Error("the page lacks the action's ALU tree")
	}
	selfContained(t, html)
}

// selfContained: nothing on the page is fetched: no script, no link, no
// src or href, no url() but the page's own marker.
func selfContained(t *testing.T, html string) {
	t.Helper()
	for _, bad := range []string{"<script", "<link", "src=", "href=", "@import"} {
		if strings.Contains(html, bad) {
			t.Errorf("the page has %q", bad)
		}
	}
	for _, m := range regexp.MustCompile(`url\(([^)]*)\)`).FindAllStringSubmatch(html, -1) {
		if m[1] != "#head" {
			t.Errorf("the page refers to url(%s)", m[1])
		}
	}
}

// TestDiagnosticsPage: a program with an error has no stage map, and its
// diagnostic is shown with its line and a caret under the name (column
// 14 of line 4 of redeclared.p4: "const bit<8> " is 13 bytes).
func TestDiagnosticsPage(t *testing.T) {
	res := compile(t, "bad/redeclared.p4", "tofino", "", nil)
	page, err := stagemap.Render(input("redeclared.p4", res))
	if err != nil {
		t.Fatal(err)
	}
	html := string(page)
	if !strings.Contains(html, `id="no-placement"`) || strings.Contains(html, `class="stagemap"`) {
		t.Error("a program with errors has a stage map")
	}
	want := "\n" + strings.Repeat(" ", 13) + "^"
	if !strings.Contains(html, "[Redeclared]") || !strings.Contains(html, want) {
		t.Errorf("the diagnostic's excerpt is not there:\n%s", html)
	}
	selfContained(t, html)
}
