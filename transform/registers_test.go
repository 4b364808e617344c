package transform

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
)

// TestRegisterRuns: with RegisterActions, each run of register code left
// in an apply block becomes an action called where it was, and the apply
// block's variables it uses become the control's; a variable that cannot
// move (declared twice, or its name used outside the apply block) leaves
// its run as written. The expected actions are written by hand from
// apply_register_runs.p4.
func TestRegisterRuns(t *testing.T) {
	const name = "apply_register_runs.p4"
	file := filepath.Join(corpus.Dir(), "ok", name)
	orig, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		from    string // edit the program: from -> to
		to      string
		actions []string // the actions made, with their bodies (spaces squeezed)
	}{
		{name: "as written", actions: []string{
			"action regs_30() { #line 30 filter.write(cell, 1); counts.read(n, cell); n = n + 1; counts.write(cell, n); }",
			"action regs_38() { #line 38 filter.read(seen, cell); }"}},
		{name: "an initializer", from: "            bit<8> n;\n", to: "            bit<8> n = (bit<8>) cell;\n", actions: []string{
			"action regs_30() { #line 30 filter.write(cell, 1); n = (bit<8>) cell; counts.read(n, cell); n = n + 1; counts.write(cell, n); }",
			"action regs_38() { #line 38 filter.read(seen, cell); }"}},
		{name: "a name declared twice", from: "            bit<1> seen;\n", to: "            bit<1> seen;\n            { bit<1> n = 0; }\n",
			actions: []string{"action regs_39() { #line 39 filter.read(seen, cell); }"}},
		{name: "a name the control uses", from: "    register<bit<8>>(16) counts;", to: "    register<bit<8>>(16) counts; // seen",
			actions: []string{"action regs_30() { #line 30 filter.write(cell, 1); counts.read(n, cell); n = n + 1; counts.write(cell, n); }"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := strings.Replace(string(orig), tc.from, tc.to, 1)
			before := corpus.LoadSource(t, name, []byte(src))
			res, err := TransformWith(context.Background(), before, file, []byte(src), RewriteOptions{RegisterActions: true})
			if err != nil {
				t.Fatal(err)
			}
			corpus.LoadSource(t, name, res.Source) // it must check
			var got []string
			for _, rw := range res.Rewrites {
				got = append(got, squeeze(actionText(string(res.Source), rw.Table)))
			}
			if strings.Join(got, "\n") != strings.Join(tc.actions, "\n") {
				t.Errorf("actions\n%s\nwant\n%s\nin\n%s", strings.Join(got, "\n"), strings.Join(tc.actions, "\n"), res.Source)
			}
		})
	}
	plain, err := Transform(context.Background(), corpus.LoadSource(t, name, orig), file, orig)
	if err != nil {
		t.Fatal(err)
	}
	if len(plain.Rewrites) != 0 {
		t.Errorf("without RegisterActions: %d rewrites, want none", len(plain.Rewrites))
	}
}

// actionText is the declaration of action name in src, up to its closing
// brace.
func actionText(src, name string) string {
	i := strings.Index(src, "action "+name+"()")
	if i < 0 {
		return ""
	}
	j := strings.Index(src[i:], "\n    }")
	return src[i : i+j+len("\n    }")]
}

// squeeze joins a text's lines with single spaces, dropping empty ones.
func squeeze(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
