package menshen

import (
	"strings"
	"testing"
)

// ifElseWord packs the stateful if-else's fields at their places in the
// configuration word (§A.12).
func ifElseWord(k1, k2, k3, s1, s2, s3, s4, s5, s6, rel, out uint32) uint32 {
	return k1<<26 | k2<<20 | k3<<14 | s1<<13 | s2<<11 | s3<<10 | s4<<8 | s5<<7 | s6<<5 | rel<<3 | out
}

// TestListing lists a small configuration of tenant 2 whose text form
// is, by the emitter's order: 1 the parser, 2 the deparser, then the
// tables by stage: stage 0's sub-unit 3 (3 key extractor, 4 mask, 5 CAM
// address 0, 6 action 0) before stage 1's sub-unit 0 (7 key extractor, 8
// mask, 9 CAM address 0, 10 CAM address 1 and 11 its indirection entry,
// as it selects action 1, then 12 and 13 the two action words).
func TestListing(t *testing.T) {
	port := uint8(3)
	// if S == 29 (K1) then S := 0 + K2 (0), else S := S + P1; the
	// container gets the old S.
	count := ifElseWord(29, 0, 0, 0, 2, 1, 2, 0, 0, 3, 0)
	c := &Config{Tenant: 2, Parse: []FieldMap{{0, 46}, {1, 50}}, Deparse: []FieldMap{{1, 50}}, Tables: []Table{
		{Stage: 1, Sub: 0, Key: []int{1}, Ignore: []uint32{0x0000FFFF},
			// The second entry's low bits are masked: 0x00090000 is written.
			Entries: []Entry{{Key: []uint32{0x00070000}, Action: 0}, {Key: []uint32{0x0009ABCD}, Action: 1}},
			Actions: []Action{
				{Slots: map[int]SubAction{2: {Opcode: 0x09, A: 1, Imm: 5}}},
				{Slots: map[int]SubAction{2: {Opcode: 0x1D, A: 1, Imm: 0xFFFFFFFF}}, Port: &port},
			}},
		{Stage: 0, Sub: 3, Entries: []Entry{{}},
			Actions: []Action{{Slots: map[int]SubAction{3: {Opcode: 0x0C, A: 0, C: 3, Imm: count}}}}},
	}}
	notes := &Notes{
		Containers: map[int]string{0: "hdr.app.a", 1: "hdr.app.b, top 16 bits"},
		Tables: map[SubUnit]TableNotes{{Stage: 1, Sub: 0}: {Name: "table t",
			Entries: []string{"entry 1", "entry 2"}, Actions: []string{"act1(5)", "act2()"}}},
		State: map[StateWord]string{{Stage: 0, Container: 3}: "count"},
	}
	want := []string{
		"# Menshen configuration of tenant 2: frames tagged with VLAN ID 2 (PCP 0, DEI 0), CAM prefix 0x002.",
		"# Each line starts with the line(s) of the configuration text (menshen.conf) it explains.",
		"1         parser: container 0 (hdr.app.a) := frame bytes 46..49",
		"1         parser: container 1 (hdr.app.b, top 16 bits) := frame bytes 50..53",
		"2         deparser: frame bytes 50..53 := container 1 (hdr.app.b, top 16 bits)",
		"3-6       stage 0, sub-unit 3",
		"3         key: slots 0-7 unused",
		"4         mask: slots 0-7 and key bit 0 ignored",
		"5         CAM address 0: prefix 0x002 -> action address 0",
		"6         action address 0",
		"6           container 3 := S before the update; S = the state word of stage 0, container 3 (register count); " +
			"if S == 29 then S := 0, else S := S + container 0 (hdr.app.a)",
		"7-13      stage 1, sub-unit 0; P4: table t",
		"7         key: slot 0 = container 1 (hdr.app.b, top 16 bits), slots 1-7 unused",
		"8         mask: slot 0 compares bits 0xffff0000, slots 1-7 and key bit 0 ignored",
		"9         CAM address 0: prefix 0x002, slot 0 = 0x00070000 -> action address 0; P4: entry 1",
		"10-11     CAM address 1: prefix 0x002, slot 0 = 0x00090000 -> action address 1 (indirection entry); P4: entry 2",
		"12        action address 0; P4: act1(5)",
		"12          container 2 := container 1 (hdr.app.b, top 16 bits) + 5",
		"13        action address 1; P4: act2()",
		"13          container 2 := 1 if container 1 (hdr.app.b, top 16 bits) < -1 (signed), else 0",
		"13          metadata ALU: send the frame to port 3",
	}
	got, err := c.Listing(notes)
	if err != nil {
		t.Fatal(err)
	}
	compareLines(t, got, want)
	lines, err := c.Lines()
	if err != nil {
		t.Fatal(err)
	}
	if len(lines) != 13 {
		t.Errorf("the text form has %d lines, want the 13 the listing explains", len(lines))
	}
}

// compareLines reports every line of got that differs from want.
func compareLines(t *testing.T, got string, want []string) {
	t.Helper()
	g := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	for i := 0; i < max(len(g), len(want)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(want) {
			wl = want[i]
		}
		if gl != wl {
			t.Errorf("line %d:\n got %q\nwant %q", i+1, gl, wl)
		}
	}
}

// TestListingWithoutNotes: without notes, containers are numbers alone;
// a table without entries says it never hits, and a drop is the
// metadata ALU's. Lines: 1 parser, 2 deparser, stage 0 sub-unit 0: 3
// key, 4 mask; stage 2 sub-unit 7: 5 key, 6 mask, 7 CAM, 8 action.
func TestListingWithoutNotes(t *testing.T) {
	c := &Config{Tenant: 1, Tables: []Table{
		{Stage: 2, Sub: 7, Key: []int{4, 9}, Ignore: []uint32{0, 0xFFFFFFFF},
			Entries: []Entry{{Key: []uint32{0x0A000001, 0}}}, Actions: []Action{{Discard: true}}},
		{Stage: 0, Sub: 0, Key: []int{5}, Ignore: []uint32{0}},
	}}
	want := []string{
		"# Menshen configuration of tenant 1: frames tagged with VLAN ID 1 (PCP 0, DEI 0), CAM prefix 0x001.",
		"# Each line starts with the line(s) of the configuration text (menshen.conf) it explains.",
		"1         parser: no fields",
		"2         deparser: no fields",
		"3-4       stage 0, sub-unit 0; no entries: it never hits",
		"3         key: slot 0 = container 5, slots 1-7 unused",
		"4         mask: slot 0 compares all 32 bits, slots 1-7 and key bit 0 ignored",
		"5-8       stage 2, sub-unit 7",
		"5         key: slot 0 = container 4, slot 1 = container 9, slots 2-7 unused",
		"6         mask: slot 0 compares all 32 bits, slot 1 compares no bits, slots 2-7 and key bit 0 ignored",
		"7         CAM address 0: prefix 0x001, slot 0 = 0x0a000001 -> action address 0",
		"8         action address 0",
		"8           metadata ALU: drop the frame",
	}
	got, err := c.Listing(nil)
	if err != nil {
		t.Fatal(err)
	}
	compareLines(t, got, want)
}

// TestListingOperations: each kind of sub-action, for container 5 of
// stage 2, in words (§A.11, §A.12).
func TestListingOperations(t *testing.T) {
	ls := &lister{c: &Config{}, notes: &Notes{Containers: map[int]string{1: "hdr.x"}}}
	tests := []struct {
		name string
		sa   SubAction
		want string
	}{
		{"add", SubAction{Opcode: 0x01, A: 1, B: 2}, "container 5 := container 1 (hdr.x) + container 2"},
		{"copy", SubAction{Opcode: 0x09, A: 1}, "container 5 := container 1 (hdr.x)"},
		{"subtract a shifted byte", SubAction{Opcode: 0x0A, A: 1, Imm: 0x01000000}, "container 5 := container 1 (hdr.x) - 0x1000000"},
		{"old subtract", SubAction{Opcode: 0x03, A: 1, Imm: 2}, "container 5 := container 1 (hdr.x) - 2"},
		{"set", SubAction{Opcode: 0x0E, A: 5, Imm: 7}, "container 5 := 7"},
		{"equal", SubAction{Opcode: 0x06, A: 1, B: 2}, "container 5 := 1 if container 1 (hdr.x) == container 2, else 0"},
		{"not equal to immediate", SubAction{Opcode: 0x05, A: 1, Imm: 0}, "container 5 := 1 if container 1 (hdr.x) != 0, else 0"},
		{"at least", SubAction{Opcode: 0x1B, A: 1, Imm: 0xFFFFFFF6}, "container 5 := 1 if container 1 (hdr.x) >= -10 (signed), else 0"},
		{"less", SubAction{Opcode: 0x1C, A: 1, B: 2}, "container 5 := 1 if container 1 (hdr.x) < container 2 (signed), else 0"},
		{"or", SubAction{Opcode: 0x12, A: 1, B: 2}, "container 5 := 1 if container 1 (hdr.x) != 0 or container 2 != 0, else 0"},
		{"select", SubAction{Opcode: 0x10, A: 1, B: 2, C: 3}, "container 5 := container 2 if container 1 (hdr.x) != 0, else container 3"},
		{"select an immediate", SubAction{Opcode: 0x11, A: 1, B: 2, Imm: 9}, "container 5 := container 2 if container 1 (hdr.x) != 0, else 9"},
		{"load", SubAction{Opcode: 0x0B}, "container 5 := S; S = the state word of stage 2, container 5"},
		{"count", SubAction{Opcode: 0x07}, "container 5 := S + 1; S = the state word of stage 2, container 5; S := S + 1"},
		{"count into an unread word", SubAction{Opcode: 0x07, Imm: 35},
			"container 5 := S + 1; S = the state word of stage 2, container 5; S keeps its value (the sum goes to word 3, never read)"},
		{"store", SubAction{Opcode: 0x08, A: 1, B: 2},
			"container 5 unchanged; S = the state word of stage 2, container 5; container 1 (hdr.x) is stored into word (container 2 mod 32) of S's memory, of which only word 0 (S) is ever read"},
		// L = 0 (s1 = 1), R = P1 (s2 = 0), rel 01 (<); then S + P2 (s3 =
		// 0, s4 = 1); else 0 + K3 = 0 (s5 = 1, s6 = 2); out = 1.
		{"if-else", SubAction{Opcode: 0x0C, A: 1, C: 3, Imm: ifElseWord(0, 0, 0, 1, 0, 0, 1, 1, 2, 1, 1)},
			"container 5 := S after the update; S = the state word of stage 2, container 5; if 0 < container 1 (hdr.x) (signed) then S := S + container 3, else S := 0"},
		// K1 = 63 picked twice (s2 = 3); then S + K2 = 5; else S + K3 = 0.
		{"if-else constants", SubAction{Opcode: 0x0C, Imm: ifElseWord(63, 5, 0, 0, 3, 0, 3, 0, 2, 2, 0)},
			"container 5 := S before the update; S = the state word of stage 2, container 5; if S > 63 (signed) then S := S + 5, else S := S"},
		{"undefined opcode", SubAction{Opcode: 0x20, A: 1, Imm: 4}, "container 5 unchanged (opcode 0x20 does nothing)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := ls.operation(2, 5, tc.sa); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}

func TestRefs(t *testing.T) {
	tests := []struct {
		lines []int
		want  string
	}{
		{[]int{4}, "4"},
		{[]int{6, 7}, "6-7"},
		{[]int{3, 4, 5, 9}, "3-5,9"},
		{[]int{1, 3}, "1,3"},
	}
	for _, tc := range tests {
		if got := refs(tc.lines); got != tc.want {
			t.Errorf("refs(%v) = %q, want %q", tc.lines, got, tc.want)
		}
	}
}

// TestListingRefuses: a configuration the text form cannot hold has no
// listing either.
func TestListingRefuses(t *testing.T) {
	c := &Config{Tenant: 1, Tables: []Table{{Stage: 6, Key: []int{}, Ignore: []uint32{}}}}
	if _, err := c.Listing(nil); err == nil || !strings.Contains(err.Error(), "stages 0 to 5") {
		t.Errorf("got %v, want the emitter's error about stage 6", err)
	}
}
