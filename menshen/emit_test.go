package menshen

import (
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"
)

// payloadWords maps pkt_0 .. pkt_{n-1} (the UDP payload's words, bytes
// 46+4k) to containers 0 .. n-1, as CaT's generator does.
func payloadWords(n int) []FieldMap {
	var out []FieldMap
	for k := 0; k < n; k++ {
		out = append(out, FieldMap{Container: k, Offset: 46 + 4*k})
	}
	return out
}

// configure loads c into a fresh model through its control frames.
func configure(t *testing.T, c *Config) *Model {
	t.Helper()
	lines, err := c.Lines()
	if err != nil {
		t.Fatal(err)
	}
	frames, err := LineFrames(lines)
	if err != nil {
		t.Fatal(err)
	}
	m := NewModel()
	for _, frame := range frames {
		if out, err := m.Process(frame); out != nil || err != nil {
			t.Fatalf("control frame: %v %v", out, err)
		}
	}
	return m
}

// TestEmitSetImmediate: the configuration basic_set_imm's README
// describes (pkt_0 == 5 sets pkt_1..pkt_4 to 1, 0xDEADBEEF, 0xFFFFFFFF,
// 0), emitted from its description, turns the vector's input into its
// golden output.
func TestEmitSetImmediate(t *testing.T) {
	act := Action{Slots: map[int]SubAction{
		1: {Opcode: 0x0E, Imm: 1}, 2: {Opcode: 0x0E, Imm: 0xDEADBEEF}, 3: {Opcode: 0x0E, Imm: 0xFFFFFFFF}, 4: {Opcode: 0x0E, Imm: 0},
	}}
	c := &Config{Tenant: 1, Parse: payloadWords(5), Deparse: payloadWords(5), Tables: []Table{{
		Stage: 0, Sub: 0, Key: []int{0}, Ignore: []uint32{0},
		Entries: []Entry{{Key: []uint32{5}, Action: 0}}, Actions: []Action{act},
	}}}
	m := configure(t, c)
	dir := filepath.Join(vectorsDir(), "basic_set_imm")
	want := hexLines(t, filepath.Join(dir, "out.hex"))
	for k, f := range hexLines(t, filepath.Join(dir, "in.hex")) {
		out, err := m.Process(f)
		if err != nil || out == nil {
			t.Fatalf("frame %d: %v %v", k, out, err)
		}
		if hex.EncodeToString(out.Frame) != hex.EncodeToString(want[k]) {
			t.Errorf("frame %d:\n got %x\nwant %x", k, out.Frame, want[k])
		}
	}
}

// TestEmitStatefulAndStages: a counter in stage 0 (0x0C: S' = S + 1,
// the container gets the new S) matched on every packet of tenant 2, and
// in stage 1 a second table keyed on the count that sets pkt_2 to 7 when
// the count is 2 and sends the packet to port 9, all worked out by hand.
func TestEmitStatefulAndStages(t *testing.T) {
	// Configuration word: K2 = 1 in both branches (then and else add 1),
	// rel = 11 (=) on L = S and R = K1 = 0: either way S' = S + 1; out = 1.
	const k2, k3, s2K1, s4K2, s6K3, relEq, out = 1 << 20, 1 << 14, 2 << 11, 2 << 8, 2 << 5, 3 << 3, 1
	counter := SubAction{Opcode: 0x0C, Imm: k2 | k3 | s2K1 | s4K2 | s6K3 | relEq | out}
	port := uint8(9)
	c := &Config{Tenant: 2, Parse: payloadWords(3), Deparse: payloadWords(3), Tables: []Table{
		{Stage: 0, Sub: 3, Key: []int{0}, Ignore: []uint32{0xFFFFFFFF}, // matches everything of the tenant
			Entries: []Entry{{Key: []uint32{0}, Action: 0}}, Actions: []Action{{Slots: map[int]SubAction{1: counter}}}},
		{Stage: 1, Sub: 0, Key: []int{1}, Ignore: []uint32{0},
			Entries: []Entry{{Key: []uint32{1}, Action: 0}, {Key: []uint32{2}, Action: 1}},
			Actions: []Action{{}, {Slots: map[int]SubAction{2: {Opcode: 0x0E, Imm: 7}}, Port: &port}}},
	}}
	m := configure(t, c)
	frame := func(vid byte) []byte {
		f, _ := hex.DecodeString("0000000000053cfdfebd01a48100000" + string("0123456789abcdef"[vid]) + "08004500005c0001000040119ba96f6f6f6f00000009001300130048201f" +
			"0000000500000009000000090000000900000009000000090000000000000000000000000000000000000000000000000000000000000000000000000000000000000000")
		return f
	}
	// Tenant 2: counts 1, 2, 3; at 2, pkt_2 = 7 and port 9.
	wants := []struct {
		count, pkt2 uint32
		port        uint8
	}{{1, 9, 4}, {2, 7, 9}, {3, 9, 4}}
	for k, w := range wants {
		out, err := m.Process(frame(2))
		if err != nil || out == nil {
			t.Fatalf("frame %d: %v %v", k, out, err)
		}
		if got := readWord(out.Frame, 50); got != w.count {
			t.Errorf("frame %d: pkt_1 = %d, want the count %d", k, got, w.count)
		}
		if got := readWord(out.Frame, 54); got != w.pkt2 || out.Port != w.port {
			t.Errorf("frame %d: pkt_2 = %d, port %d; want %d, %d", k, got, out.Port, w.pkt2, w.port)
		}
	}
	// Tenant 1 has no configuration: its frames pass unchanged.
	in := frame(1)
	if out, _ := m.Process(in); out == nil || hex.EncodeToString(out.Frame) != hex.EncodeToString(in) {
		t.Errorf("a frame of another tenant changed: %x", out.Frame)
	}
}

// TestEmitErrors: descriptions the target cannot hold are refused.
func TestEmitErrors(t *testing.T) {
	cases := []struct {
		c    Config
		want string
	}{
		{Config{Tenant: 40}, "tenant 40"},
		{Config{Parse: []FieldMap{{Container: 64, Offset: 0}}}, "container 64"},
		{Config{Parse: []FieldMap{{Container: 1, Offset: 510}}}, "byte 510"},
		{Config{Tables: []Table{{Stage: 6}}}, "stages 0 to 5"},
		{Config{Tables: []Table{{Key: make([]int, 9), Ignore: make([]uint32, 9)}}}, "9 key containers"},
		{Config{Tables: []Table{{Entries: make([]Entry, 257)}}}, "257 entries"},
		{Config{Tables: []Table{{}, {}}}, "two tables in stage 0, sub-unit 0"},
	}
	for _, c := range cases {
		if _, err := c.c.Lines(); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%+v: %v, want %q", c.c, err, c.want)
		}
	}
}
