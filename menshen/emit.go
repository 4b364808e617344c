package menshen

import (
	"fmt"
	"sort"
	"strings"
)

// The emitter's lower half: a tenant's configuration, described by
// containers, stages and sub-units, turned into the entries of the text
// form, in an order the control path takes as written (§A.16): parser
// lines padded by a byte so they commit by themselves, each key-extract
// entry followed at once by its mask, then the table's CAM, indirection
// and action entries. The upper half (from a compiled program to this
// description) assigns fields to containers and ALUs to slots.

// Config is one tenant's configuration.
type Config struct {
	// Tenant is the table index (VID[4:0]); frames of VID Tenant (PCP and
	// DEI 0) use it, and its CAM prefix is the VID.
	Tenant int
	// Parse loads containers from the frame; Deparse writes them back.
	Parse, Deparse []FieldMap
	Tables         []Table
}

// FieldMap ties a container to the 4 frame bytes at Offset.
type FieldMap struct {
	Container, Offset int
}

// Table is one match sub-unit's table in one stage.
type Table struct {
	Stage, Sub int
	// Key lists the containers of the key slots (at most 8); Ignore, per
	// slot, the bits that do not take part (1 = ignored).
	Key    []int
	Ignore []uint32
	// Entries in priority order (CAM address order), at most 256.
	Entries []Entry
	// Actions are the table's action words, at most 256.
	Actions []Action
}

// Entry matches key values (one per key slot, already masked) and runs
// Actions[Action].
type Entry struct {
	Key    []uint32
	Action int
}

// Action is one VLIW action word: a sub-action per written container.
type Action struct {
	Slots map[int]SubAction
	// Port, when set, sends the packet to the port (metadata opcode 1100).
	Port *uint8
	// Discard, when set, drops the packet (metadata opcode 1101).
	Discard bool
}

// SubAction is a container ALU's instruction (§A.11): opcode, operand
// containers A, B, C, and the 32-bit immediate or, for the stateful
// if-else (0x0C), its configuration word.
type SubAction struct {
	Opcode  uint8
	A, B, C int
	Imm     uint32
}

// word is the sub-action's 64 bits.
func (s SubAction) word() uint64 {
	w := uint64(s.Opcode)<<56 | uint64(s.A&63)<<50 | uint64(s.B&63)<<44 | uint64(s.C&63)<<38
	if s.Opcode == 0x0C {
		return w | uint64(s.Imm)<<6
	}
	return w | uint64(s.Imm)
}

// Lines returns the configuration's entries in the text form.
func (c *Config) Lines() ([]string, error) {
	entries, err := c.entries()
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(entries))
	for i, e := range entries {
		lines[i] = ConfigLine(e.kind, []Header{e.header}, e.bits)
	}
	return lines, nil
}

// confEntry is one line of the text form before it is written. Its
// header is also the line's name for the listing: no two entries of a
// tenant's configuration write the same place.
type confEntry struct {
	kind   string
	header Header
	bits   string
}

// The headers of a tenant's entries (§A.14): t is the table index, s the
// stage, u the sub-unit, a a CAM or action address.

func parserHeader(t int) Header { return Header{Index: t} }

func deparserHeader(t int) Header { return Header{Module: 5, Index: t} }

func keyHeader(s, u, t int) Header { return Header{Stage: s, Module: 1, Sub: u, Index: t} }

func maskHeader(s, u, t int) Header { return Header{Stage: s, Module: 1, Sub: u, Resv: 0xF, Index: t} }

func camHeader(s, u, a int) Header { return Header{Stage: s, Module: 2, Sub: u, Index: a} }

func actionHeader(s, u, a int) Header {
	return Header{Stage: s, Module: 2, Sub: u, Resv: 0xF, Index: a}
}

func indirectionHeader(s, u, a int) Header {
	return Header{Stage: s, Module: 6, Sub: u, Resv: 0xF, Index: a}
}

// entries returns the configuration's entries in the order they are
// written.
func (c *Config) entries() ([]confEntry, error) {
	if c.Tenant < 0 || c.Tenant >= numTenants {
		return nil, fmt.Errorf("tenant %d: the target has table indices 0 to %d", c.Tenant, numTenants-1)
	}
	parser, err := parseEntry(c.Parse)
	if err != nil {
		return nil, fmt.Errorf("parser: %w", err)
	}
	deparser, err := parseEntry(c.Deparse)
	if err != nil {
		return nil, fmt.Errorf("deparser: %w", err)
	}
	t := c.Tenant
	pad := strings.Repeat("0", 8) // one more byte: the entry commits by itself (§A.16 rule 3)
	out := []confEntry{
		{"Parser", parserHeader(t), parser + pad},
		{"Deparser", deparserHeader(t), deparser + pad},
	}
	tables := c.sortedTables()
	for i, tb := range tables {
		if i > 0 && tables[i-1].Stage == tb.Stage && tables[i-1].Sub == tb.Sub {
			return nil, fmt.Errorf("two tables in stage %d, sub-unit %d", tb.Stage, tb.Sub)
		}
		es, err := tb.entries(t)
		if err != nil {
			return nil, fmt.Errorf("table in stage %d, sub-unit %d: %w", tb.Stage, tb.Sub, err)
		}
		out = append(out, es...)
	}
	return out, nil
}

// sortedTables returns the tables in the order their entries are
// written: by stage, then sub-unit.
func (c *Config) sortedTables() []Table {
	tables := append([]Table(nil), c.Tables...)
	sort.SliceStable(tables, func(i, j int) bool {
		return tables[i].Stage < tables[j].Stage || tables[i].Stage == tables[j].Stage && tables[i].Sub < tables[j].Sub
	})
	return tables
}

func parseEntry(fields []FieldMap) (string, error) {
	if len(fields) > parseActions {
		return "", fmt.Errorf("%d fields; the target parses %d", len(fields), parseActions)
	}
	var b strings.Builder
	for _, f := range fields {
		if f.Container < 0 || f.Container >= numContainers || f.Offset < 0 || f.Offset+4 > window {
			return "", fmt.Errorf("container %d at byte %d: containers are 0 to 63, bytes within the first %d", f.Container, f.Offset, window)
		}
		fmt.Fprintf(&b, "%024b", uint32(f.Offset)<<9|2<<7|uint32(f.Container)<<1|1)
	}
	b.WriteString(strings.Repeat("0", 24*(parseActions-len(fields))))
	return b.String(), nil
}

func (tb Table) entries(tenant int) ([]confEntry, error) {
	switch {
	case tb.Stage < 0 || tb.Stage >= numStages || tb.Sub < 0 || tb.Sub >= numSubUnits:
		return nil, fmt.Errorf("the target has stages 0 to %d and sub-units 0 to %d", numStages-1, numSubUnits-1)
	case len(tb.Key) > keySlots || len(tb.Ignore) != len(tb.Key):
		return nil, fmt.Errorf("%d key containers and %d masks; at most %d, one mask each", len(tb.Key), len(tb.Ignore), keySlots)
	case len(tb.Entries) > camEntries || len(tb.Actions) > camEntries:
		return nil, fmt.Errorf("%d entries and %d actions; the CAM holds %d", len(tb.Entries), len(tb.Actions), camEntries)
	}
	var ke, mask strings.Builder
	for j := 0; j < keySlots; j++ {
		slot, ignore := 0, ^uint32(0) // unused slots are ignored
		if j < len(tb.Key) {
			slot, ignore = tb.Key[j], tb.Ignore[j]
		}
		if slot < 0 || slot >= numContainers {
			return nil, fmt.Errorf("key container %d", slot)
		}
		fmt.Fprintf(&ke, "%06b", slot)
		fmt.Fprintf(&mask, "%032b", ignore)
	}
	ke.WriteString(strings.Repeat("0", 20+4))      // unused bits, then the text form's padding
	mask.WriteString("1" + strings.Repeat("0", 7)) // key bit 0 ignored; padding
	s, u := tb.Stage, tb.Sub
	out := []confEntry{
		{"KeyExtractConf", keyHeader(s, u, tenant), ke.String()},
		{"CAMMaskConf", maskHeader(s, u, tenant), mask.String()},
	}
	for a, e := range tb.Entries {
		if len(e.Key) != len(tb.Key) || e.Action < 0 || e.Action >= len(tb.Actions) {
			return nil, fmt.Errorf("entry %d: %d key values for %d slots, action %d of %d", a, len(e.Key), len(tb.Key), e.Action, len(tb.Actions))
		}
		var cam strings.Builder
		fmt.Fprintf(&cam, "%012b", tenant) // the prefix {PCP, DEI, VID[7:0]}, PCP = DEI = 0
		for j := 0; j < keySlots; j++ {
			v := uint32(0)
			if j < len(e.Key) {
				v = e.Key[j] &^ tb.Ignore[j]
			}
			fmt.Fprintf(&cam, "%032b", v)
		}
		cam.WriteString("0" + strings.Repeat("0", 3)) // key bit 0 (ignored), padding
		out = append(out, confEntry{"CAMConf", camHeader(s, u, a), cam.String()})
		if e.Action != 0 { // the indirection RAM starts at 0 (§A.9)
			out = append(out, confEntry{"IndirectionConf", indirectionHeader(s, u, a), fmt.Sprintf("%08b", e.Action)})
		}
	}
	for a, act := range tb.Actions {
		bits, err := act.bits()
		if err != nil {
			return nil, fmt.Errorf("action %d: %w", a, err)
		}
		out = append(out, confEntry{"RAMConf", actionHeader(s, u, a), bits})
	}
	return out, nil
}

// bits is the action word (§A.10): container 63's sub-action first,
// container 0's, then the metadata ALU's.
func (a Action) bits() (string, error) {
	var b strings.Builder
	for i := numContainers - 1; i >= 0; i-- {
		sub, ok := a.Slots[i]
		if !ok {
			b.WriteString(strings.Repeat("0", 64))
			continue
		}
		for _, c := range []int{sub.A, sub.B, sub.C} {
			if c < 0 || c >= numContainers {
				return "", fmt.Errorf("container %d's sub-action reads container %d", i, c)
			}
		}
		fmt.Fprintf(&b, "%064b", sub.word())
	}
	for i := range a.Slots {
		if i < 0 || i >= numContainers {
			return "", fmt.Errorf("a sub-action for container %d", i)
		}
	}
	var md uint64
	switch {
	case a.Discard:
		md = 0b1101<<21 | 1<<12
	case a.Port != nil:
		md = 0b1100<<21 | uint64(*a.Port)<<13
	}
	fmt.Fprintf(&b, "%064b", md)
	return b.String(), nil
}
