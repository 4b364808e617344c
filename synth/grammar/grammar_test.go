package grammar_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/tofino"
)

// allGrammars returns the grammars of every target.
func allGrammars(t testing.TB) []*grammar.Grammar {
	bz, err := banzai.Target("")
	if err != nil {
		t.Fatal(err)
	}
	var out []*grammar.Grammar
	out = append(out, bz.Grammars...)
	out = append(out, tofino.Target().Grammars...)
	out = append(out, menshen.Target().Grammars...)
	return out
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"bad start", "stateles x(packet a) { output a; }", "t.alu:1:1: error: a grammar starts with stateful or stateless, not 'stateles'"},
		{"bad group", "stateless x(pkt a) { output a; }", "t.alu:1:13: error: parameters are 'state NAMES' or 'packet NAMES', not 'pkt'"},
		{"no output", "stateless x(packet a) { }", "t.alu:1:25: error: the body must end with 'output EXPR;'"},
		{"undeclared", "stateless x(packet a) { output b; }", "t.alu:1:32: error: 'b' is not declared"},
		{"assign a packet", "stateful x(state s; packet a) { a = 1; output s; }", "t.alu:1:33: error: only state variables can be assigned; 'a' is not one (use let for a name)"},
		{"too many alternatives", "stateless x(packet a) { output choose<1>(a, a, a); }", "t.alu:1:32: error: choose has 3 alternatives; 1 bits choose among at most 2"},
		{"width out of range", "stateless x(packet a) { output const<65>; }", "t.alu:1:38: error: a hole width must be from 1 to 64 bits, not 65"},
		{"let in a branch", "stateful x(state s; packet a) { if (a) { let y = 1; } output s; }", "t.alu:1:42: error: let is allowed only at the top of the body, not inside an if"},
		{"arity", "stateful x(state s; packet a) { output mux3(a, s); }", "t.alu:1:40: error: mux3 takes 3 arguments, got 2"},
		{"stateless with state", "stateless x(state s) { output s; }", "t.alu:1:1: error: a stateless grammar has no state variables"},
		{"redeclared", "stateless x(packet a, a) { output a; }", "t.alu:1:23: error: 'a' is already declared or is a keyword"},
		{"label outside choose", "stateless x(packet a) { output mux2(a @ 1, a); }", "t.alu:1:41: error: only choose<...> alternatives take labels"},
		{"bad character", "stateless x(packet a) { output a $ a; }", "t.alu:1:34: error: unexpected character '$'"},
		{"unterminated comment", "stateless x(packet a) { /* output a; }", "t.alu:1:25: error: comment is not terminated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var d diag.List
			g := grammar.Parse("t.alu", []byte(tc.src), &d)
			if g != nil {
				t.Fatal("parsed")
			}
			if got := strings.TrimSpace(d.String()); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// TestHoleOrder: named holes come first, then anonymous ones in source
// order, a call's arguments before its own choice.
func TestHoleOrder(t *testing.T) {
	var d diag.List
	g := grammar.Parse("t.alu", []byte(`stateful x(state s; packet a) {
        hole k : sconst<4>;
        s = mux2(a, const<3>) + k;
        output opt(s);
    }`), &d)
	if g == nil {
		t.Fatal(d.String())
	}
	var got []string
	for _, h := range g.Holes {
		got = append(got, h.Name+h.Label)
	}
	want := "k,const at 3:21,mux2 at 3:13,opt at 4:16"
	if strings.Join(got, ",") != want {
		t.Errorf("holes %v, want %s", got, want)
	}
	// sconst<4> = 0b1111 is -1: s' = a + (-1) with mux2 = a.
	res := g.Eval(grammar.Config{0xf, 0, 0, 0}, []uint64{0}, []uint64{10}, 32)
	if res.States[0] != 9 {
		t.Errorf("a + sconst(-1) = %d, want 9", res.States[0])
	}
}

func FuzzParse(f *testing.F) {
	for _, g := range allGrammars(f) {
		f.Add([]byte("stateless " + g.Name + "(packet a) { output a; }"))
	}
	f.Add([]byte("stateful p(state s; packet a, b) { if (rel(opt(s), mux3(a, b, const<5>))) { s = opt(s) + 1; } output mux2(s, new(s)); }"))
	f.Fuzz(func(t *testing.T, src []byte) {
		var d diag.List
		g := grammar.Parse("f.alu", src, &d)
		if g == nil && !d.HasErrors() {
			t.Fatal("rejected without a diagnostic")
		}
		if g != nil {
			g.Eval(make(grammar.Config, len(g.Holes)), make([]uint64, len(g.States)), make([]uint64, len(g.Packets)), 32)
		}
	})
}

// TestCmpComparesExactly: cmp compares "s + a" with a constant without
// wrapping, so with s = 2^32 - 1 and a = 1 the sum is 2^32, above 0
// (wrapped, it would be 0). synth's TestEncodeCmpExactly checks the
// solver encoding on the same cases.
func TestCmpComparesExactly(t *testing.T) {
	var d diag.List
	g := grammar.Parse("t.alu", []byte(`stateful t(state s; packet a) {
    if (cmp(s + a, 0)) { s = 1; } else { s = 2; }
    output s;
}`), &d)
	if g == nil {
		t.Fatal(d.Error())
	}
	tests := []struct {
		kind    uint64 // cmp's hole: 0 !=, 1 <s, 2 >s, 3 ==, 4 <u, 5 >u
		s, a    uint64
		then    bool
		comment string
	}{
		{5, 0xffffffff, 1, true, "2^32 >u 0"},
		{3, 0xffffffff, 1, false, "2^32 != 0"},
		{2, 0x7fffffff, 1, true, "2^31 >s 0: signed leaves, no wrap to -2^31"},
		{1, 0xffffffff, 0, true, "-1 <s 0"},
		{4, 0xffffffff, 0, false, "2^32-1 is not <u 0"},
	}
	for _, tc := range tests {
		want := uint64(2)
		if tc.then {
			want = 1
		}
		if got := g.Eval(grammar.Config{tc.kind}, []uint64{tc.s}, []uint64{tc.a}, 32).States[0]; got != want {
			t.Errorf("%s: Eval gives %d, want %d", tc.comment, got, want)
		}
	}
	// Above 56 bits a sum of words no longer fits an int64, so the
	// comparison wraps: at 64 bits 2^64 - 1 + 1 is 0, not above 0.
	if got := g.Eval(grammar.Config{5}, []uint64{^uint64(0)}, []uint64{1}, 64).States[0]; got != 2 {
		t.Errorf("64 bits: 2^64 wraps to 0, so 0 >u 0 is false; Eval gives s = %d, want 2", got)
	}
}

// TestEmbeddedReturnsNewSlices: each call of an Embedded loader returns
// its own slice of the one parsed set, so a target that edits its list
// does not change another's.
func TestEmbeddedReturnsNewSlices(t *testing.T) {
	fsys := fstest.MapFS{
		"alus/a.alu": {Data: []byte("stateless a(packet x) { output x; }")},
		"alus/b.alu": {Data: []byte("stateless b(packet x) { output x + 1; }")},
	}
	load := grammar.Embedded(fsys, "alus")
	first := load()
	if len(first) != 2 || first[0].Name != "a" || first[1].Name != "b" {
		t.Fatalf("loaded %d grammars, want a and b", len(first))
	}
	first[0] = first[1]
	second := load()
	if second[0].Name != "a" {
		t.Errorf("after the first caller's edit, the second sees %s first, want a", second[0].Name)
	}
	if second[1] != first[1] {
		t.Error("the two calls parsed the grammars twice; they should share one parse")
	}
}
