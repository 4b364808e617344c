package ir

import (
	"math/big"
	"strings"
	"testing"
)

func TestFormat(t *testing.T) {
	b8 := &Bits{Width: 8}
	h := &Struct{Kind: KindHeader, Name: "h_t", Fields: []*Field{{Name: "a", Type: b8}}}
	hdr := &VarRef{Var: &Var{Name: "hdr", Type: h}}
	a := &Member{X: hdr, Name: "a", Index: 0, T: b8}
	tests := []struct {
		e    Expr
		want string
	}{
		{&Const{T: b8, Value: big.NewInt(5)}, "8w5"},
		{&Const{T: &Bits{Width: 0}, Value: big.NewInt(0)}, "((bit<0>) 0)"},
		{&Const{T: &Bits{Width: 4, Signed: true}, Value: big.NewInt(-1)}, "(-4s1)"},
		{BoolConst(true, hdr.Span()), "true"},
		{&Binary{Op: Add, X: a, Y: &Const{T: b8, Value: big.NewInt(1)}, T: b8}, "(hdr.a + 8w1)"},
		{&Slice{X: a, Hi: 3, Lo: 0}, "hdr.a[3:0]"},
		{&IsValid{X: hdr}, "hdr.isValid()"},
		{&Cast{T: &Bits{Width: 16}, X: a}, "((bit<16>) hdr.a)"},
		{&ErrorConst{Name: "NoMatch"}, "error.NoMatch"},
	}
	for _, tc := range tests {
		if got := Format(tc.e); got != tc.want {
			t.Errorf("got %s, want %s", got, tc.want)
		}
	}
	if WidthBits(h) != 8 || WidthBits(&Stack{Elem: h, Size: 3}) != 24 || WidthBits(Bool{}) != 1 {
		t.Error("WidthBits of a header, a stack or a bool is wrong")
	}
}

// TestPrintEntries: a const entry with a priority prints in P4-16's
// syntax, `priority=N: keys: action(args);`.
func TestPrintEntries(t *testing.T) {
	b8 := &Bits{Width: 8}
	set := &Action{Name: "set", Params: []*Var{{Name: "v", Type: b8}}}
	k := &VarRef{Var: &Var{Name: "k", Type: b8}}
	tb := &Table{Name: "t", Keys: []*Key{{Expr: k, Match: MatchRange, Name: "k"}}, Actions: []*ActionRef{{Action: set}},
		Default: &ActionCall{Action: set, Args: []Expr{&Const{T: b8, Value: big.NewInt(0)}}},
		Entries: []*Entry{{Keys: []*Keyset{{Kind: KeysetRange, Value: big.NewInt(1), Hi: big.NewInt(9)}},
			Action: &ActionCall{Action: set, Args: []Expr{&Const{T: b8, Value: big.NewInt(3)}}}, Priority: 2}}}
	c := &Control{Name: "c", Actions: []*Action{set}, Tables: []*Table{tb}}
	out := (&Program{Controls: []*Control{c}}).String()
	if want := "priority=2: 1 .. 9: set(8w3);"; !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
	// In entry order, as p4c takes const entries: no priority.
	var b strings.Builder
	pr := NewPrinter(&b)
	pr.OrderEntries()
	pr.Table(tb)
	if want := "\n        1 .. 9: set(8w3);\n"; !strings.Contains(b.String(), want) || strings.Contains(b.String(), "priority") {
		t.Errorf("no %q, or a priority, in\n%s", want, b.String())
	}
	// A bool key's value prints as true or false: P4 rejects 1.
	valid := &IsValid{X: &VarRef{Var: &Var{Name: "h", Type: &Struct{Kind: KindHeader, Name: "h_t"}}}}
	tb.Keys = []*Key{{Expr: valid, Match: MatchExact}, {Expr: k, Match: MatchExact}}
	tb.Entries[0].Keys = []*Keyset{{Kind: KeysetExact, Value: big.NewInt(1)}, {Kind: KeysetExact, Value: big.NewInt(1)}}
	out = (&Program{Controls: []*Control{c}}).String()
	if want := "priority=2: (true, 1): set(8w3);"; !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
}

// TestPrintKeysets: a keyset prints as its key reads it (an error's and an
// enum member's name; P4 takes no number for them), a key that is not its
// control-plane name carries it in @name, and an empty actions list is
// P4's.
func TestPrintKeysets(t *testing.T) {
	b8 := &Bits{Width: 8}
	color := &Enum{Name: "Color", Members: []string{"Red", "Green"}}
	errKey := &VarRef{Var: &Var{Name: "e", Type: ErrorType{}}}
	colorKey := &VarRef{Var: &Var{Name: "c", Type: color}}
	sum := &Binary{Op: Add, X: &VarRef{Var: &Var{Name: "x", Type: b8}}, Y: &Const{T: b8, Value: big.NewInt(1)}, T: b8}
	noop := &Action{Name: "noop"}
	tb := &Table{Name: "t",
		Keys: []*Key{{Expr: errKey, Match: MatchExact, Name: "e"}, {Expr: colorKey, Match: MatchExact, Name: "c"},
			{Expr: sum, Match: MatchExact, Name: "x_plus_1"}},
		Entries: []*Entry{{Keys: []*Keyset{{Kind: KeysetExact, Value: big.NewInt(1)}, {Kind: KeysetExact, Value: big.NewInt(1)},
			{Kind: KeysetExact, Value: big.NewInt(7)}}, Action: &ActionCall{Action: noop}}}}
	p := &Program{Errors: []string{"NoError", "PacketTooShort"}, Controls: []*Control{{Name: "c", Actions: []*Action{noop}, Tables: []*Table{tb}}}}
	out := p.String()
	for _, want := range []string{"(error.PacketTooShort, Color.Green, 7): noop();", `(x + 8w1): exact @name("x_plus_1")`, "actions = { }"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// A select's keysets too: a bool's value is true or false.
	b := &VarRef{Var: &Var{Name: "b", Type: Bool{}}}
	ps := &Parser{Name: "p", States: []*State{{Name: "start", Select: &Select{Exprs: []Expr{b},
		Cases: []*SelectCase{{Keys: []*Keyset{{Kind: KeysetExact, Value: big.NewInt(0)}}, Next: StateAccept}}}}}}
	if out := (&Program{Parsers: []*Parser{ps}}).String(); !strings.Contains(out, "false: accept;") {
		t.Errorf("no \"false: accept;\" in\n%s", out)
	}
}

// TestPrintFor: a for loop prints as P4-16 writes one, its
// initializations and updates inside the parentheses.
func TestPrintFor(t *testing.T) {
	b8 := &Bits{Width: 8}
	i := &Var{Name: "i", Type: b8}
	ref := &VarRef{Var: i}
	one := &Const{T: b8, Value: big.NewInt(1)}
	loop := &For{Init: []Stmt{&Declare{Var: i, Init: &Const{T: b8, Value: big.NewInt(0)}}},
		Cond:   &Binary{Op: Lt, X: ref, Y: &Const{T: b8, Value: big.NewInt(4)}, T: Bool{}},
		Update: []Stmt{&Assign{LHS: ref, RHS: &Binary{Op: Add, X: ref, Y: one, T: b8}}}}
	out := (&Program{Controls: []*Control{{Name: "c", Body: []Stmt{loop}}}}).String()
	if want := "for (bit<8> i = 8w0; (i < 8w4); i = (i + 8w1)) {"; !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
}
