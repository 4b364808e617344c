package synth

import (
	"reflect"
	"testing"

	"github.com/p4hls/p4hls/synth/grammar"
)

// TestTransfer: a configuration's constant holes move with the constants
// they are near (the constant, its negation, one either side), the rest
// stay; the configuration as it was is the second candidate. Values by
// hand, at 32 bits unless a hole is narrower.
func TestTransfer(t *testing.T) {
	choice := &grammar.Hole{Kind: grammar.HoleChoice, Bits: 2, Alternatives: 3}
	word := &grammar.Hole{Kind: grammar.HoleConst, Bits: 32}
	nibble := &grammar.Hole{Kind: grammar.HoleSConst, Bits: 4} // -8..7
	tests := []struct {
		name     string
		holes    []*grammar.Hole
		cfg      grammar.Config
		from, to []uint64
		want     []grammar.Config
	}{
		{"one below the constant", []*grammar.Hole{choice, word, word}, grammar.Config{2, 29, 7},
			[]uint64{30}, []uint64{40}, []grammar.Config{{2, 39, 7}, {2, 29, 7}}},
		{"the negation", []*grammar.Hole{word}, grammar.Config{0xffffffe2}, // -30
			[]uint64{30}, []uint64{40}, []grammar.Config{{0xffffffd8}, {0xffffffe2}}}, // -40
		{"each with its own constant", []*grammar.Hole{word, word}, grammar.Config{10, 1000},
			[]uint64{10, 1000}, []uint64{20, 2000}, []grammar.Config{{20, 2000}, {10, 1000}}},
		{"the first near one wins", []*grammar.Hole{word}, grammar.Config{11},
			[]uint64{10, 11}, []uint64{20, 30}, []grammar.Config{{21}, {11}}},
		{"a narrow signed hole", []*grammar.Hole{nibble}, grammar.Config{0xf}, // -1
			[]uint64{1}, []uint64{2}, []grammar.Config{{0xe}, {0xf}}}, // -2
		{"a moved value the hole cannot hold stays", []*grammar.Hole{nibble}, grammar.Config{5},
			[]uint64{5}, []uint64{100}, []grammar.Config{{5}}},
		{"nothing near a constant", []*grammar.Hole{choice, word}, grammar.Config{1, 77},
			[]uint64{30}, []uint64{40}, []grammar.Config{{1, 77}}},
		{"other constants", []*grammar.Hole{word}, grammar.Config{29},
			[]uint64{30}, []uint64{40, 50}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := transfer(tc.holes, tc.cfg, tc.from, tc.to, 32)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("transfer = %v, want %v", got, tc.want)
			}
		})
	}
}
