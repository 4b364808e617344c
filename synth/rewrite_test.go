package synth_test

import (
	"context"
	"fmt"
	"math/big"
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

// matching returns the index just past the bracket that closes the one
// at s[open].
func matching(s string, open int) int {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '(', '{':
			depth++
		case ')', '}':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return -1
}

// invertBranches turns the first if statement with an else into its
// inverse: if (!(C)) { ELSE } else { THEN }, an else-if chain's rest
// becoming the body of the first branch.
func invertBranches(b string) string {
	for from := 0; ; {
		i := strings.Index(b[from:], "if (")
		if i < 0 {
			return b
		}
		i += from
		condEnd := matching(b, i+3)
		thenOpen := strings.Index(b[condEnd:], "{") + condEnd
		thenEnd := matching(b, thenOpen)
		rest := b[thenEnd:]
		if !strings.HasPrefix(rest, " else ") {
			from = thenEnd
			continue
		}
		elseAt := thenEnd + len(" else ")
		var elseBody string
		var end int
		if strings.HasPrefix(b[elseAt:], "{") {
			end = matching(b, elseAt)
			elseBody = b[elseAt+1 : end-1]
		} else { // else if ...: the whole chain after it
			end = chainEnd(b, elseAt+len("if "))
			elseBody = "\n" + b[elseAt:end] + "\n"
		}
		cond := b[i+3 : condEnd]
		then := b[thenOpen+1 : thenEnd-1]
		return b[:i] + "if (!" + cond + ") {" + elseBody + "} else {" + then + "}" + b[end:]
	}
}

// chainEnd is the end of the if statement whose condition opens at
// cond, with all its else ifs and its else.
func chainEnd(b string, cond int) int {
	end := matching(b, cond)
	for {
		open := strings.Index(b[end:], "{") + end
		end = matching(b, open)
		if !strings.HasPrefix(b[end:], " else ") {
			return end
		}
		end += len(" else ")
		if strings.HasPrefix(b[end:], "{") {
			return matching(b, end)
		}
		end = matching(b, end+len("if "))
	}
}

// elseIfNested writes every else if as an else holding the if.
func elseIfNested(b string) string {
	for {
		i := strings.Index(b, "} else if (")
		if i < 0 {
			return b
		}
		at := i + len("} else ")
		end := chainEnd(b, at+len("if "))
		b = b[:at] + "{\n" + b[at:end] + "\n}" + b[end:]
	}
}

var (
	assignLine = regexp.MustCompile(`^\s+([\w.]+) = (.+);$`)
	identifier = regexp.MustCompile(`[\w.]+`)
)

// swapIndependent swaps each pair of consecutive assignments that do not
// read or write what the other writes.
func swapIndependent(b string) string {
	lines := strings.Split(b, "\n")
	uses := func(expr, name string) bool { return slices.Contains(identifier.FindAllString(expr, -1), name) }
	for i := 0; i+1 < len(lines); i++ {
		x, y := assignLine.FindStringSubmatch(lines[i]), assignLine.FindStringSubmatch(lines[i+1])
		if x == nil || y == nil || x[1] == y[1] || uses(x[2], y[1]) || uses(y[2], x[1]) {
			continue
		}
		lines[i], lines[i+1] = lines[i+1], lines[i]
		i++
	}
	return strings.Join(lines, "\n")
}

var declaration = regexp.MustCompile(`bit<\d+> (\w+)`)

// renameLocals renames every variable the block declares.
func renameLocals(b string) string {
	for _, m := range declaration.FindAllStringSubmatch(b, -1) {
		name := m[1]
		word := regexp.MustCompile(`(^|[^\w.])` + name + `\b`)
		b = word.ReplaceAllString(b, "${1}renamed_"+name)
	}
	return b
}

var literal = regexp.MustCompile(`(^|[\s(])(\d+)($|[\s);])`)

// unfoldConstants writes each decimal constant k of a condition or an
// assigned value as (k + 3 - 3), a constant someone folded by hand.
func unfoldConstants(e string) string {
	return literal.ReplaceAllString(e, "${1}(${2} + 3 - 3)${3}")
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
	{"first if-else inverted", invertBranches},
	{"else if as a nested if", elseIfNested},
	{"independent assignments swapped", swapIndependent},
	{"temporaries renamed", renameLocals},
	{"constants unfolded in conditions", inConditions(unfoldConstants)},
	{"constants unfolded in assigned values", eachAssignment(func(ind, l, r string, _ int) string {
		return fmt.Sprintf("%s%s = %s;", ind, l, unfoldConstants(r))
	})},
}

// variants are the distinct rewritings of block, each rewriting alone.
func variants(block string) (names, blocks []string) {
	for _, r := range rewritings {
		if b := r.apply(block); b != block && !slices.Contains(blocks, b) {
			names, blocks = append(names, r.name), append(blocks, b)
		}
	}
	return names, blocks
}

var registerDecl = regexp.MustCompile(`register<[^(]*\(([^)]*)\) (\w+);`)

// renameRegisters gives the registers of src new names that sort the
// other way round (the cells of a transaction are listed by name), and
// returns the new names by old.
func renameRegisters(src string) (string, map[string]string) {
	var names []string
	for _, m := range registerDecl.FindAllStringSubmatch(src, -1) {
		names = append(names, m[2])
	}
	slices.Sort(names)
	renamed := map[string]string{}
	for i, n := range names {
		renamed[n] = fmt.Sprintf("r%d_%s", len(names)-i, n)
		src = regexp.MustCompile(`\b`+n+`\b`).ReplaceAllString(src, renamed[n])
	}
	return src, renamed
}

// renamedTarget is a target whose registers were renamed: it takes and
// gives the original names.
type renamedTarget struct {
	interp.Target
	names map[string]string
}

func (r renamedTarget) RegisterWrite(name string, i uint64, v *big.Int) error {
	return r.Target.RegisterWrite(r.names[name], i, v)
}

func (r renamedTarget) RegisterRead(name string, i uint64) (*big.Int, error) {
	return r.Target.RegisterRead(r.names[name], i)
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

// TestRewritingsKeepTheStageCount: every rewriting of each of the 14
// benchmarks (its registers renamed too) means what the original means
// (the interpreter agrees on 2,000 packets) and synthesizes to as many
// stages with the grammars of its Table 4 rows: its Banzai atom, and
// Tofino's ALUs for the 10 with a Tofino row ("" below). Canonical terms
// make most rewritings the same transaction, whose queries the shared
// cache answers.
func TestRewritingsKeepTheStageCount(t *testing.T) {
	if testing.Short() {
		t.Skip("synthesizes hundreds of programs")
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
			names, blocks := variants(src[start:end])
			t.Logf("rewritings: %s", strings.Join(names, "; "))
			if len(blocks) < 10 {
				t.Fatalf("%d rewritings, want 10 or more", len(blocks))
			}
			var texts []string
			for _, b := range blocks {
				texts = append(texts, src[:start]+b+src[end:])
			}
			renamedSrc, renamed := renameRegisters(src)
			names, texts = append(names, "registers renamed"), append(texts, renamedSrc)
			for i, text := range texts {
				variant := corpus.LoadSource(t, row.file, []byte(text))
				ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
				rw := func() (interp.Target, error) {
					sw, err := interp.New(variant, interp.Options{})
					if names[i] == "registers renamed" {
						return renamedTarget{sw, renamed}, err
					}
					return sw, err
				}
				d, err := interp.Diff(ref, rw, interp.NewGenerator(prog, int64(i)).Case(2000, 2, i), interp.RegisterCells(prog))
				if err != nil {
					t.Fatal(err)
				}
				if d != nil {
					t.Fatalf("rewriting %q changes the meaning: %v\n%s", names[i], d, text)
				}
				vtx, err := synth.Preprocess(corpus.AtomicAction(t, variant))
				if err != nil {
					t.Fatalf("rewriting %q: %v", names[i], err)
				}
				vg, _, err := synth.Synthesize(context.Background(), vtx, stateful, stateless, synth.Options{Cache: cache})
				if err != nil {
					t.Fatalf("rewriting %q: %v\n%s", names[i], err, text)
				}
				if vg.Depth() != g.Depth() {
					t.Errorf("rewriting %q: %d stages, the original %d", names[i], vg.Depth(), g.Depth())
				}
			}
		})
	}
}
