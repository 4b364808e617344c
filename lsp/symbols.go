package lsp

import (
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// symbols is the outline of the declarations written in file: headers,
// structs, parsers (with their states), controls (with their tables,
// actions and other locals), externs (with their methods), and the rest.
func (ix *index) symbols(enc encoding, text []byte, file string) []DocumentSymbol {
	out := []DocumentSymbol{}
	if ix.checked == nil || ix.checked.File == nil {
		return out
	}
	for _, d := range ix.checked.File.Decls {
		if d != nil && d.Span().File == file {
			if s, ok := symbolOf(enc, text, d); ok {
				out = append(out, s)
			}
		}
	}
	return out
}

// symbolOf is a declaration's outline entry, with its children.
func symbolOf(enc encoding, text []byte, n frontend.Node) (DocumentSymbol, bool) {
	kind, detail, children := symbolKind(n)
	if kind == 0 {
		return DocumentSymbol{}, false
	}
	name := nameSpan(n)
	s := DocumentSymbol{Name: spanText(text, name), Detail: detail, Kind: kind,
		Range: enc.span(text, n.Span()), SelectionRange: enc.span(text, name)}
	if s.Name == "" {
		return DocumentSymbol{}, false
	}
	for _, c := range children {
		if c == nil {
			continue
		}
		if cs, ok := symbolOf(enc, text, c); ok {
			s.Children = append(s.Children, cs)
		}
	}
	return s, true
}

// symbolKind says how the outline shows a declaration: its kind, a word
// of detail, and the declarations inside it.
func symbolKind(n frontend.Node) (kind int, detail string, children []frontend.Node) {
	switch d := n.(type) {
	case *frontend.StructDecl:
		for _, f := range d.Fields {
			children = append(children, f)
		}
		return symStruct, d.Kind.String(), children
	case *frontend.Field:
		return symField, "", nil
	case *frontend.ParserDecl:
		children = decls(d.Locals)
		for _, s := range d.States {
			children = append(children, s)
		}
		return symClass, "parser", children
	case *frontend.ParserState:
		return symEvent, "state", nil
	case *frontend.ControlDecl:
		return symClass, "control", decls(d.Locals)
	case *frontend.TableDecl:
		return symObject, "table", nil
	case *frontend.ActionDecl:
		return symFunction, "action", nil
	case *frontend.FuncDecl:
		return symFunction, "function", nil
	case *frontend.ExternDecl:
		if d.Func != nil {
			return symFunction, "extern function", nil
		}
		for _, m := range d.Methods {
			children = append(children, m)
		}
		return symInterface, "extern", children
	case *frontend.FuncProto:
		if d.Constructor {
			return symConstructor, "constructor", nil
		}
		return symMethod, "method", nil
	case *frontend.EnumDecl:
		return symEnum, "enum", nil
	case *frontend.ConstDecl:
		return symConstant, "const", nil
	case *frontend.VarDecl, *frontend.Instance, *frontend.ValueSetDecl:
		return symVariable, "", nil
	case *frontend.TypedefDecl:
		return symTypeParam, "typedef", nil
	case *frontend.PackageDecl:
		return symPackage, "package", nil
	}
	return 0, "", nil
}

// enclosing is the top-level declaration of file holding p, or nil.
func (ix *index) enclosing(file string, p diag.Pos) frontend.Decl {
	if ix.checked == nil || ix.checked.File == nil {
		return nil
	}
	for _, d := range ix.checked.File.Decls {
		if d == nil {
			continue
		}
		sp := d.Span()
		if sp.File == file && !p.Less(sp.Start) && !sp.End.Less(p) {
			return d
		}
	}
	return nil
}

func decls(ds []frontend.Decl) []frontend.Node {
	out := make([]frontend.Node, 0, len(ds))
	for _, d := range ds {
		if d != nil {
			out = append(out, d)
		}
	}
	return out
}
