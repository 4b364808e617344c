package transform

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// Rewrite is one run of if statements that became a table, or one run
// of register code that became an action (RewriteOptions.RegisterActions).
type Rewrite struct {
	Control string
	// Span covers the statements replaced.
	Span diag.Span
	// Table names the new table, or the new action (then there are no
	// keys, entries or gateways: the backend applies it by a table of its
	// own).
	Table string
	// Keys are "FIELD: KIND"; Entries counts the const entries.
	Keys    []string
	Entries int
	// Gateways is the number of conditions the table replaces.
	Gateways int
}

// Kept is an if statement that stays, and why.
type Kept struct {
	Span   diag.Span
	Reason string
}

// Result is the outcome of Transform.
type Result struct {
	// Source is the main file rewritten; it equals the input when nothing
	// was rewritten.
	Source   []byte
	Rewrites []Rewrite
	Kept     []Kept
	// Queries counts solver queries; GuardsExhausted says they reached
	// their bound, after which conditions were taken to overlap.
	Queries         int
	GuardsExhausted bool
}

// Transform rewrites, in the main file's text, every run of if statements
// in a match-action control whose conditions test fields against
// constants and whose branches are independent, into one table with const
// entries (CaT's rewrite to match-action tables). The text outside the
// replaced statements is kept as written, comments and all; full-line
// comments inside them move above the table's application. file names
// the main file in prog's spans and src is its text.
func Transform(ctx context.Context, prog *ir.Program, file string, src []byte) (*Result, error) {
	return TransformWith(ctx, prog, file, src, RewriteOptions{})
}

// RewriteOptions change what Transform rewrites.
type RewriteOptions struct {
	// KeepTableBranches leaves if statements whose branches apply tables
	// as written, for a target whose tables cannot choose the tables after
	// them (target.Target.NoNextTables).
	KeepTableBranches bool
	// RegisterActions makes an action of each run of register code left
	// in an apply block, for a target that runs registers only in actions
	// (target.Target.RegistersInActions; registers.go).
	RegisterActions bool
	// Skip keeps the statements that start on these lines of the main
	// file, for the reason given: a second try, after the rewrite of them
	// made a program that does not check.
	Skip map[int]string
}

// TransformWith is Transform with options.
func TransformWith(ctx context.Context, prog *ir.Program, file string, src []byte, opts RewriteOptions) (*Result, error) {
	names := newNamer()
	gs := newGuards(names)
	defer gs.close()
	r := &rewriter{ctx: ctx, prog: prog, file: file, lines: splitLines(string(src)), newlineAtEnd: strings.HasSuffix(string(src), "\n"), gs: gs,
		scope: scope{names: names}, arms: map[*ir.If][]alt{}, used: usedNames(prog), opts: opts}
	for _, a := range prog.Actions {
		if a.Name == "NoAction" {
			r.noAction = a
		}
	}
	for _, c := range matchActionControls(prog) {
		if err := r.control(c); err != nil {
			return nil, err
		}
	}
	res := &Result{Source: src, Rewrites: r.rewrites, Kept: r.kept, Queries: gs.queries, GuardsExhausted: gs.exhausted}
	if len(r.edits) > 0 {
		res.Source = []byte(r.apply())
	}
	return res, ctx.Err()
}

type rewriter struct {
	ctx   context.Context
	prog  *ir.Program
	opts  RewriteOptions
	file  string
	lines []string
	// newlineAtEnd is whether the source ends with a line break.
	newlineAtEnd bool
	gs           *guards
	scope        scope
	// arms keeps the flattener's list of each arm of an if-else chain.
	arms     map[*ir.If][]alt
	used     map[string]bool
	noAction *ir.Action
	edits    []edit
	rewrites []Rewrite
	kept     []Kept
	// control being rewritten, the variables its tables may read, and the
	// declarations made for it.
	control_ *ir.Control
	visible  map[*ir.Var]bool
	decls    strings.Builder
	indent   string
	// applyDecls are the apply block's declarations by their names in
	// locations, and hoisted those declared in the control now, for the
	// actions made of register code (registers.go).
	applyDecls map[string]*declSite
	hoisted    map[string]bool
}

// edit replaces lines [from, to] (1-based, inclusive; to = from-1 inserts
// before from) with text.
type edit struct {
	from, to int
	text     string
}

func (r *rewriter) control(c *ir.Control) error {
	applyLine := c.ApplySpan.Start.Line
	if c.ApplySpan.File != r.file || applyLine < 1 || applyLine > len(r.lines) ||
		!strings.HasPrefix(strings.TrimSpace(r.lines[applyLine-1]), "apply") {
		return nil // declared in an include, or laid out so that no line holds "apply" first
	}
	r.control_, r.indent = c, leadingSpace(r.lines[applyLine-1])
	r.visible = map[*ir.Var]bool{}
	for _, v := range append(append([]*ir.Var(nil), c.Params...), c.Locals...) {
		r.visible[v] = true
	}
	r.decls.Reset()
	if err := r.list(c.Body); err != nil {
		return err
	}
	if r.opts.RegisterActions && registerIn(c.Body) {
		r.findApplyDecls(c)
		r.registerRuns(c.Body)
	}
	if r.decls.Len() > 0 {
		text := r.decls.String()
		if applyLine > 1 && strings.TrimSpace(r.lines[applyLine-2]) == "" {
			text = strings.TrimPrefix(text, "\n")
		}
		r.edits = append(r.edits, edit{from: applyLine, to: applyLine - 1, text: text})
	}
	return nil
}

// inApply says whether a statement is written in the apply block of the
// control being rewritten. One inlined from a sub-control is written in
// that control's text, once for all its applications: the rewrite edits
// the text, so it leaves such a statement as it is.
func (r *rewriter) inApply(st ir.Stmt) bool {
	sp, apply := st.Span(), r.control_.ApplySpan
	return sp.File == apply.File && sp.Start.Line >= apply.Start.Line && sp.End.Line <= apply.End.Line
}

// list rewrites the runs of if statements in a statement list, and looks
// inside what it does not rewrite.
func (r *rewriter) list(ss []ir.Stmt) error {
	for i := 0; i < len(ss); {
		if _, isIf := ss[i].(*ir.If); !isIf || !r.inApply(ss[i]) {
			if err := r.inside(ss[i]); err != nil {
				return err
			}
			i++
			continue
		}
		j, alts, err := r.group(ss, i)
		if err != nil {
			return err
		}
		if alts != nil {
			done, err := r.replace(ss, i, j, alts)
			if err != nil {
				return err
			}
			if done {
				i = j
				continue
			}
		}
		for ; i < j; i++ {
			if err := r.inside(ss[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// inside rewrites the statement lists nested in st.
//
// An else-if chain that stays as written for having more than maxCubes
// alternatives is tried again from each of its arms in turn, each try
// refused after maxCubes arms: the time is the arms times maxCubes (7 s
// of 14 at 10,000 arms), linear in the arms but with that factor.
func (r *rewriter) inside(st ir.Stmt) error {
	var err error
	forEachRewritable(st, func(ss []ir.Stmt) {
		if err == nil {
			err = r.list(ss)
		}
	})
	return err
}

// group finds the run of consecutive if statements from ss[i] (j is its
// end) and, when the whole run can become one table, its decision list.
// A run whose branches depend on each other stays as written: CaT merges
// branches that have no dependency between them. So does a run where a
// branch writes what a condition reads (CaT's conservative rule).
func (r *rewriter) group(ss []ir.Stmt, i int) (j int, alts []alt, err error) {
	for j = i; j < len(ss); j++ {
		if _, ok := ss[j].(*ir.If); !ok {
			break
		}
	}
	whole := ss[i].Span().Join(ss[j-1].Span())
	f := &flattener{ctx: r.ctx, gs: r.gs, scope: r.scope, arms: r.arms}
	for k := i; k < j; k++ {
		next, err := r.one(f, ss[k].(*ir.If))
		if err == nil && k > i {
			next, err = f.product(alts, next, false)
		}
		if err != nil {
			return j, nil, r.keep(whole, err)
		}
		alts = next
	}
	if err := f.conditionsUnwritten(alts); err != nil {
		return j, nil, r.keep(whole, err)
	}
	if err := r.tableBranches(alts, countIfs(ss[i:j])); err != nil {
		return j, nil, r.keep(whole, err)
	}
	if err := r.writtenHere(alts); err != nil {
		return j, nil, r.keep(whole, err)
	}
	return j, alts, nil
}

// writtenHere refuses a decision list with a statement written outside
// the apply block being rewritten: a sub-control's, inlined where it is
// applied. A table's actions are text, and that statement's text, with
// the names of the sub-control's tables and locals, is in the
// sub-control.
func (r *rewriter) writtenHere(alts []alt) error {
	for _, a := range alts {
		for _, st := range a.leaves {
			if !r.inApply(st) {
				return refuse("a branch runs a statement written at %s, outside this apply block (a sub-control's, applied here)", st.Span())
			}
		}
	}
	return nil
}

// tableBranches refuses a decision list whose branches apply tables when
// the target cannot branch on the new table's action, or when one
// condition guards them: the new table would take the gateway's place
// and save nothing.
func (r *rewriter) tableBranches(alts []alt, conditions int) error {
	for _, a := range alts {
		for _, st := range a.leaves {
			if _, ok := st.(*ir.ApplyTable); !ok {
				continue
			}
			switch {
			case r.opts.KeepTableBranches:
				return refuse("a branch applies table %s at %s, and the target's tables cannot choose the tables after them", st.(*ir.ApplyTable).Table.Name, st.Span())
			case conditions < 2:
				return refuse("one condition guards table %s at %s: a table in its place would save no stage", st.(*ir.ApplyTable).Table.Name, st.Span())
			}
			return nil
		}
	}
	return nil
}

// keep records why the statements at sp stay; errors other than refusals
// pass through.
func (r *rewriter) keep(sp diag.Span, err error) error {
	if nr, ok := err.(*notRewritable); ok {
		r.kept = append(r.kept, Kept{Span: sp, Reason: nr.reason})
		return nil
	}
	return err
}

// one is the decision list of one if statement, if a table can hold it.
func (r *rewriter) one(f *flattener, st *ir.If) ([]alt, error) {
	alts, err := f.ifStmt(st)
	if err != nil {
		return nil, err
	}
	for _, a := range alts {
		for _, e := range a.lits {
			if v := r.hidden(f.scope.expr(e), nil); v != "" {
				return nil, refuse("the condition %s reads %s, declared in the apply block, which a table cannot see", ir.Format(e), v)
			}
		}
		// A table's actions read their action data and what the control
		// declares; only the other statements move.
		var moved []ir.Stmt
		for _, st := range a.leaves {
			if _, ok := st.(*ir.ApplyTable); !ok {
				moved = append(moved, st)
			}
		}
		if v := r.hidden(f.scope.stmts(moved), moved); v != "" {
			return nil, refuse("a branch uses %s, declared in the apply block, which an action cannot see", v)
		}
	}
	return alts, nil
}

// hidden names a variable that eff uses that tables and actions of the
// control cannot see (one declared in the apply block, outside leaves).
func (r *rewriter) hidden(eff effects, leaves []ir.Stmt) string {
	declared := map[string]bool{}
	for _, st := range leaves {
		if d, ok := st.(*ir.Declare); ok {
			declared[r.scope.names.name(d.Var)] = true
		}
	}
	for _, v := range r.unseen(eff) {
		if !declared[v] {
			return v
		}
	}
	return ""
}

// unseen names, in order, the variables eff uses that tables and actions
// of the control cannot see: the apply block's.
func (r *rewriter) unseen(eff effects) []string {
	visible := map[string]bool{}
	for v := range r.visible {
		visible[r.scope.names.name(v)] = true
	}
	var out []string
	for _, l := range append(eff.reads, eff.writes...) {
		if l[0] == '@' || l[0] == '$' {
			continue
		}
		root := string(l)
		if i := strings.IndexAny(root, ".["); i >= 0 {
			root = root[:i]
		}
		if !visible[root] {
			out = append(out, root)
		}
	}
	return out
}

// replace turns ss[i:j] into a table when its lines can be replaced
// whole; done is false when they cannot (the statements stay).
func (r *rewriter) replace(ss []ir.Stmt, i, j int, alts []alt) (done bool, err error) {
	first, last := ss[i].Span(), ss[j-1].Span()
	if reason := r.replaceable(ss, i, j); reason != "" {
		r.kept = append(r.kept, Kept{Span: first, Reason: reason})
		return false, nil
	}
	name := r.fresh(fmt.Sprintf("if_%d", first.Start.Line))
	t, err := buildTable(alts, name, r.scope, r.fresh, r.noAction)
	if err != nil {
		return false, r.keep(first.Join(last), err)
	}
	for _, k := range t.kinds {
		if !slices.Contains(r.prog.MatchKinds, k) {
			r.kept = append(r.kept, Kept{Span: first, Reason: fmt.Sprintf("a table would match with %s, a match kind the program does not declare (core.p4 declares it)", k)})
			return false, nil
		}
	}
	// The table's lines are numbered from the if statements' first (its
	// actions' statements from their own), for the frontend's messages.
	fmt.Fprintf(&r.decls, "\n#line %d\n%s// %s: the if statements of lines %d-%d, as a table.\n", first.Start.Line, r.indent, name, first.Start.Line, last.End.Line)
	r.decls.WriteString(t.print(r.indent, r.file))
	var text strings.Builder
	ind := leadingSpace(r.lines[first.Start.Line-1])
	for l := first.Start.Line; l <= last.End.Line; l++ {
		if s := strings.TrimSpace(r.lines[l-1]); strings.HasPrefix(s, "//") {
			text.WriteString(ind + s + "\n")
		}
	}
	fmt.Fprintf(&text, "#line %d\n%s", first.Start.Line, t.applyText(ind, r.file))
	r.edits = append(r.edits, edit{from: first.Start.Line, to: last.End.Line, text: text.String()})
	rw := Rewrite{Control: r.control_.Name, Span: first.Join(last), Table: name, Entries: len(t.entries), Gateways: countIfs(ss[i:j])}
	for k, key := range t.keys {
		rw.Keys = append(rw.Keys, ir.Format(key.expr)+": "+t.kinds[k])
	}
	r.rewrites = append(r.rewrites, rw)
	return true, nil
}

// replaceable says why the lines of ss[i:j] cannot be replaced whole, or
// "" when they can: the statements must start and end their lines, in the
// main file, apart from their neighbours, and hold no preprocessor
// directive that must stay (see unbalancedDirective).
func (r *rewriter) replaceable(ss []ir.Stmt, i, j int) string {
	first, last := ss[i].Span(), ss[j-1].Span()
	if first.File != r.file || last.File != r.file {
		return "the statements come from another file"
	}
	start, end := first.Start, last.End
	if reason, ok := r.opts.Skip[start.Line]; ok {
		return reason
	}
	if start.Line < 1 || end.Line > len(r.lines) || end.Line < start.Line {
		return "the statements' place in the source is not known"
	}
	head := r.lines[start.Line-1]
	if start.Col-1 > len(head) || strings.TrimSpace(head[:start.Col-1]) != "" {
		return "other code precedes the statement on its first line"
	}
	tail := r.lines[end.Line-1]
	if end.Col-1 > len(tail) {
		return "the statement's end is not known"
	}
	if rest := strings.TrimSpace(tail[end.Col-1:]); rest != "" && !strings.HasPrefix(rest, "//") {
		return "other code follows the statement on its last line"
	}
	if i > 0 && ss[i-1].Span().End.Line >= start.Line {
		return "the previous statement shares its first line"
	}
	if j < len(ss) && ss[j].Span().Start.Line <= end.Line {
		return "the next statement shares its last line"
	}
	if l, d := r.unbalancedDirective(start.Line, end.Line); l > 0 {
		return fmt.Sprintf("line %d holds a preprocessor directive (%s), which replacing the statements would remove", l, d)
	}
	return ""
}

// unbalancedDirective finds a preprocessor directive among lines
// from..to that the rewrite may not drop, and returns its line and name
// (0 when there is none). The statements' meaning is the preprocessed
// one, so a conditional opened and closed within the lines may go; but
// an #else, #elif or #endif of a conditional outside them, one left open,
// or a #define, #undef or #include (which later lines depend on) may not.
func (r *rewriter) unbalancedDirective(from, to int) (int, string) {
	type open struct {
		line int
		name string
	}
	var opens []open
	for l := from; l <= to; l++ {
		s := strings.TrimSpace(r.lines[l-1])
		if !strings.HasPrefix(s, "#") {
			continue
		}
		name := "#" + strings.TrimSpace(strings.TrimPrefix(s, "#"))
		if f := strings.FieldsFunc(name[1:], func(c rune) bool { return c == ' ' || c == '\t' || c == '(' }); len(f) > 0 {
			name = "#" + f[0]
		}
		switch name {
		case "#if", "#ifdef", "#ifndef":
			opens = append(opens, open{l, name})
		case "#else", "#elif":
			if len(opens) == 0 {
				return l, name
			}
		case "#endif":
			if len(opens) == 0 {
				return l, name
			}
			opens = opens[:len(opens)-1]
		default:
			return l, name
		}
	}
	if len(opens) > 0 {
		return opens[0].line, opens[0].name
	}
	return 0, ""
}

func countIfs(ss []ir.Stmt) int {
	n := 0
	for _, st := range ss {
		if x, ok := st.(*ir.If); ok {
			n++
			n += countIfs(x.Then) + countIfs(x.Else)
		} else if b, ok := st.(*ir.Block); ok {
			n += countIfs(b.Body)
		}
	}
	return n
}

// fresh returns name, or name with a suffix, unused in the program.
func (r *rewriter) fresh(name string) string {
	out := name
	for k := 2; r.used[out]; k++ {
		out = fmt.Sprintf("%s_%d", name, k)
	}
	r.used[out] = true
	return out
}

// apply returns the text with every edit made.
func (r *rewriter) apply() string {
	edits := append([]edit(nil), r.edits...)
	sort.SliceStable(edits, func(a, b int) bool { return edits[a].from < edits[b].from })
	var out strings.Builder
	line := 1
	for _, e := range edits {
		for ; line < e.from; line++ {
			out.WriteString(r.lines[line-1])
			out.WriteString("\n")
		}
		out.WriteString(e.text)
		line = max(line, e.to+1)
		if line <= len(r.lines) && strings.Contains(e.text, "#line") {
			fmt.Fprintf(&out, "#line %d\n", line) // the user's numbering again
		}
	}
	for ; line <= len(r.lines); line++ {
		out.WriteString(r.lines[line-1])
		if line < len(r.lines) || r.newlineAtEnd {
			out.WriteString("\n")
		}
	}
	return out.String()
}

// usedNames are the names declared anywhere in prog.
func usedNames(prog *ir.Program) map[string]bool {
	used := map[string]bool{}
	actions := func(as []*ir.Action) {
		for _, a := range as {
			used[a.Name] = true
		}
	}
	instances := func(is []*ir.Instance) {
		for _, inst := range is {
			used[inst.Name] = true
		}
	}
	actions(prog.Actions)
	instances(prog.Instances)
	for _, f := range prog.Functions {
		used[f.Name] = true
	}
	for _, p := range prog.Parsers {
		used[p.Name] = true
	}
	for _, t := range prog.Types {
		used[t.String()] = true
	}
	for _, c := range prog.Controls {
		used[c.Name] = true
		for _, v := range append(append([]*ir.Var(nil), c.Params...), c.Locals...) {
			used[v.Name] = true
		}
		instances(c.Instances)
		actions(c.Actions)
		for _, t := range c.Tables {
			used[t.Name] = true
		}
	}
	return used
}

func leadingSpace(s string) string { return s[:len(s)-len(strings.TrimLeft(s, " \t"))] }

// splitLines splits text into lines without their terminators.
func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	return strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
}
