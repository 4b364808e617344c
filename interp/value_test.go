package interp

import (
	"math/big"
	"testing"

	"github.com/p4hls/p4hls/ir"
)

func ubits(w int) *ir.Bits { return &ir.Bits{Width: w} }
func sbits(w int) *ir.Bits { return &ir.Bits{Width: w, Signed: true} }
func hexBig(s string) *big.Int {
	v, ok := new(big.Int).SetString(s, 16)
	if !ok {
		panic(s)
	}
	return v
}

// val makes a value of type t from a hex string holding its bit pattern.
func val(t *ir.Bits, hex string) Value { return fromBig(hexBig(hex), t) }

func hexOfValue(v Value) string { return bigOf(v).Text(16) }

// TestArithmetic checks the operators on bit<W> and int<W>, each against a
// value worked out by hand from the rule its name quotes (P4-16 v1.2.5,
// §8.6 for bit<W>, §8.7 for int<W>). Widths 8 and 16 use the 64-bit fast
// path, width 72 the big.Int path.
func TestArithmetic(t *testing.T) {
	tests := []struct {
		rule string
		op   ir.Op
		t    *ir.Bits
		x, y string // bit patterns in hex
		want string // bit pattern in hex
	}{
		{"8.6: addition of bit<W> is modulo 2^W", ir.Add, ubits(8), "ff", "02", "1"},
		{"8.6: subtraction of bit<W> is modulo 2^W", ir.Sub, ubits(8), "01", "02", "ff"},
		{"8.6: multiplication of bit<W> keeps the low W bits", ir.Mul, ubits(8), "10", "11", "10"},
		{"8.6: division of bit<W> truncates", ir.Div, ubits(8), "07", "02", "3"},
		{"8.6: modulo of bit<W>", ir.Mod, ubits(8), "07", "03", "1"},
		{"8.6: |+| saturates bit<W> at 2^W-1", ir.SatAdd, ubits(8), "fa", "0a", "ff"},
		{"8.6: |-| saturates bit<W> at 0", ir.SatSub, ubits(8), "05", "0a", "0"},
		{"8.6: bitwise and", ir.BitAnd, ubits(8), "f0", "3c", "30"},
		{"8.6: bitwise or", ir.BitOr, ubits(8), "f0", "0c", "fc"},
		{"8.6: bitwise xor", ir.BitXor, ubits(8), "ff", "0f", "f0"},
		{"8.7: addition of int<W> wraps in two's complement", ir.Add, sbits(8), "7f", "01", "80"},
		{"8.7: subtraction of int<W> wraps in two's complement", ir.Sub, sbits(8), "80", "01", "7f"},
		{"8.7: |+| saturates int<W> at 2^(W-1)-1", ir.SatAdd, sbits(8), "64", "64", "7f"},
		{"8.7: |-| saturates int<W> at -2^(W-1)", ir.SatSub, sbits(8), "9c", "64", "80"},
		{"8.7: multiplication of int<W> keeps the low W bits", ir.Mul, sbits(8), "ff", "ff", "1"},
		{"8.6: addition wraps at a width above 64 bits", ir.Add, ubits(72), "ffffffffffffffffff", "2", "1"},
		{"8.6: subtraction wraps at a width above 64 bits", ir.Sub, ubits(72), "0", "1", "ffffffffffffffffff"},
		{"8.6: |+| saturates at a width above 64 bits", ir.SatAdd, ubits(72), "ffffffffffffffff00", "1000", "ffffffffffffffffff"},
		{"8.7: int<W> wraps at a width above 64 bits", ir.Add, sbits(72), "7fffffffffffffffff", "1", "800000000000000000"},
		{"8.6: bitwise and above 64 bits", ir.BitAnd, ubits(72), "ff00000000000000ff", "f0000000000000000f", "f0000000000000000f"},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			got := arith(tc.op, val(tc.t, tc.x), val(tc.t, tc.y), tc.t)
			if hexOfValue(got) != tc.want {
				t.Errorf("0x%s %s 0x%s on %s = 0x%s, want 0x%s", tc.x, tc.op, tc.y, tc.t, hexOfValue(got), tc.want)
			}
		})
	}
}

func TestShifts(t *testing.T) {
	tests := []struct {
		rule string
		left bool
		t    *ir.Bits
		x    string
		n    uint64
		want string
	}{
		{"8.6: << on bit<W> drops the bits shifted out", true, ubits(8), "81", 1, "2"},
		{"8.6: shifting bit<W> by W or more gives 0", true, ubits(8), "ff", 8, "0"},
		{"8.6: >> on bit<W> shifts in zeros", false, ubits(8), "80", 7, "1"},
		{"8.6: >> on bit<W> by W or more gives 0", false, ubits(8), "ff", 200, "0"},
		{"8.7: >> on int<W> is arithmetic (shifts in the sign)", false, sbits(8), "80", 1, "c0"},
		{"8.7: >> on a negative int<W> by W or more gives -1", false, sbits(8), "80", 64, "ff"},
		{"8.7: << on int<W> drops the bits shifted out", true, sbits(8), "c0", 1, "80"},
		{"8.6: << above 64 bits", true, ubits(72), "1", 70, "400000000000000000"},
		{"8.7: arithmetic >> above 64 bits", false, sbits(72), "800000000000000000", 4, "f80000000000000000"},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			got := shift(tc.left, val(tc.t, tc.x), tc.n, tc.t)
			if hexOfValue(got) != tc.want {
				t.Errorf("shift 0x%s by %d on %s = 0x%s, want 0x%s", tc.x, tc.n, tc.t, hexOfValue(got), tc.want)
			}
		})
	}
}

func TestCompare(t *testing.T) {
	tests := []struct {
		rule string
		t    *ir.Bits
		x, y string
		want int
	}{
		{"8.6: bit<W> compares as unsigned", ubits(8), "80", "7f", 1},
		{"8.7: int<W> compares as signed", sbits(8), "80", "7f", -1},
		{"8.7: -1 < 0 in int<W>", sbits(16), "ffff", "0", -1},
		{"8.6: unsigned above 64 bits", ubits(72), "800000000000000000", "1", 1},
		{"8.7: signed above 64 bits", sbits(72), "800000000000000000", "1", -1},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			if got := compare(val(tc.t, tc.x), val(tc.t, tc.y), tc.t); got != tc.want {
				t.Errorf("compare(0x%s, 0x%s) on %s = %d, want %d", tc.x, tc.y, tc.t, got, tc.want)
			}
		})
	}
}

func TestCasts(t *testing.T) {
	tests := []struct {
		rule     string
		from, to ir.Type
		x        string
		want     string
	}{
		{"8.11.1: bit<W> to a narrower bit<W2> keeps the low bits", ubits(8), ubits(4), "ab", "b"},
		{"8.11.1: bit<W> to a wider bit<W2> zero-extends", ubits(8), ubits(16), "80", "80"},
		{"8.11.1: int<W> to a wider int<W2> sign-extends", sbits(8), sbits(16), "80", "ff80"},
		{"8.11.1: int<W> to a narrower int<W2> keeps the low bits", sbits(16), sbits(8), "1281", "81"},
		{"8.11.1: int<W> to bit<W> keeps the bits", sbits(8), ubits(8), "ff", "ff"},
		{"8.11.1: bit<W> to int<W> keeps the bits", ubits(8), sbits(8), "c8", "c8"},
		{"8.11.1: bool true to bit<1> is 1", ir.Bool{}, ubits(1), "1", "1"},
		{"8.11.1: bit<1> 0 to bool is false", ubits(1), ir.Bool{}, "0", "0"},
		{"8.11.1: sign extension above 64 bits", sbits(8), sbits(72), "fe", "fffffffffffffffffe"},
		{"8.11.1: truncation from above 64 bits", ubits(72), ubits(8), "123456789abcdef012", "12"},
	}
	for _, tc := range tests {
		t.Run(tc.rule, func(t *testing.T) {
			var x Value
			if fb, ok := tc.from.(*ir.Bits); ok {
				x = val(fb, tc.x)
			} else {
				x = Value{U: hexBig(tc.x).Uint64()}
			}
			if got := hexOfValue(cast(x, tc.from, tc.to)); got != tc.want {
				t.Errorf("(%s) 0x%s from %s = 0x%s, want 0x%s", tc.to, tc.x, tc.from, got, tc.want)
			}
		})
	}
}

func TestSlicesAndConcat(t *testing.T) {
	if got := hexOfValue(slice(val(ubits(16), "abcd"), 11, 4)); got != "bc" {
		t.Errorf("8.6: slice [11:4] of 0xabcd = 0x%s, want 0xbc", got)
	}
	if got := hexOfValue(slice(val(ubits(72), "ab00000000000000cd"), 71, 64)); got != "ab" {
		t.Errorf("8.6: slice of a value above 64 bits = 0x%s, want 0xab", got)
	}
	if got := hexOfValue(setSlice(val(ubits(16), "abcd"), ubits(16), 11, 4, val(ubits(8), "12"))); got != "a12d" {
		t.Errorf("8.6: assigning to slice [11:4] of 0xabcd gives 0x%s, want 0xa12d", got)
	}
	if got := hexOfValue(setSlice(val(ubits(72), "0"), ubits(72), 71, 64, val(ubits(8), "ff"))); got != "ff0000000000000000" {
		t.Errorf("8.6: assigning a slice above 64 bits gives 0x%s", got)
	}
	if got := hexOfValue(concat(val(ubits(8), "12"), 8, val(ubits(4), "3"), 4)); got != "123" {
		t.Errorf("8.6: 0x12 ++ 0x3 (4 bits) = 0x%s, want 0x123", got)
	}
	if got := hexOfValue(concat(val(ubits(64), "ffffffffffffffff"), 64, val(ubits(8), "01"), 8)); got != "ffffffffffffffff01" {
		t.Errorf("8.6: concatenation past 64 bits = 0x%s", got)
	}
	neg := negate(val(ubits(8), "1"), ubits(8))
	if got := hexOfValue(neg); got != "ff" {
		t.Errorf("8.6: -x on bit<W> is 2^W - x: -1 = 0x%s, want 0xff", got)
	}
	if got := hexOfValue(complement(val(ubits(72), "0"), ubits(72))); got != "ffffffffffffffffff" {
		t.Errorf("8.6: ~0 above 64 bits = 0x%s", got)
	}
}

// TestPacketBits checks reading and writing fields that do not start on a
// byte boundary (a 4-bit version and IHL, a 13-bit fragment offset).
func TestPacketBits(t *testing.T) {
	p := &packet{data: []byte{0x45, 0xa3, 0xff, 0x01}}
	want := []struct {
		n   int
		hex string
	}{{4, "4"}, {4, "5"}, {3, "5"}, {13, "3ff"}, {8, "1"}}
	for _, w := range want {
		v := p.peekBits(w.n)
		p.pos += w.n
		if hexOfValue(v) != w.hex {
			t.Errorf("reading %d bits: got 0x%s, want 0x%s", w.n, hexOfValue(v), w.hex)
		}
	}
	var out packet
	for _, w := range want {
		out.writeBits(Value{U: hexBig(w.hex).Uint64()}, w.n)
	}
	if string(out.out) != string(p.data) {
		t.Errorf("writing the same fields back gives %x, want %x", out.out, p.data)
	}
}

// TestHashCheckValues checks each hash against its published check value
// (the hash of the ASCII string "123456789").
func TestHashCheckValues(t *testing.T) {
	data := []byte("123456789")
	if got := crc16(data); got != 0xBB3D {
		t.Errorf("CRC-16/ARC check = 0x%04x, want 0xbb3d", got)
	}
	if got := crc32IEEE(data); got != 0xCBF43926 {
		t.Errorf("CRC-32 check = 0x%08x, want 0xcbf43926", got)
	}
	// RFC 1071 example: the words 0x0001 0xf203 0xf4f5 0xf6f7 sum to 0xddf2
	// (with end-around carry); the checksum is its complement.
	if got := csum16([]byte{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7}); got != ^uint16(0xddf2) {
		t.Errorf("RFC 1071 example: csum16 = 0x%04x, want 0x%04x", got, ^uint16(0xddf2))
	}
	// Words 0x1234, 0xff00 and 0xab00 (the odd byte as a high byte).
	if got := xor16([]byte{0x12, 0x34, 0xff, 0x00, 0xab}); got != 0x1234^0xff00^0xab00 {
		t.Errorf("xor16 = 0x%04x", got)
	}
	if got := identity([]byte{1, 2, 3}); got != 0x010203 {
		t.Errorf("identity of 3 bytes = 0x%x, want 0x010203", got)
	}
}
