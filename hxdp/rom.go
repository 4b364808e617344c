package hxdp

import (
	"bufio"
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// The core (NIC.md, and the paper's §4.3).
const (
	// Lanes is the number of execution lanes: instructions per row.
	Lanes = 4
	// MaxRows is the size of the instruction memory, in rows.
	MaxRows = 256
	// ClockHz is the core's clock: one row per cycle.
	ClockHz = 156_250_000
	// StackBytes is the stack the core gives a program (r10 points past
	// its end), reset to zero for each packet.
	StackBytes = 512
	// Registers is r0 to r10.
	Registers = 11
)

// Row is one VLIW instruction: a lane word per lane. An empty lane is
// the zero word. A 64-bit immediate load takes two adjacent lanes, the
// second holding the immediate's high half.
type Row [Lanes]uint64

// ROM is the instruction memory's contents, row by row.
type ROM []Row

// Hex writes the ROM as the core's loader takes it: a row per line, 64
// hex digits (256 bits) with lane 0 in the rightmost 16.
func (r ROM) Hex() []byte {
	var b bytes.Buffer
	for _, row := range r {
		for l := Lanes - 1; l >= 0; l-- {
			fmt.Fprintf(&b, "%016x", row[l])
		}
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// ParseHex reads what Hex writes. Blank lines and lines starting with #
// are skipped.
func ParseHex(text []byte) (ROM, error) {
	var rom ROM
	sc := bufio.NewScanner(bytes.NewReader(text))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if len(line) != 16*Lanes {
			return nil, fmt.Errorf("line %d: a row is %d hex digits, this one %d", n, 16*Lanes, len(line))
		}
		var row Row
		for l := 0; l < Lanes; l++ {
			hi := len(line) - 16*l
			w, err := strconv.ParseUint(line[hi-16:hi], 16, 64)
			if err != nil {
				return nil, fmt.Errorf("line %d, lane %d: %w", n, l, err)
			}
			row[l] = w
		}
		rom = append(rom, row)
	}
	return rom, sc.Err()
}
