package tna

import (
	"fmt"
	"maps"
	"math/big"
	"math/bits"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/transform"
)

// ingressBlock writes the ingress control.
func (e *emitter) ingressBlock() error {
	c := e.ingress
	hdr, meta, std := c.Params[0], c.Params[1], c.Params[2]
	for _, inst := range append(append([]*ir.Instance(nil), e.prog.Instances...), c.Instances...) {
		if e.counterOrMeter(inst) || inst.Type.Name == "Checksum16" { // Checksum16: the deparser's
			continue
		}
		if err := e.register(inst); err != nil {
			return err
		}
	}
	e.epilogue = e.ingressEpilogue(hdr, meta, std)
	tables, plain, body, err := e.controlParts(c, e.ingressNodes)
	if err != nil {
		return err
	}
	e.controlHead(c, "ingress", "ig", "tm_t ig_tm_md")
	e.printDeclarations()
	for _, a := range plain {
		e.pr.Action(a)
	}
	for _, a := range e.actions {
		e.out.WriteString(a)
	}
	e.printTables(tables)
	e.pr.Line("apply {")
	e.pr.Indent(1)
	e.pr.Line("%s.ingress_port = ig_intr_md.ingress_port;", std.Name)
	for _, l := range e.stdLoads {
		e.pr.Line("%s", l)
	}
	for _, l := range e.ingressPrologue() {
		e.pr.Line("%s", l)
	}
	for _, f := range e.runFlags { // the flags that tell later stages an action ran
		e.pr.Line("%s = 1w0;", f)
	}
	e.controlTail(body)
	return nil
}

// printDeclarations writes the locals and the extern declarations the
// control being written needs.
func (e *emitter) printDeclarations() {
	for _, l := range e.locals {
		e.pr.Line("%s", l)
	}
	for _, d := range e.decls {
		e.out.WriteString(d)
	}
}

// controlParts converts a control's tables (nodes), plain actions and
// apply block for TNA; e.epilogue must be the control's.
func (e *emitter) controlParts(c *ir.Control, nodes []*transform.Node) (tables []*ir.Table, plain []*ir.Action, body []ir.Stmt, err error) {
	for _, n := range nodes {
		t, err := e.table(n)
		if err != nil {
			return nil, nil, nil, err
		}
		tables = append(tables, t)
	}
	for _, a := range append(e.globalActions(c, tables), c.Actions...) {
		if e.in.Graph(a.Name) != nil {
			if !e.synthesizedApplied[a.Name] {
				return nil, nil, nil, errorAt(a.Span, "action %s %s, so synthesis maps it onto ALUs, and no table applies it; the Tofino backend places such an action through its table (or a call of it alone in the apply block)", a.Name, synthesizedBecause(a))
			}
			continue
		}
		b, err := e.stmts(a.Body, a.Name)
		if err != nil {
			return nil, nil, nil, err
		}
		pa := *a
		pa.Body = b
		plain = append(plain, &pa)
	}
	body, err = e.stmts(c.Body, "")
	return tables, plain, body, err
}

// tableIn names a table the statements apply, or is "".
func tableIn(ss []ir.Stmt) string {
	name := ""
	eachStmt(ss, func(s ir.Stmt) {
		switch s := s.(type) {
		case *ir.ApplyTable:
			name = s.Table.Name
		case *ir.SwitchAction:
			name = s.Table.Name
		case *ir.If: // if (t.apply().hit), as the frontend leaves every hit test
			if h := ir.HitTest(s.Cond); h != nil {
				name = h.Table.Name
			}
		}
	})
	return name
}

// globalActions are the actions declared at the program's top level that
// control c uses (its tables list them, its code calls them), first to
// last: TNA's controls get a copy each, written before their own, since a
// top-level action could not read the control's intrinsic metadata its
// v1model calls become. NoAction is TNA's own.
func (e *emitter) globalActions(c *ir.Control, tables []*ir.Table) []*ir.Action {
	var used []*ir.Action
	var use func(a *ir.Action)
	calls := func(ss []ir.Stmt) {
		eachStmt(ss, func(s ir.Stmt) {
			if s, ok := s.(*ir.CallAction); ok {
				use(s.Call.Action)
			}
		})
	}
	use = func(a *ir.Action) {
		if a == nil || a.Name == "NoAction" || slices.Contains(used, a) || !slices.Contains(e.prog.Actions, a) || c.Action(a.Name) != nil {
			return
		}
		used = append(used, a)
		calls(a.Body) // an action may call another
	}
	for _, t := range tables {
		for _, r := range t.Actions {
			use(r.Action)
		}
		if t.Default != nil {
			use(t.Default.Action)
		}
		for _, en := range t.Entries {
			if en.Action != nil {
				use(en.Action.Action)
			}
		}
	}
	calls(c.Body)
	for _, a := range c.Actions {
		calls(a.Body)
	}
	// In the order declared: one may call another declared before it, and
	// the control's own actions may call any of them.
	slices.SortFunc(used, func(a, b *ir.Action) int {
		return slices.Index(e.prog.Actions, a) - slices.Index(e.prog.Actions, b)
	})
	return used
}

// controlHead writes a TNA control's signature (half is "ingress" or
// "egress", prefix its parameters' "ig" or "eg", last its last
// parameter's type suffix and name), then v1model's standard metadata
// and the control's locals.
func (e *emitter) controlHead(c *ir.Control, half, prefix, last string) {
	hdr, meta, std := c.Params[0], c.Params[1], c.Params[2]
	e.pr.Line("control %s(inout %s %s, inout %s %s, in %s_intrinsic_metadata_t %s_intr_md,", c.Name, hdr.Type, hdr.Name, meta.Type, meta.Name, half, prefix)
	e.pr.Line("        in %s_intrinsic_metadata_from_parser_t %s_prsr_md, inout %s_intrinsic_metadata_for_deparser_t %s_dprsr_md,", half, prefix, half, prefix)
	e.pr.Line("        inout %s_intrinsic_metadata_for_%s) {", half, last)
	e.pr.Indent(1)
	e.pr.Line("%s %s; // v1model's, for the program's own code", std.Type, std.Name)
	for _, v := range c.Locals {
		e.pr.Line("%s %s;", v.Type, v.Name)
	}
}

// printTables writes tables pinned to their stages, each followed by the
// tables of its actions' later stages.
func (e *emitter) printTables(tables []*ir.Table) {
	for _, t := range tables {
		if s, ok := e.stageOf[t]; ok {
			e.pr.Line("@stage(%d)", s)
		}
		e.pr.Table(t)
		for _, x := range e.extraTables[e.origOf[t]] {
			e.out.WriteString(x)
		}
	}
}

// controlTail writes the rest of an apply block whose first lines are
// written (at one indent more): body, then the epilogue; and closes the
// control.
func (e *emitter) controlTail(body []ir.Stmt) {
	e.pr.Indent(-1)
	e.pr.Stmts(body)
	e.pr.Stmts(e.epilogue)
	e.pr.Line("}")
	e.pr.Indent(-1)
	e.pr.Line("}")
	e.out.WriteString("\n")
}

// ingressEpilogue is what the ingress does last, and before an exit: the
// bridge filled in (when the egress reads it), v1model's egress_spec made
// the traffic manager's port, 511 dropping the packet.
func (e *emitter) ingressEpilogue(hdr, meta, std *ir.Var) []ir.Stmt {
	var out []ir.Stmt
	if e.bridge != nil {
		out = e.bridge.stores(hdr, meta, std)
	}
	return append(out, portAndDrop(std, e.mcast)...)
}

// register turns a v1model register into a TNA Register.
func (e *emitter) register(inst *ir.Instance) error {
	if inst.Type.Name != "register" || len(inst.Type.Args) == 0 {
		return errorAt(inst.Span, "extern %s %s: the Tofino backend writes v1model's registers, counters and meters (and Checksum16) only", inst.Type.Name, inst.Name)
	}
	size := "32w1"
	if len(inst.Args) > 0 {
		size = ir.Format(inst.Args[0])
	}
	// A narrower register is a 32-bit one: synthesis proves that what a
	// stateful ALU stores is the value the program's N bits hold, so its
	// cells only ever hold such values, as the pairs' halves do.
	elem := inst.Type.Args[0].String()
	if b, ok := inst.Type.Args[0].(*ir.Bits); ok && !b.Signed && b.Width <= 32 {
		elem = "bit<32>"
	}
	e.registerOf[inst.Name] = elem
	if pr, ok := e.pairs[inst.Name]; ok {
		if pr.lo == inst.Name { // declared once, for its low half
			e.decls = append(e.decls, fmt.Sprintf("    Register<p4hls_pair_t, %s>(%s) %s;\n", indexType(inst), size, pr.name()))
		}
		return nil
	}
	e.decls = append(e.decls, fmt.Sprintf("    Register<%s, %s>(%s) %s;\n", elem, indexType(inst), size, inst.Name))
	return nil
}

// pair is two registers a stateful ALU keeps as the halves of one
// register pair.
type pair struct{ lo, hi string }

// name is the pair Register's name, which the interpreter's register API
// reads as the two registers (interp's pairPrefix).
func (p pair) name() string { return "p4hls_pair__" + p.lo + "__" + p.hi }

// findPairs finds the registers that stateful ALUs update as pairs:
// each must be 32 bits, as large as its partner, and used by that ALU
// alone.
func (e *emitter) findPairs() error {
	users := map[string]int{}
	for _, g := range e.in.Graphs {
		for _, alu := range g.ALUs {
			var regs []*ir.Instance
			for _, c := range alu.State {
				if c.Register != nil {
					regs = append(regs, c.Register)
					users[c.Register.Name]++
				}
			}
			if len(regs) != 2 {
				continue
			}
			lo, hi := alu.State[0].Register, alu.State[1].Register
			if ir.Format(lo.Args[0]) != ir.Format(hi.Args[0]) || lo.Type.Args[0].String() != "bit<32>" || hi.Type.Args[0].String() != "bit<32>" {
				return errorAt(g.Action.Span, "action %s updates registers %s and %s as a pair; a Tofino register pair holds two 32-bit halves of one size", g.Action.Name, lo.Name, hi.Name)
			}
			p := pair{lo: lo.Name, hi: hi.Name}
			e.pairs[lo.Name], e.pairs[hi.Name] = p, p
		}
	}
	for name := range e.pairs {
		if users[name] > 1 {
			return fmt.Errorf("register %s is updated as one half of a pair and elsewhere too; the Tofino backend keeps a pair in one RegisterAction", name)
		}
	}
	return nil
}

// table returns a table to print: synthesized actions are replaced by
// their first stage's action (which keeps the name, so entries install as
// before), and the later stages get keyless tables of their own.
func (e *emitter) table(n *transform.Node) (*ir.Table, error) {
	t := *n.Table
	for _, k := range n.Table.Keys {
		if k.Match == "selector" {
			return nil, errorAt(n.Table.Span, "table %s: key %s is an action selector's; p4hls does not write TNA's ActionSelector for Tofino yet", n.Table.Name, ir.Format(k.Expr))
		}
	}
	// TNA has no optional match: an optional key (exact or anything) is a
	// ternary one whose entries are exact or wildcards.
	t.Keys = nil
	for _, k := range n.Table.Keys {
		kc := *k
		kc.Expr = unionValid(k.Expr)
		if kc.Match == ir.MatchOptional {
			kc.Match = ir.MatchTernary
		}
		t.Keys = append(t.Keys, &kc)
	}
	ts := e.stages[n.Table]
	if ts != nil && len(ts.match) > 0 {
		e.stageOf[&t] = ts.match[0]
	}
	e.origOf[&t] = n.Table
	variants := map[*ir.Action]*ir.Action{}
	for k, a := range n.Actions() {
		g := e.in.Graph(a.Name)
		if g == nil {
			continue
		}
		if e.synthesizedApplied[a.Name] {
			return nil, errorAt(n.Span, "action %s is applied by two tables (a call of it is a table too); it %s, and the Tofino backend places such an action, whose registers live in one stage's stateful ALUs, through one table", a.Name, synthesizedBecause(a))
		}
		e.synthesizedApplied[a.Name] = true
		v, err := e.synthesized(n.Table, a, g, ts.match, ts.alus[k])
		if err != nil {
			return nil, err
		}
		variants[a] = v
	}
	swap := func(a *ir.Action) *ir.Action {
		if v, ok := variants[a]; ok {
			return v
		}
		return a
	}
	t.Actions = nil
	for _, r := range n.Table.Actions {
		rc := *r
		rc.Action = swap(r.Action)
		t.Actions = append(t.Actions, &rc)
	}
	if d := n.Table.Default; d != nil && !impliedNoAction(n.Table) {
		dc := *d
		dc.Action = swap(d.Action)
		t.Default = &dc
	} else {
		t.Default = nil // P4's default: NoAction, which the table need not list
	}
	t.Entries = nil
	for _, en := range matchOrder(n.Table) {
		ec := *en
		call := *en.Action
		call.Action = swap(call.Action)
		ec.Action = &call
		t.Entries = append(t.Entries, &ec)
	}
	return &t, nil
}

// impliedNoAction reports whether a table's default action is the NoAction
// P4 gives a table without one, and the table does not list it: written
// out, the default would name an action the table does not have.
func impliedNoAction(t *ir.Table) bool {
	if t.Default == nil || t.Default.Action.Name != "NoAction" || t.DefaultConst {
		return false
	}
	return !slices.ContainsFunc(t.Actions, func(r *ir.ActionRef) bool { return r.Action == t.Default.Action })
}

// matchOrder returns a table's const entries in the order they are
// matched, which is how the TNA program writes them (p4c refuses
// priorities in const entries): the higher priority first, then, for an
// lpm key, the longer prefix, then the entry written first, as the
// interpreter ranks them.
func matchOrder(t *ir.Table) []*ir.Entry {
	lpm := slices.IndexFunc(t.Keys, func(k *ir.Key) bool { return k.Match == ir.MatchLPM })
	prefix := func(e *ir.Entry) int {
		if lpm < 0 || lpm >= len(e.Keys) {
			return 0
		}
		switch k := e.Keys[lpm]; k.Kind {
		case ir.KeysetMask:
			n := 0
			for _, w := range k.Mask.Bits() {
				n += bits.OnesCount(uint(w))
			}
			return n
		case ir.KeysetDefault:
			return 0
		}
		return ir.WidthBits(t.Keys[lpm].Expr.Type())
	}
	out := slices.Clone(t.Entries)
	slices.SortStableFunc(out, func(a, b *ir.Entry) int {
		if a.Priority != b.Priority {
			return b.Priority - a.Priority
		}
		return prefix(b) - prefix(a)
	})
	return out
}

// synthesized writes a synthesized action as one action per stage of its
// placement, and returns the first (named as the action, with its
// parameters).
func (e *emitter) synthesized(t *ir.Table, a *ir.Action, g *synth.Graph, match, aluStages []int) (*ir.Action, error) {
	if len(aluStages) != len(g.ALUs) || len(match) == 0 {
		return nil, errorAt(a.Span, "action %s: %d ALUs placed, %d synthesized", a.Name, len(aluStages), len(g.ALUs))
	}
	first := match[0]
	stages := sortedStages([]int{first}, aluStages)
	for _, s := range stages {
		if s < first {
			return nil, errorAt(a.Span, "action %s: an ALU in stage %d, before its table's match in stage %d", a.Name, s, first)
		}
	}
	ac := &actionCode{e: e, g: g, a: a, prefix: "p4hls_" + a.Name + "_", first: first}
	if err := ac.declare(); err != nil {
		return nil, err
	}
	last := stages[len(stages)-1]
	for _, s := range stages {
		body, err := ac.stage(s, aluStages, s == last, len(stages) > 1)
		if err != nil {
			return nil, err
		}
		name, params := a.Name, paramList(a)
		if s != first {
			name, params = fmt.Sprintf("%s__s%d", a.Name, s), ""
			tn := fmt.Sprintf("%s__%s", t.Name, name)
			e.extraTables[t] = append(e.extraTables[t], fmt.Sprintf(
				"    @stage(%d)\n    table %s {\n        actions = { %s; }\n        const default_action = %s();\n    }\n", s, tn, name, name))
			ac.followers = append(ac.followers, tn)
		}
		e.actions = append(e.actions, fmt.Sprintf("    action %s(%s) {\n%s    }\n", name, params, body))
	}
	if len(ac.followers) > 0 {
		e.followers[t] = append(e.followers[t], follower{run: ac.prefix + "run", tables: ac.followers})
	}
	return &ir.Action{Name: a.Name, Params: a.Params, Span: a.Span}, nil
}

func paramList(a *ir.Action) string {
	var ps []string
	for _, p := range a.Params {
		ps = append(ps, fmt.Sprintf("%s %s", p.Type, p.Name))
	}
	return strings.Join(ps, ", ")
}

// actionCode writes one synthesized action.
type actionCode struct {
	e         *emitter
	g         *synth.Graph
	a         *ir.Action
	prefix    string
	first     int
	followers []string
	hashWidth []int // per hash unit: its result's width (0: a constant)
}

// declare adds the action's locals (ALU outputs, packet inputs of
// stateful ALUs, its data for later stages, its run flag), hash units and
// register actions to the control.
func (ac *actionCode) declare() error {
	e, g, p := ac.e, ac.g, ac.prefix
	for u := range g.ALUs {
		e.locals = append(e.locals, fmt.Sprintf("bit<32> %salu%d;", p, u))
	}
	for i, d := range ac.a.Data() {
		e.locals = append(e.locals, fmt.Sprintf("%s %sd%d;", d.Type, p, i))
	}
	e.locals = append(e.locals, fmt.Sprintf("bit<1> %srun;", p))
	e.runFlags = append(e.runFlags, p+"run")
	for i, h := range g.Hashes {
		algo, ok := hashAlgorithms[h.Spec.Algo]
		max := h.Spec.Max
		w := bits.Len64(max) - 1
		switch {
		case !ok:
			return errorAt(ac.a.Span, "action %s: hash algorithm %s has no Tofino hash unit here", ac.a.Name, h.Spec.Algo)
		case h.Spec.Base != 0 || max == 0 || max&(max-1) != 0 || w > 32:
			return errorAt(ac.a.Span, "action %s: a hash with base %d and max %d; a Tofino hash unit computes base 0 and a power-of-2 max up to 2^32", ac.a.Name, h.Spec.Base, max)
		}
		ac.hashWidth = append(ac.hashWidth, w)
		if w == 0 {
			continue // hash mod 1 is 0
		}
		e.locals = append(e.locals, fmt.Sprintf("bit<%d> %shash%d;", w, p, i))
		e.decls = append(e.decls, fmt.Sprintf("    Hash<bit<%d>>(HashAlgorithm_t.%s) %sh%d;\n", w, algo, p, i))
	}
	for u, alu := range g.ALUs {
		if alu.Grammar.Kind != grammar.Stateful {
			continue
		}
		for j := range alu.Inputs {
			e.locals = append(e.locals, fmt.Sprintf("bit<32> %sin%d_%d;", p, u, j))
		}
		ra, err := ac.registerAction(u, alu)
		if err != nil {
			return err
		}
		e.decls = append(e.decls, ra)
	}
	return nil
}

// storage is where a stateful ALU's state lives: a Register (one
// register, or a pair), the cell index, and what each state variable is
// in the RegisterAction's value ("" for one the action does not use: it
// reads 0 and is not stored).
type storage struct {
	reg, valueType string
	index          synth.StateCell
	indexType      ir.Type
	halves         []string
}

func (ac *actionCode) storage(alu *synth.ALU) (storage, error) {
	var st storage
	var used []synth.StateCell
	for _, c := range alu.State {
		if c.Register != nil {
			used = append(used, c)
		}
	}
	switch len(used) {
	case 0:
		return st, errorAt(ac.a.Span, "action %s: a stateful ALU without a register", ac.a.Name)
	case 2:
		p := ac.e.pairs[used[0].Register.Name]
		if alu.State[0].Index != alu.State[1].Index || alu.State[0].IndexBits != alu.State[1].IndexBits {
			return st, errorAt(ac.a.Span, "action %s: a register pair addressed at two indexes", ac.a.Name)
		}
		st = storage{reg: p.name(), valueType: "p4hls_pair_t", index: used[0], indexType: indexType(used[0].Register), halves: []string{"value.lo", "value.hi"}}
		return st, nil
	}
	reg := used[0].Register
	if w := ac.e.registerOf[reg.Name]; w != "bit<32>" {
		return st, errorAt(reg.Span, "register %s holds %s; the Tofino backend writes registers of up to 32 bits, unsigned", reg.Name, w)
	}
	st = storage{reg: reg.Name, valueType: "bit<32>", index: used[0], indexType: indexType(reg)}
	for _, c := range alu.State {
		h := ""
		if c.Register != nil {
			h = "value"
		}
		st.halves = append(st.halves, h)
	}
	return st, nil
}

// registerAction writes the RegisterAction that is stateful ALU u.
func (ac *actionCode) registerAction(u int, alu *synth.ALU) (string, error) {
	st, err := ac.storage(alu)
	if err != nil {
		return "", err
	}
	if err := ac.countConstants(st.reg, alu); err != nil {
		return "", err
	}
	g := alu.Grammar
	pr := &aluPrinter{g: g, config: alu.Config, lets: map[string]string{}}
	var b strings.Builder
	for i := range g.States {
		old := st.halves[i]
		if old == "" {
			old = "32w0" // a state variable the action does not use reads 0
		}
		fmt.Fprintf(&b, "            bit<32> p4hls_old%d = %s;\n", i, old)
		pr.state = append(pr.state, fmt.Sprintf("p4hls_old%d", i))
		pr.newState = append(pr.newState, fmt.Sprintf("p4hls_new%d", i))
	}
	for i := range g.States {
		fmt.Fprintf(&b, "            bit<32> p4hls_new%d = p4hls_old%d;\n", i, i)
	}
	for j := range g.Packets {
		pr.packet = append(pr.packet, fmt.Sprintf("%sin%d_%d", ac.prefix, u, j))
	}
	pr.stmts(&b, g.Body, "            ", pr.newState)
	for i, h := range st.halves {
		if h != "" {
			fmt.Fprintf(&b, "            %s = p4hls_new%d;\n", h, i)
		}
	}
	fmt.Fprintf(&b, "            rv = %s;\n", pr.expr(g.Output))
	return fmt.Sprintf("    RegisterAction<%s, %s, bit<32>>(%s) %sra%d = {\n        void apply(inout %s value, out bit<32> rv) {\n%s        }\n    };\n",
		st.valueType, st.indexType, st.reg, ac.prefix, u, st.valueType, b.String()), nil
}

// saluConstants is how many constants outside its 4-bit immediates
// (-8..7) a Tofino stateful ALU holds: a register file of 4 words, shared
// by every RegisterAction of the register (ALUS.md §3.2).
const saluConstants = 4

// countConstants adds the constants an ALU's configuration uses (those
// whose value matters: the emitter prints the whole grammar) that no
// immediate holds to its register's, and refuses more than the stateful
// ALU holds.
func (ac *actionCode) countConstants(reg string, alu *synth.ALU) error {
	live, err := synth.LiveConstants(ac.e.ctx, alu.Grammar, alu.Config, 32)
	if err != nil {
		return err
	}
	wide := ac.e.wideConstants[reg]
	if wide == nil {
		wide = map[int32]bool{}
		ac.e.wideConstants[reg] = wide
	}
	for _, i := range live {
		v := int32(uint32(holeWord(alu.Grammar.Holes[i], alu.Config[i])))
		if v < -8 || v > 7 {
			wide[v] = true
		}
	}
	if len(wide) > saluConstants {
		var vs []string
		for _, v := range slices.Sorted(maps.Keys(wide)) {
			vs = append(vs, fmt.Sprint(v))
		}
		return errorAt(ac.a.Span, "action %s: register %s's stateful ALU needs %d constants outside -8..7 (%s); a Tofino stateful ALU holds %d",
			ac.a.Name, reg, len(wide), strings.Join(vs, ", "), saluConstants)
	}
	return nil
}

// operand is an ALU input (or a written value) as a 32-bit word in stage
// s.
func (ac *actionCode) operand(op synth.Operand, s int) (string, error) {
	switch op.Kind {
	case synth.FromALU:
		return fmt.Sprintf("%salu%d", ac.prefix, op.Index), nil
	case synth.FromConst:
		return word(op.Value), nil
	case synth.FromHash:
		if ac.hashWidth[op.Index] == 0 {
			return "32w0", nil
		}
		return fmt.Sprintf("((bit<32>) %shash%d)", ac.prefix, op.Index), nil
	}
	f, err := ac.field(ac.g.Fields[op.Index], s)
	if err != nil {
		return "", err
	}
	w := ir.WidthBits(ac.g.Fields[op.Index].Type())
	if w < 32 {
		return fmt.Sprintf("((bit<32>) %s)", f), nil
	}
	return f, nil
}

// controlLocal says whether v is a variable of the control being written
// (a local of the TNA control too, which its actions read and write as
// they do a field).
func (ac *actionCode) controlLocal(v *ir.Var) bool {
	c := ac.e.ingress
	if ac.e.egressWritten {
		c = ac.e.egress
	}
	return slices.Contains(c.Locals, v)
}

// field names a field the action reads in stage s: its data is a local
// after the first stage.
func (ac *actionCode) field(f ir.Expr, s int) (string, error) {
	if _, ok := f.Type().(*ir.Bits); !ok || ir.WidthBits(f.Type()) > 32 {
		return "", errorAt(f.Span(), "action %s: %s is not a field of at most 32 bits", ac.a.Name, ir.Format(f))
	}
	if v, ok := f.(*ir.VarRef); ok {
		for i, d := range ac.a.Data() {
			if d == v.Var {
				if s == ac.first {
					return d.Name, nil
				}
				return fmt.Sprintf("%sd%d", ac.prefix, i), nil
			}
		}
		if ac.controlLocal(v.Var) {
			return v.Var.Name, nil
		}
		return "", errorAt(f.Span(), "action %s: %s is neither a field nor the action's data", ac.a.Name, ir.Format(f))
	}
	return ir.Format(f), nil
}

// stage writes the body of the action's stage s: the first stage sets the
// run flag, keeps the data for later stages and computes the hashes; each
// ALU placed in s computes into its local; the fields its outputs go to
// are written at the end of the stage; copies and constants at the end of
// the last.
func (ac *actionCode) stage(s int, aluStages []int, last, multi bool) (string, error) {
	var b strings.Builder
	p, g := ac.prefix, ac.g
	if s == ac.first {
		if multi {
			fmt.Fprintf(&b, "        %srun = 1w1;\n", p)
			for i, d := range ac.a.Data() {
				fmt.Fprintf(&b, "        %sd%d = %s;\n", p, i, d.Name)
			}
		}
		for i, h := range g.Hashes {
			if ac.hashWidth[i] == 0 {
				continue
			}
			var data []string
			for _, d := range h.Data {
				f, err := ac.field(g.Fields[d.Index], s)
				if err != nil {
					return "", err
				}
				data = append(data, f)
			}
			fmt.Fprintf(&b, "        %shash%d = %sh%d.get({%s});\n", p, i, p, i, strings.Join(data, ", "))
		}
	}
	for u, alu := range g.ALUs {
		if aluStages[u] != s {
			continue
		}
		var ins []string
		for _, in := range alu.Inputs {
			x, err := ac.operand(in, s)
			if err != nil {
				return "", err
			}
			ins = append(ins, x)
		}
		if alu.Grammar.Kind == grammar.Stateful {
			for j, x := range ins {
				fmt.Fprintf(&b, "        %sin%d_%d = %s;\n", p, u, j, x)
			}
			st, err := ac.storage(alu)
			if err != nil {
				return "", err
			}
			idx, err := ac.operand(st.index.Index, s)
			if err != nil {
				return "", err
			}
			if st.index.IndexBits > 0 {
				idx = fmt.Sprintf("(%s & %s)", idx, word(1<<uint(st.index.IndexBits)-1))
			}
			fmt.Fprintf(&b, "        %salu%d = %sra%d.execute((%s) %s);\n", p, u, p, u, st.indexType, idx)
			continue
		}
		pr := &aluPrinter{g: alu.Grammar, config: alu.Config, packet: ins, lets: map[string]string{}}
		var lets strings.Builder
		pr.stmts(&lets, alu.Grammar.Body, "        ", nil)
		b.WriteString(lets.String())
		fmt.Fprintf(&b, "        %salu%d = %s;\n", p, u, pr.expr(alu.Grammar.Output))
	}
	for _, w := range g.Writes {
		fromHere := w.Value.Kind == synth.FromALU && aluStages[w.Value.Index] == s
		if !fromHere && !(last && w.Value.Kind != synth.FromALU) {
			continue
		}
		v, err := ac.operand(w.Value, s)
		if err != nil {
			return "", err
		}
		dst := g.Fields[w.Field]
		if r, ok := dst.(*ir.VarRef); ok && !ac.controlLocal(r.Var) {
			return "", errorAt(dst.Span(), "action %s writes its data %s", ac.a.Name, ir.Format(dst))
		}
		fmt.Fprintf(&b, "        %s = (%s) %s;\n", ir.Format(dst), dst.Type(), v)
	}
	return b.String(), nil
}

// followerStmts come after an application of t: when an action it ran
// spans stages, they apply the tables of the later stages.
func (e *emitter) followerStmts(t *ir.Table) []ir.Stmt {
	var out []ir.Stmt
	for _, f := range e.followers[t] {
		var then []ir.Stmt
		for _, name := range f.tables {
			then = append(then, &ir.ApplyTable{Table: &ir.Table{Name: name}})
		}
		cond := &ir.Binary{Op: ir.Eq, X: &ir.VarRef{Var: &ir.Var{Name: f.run, Type: &ir.Bits{Width: 1}}},
			Y: &ir.Const{T: &ir.Bits{Width: 1}, Value: big.NewInt(1)}, T: ir.Bool{}}
		out = append(out, &ir.If{Cond: cond, Then: then})
	}
	return out
}

// synthesizedBecause says why synthesis maps an action: it holds @atomic
// code, or it uses a register.
func synthesizedBecause(a *ir.Action) string {
	if r := ir.RegisterCall(a.Body); r != nil && !ir.AtomicIn(a.Body) {
		return "uses register " + r.Call.Callee.Recv.(*ir.InstanceRef).Inst.Name
	}
	return "holds @atomic code"
}

// follower is the later stages of a multi-stage action: its run flag and
// the tables, in stage order, that run them.
type follower struct {
	run    string
	tables []string
}

// specialOps says why v1model's resubmit, recirculation and clones are
// refused.
const specialOpsWhy = "TNA resubmits, mirrors and recirculates through its deparser's Resubmit and Mirror externs and a recirculation port, which p4hls does not map v1model's calls onto yet"

var specialOps = map[string]string{
	"clone":                             specialOpsWhy,
	"clone_preserving_field_list":       specialOpsWhy,
	"resubmit_preserving_field_list":    specialOpsWhy,
	"recirculate_preserving_field_list": specialOpsWhy,
}

// plainWriters write v1model's extern functions outside @atomic code; a
// log_msg has no Tofino counterpart and no effect on the packet: it goes.
var plainWriters = map[string]func(e *emitter, s *ir.CallStmt, where string) ([]ir.Stmt, error){
	"hash":    (*emitter).plainHash,
	"random":  (*emitter).plainRandom,
	"log_msg": func(*emitter, *ir.CallStmt, string) ([]ir.Stmt, error) { return nil, nil },
}

// stmts copies statements for the TNA program: mark_to_drop becomes
// egress_spec = 511, and a table whose actions span stages is followed
// by the tables of their later stages. in names the action the
// statements belong to ("" for the apply block).
func (e *emitter) stmts(ss []ir.Stmt, in string) ([]ir.Stmt, error) {
	var out []ir.Stmt
	where := "the apply block"
	if in != "" {
		where = "action " + in
	}
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.CallStmt:
			if s.Call.Callee.Func != nil { // the program's function, written as it is
				out = append(out, s)
				continue
			}
			if tna, ok := meterOrCounterCall(s); ok {
				if inst := s.Call.Callee.Recv.(*ir.InstanceRef).Inst; e.egressWritten && !slices.Contains(e.egress.Instances, inst) {
					return nil, errorAt(s.Span(), "%s: %s is declared outside the egress control; on Tofino the ingress and the egress cannot share it", where, inst.Name)
				}
				out = append(out, tna...)
				continue
			}
			if e.digest != nil && s == e.digest.call {
				out = append(out, e.digest.digestStmts(e.ingress.Params[1])...)
				continue
			}
			if w := plainWriters[s.Call.Callee.Extern]; w != nil {
				ss, err := w(e, s, where)
				if err != nil {
					return nil, err
				}
				out = append(out, ss...)
				continue
			}
			if r, ok := s.Call.Callee.Recv.(*ir.InstanceRef); ok && r.Inst.Type.Name == "register" {
				return nil, errorAt(s.Span(), "%s uses register %s outside an action: p4hls maps the register accesses of an action onto a stateful ALU; move %s into an action", where, r.Inst.Name, ir.Format(s.Call))
			}
			if reason := specialOps[s.Call.Callee.Extern]; reason != "" {
				return nil, errorAt(s.Span(), "%s: the Tofino backend does not write %s: %s", where, ir.Format(s.Call), reason)
			}
			if s.Call.Callee.Extern != "mark_to_drop" || len(s.Call.Args) != 1 {
				return nil, errorAt(s.Span(), "%s: the Tofino backend does not write %s outside @atomic code yet", where, ir.Format(s.Call))
			}
			out = append(out, markToDrop(s.Call.Args[0].Value, e.mcast)...)
		case *ir.CallAction:
			if e.in.Graph(s.Call.Action.Name) == nil {
				out = append(out, s)
				continue
			}
			t, ok := e.appliedAs[s.Span()] // the call's table (tableNodes)
			if !ok || in != "" {
				return nil, errorAt(s.Span(), "%s calls action %s, which synthesis maps onto ALUs; the Tofino backend places such an action through a table, or a call of it alone in an apply block", where, s.Call.Action.Name)
			}
			out = append(append(out, &ir.ApplyTable{Pos: s.Pos, Table: t}), e.followerStmts(t)...)
		case *ir.ApplyTable:
			c := *s
			c.Table = e.appliedTable(s.Span(), s.Table)
			out = append(append(out, &c), e.followerStmts(c.Table)...)
		case *ir.If:
			then, err := e.stmts(s.Then, in)
			if err != nil {
				return nil, err
			}
			els, err := e.stmts(s.Else, in)
			if err != nil {
				return nil, err
			}
			c := *s
			c.Cond, c.Then, c.Else = unionValid(s.Cond), then, els
			out = append(out, &c)
		case *ir.Block:
			body, err := e.stmts(s.Body, in)
			if err != nil {
				return nil, err
			}
			c := *s
			c.Body = body
			out = append(out, &c)
		case *ir.SwitchAction:
			c := *s
			c.Table = e.appliedTable(s.Span(), s.Table)
			if len(e.followers[c.Table]) > 0 {
				return nil, errorAt(s.Span(), "a switch on table %s's action, whose actions span stages: not written for Tofino yet", s.Table.Name)
			}
			c.Cases = nil
			for _, k := range s.Cases {
				body, err := e.stmts(k.Body, in)
				if err != nil {
					return nil, err
				}
				kc := *k
				kc.Body = body
				c.Cases = append(c.Cases, &kc)
			}
			out = append(out, &c)
		case *ir.Assign:
			if _, ok := checksum16Call(s); !ok {
				c := *s
				c.RHS = unionValid(s.RHS)
				out = append(out, &c)
			} else if !e.moved(s) {
				return nil, errorAt(s.Span(), "%s: %s: the Tofino backend computes a Checksum16 in the ingress deparser, from the ingress's last statement only", where, stmtWithoutSemicolon(s))
			} // else the ingress deparser computes it
		case *ir.Exit:
			// The control ends here: what it does last comes first.
			out = append(append(out, e.epilogue...), s)
		case *ir.Return:
			if in == "" { // the apply block's return ends the control too
				out = append(out, e.epilogue...)
			}
			out = append(out, s)
		case *ir.Declare:
			c := *s
			c.Init = unionValid(s.Init)
			out = append(out, &c)
		case *ir.For:
			if t := tableIn(s.Body); t != "" {
				return nil, errorAt(s.Span(), "%s applies table %s in a loop: a Tofino pipeline applies a table once per packet, in its stage", where, t)
			}
			out = append(out, s)
		default:
			out = append(out, s)
		}
	}
	return out, nil
}
