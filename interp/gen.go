package interp

import (
	"math/big"
	"math/rand"
	"slices"

	"github.com/p4hls/p4hls/ir"
)

// Generator makes random inputs for a program: packets that follow its
// parser, table entries, and register contents. Values come half the time
// from a small pool (0, 1, 2, 3, all ones) shared by packets and entries,
// so exact matches hit and conditions take both branches.
type Generator struct {
	prog   *ir.Program
	rng    *rand.Rand
	parser *ir.Parser
	// MaxPayload bounds the random payload after the parsed headers.
	MaxPayload int
}

// NewGenerator returns a generator for a v1model program.
func NewGenerator(prog *ir.Program, seed int64) *Generator {
	g := &Generator{prog: prog, rng: rand.New(rand.NewSource(seed)), MaxPayload: 16}
	if len(prog.Pipeline) > 0 {
		g.parser = prog.Pipeline[ir.V1Parser].Parser
	}
	return g
}

// value draws a w-bit value: from the pool half the time, else uniform.
func (g *Generator) value(w int) *big.Int {
	if w <= 0 {
		return new(big.Int)
	}
	all := new(big.Int).Sub(new(big.Int).Lsh(bigOne, uint(w)), bigOne)
	if g.rng.Intn(2) == 0 {
		switch g.rng.Intn(5) {
		case 4:
			return all
		default:
			return new(big.Int).And(big.NewInt(int64(g.rng.Intn(4))), all)
		}
	}
	return new(big.Int).Rand(g.rng, new(big.Int).Add(all, bigOne))
}

// extracted records where the walk placed a header in the packet.
type extracted struct {
	t      *ir.Struct
	offset int // in bits
}

// Packet returns a random packet that follows the parser: each extract
// appends the header's bits, and each select on an extracted field picks
// one of its cases at random and sets the field to match it. Selects on
// anything else follow whatever the random bits say.
func (g *Generator) Packet() []byte {
	var w packet
	headers := map[string]extracted{}
	stacks := map[string]int{}
	if g.parser == nil {
		return g.payload(nil)
	}
	state := g.parser.State("start")
	for steps := 0; state != nil && steps < 32; steps++ {
		for _, st := range state.Body {
			g.walkStmt(st, &w, headers, stacks)
		}
		next := state.Next
		if state.Select != nil {
			next = g.chooseCase(state.Select, &w, headers, stacks)
		}
		state = g.parser.State(next)
	}
	return g.payload(w.out)
}

func (g *Generator) payload(b []byte) []byte {
	n := g.rng.Intn(g.MaxPayload + 1)
	for i := 0; i < n; i++ {
		b = append(b, byte(g.rng.Intn(256)))
	}
	return b
}

// walkStmt appends the bits of extracts (in blocks and ifs of the state,
// taking the then branch).
func (g *Generator) walkStmt(st ir.Stmt, w *packet, headers map[string]extracted, stacks map[string]int) {
	switch st := st.(type) {
	case *ir.CallStmt:
		c := st.Call
		if c.Callee.Recv == nil || c.Callee.Method != "extract" || len(c.Args) != 1 {
			return
		}
		target := c.Args[0].Value
		var t *ir.Struct
		switch {
		case target != nil:
			t, _ = target.Type().(*ir.Struct)
		case len(c.Callee.TypeArgs) == 1: // extract<H>(_): bits of no header
			t, _ = c.Callee.TypeArgs[0].(*ir.Struct)
		}
		if t == nil {
			return
		}
		if target != nil {
			name := ir.Format(target)
			if op, ok := nextOf(target); ok {
				base := ir.Format(op.X)
				name = base + "[" + itoa(stacks[base]) + "]"
				if m, ok := target.(*ir.Member); ok { // a union's member
					name += "." + m.Name
				}
				stacks[base]++
			}
			headers[name] = extracted{t: t, offset: w.outBits}
		}
		for _, f := range t.Fields {
			fw := ir.WidthBits(f.Type)
			v := g.value(fw)
			w.writeBits(fromBig(v, &ir.Bits{Width: max(fw, 1)}), fw)
		}
	case *ir.Block:
		for _, s := range st.Body {
			g.walkStmt(s, w, headers, stacks)
		}
	case *ir.If:
		for _, s := range st.Then {
			g.walkStmt(s, w, headers, stacks)
		}
	}
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }

// chooseCase picks a case of a select at random and makes the packet's
// extracted fields match it; it returns the next state. Non-default cases
// are taken three times in four: they lead to the deeper states, where
// most of a program's logic is. A select without a default case is left
// to its random bits one time in eight.
func (g *Generator) chooseCase(sel *ir.Select, w *packet, headers map[string]extracted, stacks map[string]int) string {
	if len(sel.Cases) == 0 {
		return ir.StateReject
	}
	var specific []*ir.SelectCase
	for _, c := range sel.Cases {
		if !isDefaultCase(c) {
			specific = append(specific, c)
		}
	}
	if len(specific) == len(sel.Cases) && g.rng.Intn(8) == 0 {
		// Without a default case, leave the random bits now and then:
		// they most likely match no case, the parser's NoMatch.
		return ir.StateReject
	}
	c := sel.Cases[g.rng.Intn(len(sel.Cases))]
	if len(specific) > 0 && g.rng.Intn(4) != 0 {
		c = specific[g.rng.Intn(len(specific))]
	}
	for i, e := range sel.Exprs {
		if i >= len(c.Keys) {
			break
		}
		off, width, ok := fieldLocation(e, headers, stacks)
		if !ok {
			continue
		}
		var v *big.Int
		k := c.Keys[i]
		switch k.Kind {
		case ir.KeysetExact:
			v = k.Value
		case ir.KeysetMask:
			v = new(big.Int).Or(new(big.Int).And(k.Value, k.Mask), new(big.Int).AndNot(g.value(width), k.Mask))
		case ir.KeysetRange:
			span := new(big.Int).Sub(k.Hi, k.Value)
			v = new(big.Int).Add(k.Value, new(big.Int).Rand(g.rng, span.Add(span, bigOne)))
		default:
			continue // default and value sets: leave the random bits
		}
		overwrite(w.out, off, width, v)
	}
	return c.Next
}

func isDefaultCase(c *ir.SelectCase) bool {
	for _, k := range c.Keys {
		if k.Kind != ir.KeysetDefault {
			return false
		}
	}
	return true
}

// fieldLocation finds the bit offset and width of a select expression that
// is a field of an extracted header (hdr.ethernet.etherType, or a stack's
// last element's field).
func fieldLocation(e ir.Expr, headers map[string]extracted, stacks map[string]int) (int, int, bool) {
	m, ok := e.(*ir.Member)
	if !ok {
		return 0, 0, false
	}
	name := ir.Format(m.X)
	if op, ok := m.X.(*ir.StackOp); ok && op.Op == "last" {
		base := ir.Format(op.X)
		name = base + "[" + itoa(stacks[base]-1) + "]"
	}
	h, ok := headers[name]
	if !ok {
		return 0, 0, false
	}
	off := h.offset
	for _, f := range h.t.Fields {
		if f.Name == m.Name {
			return off, ir.WidthBits(f.Type), true
		}
		off += ir.WidthBits(f.Type)
	}
	return 0, 0, false
}

// overwrite sets bits [off, off+w) of data to v.
func overwrite(data []byte, off, w int, v *big.Int) {
	for i := 0; i < w; i++ {
		bit := off + i
		if bit/8 >= len(data) {
			return
		}
		mask := byte(1) << (7 - uint(bit%8))
		if v.Bit(w-1-i) == 1 {
			data[bit/8] |= mask
		} else {
			data[bit/8] &^= mask
		}
	}
}

// TableEntry is an entry for a named table.
type TableEntry struct {
	Table string
	Entry Entry
}

// Entries returns up to n random entries for each table of the program,
// with actions drawn from each table's list.
func (g *Generator) Entries(n int) []TableEntry {
	var out []TableEntry
	for _, c := range runningControls(g.prog) {
		for _, t := range c.Tables {
			if len(t.Keys) == 0 || len(t.Actions) == 0 {
				continue
			}
			// No more than the table holds: a target sizes its memory by
			// it (a one-entry table behind a key is one entry).
			for i := 0; i < n && (t.Size <= 0 || i < t.Size); i++ {
				out = append(out, TableEntry{Table: c.Name + "." + t.Name, Entry: g.entry(t)})
			}
		}
	}
	return out
}

func (g *Generator) entry(t *ir.Table) Entry {
	e := Entry{Priority: g.rng.Intn(100)}
	for _, k := range t.Keys {
		w := keyWidth(k.Expr.Type())
		m := Match{Kind: MatchExact, Value: g.value(w)}
		switch k.Match {
		case ir.MatchTernary:
			m = Match{Kind: MatchTernary, Value: g.value(w), Mask: g.value(w)}
		case ir.MatchLPM:
			n := g.rng.Intn(w + 1)
			m = Match{Kind: MatchLPM, Value: g.value(w), PrefixLen: n}
		case ir.MatchRange:
			lo, hi := g.value(w), g.value(w)
			if lo.Cmp(hi) > 0 {
				lo, hi = hi, lo
			}
			m = Match{Kind: MatchRange, Value: lo, Hi: hi}
		case ir.MatchOptional:
			if g.rng.Intn(2) == 0 {
				m = Match{Kind: MatchAny}
			}
		}
		e.Keys = append(e.Keys, m)
	}
	a := t.Actions[g.rng.Intn(len(t.Actions))].Action
	e.Action = a.Name
	for _, p := range a.Data() {
		e.Data = append(e.Data, g.value(max(ir.WidthBits(p.Type), 1)))
	}
	return e
}

// RegisterWrite sets one register cell.
type RegisterWrite struct {
	Register string
	Index    uint64
	Value    *big.Int
}

// Registers returns random contents for up to n cells of each register
// (the cells packets are likely to use: the lowest indexes).
func (g *Generator) Registers(n int) []RegisterWrite {
	var out []RegisterWrite
	visit := func(insts []*ir.Instance) {
		for _, inst := range insts {
			if inst.Type.Name != "register" || len(inst.Type.Args) == 0 {
				continue
			}
			size := uint64(1)
			if len(inst.Args) > 0 {
				if c, ok := inst.Args[0].(*ir.Const); ok {
					size = c.Value.Uint64()
				}
			}
			w := ir.WidthBits(inst.Type.Args[0])
			for i := uint64(0); i < size && i < uint64(n); i++ {
				out = append(out, RegisterWrite{Register: inst.Name, Index: i, Value: g.value(w)})
			}
		}
	}
	visit(g.prog.Instances)
	for _, c := range runningControls(g.prog) {
		visit(c.Instances)
	}
	return out
}

// runningControls are the controls packets run through: the main
// package's. A sub-control is inlined where it is applied, its tables and
// externs copied under the instance's names; its declaration, kept for
// tools, runs nowhere, and a target's output need not hold it. A program
// without a main package has only its controls.
func runningControls(prog *ir.Program) []*ir.Control {
	var out []*ir.Control
	for _, b := range prog.Pipeline {
		if b.Control != nil && !slices.Contains(out, b.Control) {
			out = append(out, b.Control)
		}
	}
	if len(prog.Pipeline) == 0 {
		return prog.Controls
	}
	return out
}
