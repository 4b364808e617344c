package transform

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// newTable is a table made from a decision list, ready to print.
type newTable struct {
	name    string
	keys    []key
	kinds   []string
	actions []*newAction
	entries []newEntry
	// dflt is the action of the packets no entry matches.
	dflt     *newAction
	dfltArgs []ir.Expr
	// cases, when a branch applies tables, are the cases of a switch on
	// the action the table ran: the branch's tables and what follows
	// them, which an action cannot hold.
	cases []newCase
}

// newCase is what runs after the new table when it ran action: a
// branch's statements from its first table application on.
type newCase struct {
	action *newAction
	body   []ir.Stmt
}

// newAction is an action the table runs: a declared one (decl set), or
// one made of a branch's statements (body set).
type newAction struct {
	name string
	decl *ir.Action
	body []ir.Stmt
}

type newEntry struct {
	keys   []*constraint // nil: any value
	action *newAction
	args   []ir.Expr
}

// tableBuilder turns a decision list into a table.
type tableBuilder struct {
	m       *matcher
	names   func(string) string
	noAct   *ir.Action
	table   *newTable
	byBody  map[string]*newAction
	actions map[*ir.Action]*newAction
}

func buildTable(alts []alt, name string, s scope, fresh func(string) string, noAction *ir.Action) (*newTable, error) {
	b := &tableBuilder{m: &matcher{scope: s}, names: fresh, noAct: noAction, table: &newTable{name: name},
		byBody: map[string]*newAction{}, actions: map[*ir.Action]*newAction{}}
	if err := appliedOnce(alts); err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	for _, a := range alts {
		act, args, err := b.action(a.leaves)
		if err != nil {
			return nil, err
		}
		cubes := []cube{{}}
		for _, lit := range a.lits {
			lc, err := b.m.cubes(lit, false)
			if err != nil {
				return nil, refuse("%v", err)
			}
			if cubes, err = b.m.product(cubes, lc); err != nil {
				return nil, refuse("%v", err)
			}
		}
		for _, c := range cubes {
			if len(c) == 0 { // matches every packet: the rest is unreachable
				b.table.dflt, b.table.dfltArgs = act, args
				return b.finish()
			}
			e := newEntry{keys: make([]*constraint, 0), action: act, args: args}
			for k := range b.m.keys {
				if kc, ok := c[k]; ok {
					e.keys = append(e.keys, &kc)
				} else {
					e.keys = append(e.keys, nil)
				}
			}
			// An entry with the keys of an earlier one never matches
			// (and P4 rejects duplicate exact entries).
			if id := cubeID(c, len(b.m.keys)); !seen[id] {
				seen[id] = true
				b.table.entries = append(b.table.entries, e)
			}
		}
	}
	return b.finish()
}

// cubeID names a cube's constraints, key by key.
func cubeID(c cube, keys int) string {
	var b strings.Builder
	for k := 0; k < keys; k++ {
		kc, ok := c[k]
		switch {
		case !ok:
			b.WriteString("_;")
		case kc.ternary():
			fmt.Fprintf(&b, "%s&&&%s;", kc.value, kc.mask)
		default:
			fmt.Fprintf(&b, "%s..%s;", kc.lo, kc.hi)
		}
	}
	return b.String()
}

// finish fills in the keys (entries made before a key was seen do not
// constrain it) and their match kinds.
func (b *tableBuilder) finish() (*newTable, error) {
	t := b.table
	t.keys = b.m.keys
	for i := range t.entries {
		for len(t.entries[i].keys) < len(t.keys) {
			t.entries[i].keys = append(t.entries[i].keys, nil)
		}
	}
	if len(t.keys) == 0 {
		return nil, refuse("no condition tests a field")
	}
	for k, key := range t.keys {
		kind, err := matchKind(t.entries, k, key.width)
		if err != nil {
			return nil, err
		}
		t.kinds = append(t.kinds, kind)
	}
	if t.dflt == nil {
		return nil, refuse("internal: a decision list without a last alternative")
	}
	return t, nil
}

// matchKind is the simplest match kind that expresses every entry's
// constraint on key k: exact when all are single values, range when some
// are ranges, ternary when some are masks or absent.
func matchKind(entries []newEntry, k, width int) (string, error) {
	ranges, masks, absent := false, false, false
	for _, e := range entries {
		c := e.keys[k]
		switch {
		case c == nil:
			absent = true
		case func() bool { _, p := c.point(width); return p }():
		case c.ternary():
			masks = true
		default:
			ranges = true
		}
	}
	switch {
	case ranges && masks:
		return "", refuse("one field is tested both with a mask and with a range")
	case ranges:
		return ir.MatchRange, nil
	case masks || absent:
		return ir.MatchTernary, nil
	}
	return ir.MatchExact, nil
}

// appliedOnce refuses a decision list that applies one table in two
// alternatives that differ: the switch would apply it in two cases, and
// a table is applied once. (Alike alternatives share an action, so a
// case.)
func appliedOnce(alts []alt) error {
	type use struct {
		at     diag.Span
		leaves string
	}
	where := map[*ir.Table]use{}
	for _, a := range alts {
		text := printStmts(a.leaves, "")
		for _, st := range a.leaves {
			if ap, ok := st.(*ir.ApplyTable); ok {
				if first, dup := where[ap.Table]; dup && first.leaves != text {
					return refuse("table %s, applied at %s, would be applied in two cases of the new table's switch: the conditions around it overlap others with other statements", ap.Table.Name, first.at)
				}
				where[ap.Table] = use{ap.Span(), text}
			}
		}
	}
	return nil
}

// splitAtTable splits a branch's statements before its first table
// application: lead can run in the new table's action, tail in the case
// of the switch on it. A lead that declares a variable stays with the
// tail, which may use it.
func splitAtTable(leaves []ir.Stmt) (lead, tail []ir.Stmt) {
	for i, st := range leaves {
		if _, ok := st.(*ir.ApplyTable); ok {
			lead, tail = leaves[:i], leaves[i:]
			break
		}
	}
	for _, st := range lead {
		if _, ok := st.(*ir.Declare); ok {
			return nil, leaves
		}
	}
	return lead, tail
}

// action returns the table action that runs leaves: NoAction for none,
// the action itself for a lone call with constant data, else a new
// action (one per distinct body). Leaves that apply a table get an
// action of their own, whatever its body, so that the switch on it
// tells them apart, and a case of the switch.
func (b *tableBuilder) action(leaves []ir.Stmt) (*newAction, []ir.Expr, error) {
	if lead, tail := splitAtTable(leaves); len(tail) > 0 {
		key := "tables:" + printStmts(leaves, "")
		if a, ok := b.byBody[key]; ok {
			return a, nil, nil
		}
		a := &newAction{name: b.names(b.table.name + "_" + fmt.Sprint(len(b.byBody)+1)), body: lead}
		b.byBody[key] = a
		b.table.actions = append(b.table.actions, a)
		b.table.cases = append(b.table.cases, newCase{action: a, body: tail})
		return a, nil, nil
	}
	if len(leaves) == 0 && b.noAct != nil {
		return b.declared(b.noAct), nil, nil
	}
	if len(leaves) == 1 {
		if call, ok := leaves[0].(*ir.CallAction); ok && constantData(call.Call) {
			return b.declared(call.Call.Action), call.Call.Args, nil
		}
	}
	body := printStmts(leaves, "")
	if a, ok := b.byBody[body]; ok {
		return a, nil, nil
	}
	a := &newAction{name: b.names(b.table.name + "_" + fmt.Sprint(len(b.byBody)+1)), body: leaves}
	b.byBody[body] = a
	b.table.actions = append(b.table.actions, a)
	return a, nil, nil
}

func (b *tableBuilder) declared(decl *ir.Action) *newAction {
	if a, ok := b.actions[decl]; ok {
		return a
	}
	a := &newAction{name: decl.Name, decl: decl}
	b.actions[decl] = a
	b.table.actions = append(b.table.actions, a)
	return a
}

// constantData reports whether a call passes only constants to an action
// without directional parameters: a table entry can make that call.
func constantData(c *ir.ActionCall) bool {
	for _, p := range c.Action.Params {
		if p.Dir != ir.DirNone {
			return false
		}
	}
	for _, a := range c.Args {
		if _, ok := a.(*ir.Const); !ok {
			return false
		}
	}
	return true
}

// print writes the table's new actions and the table, indented by indent.
func (t *newTable) print(indent, file string) string {
	var b strings.Builder
	in := indent + "    "
	for _, a := range t.actions {
		if a.decl != nil {
			continue
		}
		fmt.Fprintf(&b, "%saction %s() {\n%s%s}\n", indent, a.name, printStmtsWhereWritten(a.body, in, file), indent)
	}
	fmt.Fprintf(&b, "%stable %s {\n%skey = {\n", indent, t.name, in)
	for i, k := range t.keys {
		fmt.Fprintf(&b, "%s    %s: %s;\n", in, ir.Format(k.expr), t.kinds[i])
	}
	fmt.Fprintf(&b, "%s}\n%sactions = {\n", in, in)
	for _, a := range t.actions {
		fmt.Fprintf(&b, "%s    %s;\n", in, a.name)
	}
	fmt.Fprintf(&b, "%s}\n", in)
	if len(t.entries) > 0 {
		fmt.Fprintf(&b, "%sconst entries = {\n", in)
		for _, e := range t.entries {
			fmt.Fprintf(&b, "%s    %s: %s(%s);\n", in, t.keysets(e), e.action.name, exprs(e.args))
		}
		fmt.Fprintf(&b, "%s}\n", in)
	}
	fmt.Fprintf(&b, "%sconst default_action = %s(%s);\n", in, t.dflt.name, exprs(t.dfltArgs))
	fmt.Fprintf(&b, "%ssize = %d;\n%s}\n", in, max(len(t.entries), 1), indent)
	return b.String()
}

// applyText is the statement that applies the table, at indent: the
// application, or the switch on the action it ran whose cases apply the
// branches' tables.
func (t *newTable) applyText(indent, file string) string {
	if len(t.cases) == 0 {
		return fmt.Sprintf("%s%s.apply();\n", indent, t.name)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%sswitch (%s.apply().action_run) {\n", indent, t.name)
	for _, c := range t.cases {
		fmt.Fprintf(&b, "%s    %s: {\n%s%s    }\n", indent, c.action.name, printStmtsWhereWritten(c.body, indent+"        ", file), indent)
	}
	fmt.Fprintf(&b, "%s}\n", indent)
	return b.String()
}

func (t *newTable) keysets(e newEntry) string {
	parts := make([]string, len(t.keys))
	for i, c := range e.keys {
		parts[i] = keyset(c, t.keys[i], t.kinds[i])
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func keyset(c *constraint, k key, kind string) string {
	if c == nil {
		return "_"
	}
	if v, ok := c.point(k.width); ok {
		if k.bool_ {
			return fmt.Sprint(v.Sign() != 0)
		}
		return hex(v)
	}
	if c.ternary() {
		return hex(c.value) + " &&& " + hex(c.mask)
	}
	return hex(c.lo) + " .. " + hex(c.hi)
}

func hex(v *big.Int) string {
	if v.Cmp(big.NewInt(10)) < 0 {
		return v.String()
	}
	return "0x" + v.Text(16)
}

func exprs(es []ir.Expr) string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = ir.Format(e)
	}
	return strings.Join(parts, ", ")
}

// printStmts prints statements as P4, one per line.
// printStmtsWhereWritten prints statements as printStmts does, each of
// file's behind a #line directive and at its column, so that the frontend
// places them (and any error about them) where the user wrote them.
func printStmtsWhereWritten(ss []ir.Stmt, indent, file string) string {
	var b strings.Builder
	for _, st := range ss {
		sp := st.Span()
		if sp.File != file || sp.Start.Line < 1 || sp.Start.Col < 1 {
			b.WriteString(indent)
		} else {
			fmt.Fprintf(&b, "#line %d\n%s", sp.Start.Line, strings.Repeat(" ", sp.Start.Col-1))
		}
		b.WriteString(printStmt(st))
		b.WriteString("\n")
	}
	return b.String()
}

func printStmts(ss []ir.Stmt, indent string) string {
	var b strings.Builder
	for _, st := range ss {
		b.WriteString(indent)
		b.WriteString(printStmt(st))
		b.WriteString("\n")
	}
	return b.String()
}

func printStmt(st ir.Stmt) string {
	switch st := st.(type) {
	case *ir.Assign:
		return fmt.Sprintf("%s = %s;", ir.Format(st.LHS), ir.Format(st.RHS))
	case *ir.CallAction:
		return fmt.Sprintf("%s(%s);", st.Call.Action.Name, exprs(st.Call.Args))
	case *ir.CallStmt:
		return ir.Format(st.Call) + ";"
	case *ir.SetValid:
		if st.Valid {
			return ir.Format(st.X) + ".setValid();"
		}
		return ir.Format(st.X) + ".setInvalid();"
	case *ir.StackShift:
		if st.Push {
			return fmt.Sprintf("%s.push_front(%d);", ir.Format(st.X), st.Count)
		}
		return fmt.Sprintf("%s.pop_front(%d);", ir.Format(st.X), st.Count)
	case *ir.Exit:
		return "exit;"
	case *ir.ApplyTable:
		return st.Table.Name + ".apply();"
	case *ir.Declare:
		if st.Init == nil {
			return fmt.Sprintf("%s %s;", st.Var.Type, st.Var.Name)
		}
		return fmt.Sprintf("%s %s = %s;", st.Var.Type, st.Var.Name, ir.Format(st.Init))
	}
	panic(fmt.Sprintf("transform: printing %T, which flattening does not let through", st))
}
