package lsp

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// What hover shows: a declaration as P4 (its signature, a table's keys
// and actions, a header's fields) and the type of an expression.

// maxHoverLines bounds a declaration's text in a hover (a struct of 300
// fields is shown in part).
const maxHoverLines = 40

// hoverText is the hover of r: the declaration it denotes and, for an
// expression, its type; "" when there is nothing to say.
func (ix *index) hoverText(text func(string) []byte, r *ref) string {
	var parts []string
	if r.target != nil {
		if d := ix.describe(text, r.target); d != "" {
			parts = append(parts, "```p4\n"+d+"\n```")
		}
	}
	if r.expr != nil {
		if t := ix.checked.Types[r.expr]; t != nil {
			parts = append(parts, fmt.Sprintf("type `%s`", t))
		}
	}
	return strings.Join(parts, "\n\n")
}

// describe writes a declaration as P4.
func (ix *index) describe(text func(string) []byte, n frontend.Node) string {
	src := func(sp diag.Span) string { return oneLine(spanText(text(sp.File), sp)) }
	switch d := n.(type) {
	case *frontend.ActionDecl:
		return "action " + d.Name.Name + "(" + params(src, d.Params) + ")"
	case *frontend.TableDecl:
		return ix.describeTable(src, d)
	case *frontend.ExternDecl:
		if d.Func != nil {
			return "extern " + strings.TrimSuffix(src(d.Func.Sp), ";")
		}
		var b strings.Builder
		fmt.Fprintf(&b, "extern %s%s {", d.Name.Name, typeParams(d.TypeParams))
		for _, m := range d.Methods {
			fmt.Fprintf(&b, "\n    %s;", strings.TrimSuffix(src(m.Sp), ";"))
		}
		b.WriteString("\n}")
		return clip(b.String())
	case *frontend.FuncProto:
		return strings.TrimSuffix(src(d.Sp), ";")
	case *frontend.FuncDecl:
		return strings.TrimSuffix(src(d.Proto.Sp), ";")
	case *frontend.StructDecl:
		var b strings.Builder
		fmt.Fprintf(&b, "%s %s {", d.Kind.String(), d.Name.Name)
		for _, f := range d.Fields {
			fmt.Fprintf(&b, "\n    %s;", strings.TrimSuffix(src(f.Sp), ";"))
		}
		b.WriteString("\n}")
		return clip(b.String())
	case *frontend.Field:
		s := strings.TrimSuffix(src(d.Sp), ";")
		if o := ix.owner[d]; o != nil {
			s += "; // a field of " + o.Kind.String() + " " + o.Name.Name
		}
		return s
	case *frontend.ParserDecl:
		return "parser " + d.Name.Name + typeParams(d.TypeParams) + "(" + params(src, d.Params) + ")"
	case *frontend.ControlDecl:
		return "control " + d.Name.Name + typeParams(d.TypeParams) + "(" + params(src, d.Params) + ")"
	case *frontend.PackageDecl:
		return "package " + d.Name.Name + typeParams(d.TypeParams) + "(" + params(src, d.Params) + ")"
	case *frontend.ParserState:
		return "state " + d.Name.Name
	case *frontend.EnumDecl:
		var names []string
		for _, m := range d.Members {
			names = append(names, m.Name.Name)
		}
		return clip("enum " + d.Name.Name + " { " + strings.Join(names, ", ") + " }")
	case *frontend.Ident:
		return d.Name
	case *frontend.Param, *frontend.VarDecl, *frontend.ConstDecl, *frontend.Instance, *frontend.TypedefDecl, *frontend.ValueSetDecl:
		return strings.TrimSuffix(src(d.Span()), ";")
	}
	return ""
}

// describeTable writes a table's keys and actions.
func (ix *index) describeTable(src func(diag.Span) string, d *frontend.TableDecl) string {
	var b strings.Builder
	fmt.Fprintf(&b, "table %s {", d.Name.Name)
	for _, p := range d.Props {
		switch {
		case len(p.Keys) > 0:
			b.WriteString("\n    key = {")
			for _, k := range p.Keys {
				fmt.Fprintf(&b, " %s: %s;", src(k.Expr.Span()), k.Match.Name)
			}
			b.WriteString(" }")
		case len(p.Actions) > 0:
			b.WriteString("\n    actions = {")
			for _, a := range p.Actions {
				fmt.Fprintf(&b, " %s;", src(a.Sp))
			}
			b.WriteString(" }")
		case p.Value != nil && p.Name != nil:
			fmt.Fprintf(&b, "\n    %s = %s;", p.Name.Name, src(p.Value.Span()))
		}
	}
	b.WriteString("\n}")
	return clip(b.String())
}

func params(src func(diag.Span) string, ps []*frontend.Param) string {
	var out []string
	for _, p := range ps {
		out = append(out, src(p.Sp))
	}
	return strings.Join(out, ", ")
}

func typeParams(ids []*frontend.Ident) string {
	if len(ids) == 0 {
		return ""
	}
	var names []string
	for _, id := range ids {
		names = append(names, id.Name)
	}
	return "<" + strings.Join(names, ", ") + ">"
}

// spanText is the text a span covers in text ("" when it is not there).
func spanText(text []byte, sp diag.Span) string {
	start, ok1 := byteOffset(text, sp.Start)
	end, ok2 := byteOffset(text, sp.End)
	if !ok1 || !ok2 || end < start {
		return ""
	}
	return string(text[start:end])
}

// byteOffset is the offset of a 1-based line and byte column in text.
func byteOffset(text []byte, p diag.Pos) (int, bool) {
	if !p.IsValid() {
		return 0, false
	}
	off := 0
	for l := 1; l < p.Line; l++ {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return 0, false
		}
		off += i + 1
	}
	off += p.Col - 1
	return off, off <= len(text)
}

// oneLine joins a declaration's lines and drops its comments' line
// breaks, so a parameter list written over lines reads as one.
func oneLine(s string) string {
	var words []string
	for _, line := range strings.Split(s, "\n") {
		if i := strings.Index(line, "//"); i >= 0 {
			line = line[:i]
		}
		words = append(words, strings.Fields(line)...)
	}
	return strings.Join(words, " ")
}

// clip keeps the first maxHoverLines lines.
func clip(s string) string {
	lines := strings.Split(s, "\n")
	if len(lines) <= maxHoverLines {
		return s
	}
	return strings.Join(lines[:maxHoverLines], "\n") + fmt.Sprintf("\n    // ... %d more lines", len(lines)-maxHoverLines)
}
