// Package sarif writes p4hls's diagnostics as a SARIF 2.1.0 log, the
// form CI systems read (GitHub's code scanning among them): one run of
// p4hls, a rule per diagnostic code with its description, and a result
// per diagnostic with its place and related places. A program the
// target cannot hold names, in the result's properties, the action and
// the limit at fault.
package sarif

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/report"
)

// Input is what a log is made of.
type Input struct {
	// Version is p4hls's.
	Version     string
	Diagnostics []report.Diagnostic
	// Text gives the text of a file the diagnostics name, so columns
	// count characters as SARIF's do (nil, or nil text: columns are
	// taken as they are, right for ASCII).
	Text func(file string) []byte
}

// srcRoot is the base of relative file names: the folder p4hls ran in.
const srcRoot = "SRCROOT"

// Log is the SARIF log of in.
func Log(in Input) *sarif.Report {
	driver := sarif.NewToolComponent().WithName("p4hls").WithInformationURI("https://github.com/p4hls/p4hls")
	if in.Version != "" {
		driver.WithVersion(in.Version)
	}
	run := sarif.NewRun().WithTool(sarif.NewTool().WithDriver(driver)).WithColumnKind("unicodeCodePoints")
	rules := map[string]int{}
	for _, d := range in.Diagnostics {
		i, ok := rules[d.Code]
		if !ok {
			i = len(driver.Rules)
			rules[d.Code] = i
			driver.AddRule(rule(d.Code))
		}
		run.AddResult(result(in, d, i))
	}
	return sarif.NewReport().AddRun(run)
}

// Write writes the log of in as indented JSON.
func Write(w io.Writer, in Input) error {
	data, err := json.MarshalIndent(Log(in), "", "  ")
	if err != nil {
		return fmt.Errorf("sarif: %w", err)
	}
	_, err = w.Write(append(data, '\n'))
	return err
}

// rule describes a diagnostic code.
func rule(code string) *sarif.ReportingDescriptor {
	desc := code
	if c, ok := codeNamed(code); ok && c.Description() != "" {
		desc = c.Description()
	}
	return sarif.NewReportingDescriptor().WithID(code).WithName(code).
		WithShortDescription(sarif.NewMultiformatMessageString().WithText(desc))
}

// codeNamed is the diagnostic code of a name.
func codeNamed(name string) (diag.Code, bool) {
	for c := diag.Code(1); c.Description() != ""; c++ {
		if c.String() == name {
			return c, true
		}
	}
	return diag.Unknown, false
}

// result is one diagnostic, of the rule at index i.
func result(in Input, d report.Diagnostic, i int) *sarif.Result {
	r := sarif.NewResult().WithRuleID(d.Code).WithRuleIndex(i).WithLevel(level(d.Severity)).
		WithMessage(sarif.NewMessage().WithText(d.Message))
	if loc := location(in, d.File, d.Line, d.Column, d.EndLine, d.EndColumn); loc != nil {
		r.AddLocation(loc)
	}
	for j, rel := range d.Related {
		if loc := location(in, rel.File, rel.Line, rel.Column, 0, 0); loc != nil {
			r.AddRelatedLocation(loc.WithID(j).WithMessage(sarif.NewMessage().WithText(rel.Message)))
		}
	}
	if d.Code == diag.DoesNotFit.String() {
		props := sarif.NewPropertyBag()
		action, limit := fitFacts(d.Message)
		if action != "" {
			props.Add("action", action)
		}
		if limit != "" {
			props.Add("limit", limit)
		}
		r.WithProperties(props)
	}
	return r
}

func level(severity string) string {
	switch severity {
	case "error", "warning", "note":
		return severity
	}
	return "none"
}

// location is a place in a file: its region when it has a line (0 is
// the whole file); nil for no file.
func location(in Input, file string, line, col, endLine, endCol int) *sarif.Location {
	if file == "" {
		return nil
	}
	art := sarif.NewArtifactLocation()
	switch {
	case strings.HasPrefix(file, "<"):
		art.WithURI(escape(strings.Trim(file, "<>"))).WithURIBaseID("P4HLS_INCLUDE") // a bundled header
	case filepath.IsAbs(file):
		art.WithURI((&url.URL{Scheme: "file", Path: filepath.ToSlash(file)}).String())
	default:
		art.WithURI(escape(filepath.ToSlash(file))).WithURIBaseID(srcRoot)
	}
	phys := sarif.NewPhysicalLocation().WithArtifactLocation(art)
	if line > 0 {
		var text []byte
		if in.Text != nil {
			text = in.Text(file)
		}
		reg := sarif.NewRegion().WithStartLine(line).WithStartColumn(chars(text, line, col))
		if endLine >= line && endLine > 0 {
			reg.WithEndLine(endLine).WithEndColumn(chars(text, endLine, endCol))
		}
		phys.WithRegion(reg)
	}
	return sarif.NewLocation().WithPhysicalLocation(phys)
}

// escape writes a relative path as a URI reference.
func escape(path string) string {
	parts := strings.Split(path, "/")
	for i, p := range parts {
		parts[i] = url.PathEscape(p)
	}
	return strings.Join(parts, "/")
}

// chars converts a 1-based byte column of a line of text to SARIF's
// 1-based character column.
func chars(text []byte, line, col int) int {
	if col < 1 {
		return 1
	}
	if text == nil {
		return col
	}
	lines := strings.SplitN(string(text), "\n", line+1)
	if line > len(lines) {
		return col
	}
	l := lines[line-1]
	return utf8.RuneCountInString(l[:min(col-1, len(l))]) + 1
}

// The forms in which p4hls says a program does not fit (alloc.Explain,
// alloc.ChainTooLong, synthesis): the action named, and the limit.
var (
	actionIn = regexp.MustCompile(`\baction ([A-Za-z_]\w*)`)
	limits   = []struct {
		re    *regexp.Regexp
		limit string
	}{
		{regexp.MustCompile(`needs (at least )?\d+ stages, the target has`), "stages"},
		{regexp.MustCompile(`needs \d+ tables, the target allows`), "tables per stage"},
		{regexp.MustCompile(`needs \d+ stateful ALUs, the target allows`), "stateful ALUs per stage"},
		{regexp.MustCompile(`needs \d+ ALUs, the target allows`), "ALUs per stage"},
		{regexp.MustCompile(`no configuration of ALU (\S+)`), "ALU $1"},
	}
)

// fitFacts reads the action and the binding limit from the message of a
// program that does not fit ("" for what it does not say).
func fitFacts(msg string) (action, limit string) {
	if m := actionIn.FindStringSubmatch(msg); m != nil {
		action = m[1]
	}
	for _, l := range limits {
		if m := l.re.FindStringSubmatchIndex(msg); m != nil {
			limit = string(l.re.ExpandString(nil, l.limit, msg, m))
			break
		}
	}
	return action, limit
}
