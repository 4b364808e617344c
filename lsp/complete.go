package lsp

import (
	"regexp"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// Completion reads the text before the cursor, which is usually not a
// valid program yet ("hdr.ipv4."), against the index of the last version
// that parsed: after a dot, the members of what the dotted name before
// it denotes there; elsewhere, the tables and actions.

var (
	dotted = regexp.MustCompile(`([A-Za-z_]\w*(?:\s*\.\s*[A-Za-z_]\w*)*)\s*\.\s*(\w*)$`)
	word   = regexp.MustCompile(`\w*$`)
)

// complete lists the completions at p, given the line's text before p.
func (ix *index) complete(file string, p diag.Pos, before string) []CompletionItem {
	out := []CompletionItem{}
	if ix.checked == nil {
		return out
	}
	if m := dotted.FindStringSubmatch(before); m != nil {
		chain := strings.Join(strings.Fields(strings.ReplaceAll(m[1], ".", " ")), ".")
		return filter(ix.members(ix.typeOfChain(file, p, chain)), m[2])
	}
	for _, r := range ix.refs {
		if !r.decl {
			continue
		}
		switch d := r.target.(type) {
		case *frontend.TableDecl:
			out = append(out, CompletionItem{Label: d.Name.Name, Kind: completeClass, Detail: "table"})
		case *frontend.ActionDecl:
			out = append(out, CompletionItem{Label: d.Name.Name, Kind: completeFunction, Detail: "action"})
		}
	}
	return filter(out, word.FindString(before))
}

// filter keeps the items that start with prefix, sorted, once each.
func filter(items []CompletionItem, prefix string) []CompletionItem {
	out := []CompletionItem{}
	seen := map[string]bool{}
	for _, it := range items {
		if strings.HasPrefix(it.Label, prefix) && !seen[it.Label] {
			seen[it.Label] = true
			out = append(out, it)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Label < out[j].Label })
	return out
}

// typeOfChain is the type of a dotted name (hdr.ipv4) at p: the type the
// checker gave the same expression in the declaration around p, or
// elsewhere; else the type of its head (a parameter of that declaration,
// or a global name) followed member by member.
func (ix *index) typeOfChain(file string, p diag.Pos, chain string) frontend.Type {
	around := ix.enclosing(file, p)
	var elsewhere frontend.Type
	for e, t := range ix.checked.Types {
		if exprText(e) != chain {
			continue
		}
		if around != nil && around.Span().Contains(e.Span()) {
			return t
		}
		elsewhere = t
	}
	if elsewhere != nil {
		return elsewhere
	}
	names := strings.Split(chain, ".")
	t := ix.headType(around, names[0])
	for _, name := range names[1:] {
		t = memberType(t, name)
	}
	return t
}

// headType is the type of a name: a parameter of the declaration around
// the cursor, or a global.
func (ix *index) headType(around frontend.Decl, name string) frontend.Type {
	var ps []*frontend.Param
	switch d := around.(type) {
	case *frontend.ControlDecl:
		ps = d.Params
	case *frontend.ParserDecl:
		ps = d.Params
	case *frontend.ActionDecl:
		ps = d.Params
	}
	for _, p := range ps {
		if p.Name.Name == name {
			return ix.checked.TypeOf[p.Type]
		}
	}
	if name == "error" {
		return frontend.ErrorType{}
	}
	if g := ix.checked.Globals; g != nil {
		if sym := g.Lookup(name); sym != nil {
			return sym.Type
		}
	}
	return nil
}

// memberType is the type of t.name (nil when unknown).
func memberType(t frontend.Type, name string) frontend.Type {
	switch t := t.(type) {
	case *frontend.StructType:
		if f := t.Field(name); f != nil {
			return f.Type
		}
	case *frontend.StackType:
		if name == "next" || name == "last" {
			return t.Elem
		}
	}
	return nil
}

// members are the completions after "x." for x of type t.
func (ix *index) members(t frontend.Type) []CompletionItem {
	var out []CompletionItem
	add := func(kind int, detail string, names ...string) {
		for _, n := range names {
			out = append(out, CompletionItem{Label: n, Kind: kind, Detail: detail})
		}
	}
	switch t := t.(type) {
	case *frontend.StructType:
		for _, f := range t.Fields {
			add(completeField, f.Type.String(), f.Name)
		}
		if t.Kind != frontend.KindStruct {
			add(completeMethod, "method", "isValid", "setValid", "setInvalid")
		}
	case *frontend.StackType:
		add(completeField, t.Elem.String(), "next", "last")
		add(completeField, "bit<32>", "size", "lastIndex", "nextIndex")
		add(completeMethod, "method", "push_front", "pop_front")
	case *frontend.ObjectType:
		if ext, ok := t.Decl.(*frontend.ExternDecl); ok {
			for _, m := range ext.Methods {
				if !m.Constructor {
					add(completeMethod, "method of "+ext.Name.Name, m.Name.Name)
				}
			}
		} else {
			add(completeMethod, "method", "apply")
		}
	case *frontend.TableType:
		add(completeMethod, "method", "apply")
	case *frontend.ApplyResultType:
		add(completeField, "bool", "hit", "miss")
		add(completeField, "action_run", "action_run")
	case *frontend.EnumType:
		add(completeEnumMember, t.Name, t.Members...)
	case frontend.ErrorType:
		add(completeEnumMember, "error", ix.checked.Errors...)
	}
	return out
}

// exprText is a name or a chain of members as text ("" for any other
// expression).
func exprText(e frontend.Expr) string {
	switch e := e.(type) {
	case *frontend.NameExpr:
		return e.Name
	case *frontend.MemberExpr:
		if x := exprText(e.X); x != "" {
			return x + "." + e.Name.Name
		}
	}
	return ""
}
