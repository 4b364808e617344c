package hxdp

import (
	"bytes"
	"testing"
)

// TestAXI: one array map of 2 entries of 8-byte values under 4-byte keys
// is one line: type 2, key 4, value 8, entries 2, least significant word
// first at 0x80010010; then the commit.
func TestAXI(t *testing.T) {
	cfg := Config{Maps: []Map{{ID: 0, Name: "a", Type: "array", KeyBytes: 4, ValueBytes: 8, MaxEntries: 2}}}
	want := "80010010 00000002\n80010014 00000004\n80010018 00000008\n8001001c 00000002\n800100ff 00000001\n"
	if got := string(cfg.AXI()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// A data section's 17 bytes take two lines after the descriptors.
	cfg.Maps = append(cfg.Maps, Map{ID: 1, Name: ".rodata", Type: "array", KeyBytes: 4, ValueBytes: 17, MaxEntries: 1, Data: bytes.Repeat([]byte{0xab}, 17)})
	cfg.AssignLines()
	if lines := cfg.Lines(); len(lines) != 4 || cfg.Maps[1].Line != 2 || lines[3][0] != 0xab || lines[3][1] != 0 {
		t.Errorf("%d lines, data from line %d; want 4, from 2, the last holding one byte", len(lines), cfg.Maps[1].Line)
	}
}

// FuzzParseHex: whatever the text, no panic; a ROM it reads writes back
// as text it reads to the same ROM.
func FuzzParseHex(f *testing.F) {
	f.Add(ROM{{mov(0, 2), exitImm(1), 0, 0}}.Hex())
	f.Add([]byte("# comment\n\n" + string(ROM{{1, 2, 3, 4}}.Hex())))
	f.Add([]byte("xyz"))
	f.Fuzz(func(t *testing.T, text []byte) {
		rom, err := ParseHex(text)
		if err != nil {
			return
		}
		back, err := ParseHex(rom.Hex())
		if err != nil || len(back) != len(rom) {
			t.Fatalf("Hex then ParseHex: %v, %d rows of %d", err, len(back), len(rom))
		}
		for i := range rom {
			if back[i] != rom[i] {
				t.Fatalf("row %d: %v, want %v", i, back[i], rom[i])
			}
		}
	})
}
