package tna

import (
	"testing"

	"github.com/p4hls/p4hls/ir"
)

// TestHasVarbit: a header with a varbit field cannot be extracted by its
// validity alone.
func TestHasVarbit(t *testing.T) {
	for _, tc := range []struct {
		t    ir.Type
		want bool
	}{
		{&ir.Struct{Kind: ir.KindHeader, Fields: []*ir.Field{{Name: "a", Type: &ir.Bits{Width: 8}}}}, false},
		{&ir.Struct{Kind: ir.KindHeader, Fields: []*ir.Field{{Name: "a", Type: &ir.Bits{Width: 8}}, {Name: "o", Type: &ir.Varbit{Max: 320}}}}, true},
		{&ir.Bits{Width: 8}, false},
	} {
		if got := hasVarbit(tc.t); got != tc.want {
			t.Errorf("hasVarbit(%v) = %v, want %v", tc.t, got, tc.want)
		}
	}
}
