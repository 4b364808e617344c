package stagemap

import (
	"bytes"
	_ "embed"
	"fmt"
	"html/template"
	"strings"

	"github.com/p4hls/p4hls/synth"
)

// FileName is the report's name in a compile's output folder.
const FileName = "report.html"

// MediaType is the report's media type.
const MediaType = "text/html; charset=utf-8"

//go:embed report.html.tmpl
var pageText string

// page is parsed once per render: a template is not shared state.
func page() (*template.Template, error) {
	return template.New("report").Funcs(template.FuncMap{
		"add": func(a, b int) int { return a + b },
		"mid": func(a, b int) int { return a + b/2 },
	}).Parse(pageText)
}

// view is what the template shows.
type view struct {
	In          Input
	Title       string
	Stages      []Stage
	Items       []Item
	Arrows      []arrowPath
	Columns     []column
	Width, Tall int
	Trees       []ALUTree
	Diagnostics []diagnostic
	Placed      bool
}

type column struct{ X, Index int }

// arrowPath is an arrow drawn: its SVG path and its kind (a CSS class).
type arrowPath struct {
	D, Kind string
	Carried bool
}

type diagnostic struct {
	Where, Severity, Code, Message string
	Line, Caret                    string
	Related                        []string
}

// The map's geometry, in SVG units.
const (
	colW, itemW, itemH, gap, top, margin = 220, 190, 34, 8, 40, 12
)

// Render writes the report page of in.
func Render(in Input) ([]byte, error) {
	t, err := page()
	if err != nil {
		return nil, fmt.Errorf("report.html template: %w", err)
	}
	v := view{In: in, Title: in.File}
	graphs := map[string]*synth.Graph{}
	for _, g := range in.Graphs {
		graphs[g.Action.Name] = g
		v.Trees = append(v.Trees, tree(g))
	}
	if pl := in.Placement; pl != nil && pl.Solution != nil && in.Target != nil {
		v.Placed = true
		its, arrows := items(pl, graphs)
		v.Stages = stages(pl, its, in.Target.Limits)
		v.Items, v.Width, v.Tall = layout(its, len(v.Stages))
		for _, a := range arrows {
			v.Arrows = append(v.Arrows, arrowPath{D: path(v.Items[a.From], v.Items[a.To]), Kind: a.Kind, Carried: a.Carried})
		}
		for s := range v.Stages {
			v.Columns = append(v.Columns, column{X: margin + s*colW, Index: s})
		}
	}
	v.Diagnostics = diagnostics(in)
	var b bytes.Buffer
	if err := t.Execute(&b, v); err != nil {
		return nil, fmt.Errorf("report.html: %w", err)
	}
	return b.Bytes(), nil
}

// layout gives each item its box: stacked in its stage's column.
func layout(its []Item, nstages int) ([]Item, int, int) {
	rows := make([]int, nstages)
	tall := top
	for i := range its {
		it := &its[i]
		it.X, it.Y = margin+it.Stage*colW+(colW-itemW)/2-gap, top+rows[it.Stage]*(itemH+gap)
		it.W, it.H = itemW, itemH
		rows[it.Stage]++
		tall = max(tall, it.Y+itemH+gap)
		it.Label, it.Note = labels(*it)
	}
	return its, margin*2 + nstages*colW, tall + margin
}

// labels are an item's two lines of text.
func labels(it Item) (string, string) {
	switch it.Kind {
	case "alu":
		return fmt.Sprintf("%s alu%d", it.Action, it.ALU), fmt.Sprintf("%s · %s/%d", it.Grammar, it.Table, it.Part)
	case "gateway":
		return it.Table, "gateway"
	}
	return fmt.Sprintf("%s [part %d]", it.Table, it.Part), fmt.Sprintf("table · %d entries", it.Entries)
}

// path is an arrow's curve from one box to another: right edge to left
// edge, or a loop on the right for two boxes of one stage.
func path(from, to Item) string {
	fx, fy := from.X+from.W, from.Y+from.H/2
	if to.Stage == from.Stage {
		tx, ty := to.X+to.W, to.Y+to.H/2
		return fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", fx, fy, fx+24, fy, tx+24, ty, tx+2, ty)
	}
	tx, ty := to.X, to.Y+to.H/2
	dx := (tx - fx) / 2
	return fmt.Sprintf("M%d,%d C%d,%d %d,%d %d,%d", fx, fy, fx+dx, fy, tx-dx, ty, tx-2, ty)
}

// diagnostics are the report's diagnostics with their source lines.
func diagnostics(in Input) []diagnostic {
	var out []diagnostic
	for _, d := range in.Report.Diagnostics {
		dd := diagnostic{Where: d.File, Severity: d.Severity, Code: d.Code, Message: d.Message}
		if d.Line > 0 {
			dd.Where = fmt.Sprintf("%s:%d:%d", d.File, d.Line, d.Column)
			if in.Source != nil {
				dd.Line, dd.Caret = excerpt(in.Source(d.File), d.Line, d.Column, d.EndLine, d.EndColumn)
			}
		}
		for _, r := range d.Related {
			dd.Related = append(dd.Related, fmt.Sprintf("%s:%d:%d: %s", r.File, r.Line, r.Column, r.Message))
		}
		out = append(out, dd)
	}
	return out
}

// excerpt is a diagnostic's source line, tabs as spaces, and a caret line
// under its columns.
func excerpt(text []byte, line, col, endLine, endCol int) (string, string) {
	lines := strings.Split(string(text), "\n")
	if text == nil || line > len(lines) {
		return "", ""
	}
	l := strings.ReplaceAll(lines[line-1], "\t", " ")
	start := min(max(col-1, 0), len(l))
	n := 1
	if endLine == line && endCol > col {
		n = endCol - col
	}
	return l, strings.Repeat(" ", start) + "^" + strings.Repeat("~", max(n-1, 0))
}
