package synth

import (
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
)

// dnsChanges is the TTL change count: the program's last != ttl, a
// difference tested against 0 (input minus state), in a ?: of one
// polarity (== 0, the arms swapped).
const dnsChanges = "((seen[hdr.app.domain]_pre == 32w0) ? 32w0 : (((hdr.app.ttl - last_ttl[hdr.app.domain]_pre) == 32w0) ? ttl_change[hdr.app.domain]_pre : (ttl_change[hdr.app.domain]_pre + 32w1)))"

// TestPreprocess checks the terms of two benchmarks against the programs:
// branches become ?:, register reads become pre-states, writes post-states.
func TestPreprocess(t *testing.T) {
	tests := []struct {
		file    string
		cells   []string // cell: post-state
		outputs []string // field = value
	}{
		{"sampling.p4",
			[]string{"count[32w0]: ((count[32w0]_pre == 32w29) ? 32w0 : (count[32w0]_pre + 32w1))"},
			[]string{"hdr.app.sample = ((count[32w0]_pre == 32w29) ? 32w1 : 32w0)"}},
		{"blue_increase.p4",
			[]string{
				"last_update[32w0]: ((last_update[32w0]_pre < (hdr.app.now - 32w10)) ? hdr.app.now : last_update[32w0]_pre)",
				"p_mark[32w0]: ((last_update[32w0]_pre < (hdr.app.now - 32w10)) ? (p_mark[32w0]_pre + 32w1) : p_mark[32w0]_pre)",
			},
			[]string{"hdr.app.p_mark = ((last_update[32w0]_pre < (hdr.app.now - 32w10)) ? (p_mark[32w0]_pre + 32w1) : p_mark[32w0]_pre)"}},
		{"marple_new_flow.p4",
			[]string{"seen[hdr.app.flow]: ((seen[hdr.app.flow]_pre == 32w0) ? 32w1 : seen[hdr.app.flow]_pre)"},
			[]string{"hdr.app.new_flow = ((seen[hdr.app.flow]_pre == 32w0) ? 32w1 : 32w0)"}},
		// last != ttl becomes a difference tested against 0, the input
		// first; last = (last != ttl) ? ttl : last is ttl.
		{"dns_ttl_change.p4",
			[]string{
				"last_ttl[hdr.app.domain]: hdr.app.ttl", // cells by name
				"seen[hdr.app.domain]: ((seen[hdr.app.domain]_pre == 32w0) ? 32w1 : seen[hdr.app.domain]_pre)",
				"ttl_change[hdr.app.domain]: " + dnsChanges,
			},
			[]string{"hdr.app.changes = " + dnsChanges}},
		// cnt + 1 == 1000 becomes cnt == 999: no adder before the compare.
		{"snap_heavy_hitter.p4",
			[]string{
				"hh_counter[hdr.app.flow]: ((is_heavy[hdr.app.flow]_pre == 32w0) ? (hh_counter[hdr.app.flow]_pre + 32w1) : hh_counter[hdr.app.flow]_pre)",
				"is_heavy[hdr.app.flow]: ((is_heavy[hdr.app.flow]_pre == 32w0) ? ((hh_counter[hdr.app.flow]_pre == 32w999) ? 32w1 : is_heavy[hdr.app.flow]_pre) : is_heavy[hdr.app.flow]_pre)",
			},
			[]string{"hdr.app.heavy = ((is_heavy[hdr.app.flow]_pre == 32w0) ? ((hh_counter[hdr.app.flow]_pre == 32w999) ? 32w1 : is_heavy[hdr.app.flow]_pre) : is_heavy[hdr.app.flow]_pre)"}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			prog := corpus.Load(t, tc.file)
			tx, err := Preprocess(corpus.AtomicAction(t, prog))
			if err != nil {
				t.Fatal(err)
			}
			var cells, outs []string
			for _, c := range tx.Cells {
				cells = append(cells, c.Name+": "+c.Post.String())
			}
			for _, o := range tx.Outputs {
				outs = append(outs, o.Name+" = "+o.Value.String())
			}
			if strings.Join(cells, "\n") != strings.Join(tc.cells, "\n") {
				t.Errorf("cells:\n%s\nwant\n%s", strings.Join(cells, "\n"), strings.Join(tc.cells, "\n"))
			}
			if strings.Join(outs, "\n") != strings.Join(tc.outputs, "\n") {
				t.Errorf("outputs:\n%s\nwant\n%s", strings.Join(outs, "\n"), strings.Join(tc.outputs, "\n"))
			}
		})
	}
}

// TestPreprocessNoSimplify: without simplification, identities the
// frontend cannot fold (they read a variable) stay in the terms.
func TestPreprocessNoSimplify(t *testing.T) {
	prog := corpus.CounterProgram(t, `
            if (hdr.app.sample == hdr.app.sample && c == 29) {
                c = c * 0;
            } else {
                c = c + 1 - 0;
            }`)
	tests := []struct {
		raw  bool
		want string
	}{
		{false, "((count[32w0]_pre == 32w29) ? 32w0 : (count[32w0]_pre + 32w1))"},
		{true, "(((hdr.app.sample == hdr.app.sample) & (count[32w0]_pre == 32w29)) ? (count[32w0]_pre * 32w0) : ((count[32w0]_pre + 32w1) - 32w0))"},
	}
	for _, tc := range tests {
		tx, err := PreprocessWith(corpus.AtomicAction(t, prog), PreprocessOptions{NoSimplify: tc.raw})
		if err != nil {
			t.Fatal(err)
		}
		if got := tx.Cells[0].Post.String(); got != tc.want {
			t.Errorf("NoSimplify %v: %s, want %s", tc.raw, got, tc.want)
		}
	}
}

// TestEqualityConstantRight: written with the constant on the left (as a
// rewriting flips them), an equality is the same term: 0 == x is x == 0,
// and 1000 == x + 1 is x == 999 (SNAP's flipped comparisons synthesized
// to no pair configuration before).
func TestEqualityConstantRight(t *testing.T) {
	b := NewBuilder()
	x := b.Input("x", nil, 32)
	one, zero, k := b.Const(1, 32), b.Const(0, 32), b.Const(1000, 32)
	for _, op := range []Op{OpEq, OpNe} {
		if l, r := b.Binary(op, zero, x), b.Binary(op, x, zero); l != r {
			t.Errorf("%s and %s are two terms", l, r)
		}
		if l, r := b.Binary(op, k, b.Binary(OpAdd, x, one)), b.Binary(op, x, b.Const(999, 32)); l != r {
			t.Errorf("%s, want %s", l, r)
		}
	}
}

// TestConstantsReassociated: a chain of one associative operation with
// constants is one operation (SipHash's first rounds add and xor key
// constants in a row), and a constant minus a sum is left alone.
func TestConstantsReassociated(t *testing.T) {
	b := NewBuilder()
	x := b.Input("x", nil, 32)
	c := func(v uint64) *Term { return b.Const(v, 32) }
	tests := []struct {
		name      string
		got, want *Term
	}{
		{"sum", b.Binary(OpAdd, b.Binary(OpAdd, x, c(5)), c(7)), b.Binary(OpAdd, x, c(12))},
		{"sum, constant first", b.Binary(OpAdd, c(7), b.Binary(OpAdd, c(5), x)), b.Binary(OpAdd, x, c(12))},
		{"difference then sum", b.Binary(OpAdd, b.Binary(OpSub, x, c(5)), c(7)), b.Binary(OpAdd, x, c(2))},
		{"sum then difference", b.Binary(OpSub, b.Binary(OpAdd, x, c(5)), c(7)), b.Binary(OpAdd, x, c(0xfffffffe))},
		{"to nothing", b.Binary(OpSub, b.Binary(OpAdd, x, c(5)), c(5)), x},
		{"xor", b.Binary(OpXor, b.Binary(OpXor, x, c(0xf0)), c(0x0f)), b.Binary(OpXor, x, c(0xff))},
		{"and", b.Binary(OpAnd, b.Binary(OpAnd, x, c(0xff)), c(0x0f)), b.Binary(OpAnd, x, c(0x0f))},
		{"or", b.Binary(OpOr, b.Binary(OpOr, x, c(1)), c(2)), b.Binary(OpOr, x, c(3))},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.got, tc.want)
		}
	}
	// 7 - (x + 5) is 2 - x, which is not x + anything: it stays.
	if got := b.Binary(OpSub, c(7), b.Binary(OpAdd, x, c(5))); got.Op != OpSub || !got.Args[0].IsConst() {
		t.Errorf("7 - (x + 5) became %s", got)
	}
	// Different operations do not fold: (x ^ 1) + 2 stays two.
	if got := b.Binary(OpAdd, b.Binary(OpXor, x, c(1)), c(2)); got.Op != OpAdd || got.Args[0].Op != OpXor {
		t.Errorf("(x ^ 1) + 2 became %s", got)
	}
}

// TestSaturatingComparisonReordered: (a |-| b) > c and (a |-| c) > b both
// say a > b + c over unsigned values, so the saturating difference is
// taken with the constant, where it does not wait for b (and <= alike).
// Both forms are evaluated on every 8-bit a, b and c = 5 (the raw builder
// keeps the written form), and the rewritten term is the expected one.
func TestSaturatingComparisonReordered(t *testing.T) {
	b := NewBuilder()
	raw := NewBuilder()
	raw.raw = true
	a, last := b.Input("a", nil, 8), b.Pre(&Cell{Name: "last", Width: 8})
	five := b.Const(5, 8)
	for _, tc := range []struct {
		name      string
		got, want *Term
		written   *Term
	}{
		{"5 < (a |-| last)", b.Binary(OpLtU, five, b.Binary(OpSatSubU, a, last)),
			b.Binary(OpLtU, last, b.Binary(OpSatSubU, a, five)),
			raw.Binary(OpLtU, five, raw.Binary(OpSatSubU, a, last))},
		{"(a |-| last) <= 5", b.Binary(OpLeU, b.Binary(OpSatSubU, a, last), five),
			b.Binary(OpLeU, b.Binary(OpSatSubU, a, five), last),
			raw.Binary(OpLeU, raw.Binary(OpSatSubU, a, last), five)},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.got, tc.want)
			continue
		}
		for va := uint64(0); va < 256; va++ {
			for vl := uint64(0); vl < 256; vl++ {
				env := map[*Term]uint64{a: va, last: vl}
				if w, g := tc.written.Eval(env, map[*Term]uint64{}), tc.got.Eval(env, map[*Term]uint64{}); w != g {
					t.Fatalf("%s at a=%d last=%d: %d, written form %d", tc.name, va, vl, g, w)
				}
			}
		}
	}
	// A constant b keeps the form (it folds elsewhere), and so does a
	// comparison with a non-constant.
	if got := b.Binary(OpLtU, last, b.Binary(OpSatSubU, a, five)); got.Args[0] != last {
		t.Errorf("last < (a |-| 5) became %s", got)
	}
}

// TestWriteInOneBranch: a field one branch writes and the other leaves
// keeps its value there; an if with no else is such a branch (the
// stateful firewall's verdict was lost when only one branch set it).
func TestWriteInOneBranch(t *testing.T) {
	prog := corpus.CounterProgram(t, `
            if (c == 3) {
                hdr.app.sample = 7;
            }`)
	tx, err := Preprocess(corpus.AtomicAction(t, prog))
	if err != nil {
		t.Fatal(err)
	}
	want := "hdr.app.sample = ((count[32w0]_pre == 32w3) ? 32w7 : hdr.app.sample)"
	if len(tx.Outputs) != 1 || tx.Outputs[0].Name+" = "+tx.Outputs[0].Value.String() != want {
		var got []string
		for _, o := range tx.Outputs {
			got = append(got, o.Name+" = "+o.Value.String())
		}
		t.Errorf("outputs %q, want %q", got, want)
	}
}
