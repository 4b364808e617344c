package synth_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// A rewriting changes an @atomic block's text without changing what it
// means: the ways people write one algorithm differently (CaT's
// mutations, Table 4).
type rewriting struct {
	name  string
	apply func(block string) string
}

var (
	condition  = regexp.MustCompile(`(?m)if \((.*)\) \{$`)
	assignment = regexp.MustCompile(`(?m)^(\s+)([\w.]+) = (.+);$`)
	// A comparison that is a whole conjunct: its sides hold no other
	// comparison or parenthesis, so swapping them keeps the precedence.
	comparison = regexp.MustCompile(`^([^<>=!()]+) (<=|>=|<|>|==|!=) ([^<>=!()]+)$`)
	sum        = regexp.MustCompile(`^([\w.]+) \+ ([\w.]+)$`)
)

// eachComparison applies f to every comparison that is a whole conjunct
// or disjunct of a condition.
func eachComparison(f func(l, op, r string) string) func(string) string {
	return inConditions(func(c string) string {
		parts := regexp.MustCompile(` (&&|\|\|) `).Split(c, -1)
		ops := regexp.MustCompile(` (&&|\|\|) `).FindAllString(c, -1)
		var b strings.Builder
		for i, p := range parts {
			if m := comparison.FindStringSubmatch(p); m != nil {
				p = f(m[1], m[2], m[3])
			}
			b.WriteString(p)
			if i < len(ops) {
				b.WriteString(ops[i])
			}
		}
		return b.String()
	})
}

// inConditions applies f to the text of every if condition.
func inConditions(f func(string) string) func(string) string {
	return func(b string) string {
		return condition.ReplaceAllStringFunc(b, func(m string) string {
			c := condition.FindStringSubmatch(m)[1]
			return "if (" + f(c) + ") {"
		})
	}
}

// eachAssignment rewrites every assignment statement `x = e;`.
func eachAssignment(f func(indent, lhs, rhs string, n int) string) func(string) string {
	return func(b string) string {
		n := 0
		return assignment.ReplaceAllStringFunc(b, func(m string) string {
			s := assignment.FindStringSubmatch(m)
			n++
			return f(s[1], s[2], s[3], n)
		})
	}
}

// reverseRuns reverses each run of consecutive lines that contain marker
// (register reads of different registers are independent; so are writes).
func reverseRuns(marker string) func(string) string {
	return func(b string) string {
		lines := strings.Split(b, "\n")
		for i := 0; i < len(lines); {
			j := i
			for j < len(lines) && strings.Contains(lines[j], marker) {
				j++
			}
			if j > i+1 {
				slices.Reverse(lines[i:j])
			}
			i = max(j, i+1)
		}
		return strings.Join(lines, "\n")
	}
}

var rewritings = []rewriting{
	{"1 == 1 && in every condition", inConditions(func(c string) string { return "1 == 1 && (" + c + ")" })},
	{"conditions negated twice", inConditions(func(c string) string { return "!(!(" + c + "))" })},
	{"|| 1 == 0 in every condition", inConditions(func(c string) string { return "(" + c + ") || 1 == 0" })},
	{"comparisons flipped", eachComparison(func(l, op, r string) string {
		flip := map[string]string{"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}
		return r + " " + flip[op] + " " + l
	})},
	{"!= as a negated ==", eachComparison(func(l, op, r string) string {
		if op == "!=" {
			return "!(" + l + " == " + r + ")"
		}
		return l + " " + op + " " + r
	})},
	{"== as a negated !=", eachComparison(func(l, op, r string) string {
		if op == "==" {
			return "!(" + l + " != " + r + ")"
		}
		return l + " " + op + " " + r
	})},
	{"+ 0 on every value assigned", eachAssignment(func(ind, l, r string, _ int) string {
		return fmt.Sprintf("%s%s = (%s) + 0;", ind, l, r)
	})},
	{"* 1 on every value assigned", eachAssignment(func(ind, l, r string, _ int) string {
		return fmt.Sprintf("%s%s = (%s) * 1;", ind, l, r)
	})},
	{"a temporary for every value assigned", eachAssignment(func(ind, l, r string, n int) string {
		return fmt.Sprintf("%sbit<32> tmp_rw%d = %s;\n%s%s = tmp_rw%d;", ind, n, r, ind, l, n)
	})},
	{"register reads reordered", reverseRuns(".read(")},
	{"register writes reordered", reverseRuns(".write(")},
	{"sums commuted", eachAssignment(func(ind, l, r string, _ int) string {
		return fmt.Sprintf("%s%s = %s;", ind, l, sum.ReplaceAllString(r, "$2 + $1"))
	})},
}

// variants are the distinct rewritings of block: each rewriting alone,
// then pairs, until there are n.
func variants(block string, n int) (names, blocks []string) {
	add := func(name, b string) {
		if b != block && !slices.Contains(blocks, b) && len(blocks) < n {
			names, blocks = append(names, name), append(blocks, b)
		}
	}
	for _, r := range rewritings {
		add(r.name, r.apply(block))
	}
	for i, r := range rewritings {
		for _, q := range rewritings[i+1:] {
			add(r.name+", "+q.name, q.apply(r.apply(block)))
		}
	}
	return names, blocks
}

// atomicBlock returns the offsets of the first @atomic block's braces.
func atomicBlock(t *testing.T, src string) (start, end int) {
	start = strings.Index(src, "@atomic {")
	if start < 0 {
		t.Fatal("no @atomic block")
	}
	depth := 0
	for i := start; i < len(src); i++ {
		switch src[i] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return start, i + 1
			}
		}
	}
	t.Fatal("unbalanced @atomic block")
	return 0, 0
}

// TestRewritingsKeepTheStageCount: ten rewritings of each of the 14
// benchmarks mean what the original means (the interpreter agrees on
// 2,000 packets) and synthesize to as many stages with the grammars of
// its Table 4 rows: its Banzai atom, and Tofino's ALUs for the 10 with a
// Tofino row ("" below).
func TestRewritingsKeepTheStageCount(t *testing.T) {
	if testing.Short() {
		t.Skip("synthesizes 264 programs")
	}
	rows := []struct{ file, atom string }{
		{"blue_increase.p4", "pred_raw"},
		{"blue_decrease.p4", "sub"},
		{"flowlet.p4", "pred_raw"},
		{"marple_new_flow.p4", "pred_raw"},
		{"marple_tcp_nmo.p4", "pred_raw"},
		{"sampling.p4", "if_else_raw"},
		{"rcp.p4", "pred_raw"},
		{"dns_ttl_change.p4", "nested_ifs"},
		{"conga.p4", "pair"},
		{"learn_filter.p4", "raw"},
		{"stfq.p4", "nested_ifs"},
		{"stateful_firewall.p4", "pred_raw"},
		{"snap_heavy_hitter.p4", "pair"},
		{"spam_detection.p4", "pair"},
		{"blue_increase.p4", ""},
		{"blue_decrease.p4", ""},
		{"flowlet.p4", ""},
		{"marple_new_flow.p4", ""},
		{"marple_tcp_nmo.p4", ""},
		{"sampling.p4", ""},
		{"rcp.p4", ""},
		{"snap_heavy_hitter.p4", ""},
		{"dns_ttl_change.p4", ""},
		{"conga.p4", ""},
	}
	cache := synth.NewMemoryCache()
	for _, row := range rows {
		grammars := row.atom
		if grammars == "" {
			grammars = "tofino"
		}
		t.Run(row.file+"/"+grammars, func(t *testing.T) {
			var prog *ir.Program
			var tx *synth.Transaction
			var stateful, stateless *grammar.Grammar
			if row.atom == "" {
				prog, tx, stateful, stateless = setupTofino(t, row.file)
			} else {
				prog, tx, stateful, stateless = setup(t, row.file, row.atom)
			}
			g, _, err := synth.Synthesize(context.Background(), tx, stateful, stateless, synth.Options{Cache: cache})
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(filepath.Join(corpus.Dir(), "ok", row.file))
			if err != nil {
				t.Fatal(err)
			}
			src := string(data)
			start, end := atomicBlock(t, src)
			names, blocks := variants(src[start:end], 10)
			t.Logf("rewritings: %s", strings.Join(names, "; "))
			if len(blocks) < 10 {
				t.Fatalf("%d rewritings, want 10", len(blocks))
			}
			for i, b := range blocks {
				text := src[:start] + b + src[end:]
				variant := corpus.LoadSource(t, row.file, []byte(text))
				ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
				rw := func() (interp.Target, error) { return interp.New(variant, interp.Options{}) }
				d, err := interp.Diff(ref, rw, interp.NewGenerator(prog, int64(i)).Case(2000, 2, i), interp.RegisterCells(prog))
				if err != nil {
					t.Fatal(err)
				}
				if d != nil {
					t.Fatalf("rewriting %q changes the meaning: %v\n%s", names[i], d, b)
				}
				vtx, err := synth.Preprocess(corpus.AtomicAction(t, variant))
				if err != nil {
					t.Fatalf("rewriting %q: %v", names[i], err)
				}
				vg, _, err := synth.Synthesize(context.Background(), vtx, stateful, stateless, synth.Options{Cache: cache})
				if err != nil {
					t.Fatalf("rewriting %q: %v\n%s", names[i], err, b)
				}
				if vg.Depth() != g.Depth() {
					t.Errorf("rewriting %q: %d stages, the original %d\n%s", names[i], vg.Depth(), g.Depth(), b)
				}
			}
		})
	}
}
