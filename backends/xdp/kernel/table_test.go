package kernel

import (
	"reflect"
	"testing"
)

// TestRangePrefixes: ranges cover exactly with aligned blocks, each a
// prefix; the expected blocks are worked out by hand.
func TestRangePrefixes(t *testing.T) {
	for _, tc := range []struct {
		name   string
		lo, hi uint64
		w      int
		want   []vm
	}{
		// 1..6 of 4 bits: 0001, 001x, 010x, 0110.
		{"inner", 1, 6, 4, []vm{{1, 0xf}, {2, 0xe}, {4, 0xe}, {6, 0xf}}},
		{"all", 0, 15, 4, []vm{{0, 0}}},
		{"one", 9, 9, 4, []vm{{9, 0xf}}},
		// 8..15 of 4 bits: 1xxx.
		{"upper half", 8, 15, 4, []vm{{8, 0x8}}},
		{"all of 64 bits", 0, ^uint64(0), 64, []vm{{0, 0}}},
		// The top of 64 bits must not wrap: ...1110, ...1111 as one block.
		{"top of 64 bits", ^uint64(0) - 1, ^uint64(0), 64, []vm{{^uint64(0) - 1, ^uint64(0) - 1}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rangePrefixes(tc.lo, tc.hi, tc.w); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("rangePrefixes(%d, %d, %d) = %v, want %v", tc.lo, tc.hi, tc.w, got, tc.want)
			}
		})
	}
}
