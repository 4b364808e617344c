package transform

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// Register code that the if rewrites leave in the apply block.
//
// Programs written for BMv2 read and write registers in the apply block
// (`r.read(v, i); v = v + 1; r.write(i, v);`), where a target whose
// registers run only in an action's stateful ALU (Tofino's
// RegisterActions; RewriteOptions.RegisterActions) has no place for
// them. As p4c's passes do for such targets, each run of such statements
// becomes an action of its own, called where the run was; synthesis then
// maps it as it maps the program's actions. An action sees the control's
// variables but not the apply block's, so the apply block's declarations
// the run needs become the control's (a declaration keeps its place as an
// assignment of its initializer).

// registerRuns makes actions of the runs of register code in ss, at any
// depth, that no rewrite has replaced.
func (r *rewriter) registerRuns(ss []ir.Stmt) {
	for i := 0; i < len(ss); {
		st := ss[i]
		if r.replaced(st) {
			i++
			continue
		}
		if ir.RegisterCall([]ir.Stmt{st}) == nil || r.edited(st) || !r.movable(st) {
			r.registerRunsInside(st)
			i++
			continue
		}
		j := i + 1 // the run: up to the last register statement movable with it
		for k := i + 1; k < len(ss) && !r.edited(ss[k]) && r.movable(ss[k]); k++ {
			if ir.RegisterCall([]ir.Stmt{ss[k]}) != nil {
				j = k + 1
			}
		}
		if !r.registerAction(ss, i, j) {
			r.registerRunsInside(st)
			j = i + 1
		}
		i = j
	}
}

// registerIn says whether ss calls a register's method, at any depth.
func registerIn(ss []ir.Stmt) bool {
	for _, st := range ss {
		found := ir.RegisterCall([]ir.Stmt{st}) != nil
		forEachList(st, func(inner []ir.Stmt) { found = found || registerIn(inner) })
		if found {
			return true
		}
	}
	return false
}

// registerRunsInside looks for register runs in the statement lists
// nested in st.
func (r *rewriter) registerRunsInside(st ir.Stmt) { forEachRewritable(st, r.registerRuns) }

// replaced says whether an edit replaces all of st's lines.
func (r *rewriter) replaced(st ir.Stmt) bool {
	sp := st.Span()
	for _, e := range r.edits {
		if e.from <= sp.Start.Line && sp.End.Line <= e.to {
			return true
		}
	}
	return false
}

// edited says whether an edit replaces any of st's lines.
func (r *rewriter) edited(st ir.Stmt) bool {
	sp := st.Span()
	for _, e := range r.edits {
		if sp.Start.Line <= e.to && sp.End.Line >= e.from {
			return true
		}
	}
	return false
}

// movable says whether st, written in the apply block, means the same in
// an action: no table, sub-control, loop, exit or return in it.
func (r *rewriter) movable(st ir.Stmt) bool {
	if !r.inApply(st) {
		return false
	}
	switch st := st.(type) {
	case *ir.Assign, *ir.Declare, *ir.CallStmt, *ir.CallAction, *ir.SetValid:
		return true
	case *ir.If:
		return r.allMovable(st.Then) && r.allMovable(st.Else)
	case *ir.Block:
		return !st.Atomic && r.allMovable(st.Body)
	}
	return false
}

func (r *rewriter) allMovable(ss []ir.Stmt) bool {
	for _, st := range ss {
		if !r.movable(st) {
			return false
		}
	}
	return true
}

// registerAction replaces ss[i:j] with a call of a new action holding it,
// and reports whether it could: the lines must be the run's alone, and
// each variable of the apply block it uses must be one the control can
// declare instead (hoistable).
func (r *rewriter) registerAction(ss []ir.Stmt, i, j int) bool {
	if r.replaceable(ss, i, j) != "" {
		return false
	}
	first, last := ss[i].Span(), ss[j-1].Span()
	inRun := map[string]bool{}
	declared(ss[i:j], func(v *ir.Var) { inRun[r.scope.names.name(v)] = true })
	var hoist []*declSite
	for _, name := range r.unseen(r.scope.stmts(ss[i:j])) {
		d, ok := r.applyDecls[name]
		if !ok || !r.hoistable(d) {
			return false // one the control cannot declare, or not the apply block's
		}
		if !r.hoisted[name] && !inRun[name] && !slices.Contains(hoist, d) {
			hoist = append(hoist, d)
		}
	}
	for name := range inRun {
		if d := r.applyDecls[name]; d == nil || !r.hoistable(d) {
			return false
		}
	}
	for _, d := range hoist {
		r.hoistDecl(d, true)
	}
	var body strings.Builder
	for l := first.Start.Line; l <= last.End.Line; l++ {
		line := r.lines[l-1]
		for name := range inRun {
			if d := r.applyDecls[name]; d.line == l {
				r.hoistDecl(d, false)
				line = d.assign
			}
		}
		body.WriteString(line + "\n")
	}
	name := r.fresh(fmt.Sprintf("regs_%d", first.Start.Line))
	fmt.Fprintf(&r.decls, "\n#line %d\n%s// %s: the register code of lines %d-%d, as an action.\n%saction %s() {\n#line %d\n%s%s}\n",
		first.Start.Line, r.indent, name, first.Start.Line, last.End.Line, r.indent, name, first.Start.Line, body.String(), r.indent)
	ind := leadingSpace(r.lines[first.Start.Line-1])
	r.edits = append(r.edits, edit{from: first.Start.Line, to: last.End.Line, text: fmt.Sprintf("#line %d\n%s%s();\n", first.Start.Line, ind, name)})
	r.rewrites = append(r.rewrites, Rewrite{Control: r.control_.Name, Span: first.Join(last), Table: name})
	return true
}

// declSite is a declaration in the apply block and how it moves to the
// control: its type's text, and its line as an assignment (or an empty
// line, without an initializer). Whether it can is worked out when a run
// needs it (hoistable): the check reads the control's lines.
type declSite struct {
	v    *ir.Var
	name string // in locations (the scope's namer)
	line int
	decl *ir.Declare
	list []ir.Stmt // decl is list[k]
	k    int
	once bool // the apply block's only declaration of its name

	checked, ok      bool
	typeText, assign string
}

// declLine splits a one-line declaration, "T name = init;" or "T name;".
var declLine = regexp.MustCompile(`^(\s*)(.*?\S)\s+([A-Za-z_][A-Za-z0-9_]*)\s*(?:=\s*(.*\S))?\s*;\s*(//.*)?$`)

// findApplyDecls records the declarations of the control's apply block,
// at any depth.
func (r *rewriter) findApplyDecls(c *ir.Control) {
	r.applyDecls, r.hoisted = map[string]*declSite{}, map[string]bool{}
	var walk func(ss []ir.Stmt, visit func(d *ir.Declare, ss []ir.Stmt, k int))
	walk = func(ss []ir.Stmt, visit func(d *ir.Declare, ss []ir.Stmt, k int)) {
		for k, st := range ss {
			if d, ok := st.(*ir.Declare); ok {
				visit(d, ss, k)
			}
			forEachList(st, func(inner []ir.Stmt) { walk(inner, visit) })
		}
	}
	count := map[string]int{}
	walk(c.Body, func(d *ir.Declare, _ []ir.Stmt, _ int) { count[d.Var.Name]++ })
	walk(c.Body, func(d *ir.Declare, ss []ir.Stmt, k int) {
		site := &declSite{v: d.Var, name: r.scope.names.name(d.Var), line: d.Span().Start.Line, decl: d, list: ss, k: k, once: count[d.Var.Name] == 1}
		r.applyDecls[site.name] = site
	})
}

// hoistable says whether a declaration can move to the control: it is the
// apply block's only declaration of its name, alone on its line, and
// hides nothing there (hidesNothing).
func (r *rewriter) hoistable(site *declSite) bool {
	if site.checked {
		return site.ok
	}
	site.checked = true
	d := site.decl
	if !site.once || !r.inApply(d) || r.replaceable(site.list, site.k, site.k+1) != "" || d.Span().End.Line != site.line {
		return false
	}
	m := declLine.FindStringSubmatch(r.lines[site.line-1])
	if m == nil || m[3] != d.Var.Name || (m[4] == "") != (d.Init == nil) || !r.hidesNothing(d.Var.Name, site.line) {
		return false
	}
	site.typeText, site.ok = m[2], true
	if m[4] != "" {
		site.assign = fmt.Sprintf("%s%s = %s;", m[1], m[3], m[4])
	}
	return true
}

// hidesNothing says whether a variable of the apply block named name,
// declared on line decl, can be declared for the whole control instead:
// no declaration the program keeps has the name, the control does not
// use it outside its apply block (where the name would mean the variable
// now), and the apply block does not use it before decl (where it meant
// another declaration). A use is the name as a word, not after a dot (a
// field); comments count, which is only cautious.
func (r *rewriter) hidesNothing(name string, decl int) bool {
	if r.used[name] {
		return false
	}
	word := regexp.MustCompile(`(^|[^.\w])` + regexp.QuoteMeta(name) + `\b`)
	c, apply := r.control_.Span, r.control_.ApplySpan
	for l := c.Start.Line; l <= c.End.Line && l <= len(r.lines); l++ {
		inApply := l >= apply.Start.Line && l <= apply.End.Line
		if (!inApply || l < decl) && word.MatchString(r.lines[l-1]) {
			return false
		}
	}
	return true
}

// hoistDecl declares d's variable in the control; inPlace, its line in
// the apply block becomes the assignment (a register action's body
// copies the lines of a declaration inside it itself).
func (r *rewriter) hoistDecl(d *declSite, inPlace bool) {
	r.hoisted[d.name] = true
	fmt.Fprintf(&r.decls, "#line %d\n%s%s %s;\n", d.line, r.indent, d.typeText, d.v.Name)
	if inPlace {
		r.edits = append(r.edits, edit{from: d.line, to: d.line, text: fmt.Sprintf("#line %d\n%s\n", d.line, d.assign)})
	}
}

// forEachRewritable calls fn on the statement lists nested in st that
// phase 1 rewrites: not a loop's, whose body runs again, nor an @atomic
// block's, which synthesis maps as it is.
func forEachRewritable(st ir.Stmt, fn func([]ir.Stmt)) {
	switch st := st.(type) {
	case *ir.For:
		return
	case *ir.Block:
		if st.Atomic {
			return
		}
	}
	forEachList(st, fn)
}

// forEachList calls fn on each statement list nested in st.
func forEachList(st ir.Stmt, fn func([]ir.Stmt)) {
	switch st := st.(type) {
	case *ir.If:
		fn(st.Then)
		fn(st.Else)
	case *ir.Block:
		fn(st.Body)
	case *ir.SwitchAction:
		for _, c := range st.Cases {
			fn(c.Body)
		}
	case *ir.Switch:
		for _, c := range st.Cases {
			fn(c.Body)
		}
	case *ir.For:
		fn(st.Init)
		fn(st.Body)
		fn(st.Update)
	}
}
