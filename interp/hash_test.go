package interp

import "testing"

// TestHashFields: the hash unit form of hash() on the check string
// "123456789" as nine 8-bit fields gives the published check values
// (CRC-32 0xCBF43926, CRC-16/ARC 0xBB3D); max and base apply as v1model
// says; random is refused.
func TestHashFields(t *testing.T) {
	widths := []int{8, 8, 8, 8, 8, 8, 8, 8, 8}
	values := []uint64{'1', '2', '3', '4', '5', '6', '7', '8', '9'}
	tests := []struct {
		algo      string
		base, max uint64
		width     int
		want      uint64
	}{
		{"crc32", 0, 1 << 32, 32, 0xCBF43926},
		{"crc16", 0, 1 << 16, 16, 0xBB3D},
		{"crc16", 10, 1000, 32, 0xBB3D%1000 + 10},
		{"crc16", 7, 0, 32, 7},
		{"crc32", 0, 1 << 32, 8, 0x26},
	}
	for _, tc := range tests {
		got, ok := HashFields(tc.algo, widths, values, tc.base, tc.max, tc.width)
		if !ok || got != tc.want {
			t.Errorf("%s base %d max %d width %d: %#x, %v; want %#x", tc.algo, tc.base, tc.max, tc.width, got, ok, tc.want)
		}
	}
	if _, ok := HashFields("random", nil, nil, 0, 0, 32); ok {
		t.Error("random accepted")
	}
}
