package frontend

import (
	"context"
	"math/big"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

// checkSrc checks a program text and returns the result and diagnostics.
func checkSrc(t *testing.T, src string) (*Checked, *diag.List) {
	t.Helper()
	var d diag.List
	c, _, err := Check(context.Background(), "t.p4", []byte(src), Options{}, &d)
	if err != nil {
		t.Fatal(err)
	}
	return c, &d
}

// TestConstantFolding checks `const T X = expr;` against values worked out
// by hand from the P4-16 specification's arithmetic rules (§8.5-8.11).
func TestConstantFolding(t *testing.T) {
	tests := []struct {
		name string
		typ  string
		expr string
		want string // the value, decimal; bools as true/false
	}{
		{"bit<W> wraps on overflow (8.6)", "bit<8>", "8w255 + 8w1", "0"},
		{"bit<W> wraps on underflow (8.6)", "bit<8>", "8w0 - 8w1", "255"},
		{"unsized literal adopts the other operand's width (8.11.2)", "bit<8>", "8w200 + 100", "44"},
		{"int<W> is two's complement (8.7)", "int<8>", "8s127 + 8s1", "-128"},
		{"unary minus on bit<W> is 2^W - x (8.6)", "bit<8>", "-8w1", "255"},
		{"multiplication keeps the low W bits (8.6)", "bit<8>", "8w16 * 8w17", "16"},
		{"saturating add clamps at the maximum (8.6)", "bit<8>", "8w250 |+| 8w10", "255"},
		{"saturating subtract clamps at zero (8.6)", "bit<8>", "8w5 |-| 8w10", "0"},
		{"signed saturating add clamps at 2^(W-1)-1 (8.7)", "int<8>", "8s100 |+| 8s100", "127"},
		{"signed saturating subtract clamps at -2^(W-1) (8.7)", "int<8>", "-8s100 |-| 8s100", "-128"},
		{"shift left drops bits past the width (8.6)", "bit<8>", "8w0x81 << 1", "2"},
		{"shift by the width or more gives 0 (8.6)", "bit<8>", "8w0xff << 8", "0"},
		{"right shift of bit<W> fills with zeros (8.6)", "bit<8>", "8w0x80 >> 7", "1"},
		{"right shift of int<W> is arithmetic (8.7)", "int<8>", "-8s128 >> 7", "-1"},
		{"slice takes bits hi..lo (8.6)", "bit<4>", "8w0xa5[7:4]", "10"},
		{"concatenation puts the left operand high (8.6)", "bit<16>", "8w0x12 ++ 8w0x34", "4660"},
		{"bitwise complement within the width (8.6)", "bit<4>", "~4w0x5", "10"},
		{"cast to a narrower bit<W> truncates (8.11.1)", "bit<4>", "(bit<4>)8w0xab", "11"},
		{"cast int<W> to bit<W> keeps the bits (8.11.1)", "bit<8>", "(bit<8>)-8s1", "255"},
		{"cast bit<W> to int<W> reinterprets (8.11.1)", "int<8>", "(int<8>)8w200", "-56"},
		{"cast to a wider int<W> sign-extends (8.11.1)", "int<16>", "(int<16>)-8s2", "-2"},
		{"cast bool to bit<1> (8.11.1)", "bit<1>", "(bit<1>)true", "1"},
		{"division of unsized constants (8.8)", "bit<8>", "7 / 2", "3"},
		{"modulo of unsized constants (8.8)", "bit<8>", "7 % 3", "1"},
		{"a conditional with a constant condition folds (8.19)", "bit<8>", "true ? 8w1 : 8w2", "1"},
		{"comparison of unsigned values (8.6)", "bool", "8w200 > 8w100", "true"},
		{"comparison of signed values (8.7)", "bool", "-8s56 < 8s100", "true"},
		{"logical operators short-circuit on constants (8.4)", "bool", "false && (1 / 1 == 1)", "false"},
		{"an oversized literal is truncated to its width", "bit<8>", "8w256", "0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := "const " + tc.typ + " X = " + tc.expr + ";\n"
			c, d := checkSrc(t, src)
			if c == nil {
				t.Fatalf("rejected: %s", d)
			}
			got := formatValue(c.Globals.Lookup("X").Value)
			if got != tc.want {
				t.Errorf("%s = %s, want %s", tc.expr, got, tc.want)
			}
		})
	}
}

func formatValue(v any) string {
	switch v := v.(type) {
	case *big.Int:
		return v.String()
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	return "<not constant>"
}

// TestImplicitCasts checks which conversions happen without a cast: only
// those P4-16 §8.11.2 allows.
func TestImplicitCasts(t *testing.T) {
	tests := []struct {
		name string
		src  string
		err  string // "" when accepted
	}{
		{"int constant to bit<W>", "const bit<8> X = 5;", ""},
		{"bit<W> to a wider bit<W> needs a cast", "const bit<16> X = 8w5;", "cannot use a value of type bit<8> as bit<16>"},
		{"bit<1> to bool needs a cast", "const bool X = 1w1;", "cannot use a value of type bit<1> as bool"},
		{"bool to bit<1> needs a cast", "const bit<1> X = true;", "cannot use a value of type bool as bit<1>"},
		{"bit<W> to int<W> needs a cast", "const int<8> X = 8w5;", "cannot use a value of type bit<8> as int<8>"},
		{"typedef is the same type", "typedef bit<8> B; const B X = 8w5;", ""},
		{"new type needs a cast", "type bit<8> B; const B X = 8w5;", "cannot use a value of type bit<8> as B"},
		{"new type with a cast", "type bit<8> B; const B X = (B)8w5;", ""},
		{"serializable enum from its bits needs a cast", "enum bit<8> E { A = 1 } const E X = 8w1;", "cannot use a value of type bit<8> as E"},
		{"bit<W> and int<W> cast needs equal width", "const int<16> X = (int<16>)8w5;", "cannot cast bit<8> to int<16>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, d := checkSrc(t, tc.src)
			got := ""
			if d.HasErrors() {
				got = d.Items()[0].Msg
			}
			if tc.err == "" && got != "" {
				t.Errorf("want accepted, got %q", got)
			}
			if tc.err != "" && !strings.Contains(got, tc.err) {
				t.Errorf("got error %q, want one containing %q", got, tc.err)
			}
		})
	}
}

// TestParseAmbiguities checks the constructs the typename pre-scan exists
// for: casts against parenthesized expressions, generic calls against
// comparisons, and declarations against expressions.
func TestParseAmbiguities(t *testing.T) {
	const decls = "#include <core.p4>\ntypedef bit<8> T;\nextern E<X> { E(); X get(); }\n"
	tests := []struct {
		name string
		body string // statements of a control's apply block, with a and b of type T
		want string // the printed IR of the last statement
	}{
		{"(T) -a is a cast of -a", "a = (T) -b;", "a = ((bit<8>) (-b));"},
		{"(a) - b is a subtraction", "a = (a) - b;", "a = (a - b);"},
		{"a < b is a comparison, not type arguments", "bool c = a < b && b > a;", "bool c = ((a < b) && (b > a));"},
		{"a >> b joins two > tokens", "a = a >> 2;", "a = (a >> 2);"},
		{"T x; declares x", "T x = a; a = x;", "a = x;"},
		{"nested type arguments close with > >", "tuple<bit<8>, tuple<bit<8>, T>> q; a = q[1][1];", "a = q[1][1];"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			src := decls + "control C(inout T a, inout T b) { apply { " + tc.body + " } }\n"
			var d diag.List
			prog, _, err := Load(context.Background(), "t.p4", []byte(src), Options{}, &d)
			if err != nil || prog == nil {
				t.Fatalf("rejected: %v %s", err, &d)
			}
			out := prog.String()
			lines := strings.Split(strings.TrimSpace(out[strings.Index(out, "apply {"):]), "\n")
			last := strings.TrimSpace(lines[len(lines)-3])
			if last != tc.want {
				t.Errorf("got %q, want %q", last, tc.want)
			}
		})
	}
}
