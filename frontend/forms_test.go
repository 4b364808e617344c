package frontend

import (
	"strings"
	"testing"
)

// TestP4cForms checks forms p4c accepts that testdata/p4/ok/p4c_forms.p4
// cannot run (they do not lower to the IR, or need an architecture of their
// own): each program must check without errors.
func TestP4cForms(t *testing.T) {
	tests := []struct{ name, src string }{
		{"generic struct, instantiated twice", `
struct pair<T> { T a; T b; }
const pair<bit<8>> P = { a = 1, b = 2 };
const pair<bool> Q = { a = true, b = false };`},
		{"generic header as a header field type", `
header h<T> { T f; }
struct s { h<bit<8>> x; h<bit<16>> y; }`},
		{"list<T> of any length", `
extern E<T> { E(list<T> data); }
control C() { E<bit<8>>((list<bit<8>>) {1, 2, 3}) e; apply {} }`},
		{"tuple<> and an empty list", `
const tuple<> NONE = {};`},
		{"an array of extern instances", `
extern R { R(); bit<8> get(); }
control C(out bit<8> x) { R() rs[4]; apply { x = rs[2].get(); } }`},
		{"this in an abstract method", `
extern Acc { Acc(); bit<8> base(); abstract bit<8> next(in bit<8> v); }
control C(inout bit<8> x) {
    Acc() acc = { bit<8> next(in bit<8> v) { return v + this.base(); } };
    apply { x = acc.next(x); }
}`},
		{"@optional parameters left out", `
extern void f(in bit<8> a, @optional in bit<8> b);
control P(in bit<8> a, @optional in bit<8> b);
control C1(in bit<8> a) { apply { f(a); f(a, a); } }
package Pkg(P p);
Pkg(C1()) main;`},
		{"_ as a type argument to infer", `
extern Reg<T, I> { Reg(bit<32> n); }
extern RegAction<T, I, U> { RegAction(Reg<_, _> r); U exec(in I i); }
control C(out bit<16> y) {
    Reg<bit<32>, bit<8>>(16) r;
    RegAction<bit<32>, bit<8>, bit<16>>(r) ra;
    apply { y = ra.exec(1); }
}`},
		{"a package argument of a value type", `
control Ct();
package Top(Ct c, bool flag);
control C() { apply {} }
Top(C(), true) main;`},
		{"a generic parser type applied directly with type arguments", `
parser P<T>(in T x) { state start { transition accept; } }
parser Q() { state start { P<bit<8>>.apply(8w1); transition accept; } }`},
		{"a call resolved by arity past an action of the same name", `
extern void hash(out bit<8> r, in bit<8> a);
control C(inout bit<8> x) {
    action hash() { hash(x, 8w1); }
    apply { hash(); }
}`},
		{"overloads told apart by argument names", `
bit<8> add(in bit<8> a, in bit<8> b) { return a + b; }
bit<8> add(in bit<8> c, in bit<8> d) { return c - d; }
control C(inout bit<8> x) { apply { x = add(c = x, d = 1); } }`},
		{"strings concatenate", `
extern void log(string s);
control C() { apply { log("a" ++ " b"); } }`},
		{"bit<0> and an empty header stack", `
header h { bit<0> nothing; bit<8> f; }
struct s { h[0] none; }`},
		{"select on a tuple", `
parser P(in bit<8> a) {
    state start { transition select(a, {a, a}) { (1, {2, 3}): accept; default: reject; } }
}`},
		{"a built-in method named like a field", `
header h { bit<8> isValid; bit<8> minSizeInBits; }
control C(in h x, out bool v, out bit<32> n) { apply { v = x.isValid(); n = x.minSizeInBits(); } }`},
		{"a header with two varbit fields", `
header h { varbit<8> a; varbit<16> b; }`},
		{"a shift by a serializable enum", `
enum bit<8> E { A = 2 }
const bit<8> X = 8w1 << E.A;`},
		{"a table sized by a constructor parameter, and size 0", `
control C()(bit<32> n) {
    table t { actions = { NoAction; } size = n; }
    table u { actions = { NoAction; } size = 0; }
    apply { t.apply(); u.apply(); }
}`},
		{"an instance declared in an object initializer", `
extern S { S(bit<32> n); }
extern V { V(); abstract void run(); }
control C() { V() v = { S(1024) s; void run() {} }; apply {} }`},
		{"a method type parameter named like the extern's", `
extern E<D> { E(); void f<D>(in D d); }`},
		{"variables and parameters named like types, inside blocks", `
extern counter { counter(); }
struct c { bit<8> f; }
control C(inout bit<16> x) {
    bit<16> counter;
    action a(in bool c) { counter = c ? 16w1 : 16w0; }
    apply { counter = 0; bool c = true; if (c) { x = counter; } }
}`},
		{"a field named like its type, then another field of that type", `
header t1 { bit<8> x; }
struct headers { t1 t1; t1 t2; }`},
		{"a control's locals shadow its parameters", `
control C(inout bit<8> p) { bit<8> p = 1; apply { } }`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, d := checkSrc(t, "#include <core.p4>\n"+tc.src+"\n")
			if d.HasErrors() {
				t.Errorf("rejected: %s", d)
			}
		})
	}
}

// TestP4cFormValues checks the values of constants p4c's forms give,
// worked out by hand: sizes, aggregates, defaults.
func TestP4cFormValues(t *testing.T) {
	tests := []struct {
		name, decls, typ, expr, want string
	}{
		{"minSizeInBits counts a varbit field as empty", "header h { bit<8> a; varbit<16> v; bit<4> b; }", "bit<32>", "h.minSizeInBits()", "12"},
		{"maxSizeInBits counts a varbit field full", "header h { bit<8> a; varbit<16> v; bit<4> b; }", "bit<32>", "h.maxSizeInBits()", "28"},
		{"minSizeInBytes rounds up", "header h { bit<8> a; varbit<16> v; bit<4> b; }", "bit<32>", "h.minSizeInBytes()", "2"},
		{"a field of a constant struct", "struct s { bit<8> a; bit<8> b; } const s S = { b = 7, a = 3 };", "bit<8>", "S.b", "7"},
		{"an element of a constant tuple", "", "bit<8>", "{8w1, 8w9}[1]", "9"},
		{"constant structs compare by fields", "struct s { bit<8> a; } const s A = { a = 1 }; const s B = { a = 1 };", "bool", "A == B", "true"},
		{"... is the default value, 0", "", "bit<8>", "...", "0"},
		{"a serializable enum adds as its bits", "enum bit<8> E { A = 1, B = 2 }", "bit<8>", "E.A + E.B", "3"},
		{"{v} is v", "", "bit<8>", "{8w5}", "5"},
		{"an integer constant is a new type's value", "type bit<8> T;", "T", "300", "44"},
		{"x[lo +: w] of constants", "", "bit<4>", "8w0xa5[2 +: 4]", "9"},
		{"underscores after a base prefix", "", "bit<8>", "8w0b_1010_0101", "165"},
		{"a width written as a sum", "const bit<32> W = 4;", "bit<W + 4>", "255", "255"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, d := checkSrc(t, "#include <core.p4>\n"+tc.decls+"\nconst "+tc.typ+" X = "+tc.expr+";\n")
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

// TestStaticAssert: a false static_assert is an error with its message.
func TestStaticAssert(t *testing.T) {
	_, d := checkSrc(t, "#include <core.p4>\nconst bool ok = static_assert(8 > 9, \"too narrow\");\n")
	if !d.HasErrors() || !strings.Contains(d.Items()[0].Msg, "static assertion failed: too narrow") {
		t.Errorf("got %s, want a failed static assertion", d)
	}
}
