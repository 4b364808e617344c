package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sarifSchema is the SARIF 2.1.0 schema the sarif package's tests use
// (sarif/testdata/README.md names its source), with format assertions.
func sarifSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "..", "sarif", "testdata", "sarif-schema-2.1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource("sarif.json", doc); err != nil {
		t.Fatal(err)
	}
	return c.MustCompile("sarif.json")
}

// sarifLog is the part of a SARIF log the tests read.
type sarifLog struct {
	Runs []struct {
		Tool struct {
			Driver struct{ Rules []struct{ ID string } }
		}
		Results []struct {
			RuleID     string
			Level      string
			Message    struct{ Text string }
			Properties map[string]any
			Locations  []struct {
				PhysicalLocation struct {
					ArtifactLocation struct{ URI string }
					Region           *struct{ StartLine, StartColumn int }
				}
			}
		}
	}
}

// validSARIF validates out against the schema and decodes it.
func validSARIF(t *testing.T, sch *jsonschema.Schema, what, out string) sarifLog {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", what, err, out)
	}
	if err := sch.Validate(doc); err != nil {
		t.Fatalf("%s: not valid SARIF 2.1.0: %v", what, err)
	}
	var log sarifLog
	if err := json.Unmarshal([]byte(out), &log); err != nil {
		t.Fatal(err)
	}
	return log
}

// TestCheckSARIFOfTheBadCorpus: `check --format sarif` of every program
// the corpus rejects is valid SARIF 2.1.0 with a result per diagnostic
// (as many as --format json lists), each with its rule; the exit status
// stays 1.
func TestCheckSARIFOfTheBadCorpus(t *testing.T) {
	sch := sarifSchema(t)
	bad, _ := filepath.Glob(filepath.Join(corpus, "bad", "*.p4"))
	if len(bad) < 50 {
		t.Fatalf("found %d bad programs", len(bad))
	}
	for _, f := range bad {
		code, out, stderr := runCLI("check", "--format", "sarif", f)
		if code != exitUserErr || stderr != "" {
			t.Errorf("%s: exit %d, stderr %q; want 1 and nothing on stderr", f, code, stderr)
		}
		log := validSARIF(t, sch, f, out)
		_, js, _ := runCLI("check", "--format", "json", f)
		var got checkJSON
		if err := json.Unmarshal([]byte(js), &got); err != nil {
			t.Fatalf("%s: --format json: %v", f, err)
		}
		results := log.Runs[0].Results
		if got.OK || len(results) != len(got.Diagnostics) || len(results) == 0 {
			t.Fatalf("%s: %d results, %d diagnostics, ok %v", f, len(results), len(got.Diagnostics), got.OK)
		}
		for i, r := range results {
			d := got.Diagnostics[i]
			if r.RuleID != d.Code || r.Message.Text != d.Message || r.Level != d.Severity {
				t.Errorf("%s: result %d is %+v, diagnostic %+v", f, i, r, d)
			}
		}
	}
	t.Logf("%d programs' SARIF logs are valid SARIF 2.1.0", len(bad))
}

// TestCheckFormats: redeclared.p4's error (line 4, column 14, counted by
// hand: "const bit<8> " is 13 bytes) in JSON and SARIF, and a valid
// program's empty lists.
func TestCheckFormats(t *testing.T) {
	f := filepath.Join(corpus, "bad", "redeclared.p4")
	code, out, _ := runCLI("check", "--format", "json", f)
	var got checkJSON
	if err := json.Unmarshal([]byte(out), &got); err != nil || code != exitUserErr {
		t.Fatalf("exit %d, %v\n%s", code, err, out)
	}
	d := got.Diagnostics[0]
	if got.OK || d.Line != 4 || d.Column != 14 || d.Code != "Redeclared" || len(d.Related) != 1 {
		t.Errorf("got %+v", got)
	}
	code, out, _ = runCLI("check", "--format", "sarif", f)
	log := validSARIF(t, sarifSchema(t), f, out)
	reg := log.Runs[0].Results[0].Locations[0].PhysicalLocation.Region
	if code != exitUserErr || reg == nil || reg.StartLine != 4 || reg.StartColumn != 14 || log.Runs[0].Tool.Driver.Rules[0].ID != "Redeclared" {
		t.Errorf("exit %d, region %+v, rules %+v", code, reg, log.Runs[0].Tool.Driver.Rules)
	}
	code, out, _ = runCLI("check", "--format", "json", filepath.Join(corpus, "ok", "acl.p4"))
	if code != exitOK || strings.TrimSpace(out) != "{\n  \"ok\": true,\n  \"diagnostics\": []\n}" {
		t.Errorf("a valid program: exit %d\n%s", code, out)
	}
}

// TestCompileSARIFDoesNotFit: BLUE (increase) on Tofino with one stage
// does not fit: its action's two ALUs, a stateless one feeding the
// stateful one, need two stages. The SARIF result names the action and
// the limit; the exit status is compile's 2.
func TestCompileSARIFDoesNotFit(t *testing.T) {
	f := filepath.Join(corpus, "ok", "blue_increase.p4")
	code, out, _ := runCLI("compile", "--target", "tofino", "--stages", "1", "--format", "sarif", "-o", t.TempDir(), f)
	if code != exitDoesNotFit {
		t.Fatalf("exit %d, want %d", code, exitDoesNotFit)
	}
	log := validSARIF(t, sarifSchema(t), f, out)
	rs := log.Runs[0].Results
	if len(rs) != 1 || rs[0].RuleID != "DoesNotFit" || rs[0].Properties["action"] != "blue_increase" || rs[0].Properties["limit"] != "stages" {
		t.Fatalf("got %+v, want one DoesNotFit naming action blue_increase and the stages", rs)
	}
}

// TestCompileJSONAndHTML: --format json prints report.json; --report
// html writes report.html, listed among the artifacts, and the next
// compile into the folder without it removes it.
func TestCompileJSONAndHTML(t *testing.T) {
	out := t.TempDir()
	f := filepath.Join(corpus, "ok", "acl.p4")
	code, stdout, stderr := runCLI("compile", "--target", "tofino", "--format", "json", "--report", "html", "-o", out, f)
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	written, err := os.ReadFile(filepath.Join(out, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var printed, file map[string]any
	if json.Unmarshal([]byte(stdout), &printed) != nil || json.Unmarshal(written, &file) != nil || printed["status"] != "ok" {
		t.Fatalf("stdout:\n%s", stdout)
	}
	html, err := os.ReadFile(filepath.Join(out, "report.html"))
	if err != nil || !bytes.Contains(html, []byte(`<svg class="stagemap"`)) {
		t.Fatalf("report.html: %v", err)
	}
	if !strings.Contains(string(written), `"name": "report.html"`) {
		t.Errorf("report.json does not list report.html:\n%s", written)
	}
	if code, _, _ := runCLI("compile", "--target", "tofino", "-o", out, f); code != exitOK {
		t.Fatal(code)
	}
	if _, err := os.Stat(filepath.Join(out, "report.html")); !os.IsNotExist(err) {
		t.Errorf("report.html of the last compile is still there: %v", err)
	}
}

func TestFormatUsageErrors(t *testing.T) {
	f := filepath.Join(corpus, "ok", "acl.p4")
	for _, args := range [][]string{
		{"check", "--format", "xml", f},
		{"compile", "--format", "xml", f},
		{"compile", "--report", "pdf", f},
		{"compile", "--jobs", "2", "--format", "sarif", f, f},
		{"compile", "--server", "127.0.0.1:1", "--report", "html", f},
	} {
		if code, _, stderr := runCLI(args...); code != exitUsage || !strings.Contains(stderr, "run 'p4hls") {
			t.Errorf("%v: exit %d, stderr %q; want a usage error", args, code, stderr)
		}
	}
}
