package interp

import (
	"bytes"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/p4hls/p4hls/ir"
)

// Target is one implementation of a program: the interpreter, or a
// backend's model of what it emitted. Differential tests feed two targets
// the same state and packets and compare everything observable.
type Target interface {
	AddEntry(table string, e Entry) error
	RegisterWrite(name string, index uint64, v *big.Int) error
	RegisterRead(name string, index uint64) (*big.Int, error)
	Process(port uint64, data []byte) (*Output, error)
}

// PacketIn is a packet and the port it arrives on.
type PacketIn struct {
	Port uint64
	Data []byte
}

// Case is the input of a differential test.
type Case struct {
	Entries   []TableEntry
	Registers []RegisterWrite
	Packets   []PacketIn
}

// Case returns a random case: entries for every table, register contents,
// and packets on ports 0 to 3. When the program states preconditions
// (assume, assert), its packets meet them, each in the state the packets
// before it left.
func (g *Generator) Case(packets, entriesPerTable, registerCells int) *Case {
	c := &Case{Entries: g.Entries(entriesPerTable), Registers: g.Registers(registerCells)}
	keep := g.meetsPreconditions(c)
	for i := 0; i < packets; i++ {
		p := PacketIn{Port: uint64(g.rng.Intn(4)), Data: g.Packet()}
		for draws := 1; keep != nil && !keep(p); draws++ {
			if draws == maxDraws {
				return c // the state admits almost no packet: a shorter case
			}
			p = PacketIn{Port: uint64(g.rng.Intn(4)), Data: g.Packet()}
		}
		c.Packets = append(c.Packets, p)
	}
	return c
}

// RegisterCell names one cell of a register to compare after a run.
type RegisterCell struct {
	Register string
	Index    uint64
}

// RegisterCells lists every cell of every register of a program.
func RegisterCells(prog *ir.Program) []RegisterCell {
	var out []RegisterCell
	visit := func(insts []*ir.Instance) {
		for _, inst := range insts {
			if inst.Type.Name != "register" || len(inst.Args) == 0 {
				continue
			}
			if c, ok := inst.Args[0].(*ir.Const); ok {
				for i := uint64(0); i < c.Value.Uint64(); i++ {
					out = append(out, RegisterCell{Register: inst.Name, Index: i})
				}
			}
		}
	}
	visit(prog.Instances)
	for _, c := range runningControls(prog) {
		visit(c.Instances)
	}
	return out
}

// Divergence is where two targets disagreed, on a minimized case.
type Divergence struct {
	Case *Case
	// Packet is the index of the first packet whose outputs differ, or -1
	// when only the registers differ after the last packet.
	Packet int
	A, B   *Output
	What   string
}

func (d *Divergence) Error() string {
	if d.Packet < 0 {
		return fmt.Sprintf("after %d packets: %s", len(d.Case.Packets), d.What)
	}
	return fmt.Sprintf("packet %d of %d: %s", d.Packet+1, len(d.Case.Packets), d.What)
}

// Diff runs the case on a fresh A and a fresh B and returns the first
// divergence, minimized (fewer packets, entries and register writes that
// still diverge), or nil when they agree. The error reports a target that
// could not be built or refused the case's state.
func Diff(newA, newB func() (Target, error), c *Case, cells []RegisterCell) (*Divergence, error) {
	d, err := runBoth(newA, newB, c, cells)
	if err != nil || d == nil {
		return nil, err
	}
	return minimize(newA, newB, d, cells), nil
}

// runBoth runs the case on fresh targets and reports where they first
// disagree.
func runBoth(newA, newB func() (Target, error), c *Case, cells []RegisterCell) (*Divergence, error) {
	a, err := prepare(newA, c)
	if err != nil {
		return nil, fmt.Errorf("target A: %w", err)
	}
	b, err := prepare(newB, c)
	if err != nil {
		return nil, fmt.Errorf("target B: %w", err)
	}
	for i, p := range c.Packets {
		outA, errA := a.Process(p.Port, p.Data)
		outB, errB := b.Process(p.Port, p.Data)
		if (errA != nil) != (errB != nil) {
			return &Divergence{Case: c, Packet: i, A: outA, B: outB, What: fmt.Sprintf("errors differ: %v / %v", errA, errB)}, nil
		}
		if what := outputsDiffer(outA, outB); what != "" {
			return &Divergence{Case: c, Packet: i, A: outA, B: outB, What: what}, nil
		}
	}
	for _, cell := range cells {
		va, errA := a.RegisterRead(cell.Register, cell.Index)
		vb, errB := b.RegisterRead(cell.Register, cell.Index)
		if errA != nil || errB != nil {
			return nil, fmt.Errorf("reading register %s[%d]: %v, %v", cell.Register, cell.Index, errA, errB)
		}
		if va.Cmp(vb) != 0 {
			return &Divergence{Case: c, Packet: -1,
				What: fmt.Sprintf("register %s[%d]: A has 0x%s, B has 0x%s", cell.Register, cell.Index, va.Text(16), vb.Text(16))}, nil
		}
	}
	return nil, nil
}

func prepare(newT func() (Target, error), c *Case) (Target, error) {
	t, err := newT()
	if err != nil {
		return nil, err
	}
	for _, e := range c.Entries {
		if err := t.AddEntry(e.Table, e.Entry); err != nil {
			return nil, err
		}
	}
	for _, r := range c.Registers {
		if err := t.RegisterWrite(r.Register, r.Index, r.Value); err != nil {
			return nil, err
		}
	}
	return t, nil
}

func outputsDiffer(a, b *Output) string {
	switch {
	case a == nil || b == nil:
		if a != b {
			return "one target produced no result"
		}
		return ""
	case !slices.EqualFunc(a.Digests, b.Digests, func(x, y Digest) bool { return x.Receiver == y.Receiver && bytes.Equal(x.Data, y.Data) }):
		return fmt.Sprintf("digests: A sent %s, B %s", digestsText(a.Digests), digestsText(b.Digests))
	case a.Dropped != b.Dropped:
		return fmt.Sprintf("A dropped: %v, B dropped: %v", a.Dropped, b.Dropped)
	case a.Dropped:
		return ""
	case a.Port != b.Port:
		return fmt.Sprintf("port: A %d, B %d", a.Port, b.Port)
	case !bytes.Equal(a.Data, b.Data):
		for i := 0; i < min(len(a.Data), len(b.Data)); i++ {
			if a.Data[i] != b.Data[i] {
				return fmt.Sprintf("byte %d: A 0x%02x, B 0x%02x (%s)", i, a.Data[i], b.Data[i], describeBit(a, b.Data, i*8))
			}
		}
		return fmt.Sprintf("length: A %d bytes, B %d", len(a.Data), len(b.Data))
	case len(a.Copies) != len(b.Copies):
		return fmt.Sprintf("multicast copies: A made %d, B %d", len(a.Copies)+1, len(b.Copies)+1)
	}
	for i := range a.Copies {
		if what := outputsDiffer(a.Copies[i], b.Copies[i]); what != "" {
			return fmt.Sprintf("multicast copy %d: %s", i+2, what)
		}
	}
	return ""
}

func digestsText(ds []Digest) string {
	if len(ds) == 0 {
		return "none"
	}
	var parts []string
	for _, d := range ds {
		parts = append(parts, fmt.Sprintf("%d:%x", d.Receiver, d.Data))
	}
	return strings.Join(parts, ", ")
}

// maxMinimizeRuns bounds how many reruns minimization spends.
const maxMinimizeRuns = 400

// minimize shrinks a diverging case: it drops packets after the first
// divergence, then tries removing each packet, entry and register write,
// keeping each removal that still diverges, and repeats the passes until
// none removes anything (a removal can become possible only after another:
// an entry shadowing one removed later).
func minimize(newA, newB func() (Target, error), d *Divergence, cells []RegisterCell) *Divergence {
	runs := 0
	try := func(c *Case) *Divergence {
		if runs >= maxMinimizeRuns {
			return nil
		}
		runs++
		nd, err := runBoth(newA, newB, c, cells)
		if err != nil {
			return nil
		}
		return nd
	}
	best := d
	if best.Packet >= 0 {
		c := *best.Case
		c.Packets = c.Packets[:best.Packet+1]
		if nd := try(&c); nd != nil {
			best = nd
		}
	}
	shrink := func(n func(*Case) int, without func(*Case, int) *Case) bool {
		removed := false
		for i := n(best.Case) - 1; i >= 0; i-- {
			if nd := try(without(best.Case, i)); nd != nil {
				best, removed = nd, true
			}
		}
		return removed
	}
	for changed := true; changed && runs < maxMinimizeRuns; {
		changed = shrink(func(c *Case) int { return len(c.Packets) }, func(c *Case, i int) *Case {
			nc := *c
			nc.Packets = append(append([]PacketIn(nil), c.Packets[:i]...), c.Packets[i+1:]...)
			return &nc
		})
		changed = shrink(func(c *Case) int { return len(c.Entries) }, func(c *Case, i int) *Case {
			nc := *c
			nc.Entries = append(append([]TableEntry(nil), c.Entries[:i]...), c.Entries[i+1:]...)
			return &nc
		}) || changed
		changed = shrink(func(c *Case) int { return len(c.Registers) }, func(c *Case, i int) *Case {
			nc := *c
			nc.Registers = append(append([]RegisterWrite(nil), c.Registers[:i]...), c.Registers[i+1:]...)
			return &nc
		}) || changed
	}
	return best
}

// STF writes the case as a packet test that reproduces it, with the
// expectation target A met (A is the reference).
func (d *Divergence) STF(prog *ir.Program) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s\n", d.Error())
	for _, e := range d.Case.Entries {
		b.WriteString(entrySTF(prog, e))
	}
	for _, r := range d.Case.Registers {
		fmt.Fprintf(&b, "register_write %s %d 0x%s\n", r.Register, r.Index, r.Value.Text(16))
	}
	for i, p := range d.Case.Packets {
		fmt.Fprintf(&b, "packet %d %x\n", p.Port, p.Data)
		if i == d.Packet && d.A != nil {
			if d.A.Dropped {
				b.WriteString("expect drop\n")
			} else {
				fmt.Fprintf(&b, "expect %d %x\n", d.A.Port, d.A.Data)
			}
		}
	}
	return b.String()
}

func entrySTF(prog *ir.Program, te TableEntry) string {
	var t *ir.Table
	for _, c := range prog.Controls {
		for _, x := range c.Tables {
			if c.Name+"."+x.Name == te.Table || x.Name == te.Table {
				t = x
			}
		}
	}
	if t == nil {
		return "# unknown table " + te.Table + "\n"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "add %s %d", te.Table, te.Entry.Priority)
	for i, m := range te.Entry.Keys {
		fmt.Fprintf(&b, " %s:%s", t.Keys[i].Name, matchSTF(m))
	}
	var args []string
	var action *ir.Action
	for _, ar := range t.Actions {
		if ar.Action.Name == te.Entry.Action {
			action = ar.Action
		}
	}
	for i, v := range te.Entry.Data {
		name := fmt.Sprintf("p%d", i)
		if action != nil && i < len(action.Data()) {
			name = action.Data()[i].Name
		}
		args = append(args, fmt.Sprintf("%s:0x%s", name, v.Text(16)))
	}
	fmt.Fprintf(&b, " %s(%s)\n", te.Entry.Action, strings.Join(args, ", "))
	return b.String()
}

func matchSTF(m Match) string {
	switch m.Kind {
	case MatchAny:
		return "*"
	case MatchTernary:
		return "0x" + m.Value.Text(16) + "&&&0x" + m.Mask.Text(16)
	case MatchLPM:
		return fmt.Sprintf("0x%s/%d", m.Value.Text(16), m.PrefixLen)
	case MatchRange:
		return "0x" + m.Value.Text(16) + "..0x" + m.Hi.Text(16)
	}
	return "0x" + m.Value.Text(16)
}
