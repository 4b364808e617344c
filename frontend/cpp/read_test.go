package cpp

import (
	"context"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// TestIncludeUnreadable: an #include of a file that exists but is no
// source says why, at the directive, instead of "cannot find".
func TestIncludeUnreadable(t *testing.T) {
	var d diag.List
	if _, err := Preprocess(context.Background(), "x.p4", []byte("#include \"/dev/zero\"\n"), Options{}, &d); err != nil {
		t.Fatal(err)
	}
	if got := d.String(); !strings.Contains(got, `x.p4:1:1: error: cannot read include file "/dev/zero": not a regular file`) {
		t.Errorf("got %q", got)
	}
}

// TestExpansionGrowth: a macro that doubles its argument, nested 22 deep,
// makes 2^22 tokens from 22 replacements; the preprocessor stops at its
// token bound and names the macro.
func TestExpansionGrowth(t *testing.T) {
	src := "#define D(x) x x\n" + strings.Repeat("D(", 22) + "a" + strings.Repeat(")", 22) + "\n"
	var d diag.List
	if _, err := Preprocess(context.Background(), "x.p4", []byte(src), Options{}, &d); err != nil {
		t.Fatal(err)
	}
	if got := d.String(); !strings.Contains(got, "x.p4:2:1: error: the expansion of macro D grows past 1000000 tokens") {
		t.Errorf("got %q", got)
	}
}
