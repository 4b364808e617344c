package sarif

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/p4hls/p4hls/report"
)

// schema is the SARIF 2.1.0 JSON schema, from the OASIS committee's
// repository (testdata/README.md), with format assertions on (URIs must
// be URI references). santhosh-tekuri/jsonschema validates draft-04,
// which the schema is written in.
func schema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "sarif-schema-2.1.0.json"))
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
	if err := c.AddResource("sarif-schema-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-schema-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// sample is a log's input: an error with a related place in a file
// whose line holds a two-byte letter, a warning in a bundled header, and
// a program that does not fit (no line: the whole file).
func sample() Input {
	text := map[string][]byte{"src/a b.p4": []byte("const bit<8> é = Y;\n")}
	return Input{Version: "1.2.3", Text: func(f string) []byte { return text[f] }, Diagnostics: []report.Diagnostic{
		{File: "src/a b.p4", Line: 1, Column: 19, EndLine: 1, EndColumn: 20, Severity: "error", Code: "UndeclaredName",
			Message: "undeclared name Y", Related: []report.Related{{File: "src/a b.p4", Line: 1, Column: 14, Message: "here"}}},
		{File: "<v1model.p4>", Line: 3, Column: 1, EndLine: 3, EndColumn: 2, Severity: "warning", Code: "AnalysisBounded", Message: "bounded"},
		{File: "/abs/b.p4", Severity: "error", Code: "DoesNotFit",
			Message: "needs at least 2 stages, the target has 1: the chain blue -> action blue_increase (2 ALUs deep) is the longest (2 stages)"},
		{File: "src/a b.p4", Line: 1, Column: 1, EndLine: 1, EndColumn: 2, Severity: "error", Code: "UndeclaredName", Message: "again"},
	}}
}

// TestLog checks a log's fields against values worked out by hand.
func TestLog(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	var log struct {
		Version string
		Runs    []struct {
			ColumnKind string
			Tool       struct {
				Driver struct {
					Name, Version string
					Rules         []struct {
						ID               string
						ShortDescription struct{ Text string }
					}
				}
			}
			Results []struct {
				RuleID    string
				RuleIndex int
				Level     string
				Message   struct{ Text string }
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct{ URI, URIBaseID string }
						Region           *struct{ StartLine, StartColumn, EndLine, EndColumn int }
					}
				}
				RelatedLocations []struct {
					Message struct{ Text string }
				}
				Properties map[string]string
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if log.Version != "2.1.0" || run.Tool.Driver.Name != "p4hls" || run.Tool.Driver.Version != "1.2.3" || run.ColumnKind != "unicodeCodePoints" {
		t.Fatalf("got version %q, tool %+v, column kind %q", log.Version, run.Tool.Driver, run.ColumnKind)
	}
	rules := run.Tool.Driver.Rules
	if len(rules) != 3 || rules[0].ID != "UndeclaredName" || rules[0].ShortDescription.Text != "A name with no declaration in scope." || rules[2].ID != "DoesNotFit" {
		t.Fatalf("rules: got %+v, want UndeclaredName, AnalysisBounded, DoesNotFit, once each", rules)
	}
	rs := run.Results
	if len(rs) != 4 || rs[3].RuleIndex != 0 || rs[2].RuleIndex != 2 || rs[1].Level != "warning" {
		t.Fatalf("results: got %+v", rs)
	}
	// Y is byte 19 of the line but character 18: "é" is two bytes.
	loc := rs[0].Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "src/a%20b.p4" || loc.ArtifactLocation.URIBaseID != "SRCROOT" || loc.Region == nil ||
		*loc.Region != (struct{ StartLine, StartColumn, EndLine, EndColumn int }{1, 18, 1, 19}) {
		t.Errorf("the first result's place: got %+v", loc)
	}
	if len(rs[0].RelatedLocations) != 1 || rs[0].RelatedLocations[0].Message.Text != "here" {
		t.Errorf("related: got %+v", rs[0].RelatedLocations)
	}
	fit := rs[2]
	if fit.Locations[0].PhysicalLocation.Region != nil || fit.Locations[0].PhysicalLocation.ArtifactLocation.URI != "file:///abs/b.p4" {
		t.Errorf("a whole-file result: got %+v", fit.Locations[0])
	}
	if fit.Properties["action"] != "blue_increase" || fit.Properties["limit"] != "stages" {
		t.Errorf("does not fit: got properties %v, want action blue_increase and limit stages", fit.Properties)
	}
}

// TestValidAgainstSchema: the sample's log, and one with no
// diagnostics, are valid SARIF 2.1.0.
func TestValidAgainstSchema(t *testing.T) {
	sch := schema(t)
	for _, in := range []Input{sample(), {}} {
		var b bytes.Buffer
		if err := Write(&b, in); err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(&b)
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(doc); err != nil {
			t.Errorf("%d diagnostics: the log is not valid SARIF 2.1.0: %v", len(in.Diagnostics), err)
		}
	}
}

// TestSchemaRejects: the validator does reject a log that breaks the
// schema (a level SARIF does not have), so a pass means something.
func TestSchemaRejects(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, sample()); err != nil {
		t.Fatal(err)
	}
	bad := strings.Replace(b.String(), `"level": "warning"`, `"level": "fatal"`, 1)
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
	if err != nil {
		t.Fatal(err)
	}
	if err := schema(t).Validate(doc); err == nil {
		t.Error("a log with level \"fatal\" validated")
	}
}

func TestFitFacts(t *testing.T) {
	for _, tc := range []struct{ msg, action, limit string }{
		{"the program does not fit: it needs 7 stages, the target has 6: the chain t1 -> t2 -> action a (5 ALUs deep) -> t3 is the longest (7 stages)", "a", "stages"},
		{"the program does not fit: it stage 0 needs 3 stateful ALUs, the target allows 1", "", "stateful ALUs per stage"},
		{"the program does not fit: it stage 2 needs 20 ALUs, the target allows 14", "", "ALUs per stage"},
		{"the program does not fit: it stage 1 needs 17 tables, the target allows 16", "", "tables per stage"},
		{"action blue_increase: no configuration of ALU raw computes x = y", "blue_increase", "ALU raw"},
	} {
		if a, l := fitFacts(tc.msg); a != tc.action || l != tc.limit {
			t.Errorf("%q: got %q, %q, want %q, %q", tc.msg, a, l, tc.action, tc.limit)
		}
	}
}
