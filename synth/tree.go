package synth

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar"
)

// tree is the sketch of CaT's stateless synthesis (§3.2, step 6): levels
// of stateless ALUs, the last level one ALU (the root), each ALU's inputs
// chosen by a hole among the values its level may read: operands (fields
// and values computed before) that have arrived by its stage, and the
// outputs of the level below. Its inputs, the variables the spec is
// quantified over, are the primaries: fields, hashes and pre-state values
// the operands and the spec are terms of. An operand need not be a
// subterm of the spec: a tree may compute a value from a stateful ALU's
// new state when the spec reads the old one (STFQ's start time is the new
// finish time minus the length).
type tree struct {
	alu      *grammar.Grammar
	inputs   []*Term // the primaries
	operands []*Term
	// visible[l] lists the operands level l may read.
	visible [][]int
	nodes   [][]treeNode
	holeSet []*grammar.Hole
}

// treeNode is one ALU of a tree: its grammar holes start at base; sel[j]
// is the hole choosing its packet input j.
type treeNode struct {
	base int
	sel  []int
}

// newTree lays out a tree whose levels hold widths[l] ALUs (the last
// holds the root); level l reads the operands listed in visible[l].
func newTree(alu *grammar.Grammar, inputs, operands []*Term, widths []int, visible [][]int) *tree {
	t := &tree{alu: alu, inputs: inputs, operands: operands, visible: visible}
	for l, w := range widths {
		alts := len(visible[l])
		if l > 0 {
			alts += widths[l-1]
		}
		var level []treeNode
		for k := 0; k < w; k++ {
			n := treeNode{base: len(t.holeSet)}
			for _, h := range alu.Holes {
				c := *h
				c.Label = fmt.Sprintf("level %d ALU %d %s", l, k, h.Label)
				t.holeSet = append(t.holeSet, &c)
			}
			for j := range alu.Packets {
				n.sel = append(n.sel, len(t.holeSet))
				t.holeSet = append(t.holeSet, &grammar.Hole{
					Kind: grammar.HoleChoice, Bits: bitsFor(alts), Alternatives: alts,
					Label: fmt.Sprintf("level %d ALU %d input %d", l, k, j),
				})
			}
			level = append(level, n)
		}
		t.nodes = append(t.nodes, level)
	}
	return t
}

// bitsFor is the width of a selector among n alternatives.
func bitsFor(n int) int {
	b := 1
	for 1<<uint(b) < n {
		b++
	}
	return b
}

func (t *tree) name() string                 { return "tree of " + t.alu.Name }
func (t *tree) grammar() *grammar.Grammar    { return t.alu }
func (t *tree) holes() []*grammar.Hole       { return t.holeSet }
func (t *tree) arity() (states, packets int) { return 0, len(t.inputs) }

// shape describes the layout for the query cache.
func (t *tree) shape() string {
	var b strings.Builder
	for l, level := range t.nodes {
		fmt.Fprintf(&b, "level %d: %d ALUs, operands %v\n", l, len(level), t.visible[l])
	}
	return b.String()
}

func (t *tree) encode(x *z3.Context, holes, _, packets []z3.Expr, width int) (ALUTerms, error) {
	enc := newTermEncoder(x, width, t.operands)
	for i, in := range t.inputs {
		enc.bind(in, packets[i])
	}
	ops := make([]z3.Expr, len(t.operands))
	for i, o := range t.operands {
		ops[i] = enc.encode(o)
	}
	var below []z3.Expr
	for l, level := range t.nodes {
		alts := make([]z3.Expr, 0, len(t.visible[l])+len(below))
		for _, i := range t.visible[l] {
			alts = append(alts, ops[i])
		}
		alts = append(alts, below...)
		var outs []z3.Expr
		for _, n := range level {
			ins := make([]z3.Expr, len(n.sel))
			for j, h := range n.sel {
				ins[j] = choose(x, holes[h], alts)
			}
			terms, err := EncodeALU(x, t.alu, holes[n.base:n.base+len(t.alu.Holes)], nil, ins, width)
			if err != nil {
				return ALUTerms{}, err
			}
			outs = append(outs, terms.Output)
		}
		below = outs
	}
	return ALUTerms{Output: below[0]}, nil
}

// choose picks alts[sel], the last alternative for values past the end
// (the grammar's choose).
func choose(x *z3.Context, sel z3.Expr, alts []z3.Expr) z3.Expr {
	e := alts[len(alts)-1]
	for i := len(alts) - 2; i >= 0; i-- {
		e = x.Ite(sel.Eq(x.BV(uint64(i), sel.Width())), alts[i], e)
	}
	return e
}

// pick is the alternative a selector value picks: an operand (operand
// true, index into operands) or an ALU of the level below.
func (t *tree) pick(l int, v uint64) (operand bool, index int) {
	alts := len(t.visible[l])
	if l > 0 {
		alts += len(t.nodes[l-1])
	}
	i := int(min(v, uint64(alts-1)))
	if i < len(t.visible[l]) {
		return true, t.visible[l][i]
	}
	return false, i - len(t.visible[l])
}

// treeBudget is the most work one tree query may take. The trees found
// over the corpus (every Table 4 row, SipHash) took at most 2.6 million
// units of it (SipHash; learn filter on raw 1.9); most of those that find
// nothing run to the end of it.
const treeBudget = 300 * time.Millisecond

// maxTreeGain bounds the stages a tree is expected to save over one ALU
// per operation: terms deeper than that are left to that fallback.
const maxTreeGain = 3

// maxTreeLevels bounds the trees tried before falling back to one ALU per
// operation: deeper sketches grow past what the solver answers quickly.
const maxTreeLevels = 3

// treeOperands lists what a tree computing t may read: the values t is
// made of that are available (fields, hashes, values computed before),
// and for every state t reads whose value is not available, the values
// computed from that state (a stateful ALU's output) and what they read.
func (s *synthesizer) treeOperands(t *Term) []*Term {
	var ops []*Term
	add := func(u *Term) {
		if !u.IsConst() && !slices.Contains(ops, u) {
			ops = append(ops, u)
		}
	}
	for _, l := range s.leaves(t) {
		if _, done := s.done[l]; done || l.Op != OpPre {
			add(l)
			continue
		}
		for d := range s.done {
			if !d.IsConst() && slices.Contains(d.Leaves(), l) {
				add(d)
				for _, a := range d.Args {
					for _, dl := range s.leaves(a) {
						if dl.Op != OpPre {
							add(dl)
						}
					}
				}
			}
		}
	}
	// Map order must not decide the layout (the cache key includes it).
	slices.SortStableFunc(ops, func(a, b *Term) int { return s.arrival(a) - s.arrival(b) })
	return ops
}

// perOperationDepth is the stage at which t is ready when every operation
// takes one ALU: the fallback's depth, which a tree must beat.
func (s *synthesizer) perOperationDepth(t *Term, memo map[*Term]int) int {
	if _, done := s.done[t]; done || t.IsLeaf() || t.IsConst() {
		return s.arrival(t)
	}
	if d, ok := memo[t]; ok {
		return d
	}
	d := 0
	for _, a := range t.Args {
		d = max(d, s.perOperationDepth(a, memo))
	}
	if t.Op != OpZext || t.Width > s.width {
		d++
	}
	memo[t] = d
	return d
}

// treeQueries lays out the trees to try for t over ops, shallowest first
// and, at one depth, fewest levels first (none for a term far deeper than
// a tree): a tree whose root is at stage D and that has h levels reads at
// level l the operands that have arrived by stage D-h+l. Trees no
// shallower than limit are not tried.
func (s *synthesizer) treeQueries(t *Term, ops []*Term, limit int) ([]*tree, []sketchQuery) {
	arrivals := make([]int, len(ops))
	first := -1
	for i, o := range ops {
		arrivals[i] = s.arrival(o)
		if first < 0 || arrivals[i] < first {
			first = arrivals[i]
		}
	}
	if limit-first > maxTreeGain+maxTreeLevels {
		// A tree of three levels will not do what a chain of many more
		// operations does; its queries would be slow for nothing (8
		// SipRounds: a hundred operations on one word).
		return nil, nil
	}
	inputs := s.treeInputs(t, ops)
	if len(inputs) == 0 {
		return nil, nil // a constant left unfolded (--no-preprocess): no tree to search
	}
	spread := min(len(s.stateless.Packets), 2)
	var trees []*tree
	var queries []sketchQuery
	seen := map[string]bool{}
	for stage := first + 1; stage < limit; stage++ {
		for levels := 1; levels <= min(maxTreeLevels, stage-first); levels++ {
			perLevel := make([]int, levels)
			visible := make([][]int, levels)
			for l := range perLevel {
				perLevel[l] = spread
				for i, a := range arrivals {
					if a <= stage-levels+l {
						visible[l] = append(visible[l], i)
					}
				}
			}
			// A later stage that sees what an earlier one saw is the
			// same tree, later: of a term over fields alone, only the
			// first three stages differ.
			shape := fmt.Sprint(visible)
			if seen[shape] {
				continue
			}
			seen[shape] = true
			perLevel[levels-1] = 1
			tr := newTree(s.stateless, inputs, ops, perLevel, visible)
			spec := s.treeSpec(tr, t)
			trees = append(trees, tr)
			queries = append(queries, sketchQuery{tr, spec})
		}
	}
	return trees, queries
}

// treeInputs lists the variables a tree query over ops quantifies over.
// When t is made of ops alone (no state it reads is missing), those are
// the operands themselves: a tree that computes t from any operand values
// computes it from theirs, and the query stays the size of t's last few
// operations however long the chain below the operands is (8 SipRounds
// over one message word: a spec over the message is hundreds of
// operations deep, one over the operands a handful). Otherwise, they are
// the primaries, so the query can see how a state's new value relates to
// its old one.
func (s *synthesizer) treeInputs(t *Term, ops []*Term) []*Term {
	for _, l := range s.leaves(t) {
		if !l.IsConst() && !slices.Contains(ops, l) {
			return primaries(append([]*Term{t}, ops...))
		}
	}
	return ops
}

// statelessTree computes t by the shallowest tree of stateless ALUs that
// beats one ALU per operation, if there is one (ok false when not).
func (s *synthesizer) statelessTree(t *Term) (op Operand, ok bool, err error) {
	return s.statelessTreeBelow(t, s.perOperationDepth(t, map[*Term]int{}))
}

// statelessTreeOfAnyDepth computes t by the shallowest tree of stateless
// ALUs up to maxTreeLevels deep, for an operation no single ALU has (a
// saturating subtraction on Banzai: a comparison, a difference and a
// choice between it and 0).
func (s *synthesizer) statelessTreeOfAnyDepth(t *Term) (op Operand, ok bool, err error) {
	first := -1
	for _, o := range s.treeOperands(t) {
		if a := s.arrival(o); first < 0 || a < first {
			first = a
		}
	}
	return s.statelessTreeBelow(t, first+maxTreeLevels+1)
}

// statelessTreeBelow computes t by the shallowest tree of stateless ALUs
// whose root is in a stage before limit, if there is one.
func (s *synthesizer) statelessTreeBelow(t *Term, limit int) (op Operand, ok bool, err error) {
	ops := s.treeOperands(t)
	if len(ops) == 0 {
		return Operand{}, false, nil
	}
	trees, queries := s.treeQueries(t, ops, limit)
	// Tree queries are many and one ALU per operation is there when they
	// fail: a short budget each.
	i, cfg, _, err := s.firstConfig(queries, len(queries), min(s.attemptBudget, treeBudget), false)
	if err != nil || i < 0 {
		return Operand{}, false, err
	}
	op, err = s.addTree(trees[i], cfg)
	return op, err == nil, err
}

// addTree adds the ALUs of a configured tree that its root reads.
func (s *synthesizer) addTree(tr *tree, cfg grammar.Config) (Operand, error) {
	g := tr.alu
	built := map[[2]int]Operand{}
	var build func(l, k int) (Operand, error)
	build = func(l, k int) (Operand, error) {
		if op, ok := built[[2]int{l, k}]; ok {
			return op, nil
		}
		n := tr.nodes[l][k]
		alu := &ALU{Grammar: g, Config: append(grammar.Config(nil), cfg[n.base:n.base+len(g.Holes)]...)}
		for j, h := range n.sel {
			reads, err := readsInput(s.ctx, g, alu.Config, j, s.width)
			if err != nil {
				return Operand{}, err
			}
			if !reads {
				alu.Inputs = append(alu.Inputs, Operand{Kind: FromConst})
				continue
			}
			var in Operand
			if operand, i := tr.pick(l, cfg[h]); operand {
				in, err = s.operand(tr.operands[i])
			} else {
				in, err = build(l-1, i)
			}
			if err != nil {
				return Operand{}, err
			}
			alu.Inputs = append(alu.Inputs, in)
		}
		s.g.ALUs = append(s.g.ALUs, alu)
		op := Operand{Kind: FromALU, Index: len(s.g.ALUs) - 1}
		built[[2]int{l, k}] = op
		return op, nil
	}
	return build(len(tr.nodes)-1, 0)
}

// readsInput says whether a configured stateless ALU's output depends on
// packet input j: a tree wires only the inputs its ALUs read.
func readsInput(ctx context.Context, g *grammar.Grammar, cfg grammar.Config, j, width int) (bool, error) {
	x := z3.NewContext()
	defer x.Close()
	holes := HoleConsts(x, g.Holes, cfg)
	_, a := inputVars(x, 0, len(g.Packets), width)
	b := append([]z3.Expr(nil), a...)
	b[j] = x.BVConst("b", width)
	ta, err := EncodeALU(x, g, holes, nil, a, width)
	if err != nil {
		return false, err
	}
	tb, err := EncodeALU(x, g, holes, nil, b, width)
	if err != nil {
		return false, err
	}
	reads, err := mayDiffer(ctx, x, ta, tb)
	if err != nil {
		return false, fmt.Errorf("synth: ALU %s: %w", g.Name, err)
	}
	return reads, nil
}

// semanticOutputs lists the state values a group's ALU may output that
// do not make its needs computable term by term, but from which one
// stateless ALU computes every need (with the fields they read): STFQ's
// start time, an if-else over the old finish time, is the new one minus
// the length.
func (s *synthesizer) semanticOutputs(gr *group) []*Term {
	if len(gr.needs) == 0 {
		return nil
	}
	var outs []*Term
	for _, c := range gr.cells {
	next:
		for _, out := range []*Term{c.Pre, c.Post} {
			if covers(gr, out) {
				continue
			}
			for _, need := range gr.needs {
				if !s.oneALUFrom(need, out) {
					continue next
				}
			}
			outs = append(outs, out)
		}
	}
	return outs
}

// oneALUFrom says whether one stateless ALU computes t from out and the
// available values t and out read.
func (s *synthesizer) oneALUFrom(t, out *Term) bool {
	ops := []*Term{out}
	for _, u := range []*Term{t, out} {
		for _, l := range s.leaves(u) {
			if _, done := s.done[l]; (done || l.Op != OpPre) && !slices.Contains(ops, l) {
				ops = append(ops, l)
			}
		}
	}
	if len(ops) > 8 {
		return false // a wide mux would make the query slow; the structural outputs remain
	}
	inputs := primaries(append([]*Term{t}, ops...))
	all := make([]int, len(ops))
	for i := range all {
		all[i] = i
	}
	tr := newTree(s.stateless, inputs, ops, []int{1}, [][]int{all})
	_, err := s.query(tr, s.treeSpec(tr, t))
	return err == nil
}

// treeSpec is the spec of a tree computing t over the tree's inputs,
// under the transaction's precondition.
func (s *synthesizer) treeSpec(tr *tree, t *Term) Spec {
	return s.withAssume(treeSpecOf(tr, t), nil, tr.inputs)
}

// treeSpecOf is the spec of a tree computing t over the tree's inputs.
func treeSpecOf(tr *tree, t *Term) Spec {
	bound := map[*Term]string{}
	for i, in := range tr.inputs {
		bound[in] = "p" + strconv.Itoa(i)
	}
	spec := Spec{Packets: len(tr.inputs), PacketWidths: widths(tr.inputs), CareOutput: true, Constants: constantsOf([]*Term{t})}
	spec.addTerms(tr.shape(), append([]*Term{t}, tr.operands...), bound)
	spec.Encode = func(x *z3.Context, _, packets []z3.Expr) ([]z3.Expr, z3.Expr) {
		enc := newTermEncoder(x, packets[0].Width(), append([]*Term{t}, tr.operands...))
		for i, in := range tr.inputs {
			enc.bind(in, packets[i])
		}
		return nil, enc.encode(t)
	}
	return spec
}

// primaries lists the inputs, pre-states and hashes the terms read, each
// once, in order of first appearance.
func primaries(terms []*Term) []*Term {
	var out []*Term
	for _, u := range terms {
		for _, l := range u.Leaves() {
			out = appendNew(out, l)
		}
	}
	return out
}
