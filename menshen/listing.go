package menshen

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// The listing: a configuration in words, for a person to review before it
// goes onto the board. The bit strings of the text form are unreadable,
// so every listing line starts with the lines of the text form it
// explains (numbered from 1, as a file's lines) and says in words what
// they write. It reads the Config, not the bits: a listing that decoded
// the bits again would repeat the emitter's mistakes instead of showing
// them.

// Notes name what the parts of a configuration stand for in the program
// it came from. Every field may be empty: the listing then speaks of
// containers, addresses and opcodes alone.
type Notes struct {
	// Containers says what each container holds: a field, part of one,
	// or a value only the ALUs use.
	Containers map[int]string
	// Tables describes the table in each sub-unit.
	Tables map[SubUnit]TableNotes
	// State names the register each container ALU's state word holds.
	State map[StateWord]string
}

// SubUnit is a stage's match sub-unit.
type SubUnit struct{ Stage, Sub int }

// StateWord is the state word of a stage's container ALU (§A.12).
type StateWord struct{ Stage, Container int }

// TableNotes describe a table: what it implements, and where each CAM
// entry (by CAM address) and each action word (by action address) came
// from.
type TableNotes struct {
	Name             string
	Entries, Actions []string
}

// Listing returns the configuration in words, one line per entry or part
// of one; notes may be nil.
func (c *Config) Listing(notes *Notes) (string, error) {
	entries, err := c.entries()
	if err != nil {
		return "", err
	}
	if notes == nil {
		notes = &Notes{}
	}
	ls := &lister{c: c, notes: notes, at: make(map[Header]int, len(entries))}
	for i, e := range entries {
		ls.at[e.header] = i + 1
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Menshen configuration of tenant %d: frames tagged with VLAN ID %d (PCP 0, DEI 0), CAM prefix 0x%03x.\n", c.Tenant, c.Tenant, c.Tenant)
	b.WriteString("# Each line starts with the line(s) of the configuration text (menshen.conf) it explains.\n")
	ls.fields(&b, "parser", parserHeader(c.Tenant), c.Parse)
	ls.fields(&b, "deparser", deparserHeader(c.Tenant), c.Deparse)
	for _, tb := range c.sortedTables() {
		ls.table(&b, tb)
	}
	return b.String(), nil
}

// lister writes one configuration's listing.
type lister struct {
	c     *Config
	notes *Notes
	at    map[Header]int // the text form's line of each entry
}

// line writes a listing line that explains the text form's lines.
func line(b *strings.Builder, lines []int, format string, args ...any) {
	fmt.Fprintf(b, "%-9s %s\n", refs(lines), fmt.Sprintf(format, args...))
}

// refs writes line numbers, runs of consecutive ones as first-last.
func refs(lines []int) string {
	var parts []string
	for i := 0; i < len(lines); {
		j := i
		for j+1 < len(lines) && lines[j+1] == lines[j]+1 {
			j++
		}
		if j == i {
			parts = append(parts, strconv.Itoa(lines[i]))
		} else {
			parts = append(parts, fmt.Sprintf("%d-%d", lines[i], lines[j]))
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// container names a container, with what it holds when the notes say.
func (ls *lister) container(i int) string {
	if n := ls.notes.Containers[i]; n != "" {
		return fmt.Sprintf("container %d (%s)", i, n)
	}
	return fmt.Sprintf("container %d", i)
}

// fields lists the parser's or the deparser's actions.
func (ls *lister) fields(b *strings.Builder, what string, h Header, fields []FieldMap) {
	at := []int{ls.at[h]}
	if len(fields) == 0 {
		line(b, at, "%s: no fields", what)
	}
	for _, f := range fields {
		bytes := fmt.Sprintf("frame bytes %d..%d", f.Offset, f.Offset+3)
		if what == "parser" {
			line(b, at, "parser: %s := %s", ls.container(f.Container), bytes)
		} else {
			line(b, at, "deparser: %s := %s", bytes, ls.container(f.Container))
		}
	}
}

// table lists one table's entries, under a heading that spans them all.
func (ls *lister) table(b *strings.Builder, tb Table) {
	s, u, t := tb.Stage, tb.Sub, ls.c.Tenant
	notes := ls.notes.Tables[SubUnit{s, u}]
	var body strings.Builder
	last := ls.at[maskHeader(s, u, t)]
	line(&body, []int{ls.at[keyHeader(s, u, t)]}, "key: %s", ls.key(tb))
	line(&body, []int{last}, "mask: %s", mask(tb))
	for a, e := range tb.Entries {
		at := []int{ls.at[camHeader(s, u, a)]}
		target := fmt.Sprintf("action address %d", e.Action)
		if e.Action != 0 {
			at = append(at, ls.at[indirectionHeader(s, u, a)])
			target += " (indirection entry)"
		}
		line(&body, at, "CAM address %d: %s -> %s%s", a, ls.camValue(tb, e), target, p4(notes.Entries, a))
		last = at[len(at)-1]
	}
	for a, act := range tb.Actions {
		at := []int{ls.at[actionHeader(s, u, a)]}
		ls.action(&body, at, s, a, act, p4(notes.Actions, a))
		last = at[0]
	}
	heading := fmt.Sprintf("stage %d, sub-unit %d", s, u)
	if notes.Name != "" {
		heading += "; P4: " + notes.Name
	}
	if len(tb.Entries) == 0 {
		heading += "; no entries: it never hits"
	}
	var all []int // the table's lines follow one another
	for n := ls.at[keyHeader(s, u, t)]; n <= last; n++ {
		all = append(all, n)
	}
	line(b, all, "%s", heading)
	b.WriteString(body.String())
}

// p4 is a note from the program, as the end of a listing line.
func p4(notes []string, i int) string {
	if i >= len(notes) || notes[i] == "" {
		return ""
	}
	return "; P4: " + notes[i]
}

// key says which container each key slot reads.
func (ls *lister) key(tb Table) string {
	var parts []string
	for j, c := range tb.Key {
		parts = append(parts, fmt.Sprintf("slot %d = %s", j, ls.container(c)))
	}
	if unused := unusedSlots(len(tb.Key)); unused != "" {
		parts = append(parts, unused+" unused")
	}
	return strings.Join(parts, ", ")
}

// unusedSlots names the key slots from n on, or "" when all are used.
func unusedSlots(n int) string {
	switch {
	case n == keySlots:
		return ""
	case n == keySlots-1:
		return fmt.Sprintf("slot %d", n)
	}
	return fmt.Sprintf("slots %d-%d", n, keySlots-1)
}

// mask says which bits of each slot take part in the match.
func mask(tb Table) string {
	var parts []string
	for j, ignore := range tb.Ignore {
		switch ignore {
		case 0:
			parts = append(parts, fmt.Sprintf("slot %d compares all 32 bits", j))
		case ^uint32(0):
			parts = append(parts, fmt.Sprintf("slot %d compares no bits", j))
		default:
			parts = append(parts, fmt.Sprintf("slot %d compares bits 0x%08x", j, ^ignore))
		}
	}
	ignored := "key bit 0 ignored"
	if unused := unusedSlots(len(tb.Key)); unused != "" {
		ignored = unused + " and " + ignored
	}
	return strings.Join(append(parts, ignored), ", ")
}

// camValue is the prefix and the key value a CAM entry holds.
func (ls *lister) camValue(tb Table, e Entry) string {
	parts := []string{fmt.Sprintf("prefix 0x%03x", ls.c.Tenant)}
	for j, v := range e.Key {
		if tb.Ignore[j] != ^uint32(0) {
			parts = append(parts, fmt.Sprintf("slot %d = 0x%08x", j, v&^tb.Ignore[j]))
		}
	}
	return strings.Join(parts, ", ")
}

// action lists an action word: a line for the word, then one for each
// container ALU it configures and one for the metadata ALU.
func (ls *lister) action(b *strings.Builder, at []int, stage, a int, act Action, note string) {
	if len(act.Slots) == 0 && act.Port == nil && !act.Discard {
		line(b, at, "action address %d: does nothing%s", a, note)
		return
	}
	line(b, at, "action address %d%s", a, note)
	slots := make([]int, 0, len(act.Slots))
	for i := range act.Slots {
		slots = append(slots, i)
	}
	sort.Ints(slots)
	for _, i := range slots {
		line(b, at, "  %s", ls.operation(stage, i, act.Slots[i]))
	}
	switch {
	case act.Discard:
		line(b, at, "  metadata ALU: drop the frame")
	case act.Port != nil:
		line(b, at, "  metadata ALU: send the frame to port %d", *act.Port)
	}
}

// operation says what a container ALU does with its sub-action (§A.11).
func (ls *lister) operation(stage, i int, sa SubAction) string {
	dst := ls.container(i)
	x, y, z := ls.container(sa.A), ls.container(sa.B), ls.container(sa.C)
	imm, simm := number(sa.Imm), signed(sa.Imm)
	set := func(v string) string { return dst + " := " + v }
	test := func(cond string) string { return set("1 if " + cond + ", else 0") }
	switch sa.Opcode {
	case 0x01:
		return set(x + " + " + y)
	case 0x02:
		return set(x + " - " + y)
	case 0x09:
		if sa.Imm == 0 {
			return set(x)
		}
		return set(x + " + " + imm)
	case 0x0A, 0x03:
		return set(x + " - " + imm)
	case 0x0E:
		return set(imm)
	case 0x04:
		return test(x + " != " + y)
	case 0x05:
		return test(x + " != " + imm)
	case 0x06:
		return test(x + " == " + y)
	case 0x17:
		return test(x + " == " + imm)
	case 0x18:
		return test(x + " >= " + y + " (signed)")
	case 0x1B:
		return test(x + " >= " + simm + " (signed)")
	case 0x1C:
		return test(x + " < " + y + " (signed)")
	case 0x1D:
		return test(x + " < " + simm + " (signed)")
	case 0x12:
		return test(x + " != 0 or " + y + " != 0")
	case 0x13:
		return test(x + " != 0 and " + y + " != 0")
	case 0x14:
		return test(x + " != 0")
	case 0x10:
		return set(y + " if " + x + " != 0, else " + z)
	case 0x11:
		return set(y + " if " + x + " != 0, else " + imm)
	case 0x0B:
		return set("S; " + ls.state(stage, i))
	case 0x08:
		return fmt.Sprintf("%s unchanged; %s; %s is stored into word (%s mod 32) of S's memory, of which only word 0 (S) is ever read",
			dst, ls.state(stage, i), x, y)
	case 0x07:
		if sa.Imm%32 == 0 {
			return set("S + 1; " + ls.state(stage, i) + "; S := S + 1")
		}
		return set(fmt.Sprintf("S + 1; %s; S keeps its value (the sum goes to word %d, never read)", ls.state(stage, i), sa.Imm%32))
	case 0x0C:
		out, update := ifElse(sa.Imm, x, z)
		return set(out + "; " + ls.state(stage, i) + "; " + update)
	}
	return fmt.Sprintf("%s unchanged (opcode 0x%02x does nothing)", dst, sa.Opcode)
}

// state names the state word of a container ALU: S in its operation.
func (ls *lister) state(stage, i int) string {
	s := fmt.Sprintf("S = the state word of stage %d, container %d", stage, i)
	if r := ls.notes.State[StateWord{stage, i}]; r != "" {
		s += " (register " + r + ")"
	}
	return s
}

// ifElse says what the stateful if-else with configuration word w writes
// to its container and how it updates S (§A.12); p1 and p2 are its
// inputs, containers A and C.
func ifElse(w uint32, p1, p2 string) (out, update string) {
	field := func(at, bits uint) uint32 { return w >> at & (1<<bits - 1) }
	pick := func(sel, k uint32) string { return [4]string{p1, p2, number(k), number(k)}[sel] }
	base := func(zero uint32) string { return [2]string{"S", "0"}[zero] }
	sum := func(b, add string) string {
		switch {
		case b == "0":
			return add
		case add == "0":
			return b
		}
		return b + " + " + add
	}
	k1, k2, k3 := field(26, 6), field(20, 6), field(14, 6)
	rel := field(3, 2)
	cond := base(field(13, 1)) + " " + [4]string{"!=", "<", ">", "=="}[rel] + " " + pick(field(11, 2), k1)
	if rel == 1 || rel == 2 {
		cond += " (signed)"
	}
	then := sum(base(field(10, 1)), pick(field(8, 2), k2))
	els := sum(base(field(7, 1)), pick(field(5, 2), k3))
	out = "S before the update"
	if field(0, 1) == 1 {
		out = "S after the update"
	}
	return out, fmt.Sprintf("if %s then S := %s, else S := %s", cond, then, els)
}

// number writes a value in decimal when small, else in hex.
func number(v uint32) string {
	if v < 1024 {
		return strconv.Itoa(int(v))
	}
	return fmt.Sprintf("0x%x", v)
}

// signed writes a value compared as a signed word.
func signed(v uint32) string {
	if s := int32(v); s < 0 && s > -1024 {
		return strconv.Itoa(int(s))
	}
	return number(v)
}
