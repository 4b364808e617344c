package frontend

import (
	"cmp"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/diag"
)

// Control-plane names of actions and tables.
//
// A controller names an action or a table by its control-plane name: its
// @name, or its own name, under the path of the control it is declared
// in unless the name starts with a dot (P4Runtime's hierarchical names).
// A control the main package applies is its name; one applied by another
// control is that control's path and the instance's name, once per
// instance. Two actions (or tables) of one name cannot be told apart, so,
// as p4c does, a program that declares two is refused at the second. A
// top-level action nothing uses and no @name names (core.p4's NoAction in
// a program whose controls name their own copy ".NoAction") is no
// control-plane object: p4c drops it first.

// checkControlPlaneNames reports actions, and tables, that share a
// control-plane name. An action is one object however many instances of
// its control there are (p4c checks declarations); a table is one per
// instance, so a table of an absolute name in a control applied twice is
// two tables of one name.
func (c *checker) checkControlPlaneNames(f *File) {
	used := map[*ActionDecl]bool{}
	for _, a := range c.out.ActionOf {
		used[a] = true
	}
	for _, sym := range c.out.Uses {
		if a, ok := sym.Decl.(*ActionDecl); ok {
			used[a] = true
		}
	}
	type object struct {
		id   *Ident // the declaration's name
		path string // a table's instance; "" for an action
	}
	first := map[string]object{}
	check := func(kind string, o object, name string) {
		id := o.id
		key := kind + " " + name
		prev, ok := first[key]
		if !ok {
			first[key] = o
			return
		}
		if prev == o {
			return // one object reached by two paths
		}
		prevID := prev.id
		if prevID == id { // one table, in two instances of its control
			c.errorf(id, diag.Redeclared, "%s %s: its control-plane name %s, with a leading dot, is the name of its copy in %s and in %s; a controller could not tell them apart (name it without the dot)",
				kind, id.Name, name, prev.path, o.path)
			return
		}
		d := c.errorf(id, diag.Redeclared, "%s %s: its control-plane name %s is %s %s's too; a controller could not tell them apart (rename one, or give it another @name)",
			kind, id.Name, name, kind, prevID.Name)
		d.Note(prevID, "%s %s is named %s here", kind, prevID.Name, name)
	}
	paths := c.controlPaths(f)
	for _, decl := range f.Decls {
		switch d := decl.(type) {
		case *ActionDecl:
			if name, explicit := controlPlaneName(d.Annos, d.Name, ""); explicit || used[d] {
				check("action", object{id: d.Name}, name)
			}
		case *ControlDecl:
			for _, path := range paths[d] {
				for _, local := range d.Locals {
					switch l := local.(type) {
					case *ActionDecl:
						name, _ := controlPlaneName(l.Annos, l.Name, path)
						check("action", object{id: l.Name}, name)
					case *TableDecl:
						name, _ := controlPlaneName(l.Annos, l.Name, path)
						check("table", object{id: l.Name, path: path}, name)
					}
				}
			}
		}
	}
}

// controlPaths gives each control (with a body) its paths: its name when
// no control applies it, else one per instance another control makes of
// it, under that control's paths (a direct application, C.apply(), is an
// instance named C).
func (c *checker) controlPaths(f *File) map[*ControlDecl][]string {
	controls := map[string]*ControlDecl{}
	for _, decl := range f.Decls {
		if d, ok := decl.(*ControlDecl); ok && d.Apply != nil {
			controls[d.Name.Name] = d
		}
	}
	type use struct {
		outer *ControlDecl
		name  string
	}
	uses := map[*ControlDecl][]use{}
	for _, outer := range controls {
		for _, local := range outer.Locals {
			inst, ok := local.(*Instance)
			if !ok {
				continue
			}
			if t, ok := inst.Type.(*NamedType); ok && controls[t.Name.Name] != nil && inst.Name != nil {
				sub := controls[t.Name.Name]
				uses[sub] = append(uses[sub], use{outer, inst.Name.Name})
			}
		}
	}
	for n, sym := range c.out.Uses {
		sub, ok := sym.Decl.(*ControlDecl)
		if !ok || sym.Kind != SymType || sub.Apply == nil {
			continue
		}
		for _, outer := range controls {
			if outer.Apply != nil && outer.Apply.Span().Contains(n.Span()) && !slices.Contains(uses[sub], use{outer, sub.Name.Name}) {
				uses[sub] = append(uses[sub], use{outer, sub.Name.Name})
			}
		}
	}
	for _, us := range uses { // in one order every run: the first of two names is the one kept
		slices.SortFunc(us, func(a, b use) int {
			return cmp.Or(strings.Compare(a.outer.Name.Name, b.outer.Name.Name), strings.Compare(a.name, b.name))
		})
	}
	out := map[*ControlDecl][]string{}
	var pathsOf func(d *ControlDecl, depth int) []string
	pathsOf = func(d *ControlDecl, depth int) []string {
		if ps, ok := out[d]; ok {
			return ps
		}
		if len(uses[d]) == 0 || depth > len(controls) { // a cycle is the checker's to report
			return []string{d.Name.Name}
		}
		var ps []string
		for _, u := range uses[d] {
			for _, p := range pathsOf(u.outer, depth+1) {
				ps = append(ps, p+"."+u.name)
			}
		}
		out[d] = ps
		return ps
	}
	for _, d := range controls {
		out[d] = pathsOf(d, 0)
	}
	return out
}

// controlPlaneName is the fully qualified control-plane name, with its
// leading dot, of a declaration named id with annotations annos, in the
// control of path control (top level when ""); explicit says a @name gave
// it.
func controlPlaneName(annos Annotations, id *Ident, control string) (name string, explicit bool) {
	name = id.Name
	if an := annos.Find("name"); an != nil && len(an.Exprs) == 1 {
		if s, ok := an.Exprs[0].(*StringLit); ok {
			name, explicit = s.Value, true
		}
	}
	switch {
	case strings.HasPrefix(name, "."):
		return name, explicit
	case control == "":
		return "." + name, explicit
	}
	return "." + control + "." + name, explicit
}
