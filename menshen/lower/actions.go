package lower

import (
	"fmt"
	"math/big"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// Actions. A synthesized action's ALUs run in the stages allocation gave
// them, each in the container slot its output goes to: the field it
// writes, or a free container that later stages read. A plain action's
// primitives run in one stage, each as one sub-action.

// step is what an action does in one stage: sub-actions by container,
// and the metadata ALU's port or discard.
type step struct {
	stage   int
	slots   map[int]sub
	port    *imm
	discard bool
}

// sub is a sub-action whose immediate may come from the entry's action
// data.
type sub struct {
	menshen.SubAction
	data *imm
}

// imm is an immediate: a constant, or the entry's action data parameter
// param, shifted right by rshift (the bytes a container of a wide field
// holds), then left by shift (a narrow field's place in its container).
type imm struct {
	konst         *big.Int
	param         int
	rshift, shift int
}

// value is the immediate for an entry's action data (not truncated).
func (im *imm) value(data []*big.Int) (uint64, error) {
	v := im.konst
	if v == nil {
		if im.param >= len(data) {
			return 0, fmt.Errorf("action data %d missing", im.param)
		}
		v = data[im.param]
	}
	return new(big.Int).Rsh(v, uint(im.rshift)).Uint64() << uint(im.shift), nil
}

// portXor renumbers ports: the RTL's default output port is 4 (§A.4),
// which p4hls presents as v1model's default egress port 0.
const portXor = 4

// dropPort is v1model's egress_spec that drops.
const dropPort = 511

// word is the step's action word for an entry's action data.
func (st step) word(data []*big.Int) (menshen.Action, error) {
	a := menshen.Action{Slots: map[int]menshen.SubAction{}, Discard: st.discard}
	for c, s := range st.slots {
		sa := s.SubAction
		if s.data != nil {
			v, err := s.data.value(data)
			if err != nil {
				return a, err
			}
			sa.Imm = uint32(v)
		}
		a.Slots[c] = sa
	}
	if st.port != nil {
		v, err := st.port.value(data)
		if err != nil {
			return a, err
		}
		switch {
		case v == dropPort:
			a.Discard = true
		case v > 255:
			return a, fmt.Errorf("egress port %d: Menshen's ports are 8 bits", v)
		default:
			p := uint8(v) ^ portXor
			a.Port = &p
		}
	}
	return a, nil
}

// action lowers one action for a table part matched in stages; alus is
// the stage of each of its ALUs (allocation's numbering).
func (l *lowering) action(a *ir.Action, stages []int, alus []int) ([]step, error) {
	steps := make([]step, len(stages))
	for i := range steps {
		steps[i].slots, steps[i].stage = map[int]sub{}, stages[i]
	}
	at := func(s int) (*step, error) {
		for i, x := range stages {
			if x == s {
				return &steps[i], nil
			}
		}
		return nil, errorAt(a.Span, "%s: allocation put an ALU in stage %d, where its table does not match", what(a), s)
	}
	if g := l.in.Graph(a.Name); g != nil {
		return steps, l.graph(g, alus, stages[0], at)
	}
	s := stages[0]
	if len(alus) > 0 {
		s = alus[0]
	}
	st, err := at(s)
	if err != nil {
		return nil, err
	}
	return steps, l.plain(a, a.Body, st, map[string]bool{})
}

// put adds a sub-action for container c to a step.
func put(st *step, c int, s sub, where ir.Expr) error {
	if _, dup := st.slots[c]; dup {
		return errorAt(where.Span(), "two writes to the container of %s in one stage", ir.Format(where))
	}
	st.slots[c] = s
	return nil
}

// graph lowers a synthesized action.
func (l *lowering) graph(g *synth.Graph, alus []int, first int, at func(int) (*step, error)) error {
	if len(alus) != len(g.ALUs) {
		return fmt.Errorf("%s: %d ALUs placed, %d synthesized", what(g.Action), len(alus), len(g.ALUs))
	}
	slot := make([]int, len(g.ALUs))
	written := map[int]int{} // field -> the ALU whose slot is its container
	live := liveALUs(g)
	for u := range g.ALUs {
		slot[u] = -1
		if !live[u] {
			continue
		}
		for _, w := range g.Writes {
			if w.Value.Kind == synth.FromALU && w.Value.Index == u && slot[u] < 0 {
				c, err := l.wordField(g, w.Field)
				if err != nil {
					return err
				}
				slot[u], written[w.Field] = c, u
			}
		}
		if slot[u] < 0 {
			c, err := l.cs.alloc()
			if err != nil {
				return errorAt(g.Action.Span, "%s: %v", what(g.Action), err)
			}
			slot[u] = c
			l.cs.notes[c] = fmt.Sprintf("a temporary of action %s", g.Action.Name)
		}
	}
	last := first
	for u, alu := range g.ALUs {
		if !live[u] {
			continue
		}
		st, err := at(alus[u])
		if err != nil {
			return err
		}
		last = max(last, alus[u])
		s, err := l.alu(g, alu, slot, slot[u], alus[u])
		if err != nil {
			return err
		}
		if _, dup := st.slots[slot[u]]; dup {
			return errorAt(g.Action.Span, "%s: two ALUs write container %d in stage %d", what(g.Action), slot[u], alus[u])
		}
		st.slots[slot[u]] = s
	}
	// Copies and constants land in the action's last stage, reading what
	// that stage reads: a field an ALU writes in that stage would be read
	// too early.
	st, err := at(last)
	if err != nil {
		return err
	}
	for _, w := range g.Writes {
		if w.Value.Kind == synth.FromALU {
			continue
		}
		if err := l.graphWrite(g, w, st, written, alus, last); err != nil {
			return err
		}
	}
	return nil
}

// liveALUs marks the ALUs whose outputs reach a field. The others only
// compute register addresses, which a one-cell register ignores.
func liveALUs(g *synth.Graph) []bool {
	live := make([]bool, len(g.ALUs))
	var mark func(u int)
	mark = func(u int) {
		if live[u] {
			return
		}
		live[u] = true
		for _, in := range g.ALUs[u].Inputs {
			if in.Kind == synth.FromALU {
				mark(in.Index)
			}
		}
	}
	for _, w := range g.Writes {
		if w.Value.Kind == synth.FromALU {
			mark(w.Value.Index)
		}
	}
	for u, a := range g.ALUs {
		if len(a.State) > 0 {
			mark(u) // it updates state, whether or not its output is used
		}
	}
	return live
}

// wordField returns the container of a 32-bit field an ALU writes.
func (l *lowering) wordField(g *synth.Graph, f int) (int, error) {
	e := g.Fields[f]
	if isParam(g.Action, e) {
		return 0, errorAt(e.Span(), "%s writes its own data %s", what(g.Action), ir.Format(e))
	}
	if _, ok := stdField(e); ok {
		return 0, errorAt(e.Span(), "%s sets %s in @atomic code; on Menshen set it in a plain action", what(g.Action), ir.Format(e))
	}
	p, err := l.word32(g, e, "computes")
	if err != nil {
		return 0, err
	}
	l.cs.written[p.field] = true
	return p.chunks[0].container, nil
}

// word32 places a field an ALU computes or reads (verb), which must be
// 32 bits wide.
func (l *lowering) word32(g *synth.Graph, e ir.Expr, verb string) (*place, error) {
	p, err := l.cs.place(e)
	if err != nil {
		return nil, err
	}
	if p.width != 32 {
		return nil, errorAt(e.Span(), "%s %s %s (%d bits) with ALUs; Menshen's ALUs compute on whole 32-bit containers", what(g.Action), verb, ir.Format(e), p.width)
	}
	return p, nil
}

// graphWrite lowers a write of a constant, action data or a field.
func (l *lowering) graphWrite(g *synth.Graph, w synth.Write, st *step, written map[int]int, alus []int, last int) error {
	dst := g.Fields[w.Field]
	c, err := l.wordField(g, w.Field)
	if err != nil {
		return err
	}
	s := sub{SubAction: menshen.SubAction{Opcode: 0x0E, A: c}}
	switch w.Value.Kind {
	case synth.FromConst:
		s.Imm = uint32(w.Value.Value)
	case synth.FromField:
		src := g.Fields[w.Value.Index]
		if i := paramIndex(g.Action, src); i >= 0 {
			s.data = &imm{param: i}
			break
		}
		if u, ok := written[w.Value.Index]; ok && alus[u] == last {
			return errorAt(dst.Span(), "%s copies %s in the stage that computes it; Menshen would copy the old value", what(g.Action), ir.Format(src))
		}
		a, err := l.operandField(g, src)
		if err != nil {
			return err
		}
		s.SubAction = menshen.SubAction{Opcode: 0x09, A: a}
	default:
		return errorAt(dst.Span(), "%s writes %s from a hash unit; Menshen has none", what(g.Action), ir.Format(dst))
	}
	return put(st, c, s, dst)
}

// operandField is the container an ALU reads a field from.
func (l *lowering) operandField(g *synth.Graph, e ir.Expr) (int, error) {
	if isParam(g.Action, e) {
		return 0, errorAt(e.Span(), "%s computes with its data %s; Menshen's ALUs read containers, and action data is an immediate", what(g.Action), ir.Format(e))
	}
	p, err := l.word32(g, e, "reads")
	if err != nil {
		return 0, err
	}
	return p.chunks[0].container, nil
}

// alu lowers one configured ALU sitting in container slot self of stage.
func (l *lowering) alu(g *synth.Graph, a *synth.ALU, slot []int, self, stage int) (sub, error) {
	operand := func(i int) (int, error) {
		op := a.Inputs[i]
		switch op.Kind {
		case synth.FromField:
			return l.operandField(g, g.Fields[op.Index])
		case synth.FromALU:
			return slot[op.Index], nil
		}
		if op.Kind == synth.FromConst {
			return 0, errorAt(g.Action.Span, "%s: an ALU takes the constant %d as an input; Menshen's ALUs read containers, and the stateful if-else's own constants are 6 bits (0 to 63)",
				what(g.Action), op.Value)
		}
		return 0, errorAt(g.Action.Span, "%s: an ALU reads a hash unit's result; Menshen has no hash units", what(g.Action))
	}
	reads := map[int]bool{}
	var s sub
	switch a.Grammar.Kind {
	case grammar.Stateless:
		op, err := statelessOp(a)
		if err != nil {
			return s, err
		}
		op = foldConstants(a, op)
		s.SubAction = menshen.SubAction{Opcode: op.code, A: self, Imm: op.imm}
		for _, i := range op.reads {
			reads[i] = true
		}
	default:
		w, ps, err := ifElseWord(a, constSelects(a))
		if err != nil {
			return s, err
		}
		s.SubAction = menshen.SubAction{Opcode: 0x0C, A: self, C: self, Imm: w}
		for _, i := range ps {
			reads[i] = true
		}
		if err := l.state(g, a, Cell{Stage: stage, Container: self}); err != nil {
			return s, err
		}
	}
	set := map[int]*int{0: &s.A, 1: &s.B, 2: &s.C}
	if a.Grammar.Kind == grammar.Stateful {
		set = map[int]*int{0: &s.A, 1: &s.C} // P1 is container A, P2 container C (§A.12)
	}
	for i := range reads {
		c, err := operand(i)
		if err != nil {
			return s, err
		}
		*set[i] = c
	}
	return s, nil
}

// state records where a stateful ALU keeps its register.
func (l *lowering) state(g *synth.Graph, a *synth.ALU, at Cell) error {
	for _, c := range a.State {
		if c.Register == nil {
			continue
		}
		if len(a.State) > 1 {
			return errorAt(g.Action.Span, "%s: an ALU with %d registers; Menshen's holds one", what(g.Action), len(a.State))
		}
		if prev, ok := l.registers[c.Register.Name]; ok && prev != at {
			return errorAt(c.Register.Span, "register %s is updated in two places (stage %d container %d, stage %d container %d); Menshen keeps it in one ALU",
				c.Register.Name, prev.Stage, prev.Container, at.Stage, at.Container)
		}
		l.registers[c.Register.Name] = at
	}
	return nil
}

// statelessCode is a stateless sub-action: opcode, immediate, and which
// inputs (A, B, C) it reads.
type statelessCode struct {
	code  uint8
	imm   uint32
	reads []int
}

// opReads lists the inputs each stateless opcode reads (§A.11).
var opReads = map[uint8][]int{
	0x01: {0, 1}, 0x02: {0, 1}, 0x09: {0}, 0x0A: {0}, 0x0E: nil,
	0x04: {0, 1}, 0x05: {0}, 0x06: {0, 1}, 0x17: {0}, 0x18: {0, 1}, 0x1B: {0},
	0x1C: {0, 1}, 0x1D: {0}, 0x10: {0, 1, 2}, 0x11: {0, 1},
	0x12: {0, 1}, 0x13: {0, 1}, 0x14: {0},
}

// statelessOp reads a stateless ALU's configuration: the choice hole's
// label is the opcode, hole i the immediate.
func statelessOp(a *synth.ALU) (statelessCode, error) {
	var out statelessCode
	found := false
	for h, hole := range a.Grammar.Holes {
		switch {
		case hole.Name == "i":
			out.imm = uint32(a.Config[h])
		case hole.Kind == grammar.HoleChoice:
			alt := min(int(a.Config[h]), hole.Alternatives-1)
			if lb := hole.Labels[alt]; lb != nil {
				out.code, found = uint8(*lb), true
			}
		}
	}
	reads, ok := opReads[out.code]
	if !found || !ok {
		return out, fmt.Errorf("grammar %s: configuration %v has no Menshen opcode", a.Grammar.Name, a.Config)
	}
	out.reads = reads
	return out, nil
}

// ifElseWord packs the stateful if-else's holes (in the grammar's order:
// o1 K1 k1 rho, o2 K2 k2, o3 K3 k3, q) into its 32-bit configuration
// word (§A.12), and lists the inputs it reads.
func ifElseWord(a *synth.ALU, c grammar.Config) (uint32, []int, error) {
	if a.Grammar.Name != "if_else" || len(c) != 11 {
		return 0, nil, fmt.Errorf("stateful ALU %s: Menshen runs if_else", a.Grammar.Name)
	}
	k := func(i int) uint32 { return uint32(c[i]) }
	sel := func(i int) uint32 { return min(k(i), 2) }
	// The holes in order: 0 o1, 1 K1, 2 k1, 3 rho, 4 o2, 5 K2, 6 k2, 7 o3,
	// 8 K3, 9 k3, 10 q.
	w := k(1)&63<<26 | k(5)&63<<20 | k(8)&63<<14 |
		k(0)&1<<13 | sel(2)<<11 |
		k(4)&1<<10 | sel(6)<<8 |
		k(7)&1<<7 | sel(9)<<5 |
		k(3)&3<<3 | k(10)&1
	var reads []int
	for _, s := range []int{2, 6, 9} {
		if sel(s) < 2 {
			reads = append(reads, int(sel(s)))
		}
	}
	return w, reads, nil
}

// Constant inputs. Synthesis may wire a constant to an input where an
// immediate would do; a Menshen ALU reads only containers, so such an
// input becomes the immediate.

// foldConstants rewrites a stateless sub-action that reads constant
// inputs: into its immediate form when B (or C of 0x10) is constant, into
// 0x0E of its value when every input it reads is.
func foldConstants(a *synth.ALU, op statelessCode) statelessCode {
	isConst := func(i int) bool { return a.Inputs[i].Kind == synth.FromConst }
	allConst := true
	for _, i := range op.reads {
		allConst = allConst && isConst(i)
	}
	immForm := map[uint8]uint8{0x01: 0x09, 0x02: 0x0A, 0x04: 0x05, 0x06: 0x17, 0x18: 0x1B, 0x1C: 0x1D}
	switch {
	case len(op.reads) > 0 && allConst:
		in := make([]uint64, len(a.Inputs))
		for i, x := range a.Inputs {
			in[i] = x.Value
		}
		v := a.Grammar.Eval(a.Config, nil, in, 32).Output
		return statelessCode{code: 0x0E, imm: uint32(v)}
	case len(op.reads) == 2 && isConst(1) && !isConst(0) && immForm[op.code] != 0:
		return statelessCode{code: immForm[op.code], imm: uint32(a.Inputs[1].Value), reads: []int{0}}
	case op.code == 0x10 && isConst(2) && !isConst(0) && !isConst(1):
		return statelessCode{code: 0x11, imm: uint32(a.Inputs[2].Value), reads: []int{0, 1}}
	}
	return op
}

// constSelects returns an if-else configuration in which a selector that
// picks a constant input of at most 6 bits picks its constant hole instead
// (the holes in order: o1 K1 k1 rho, o2 K2 k2, o3 K3 k3, q).
func constSelects(a *synth.ALU) grammar.Config {
	c := append(grammar.Config(nil), a.Config...)
	if len(c) != 11 {
		return c
	}
	for _, sel := range []int{2, 6, 9} {
		if i := int(c[sel]); i < 2 && i < len(a.Inputs) && a.Inputs[i].Kind == synth.FromConst && a.Inputs[i].Value < 64 {
			c[sel], c[sel-1] = 2, a.Inputs[i].Value
		}
	}
	return c
}

// isParam reports whether e is the action's data.
func isParam(a *ir.Action, e ir.Expr) bool { return paramIndex(a, e) >= 0 }

// paramIndex is e's index among the action's data, or -1.
func paramIndex(a *ir.Action, e ir.Expr) int {
	v, ok := e.(*ir.VarRef)
	if !ok {
		return -1
	}
	for i, p := range a.Data() {
		if p == v.Var {
			return i
		}
	}
	return -1
}
