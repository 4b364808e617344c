// Package synth is phase 2 of p4hls, resource synthesis (CaT §3.2): it
// turns each @atomic action into a tree of configured ALUs of the target's
// grammars by solver queries: each stateful node in the shallowest mapping
// its attempts find, each stateless value by the shallowest tree of
// stateless ALUs (up to three levels) that beats one ALU per operation.
// The queries read a grammar through EncodeALU (encode.go), the solver
// form of the meaning synth/grammar evaluates concretely; grammar itself
// imports no solver.
//
// This file is the query engine: counterexample-guided inductive synthesis
// (CEGIS) of one grammar's hole values against a specification.
package synth

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"slices"
	"strings"
	"time"

	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar"
)

// Spec is what a configured ALU must compute: from its state inputs (old
// values) and packet inputs, the new state values and the output, as terms.
// Results the spec does not care about are marked in Care.
type Spec struct {
	States, Packets int
	Encode          func(x *z3.Context, states, packets []z3.Expr) (newStates []z3.Expr, out z3.Expr)
	// CareStates[i] says whether new state i must match (nil: all must);
	// CareOutput whether the output must.
	CareStates []bool
	CareOutput bool
	// StateWidths[i] and PacketWidths[i], when not 0, say that input i
	// holds a value of that many bits, zero-extended to the word (a field
	// or a 1-bit result): the ALU need be right only on such inputs.
	StateWidths, PacketWidths []int
	// Fixed pins packet inputs to values: a constant wider than the
	// grammar's immediates, given to the ALU as an input (action data).
	Fixed map[int]uint64
	// ZeroStates[i] pins state input i to 0: a state variable no register
	// backs reads 0 (StateCell), so the ALU need be right only there.
	ZeroStates []bool
	// Constants are the constants the spec computes with: values near
	// them make telling examples (a comparison with 10 needs inputs that
	// differ by about 10 to show which way it goes).
	Constants []uint64
	// Assume, when not nil, is the precondition of the inputs: only
	// states and packets that satisfy it need be right. It may make
	// constants of its own (the fields and states the inputs are computed
	// from), which the check for a counterexample then ranges over too.
	Assume func(x *z3.Context, states, packets []z3.Expr) z3.Expr
	// Key describes Encode (and Assume) canonically for the query cache
	// (two specs with one key compute the same); "" leaves the query
	// uncached.
	Key string
	// shape is Key with its constants left out, and shapeConstants the
	// constants (addTerms): specs of one shape compute alike but with
	// other constants, as after an edit of a constant. A configuration
	// found for one often holds for another once its constant holes move
	// with the constants (transfer).
	shape          string
	shapeConstants []uint64
}

// inRange is the precondition the spec's inputs meet.
func (spec Spec) inRange(x *z3.Context, states, packets []z3.Expr, width int) z3.Expr {
	conds := []z3.Expr{x.Bool(true)}
	bound := func(widths []int, vs []z3.Expr) {
		for i, w := range widths {
			if w > 0 && w < width {
				conds = append(conds, vs[i].Extract(width-1, w).Eq(x.BV(0, width-w)))
			}
		}
	}
	bound(spec.StateWidths, states)
	bound(spec.PacketWidths, packets)
	for i, v := range spec.Fixed {
		conds = append(conds, packets[i].Eq(x.BV(v&(1<<uint(width)-1), width)))
	}
	for i, zero := range spec.ZeroStates {
		if zero {
			conds = append(conds, states[i].Eq(x.BV(0, width)))
		}
	}
	return x.And(conds...)
}

// ErrNoConfig is returned when no hole values make the grammar meet the
// spec.
var ErrNoConfig = errors.New("no configuration of the ALU implements the specification")

// QueryStats describes one CEGIS query.
type QueryStats struct {
	Iterations int
	Examples   int
	Time       time.Duration
}

// solverLogic is the logic the queries' solvers are made for. Z3's QF_FD
// solver bit-blasts into its SAT solver and keeps it between checks, where
// QF_BV's turns incremental after the first check and reasons about the
// bit-vectors in its SMT core: over Table 4's rows the CEGIS queries take
// about a third less time (SNAP on Tofino: 2.2 s -> 1.5 s).
const solverLogic = "QF_FD"

// maxIterations bounds the CEGIS loop; each iteration adds a
// counterexample, and real specifications converge in a handful.
const maxIterations = 200

// DefaultSearchWidth is the word width of a query's first, cheaper
// searches (see search) unless Options.SearchWidth says otherwise:
// examples at 8 bits, candidates then verified at the full width; the
// search at the full width alone runs only when they find nothing.
const DefaultSearchWidth = 8

// narrowWidth is the width of the first searches that searchWidth (as in
// Options.SearchWidth) asks for at word width w, or 0 for none.
func narrowWidth(searchWidth, w int) int {
	if searchWidth == 0 {
		searchWidth = DefaultSearchWidth
	}
	if searchWidth < 0 || searchWidth >= w {
		return 0
	}
	return searchWidth
}

// FindConfig finds hole values with which g computes spec on every input
// of width bits (CEGIS: solve on a growing set of examples, verify at full
// width, add the counterexample, repeat), trying DefaultSearchWidth
// first. It returns ErrNoConfig when there is none, and an error wrapping
// z3.ErrInterrupted when ctx ends first. spec.Encode must take its word
// width from the inputs it is given.
func FindConfig(ctx context.Context, g *grammar.Grammar, spec Spec, width int) (grammar.Config, QueryStats, error) {
	return findConfig(ctx, aluSketch{g}, spec, width, DefaultSearchWidth)
}

// sketch is what CEGIS fills in: a program with holes, one ALU or a tree
// of them.
type sketch interface {
	name() string
	grammar() *grammar.Grammar // the ALU it is made of (its text is in the cache key)
	holes() []*grammar.Hole
	arity() (states, packets int)
	encode(x *z3.Context, holes, states, packets []z3.Expr, width int) (ALUTerms, error)
}

// aluSketch is one ALU of a grammar.
type aluSketch struct{ g *grammar.Grammar }

func (a aluSketch) grammar() *grammar.Grammar    { return a.g }
func (a aluSketch) name() string                 { return a.g.Name }
func (a aluSketch) holes() []*grammar.Hole       { return a.g.Holes }
func (a aluSketch) arity() (states, packets int) { return len(a.g.States), len(a.g.Packets) }
func (a aluSketch) encode(x *z3.Context, holes, states, packets []z3.Expr, width int) (ALUTerms, error) {
	return EncodeALU(x, a.g, holes, states, packets, width)
}

// findConfig is FindConfig with the first searches at searchWidth (as in
// Options.SearchWidth).
func findConfig(ctx context.Context, g sketch, spec Spec, width, searchWidth int) (grammar.Config, QueryStats, error) {
	start := time.Now()
	var runs []search
	if n := narrowWidth(searchWidth, width); n > 0 {
		runs = append(runs,
			search{narrow: n, full: width, pool: constantPool(spec, width)},
			search{narrow: n, full: width})
	}
	runs = append(runs, search{narrow: width, full: width})
	var total QueryStats
	for i, r := range runs {
		cfg, st, err := cegis(ctx, g, spec, r)
		total.Iterations += st.Iterations
		total.Examples += st.Examples
		if !errors.Is(err, ErrNoConfig) || i == len(runs)-1 {
			total.Time = time.Since(start)
			return cfg, total, err
		}
	}
	panic("unreachable")
}

// search is how one CEGIS run looks for a configuration. Examples are
// checked at the narrow width first: solving over 8-bit words is much
// cheaper than over 32-bit ones, and most configurations do not depend on
// the width. A candidate right at the narrow width is verified at the
// full width, and a counterexample there joins the examples at the full
// width, so the run ends with a configuration right at both. Only a run
// with narrow == full and no pool proves that there is none.
type search struct {
	narrow, full int
	// pool, when not nil, restricts constant holes to these values (the
	// spec's constants and their neighbours: far fewer candidates than
	// 2^32, and usually enough).
	pool []uint64
}

// fullWidthCandidates are the readings at the full width of a
// configuration found at a reduced width w: its constants as found (their
// high bits are free at w), as their low bits, and sign-extended (a small
// negative constant found at 8 bits is 0xf6).
func fullWidthCandidates(holes []*grammar.Hole, cfg grammar.Config, w int) []grammar.Config {
	out := []grammar.Config{cfg}
	for _, signed := range []bool{false, true} {
		c := widenConstants(holes, cfg, w, signed)
		if !slices.ContainsFunc(out, func(d grammar.Config) bool { return slices.Equal(c, d) }) {
			out = append(out, c)
		}
	}
	return out
}

// widenConstants reads constants found at a reduced width w as the full
// width will: an unsigned one as its low bits (or, with signed, as a
// signed value, sign-extended), a signed one sign-extended.
func widenConstants(holes []*grammar.Hole, cfg grammar.Config, w int, signed bool) grammar.Config {
	out := append(grammar.Config(nil), cfg...)
	for i, h := range holes {
		if h.Kind == grammar.HoleChoice || h.Bits <= w {
			continue
		}
		v := out[i] & (1<<uint(w) - 1)
		if (signed || h.Kind == grammar.HoleSConst) && v>>uint(w-1) != 0 {
			v |= ^uint64(0) << uint(w)
			if h.Bits < 64 {
				v &= 1<<uint(h.Bits) - 1
			}
		}
		out[i] = v
	}
	return out
}

// Verify proves that cfg computes spec on every input of width bits.
func Verify(ctx context.Context, g *grammar.Grammar, spec Spec, cfg grammar.Config, width int) (bool, error) {
	return verifySketch(ctx, aluSketch{g}, spec, cfg, width)
}

func verifySketch(ctx context.Context, g sketch, spec Spec, cfg grammar.Config, width int) (bool, error) {
	x := z3.NewContext()
	defer x.Close()
	_, ok, err := verify(ctx, x, g, spec, cfg, width)
	return ok, err
}

// cegis is one CEGIS run: find hole values on the examples, verify them,
// add the counterexample, repeat.
func cegis(ctx context.Context, g sketch, spec Spec, r search) (grammar.Config, QueryStats, error) {
	start := time.Now()
	var st QueryStats
	if states, packets := g.arity(); spec.States != states || spec.Packets != packets {
		return nil, st, fmt.Errorf("synth: spec has %d states and %d packet inputs; ALU %s has %d and %d",
			spec.States, spec.Packets, g.name(), states, packets)
	}
	x := z3.NewContext()
	defer x.Close()
	holes := holeVars(x, g.holes(), "h")
	synth := x.NewSolverFor(solverLogic)
	if r.pool != nil {
		restrictConstants(x, synth, g.holes(), holes, r.pool, r.full)
	}
	rng := rand.New(rand.NewSource(int64(len(g.holes()))))
	// A few first examples spare the early iterations.
	for _, e := range assumed(ctx, x, spec, seedExamples(rng, spec, r.narrow), r.narrow) {
		if err := addExample(x, synth, g, spec, holes, e, r.narrow); err != nil {
			return nil, st, err
		}
		st.Examples++
	}
	for st.Iterations = 1; st.Iterations <= maxIterations; st.Iterations++ {
		res, err := check(ctx, synth)
		if err != nil {
			return nil, st, fmt.Errorf("synth: ALU %s: %w", g.name(), err)
		}
		if res == z3.Unsat {
			st.Time = time.Since(start)
			return nil, st, ErrNoConfig
		}
		if res != z3.Sat {
			return nil, st, fmt.Errorf("synth: ALU %s: the solver gave up: %s", g.name(), synth.ReasonUnknown())
		}
		cfg, err := readConfig(synth.Model(), holes)
		if err != nil {
			return nil, st, err
		}
		cex, w, ok, err := r.check(ctx, x, g, spec, &cfg)
		if err != nil {
			return nil, st, err
		}
		if ok {
			st.Time = time.Since(start)
			return cfg, st, nil
		}
		if err := addExample(x, synth, g, spec, holes, cex, w); err != nil {
			return nil, st, err
		}
		st.Examples++
	}
	return nil, st, fmt.Errorf("synth: ALU %s: no convergence after %d iterations", g.name(), maxIterations)
}

// check verifies a candidate at the narrow width, then at the full width
// (in each of its full-width readings, *cfg becoming the one that holds).
// When it fails, it returns the counterexample and its width.
func (r search) check(ctx context.Context, x *z3.Context, g sketch, spec Spec, cfg *grammar.Config) (example, int, bool, error) {
	if r.narrow < r.full {
		cex, ok, err := verify(ctx, x, g, spec, *cfg, r.narrow)
		if err != nil || !ok {
			return cex, r.narrow, false, err
		}
	}
	candidates := []grammar.Config{*cfg}
	if r.narrow < r.full {
		candidates = fullWidthCandidates(g.holes(), *cfg, r.narrow)
	}
	var first example
	for i, c := range candidates {
		cex, ok, err := verify(ctx, x, g, spec, c, r.full)
		if err != nil || ok {
			*cfg = c
			return cex, r.full, ok, err
		}
		if i == 0 {
			first = cex
		}
	}
	return first, r.full, false, nil
}

// restrictConstants limits the constant holes to the values of pool that
// they hold.
func restrictConstants(x *z3.Context, s *z3.Solver, holes []*grammar.Hole, vars []z3.Expr, pool []uint64, width int) {
	for i, h := range holes {
		if h.Kind == grammar.HoleChoice {
			continue
		}
		var alts []z3.Expr
		for _, v := range pool {
			if v, ok := holeValue(h, v, width); ok {
				alts = append(alts, vars[i].Eq(x.BV(v, h.Bits)))
			}
		}
		s.Assert(x.Or(alts...))
	}
}

// example is one input of the spec: state and packet values.
type example struct {
	states, packets []uint64
}

func seedExamples(r *rand.Rand, spec Spec, width int) []example {
	mask := uint64(1)<<uint(width) - 1
	var out []example
	for i := 0; i < 4; i++ {
		e := example{states: make([]uint64, spec.States), packets: make([]uint64, spec.Packets)}
		for j := range e.states {
			e.states[j] = uint64(r.Intn(8)) & mask & widthMask(spec.StateWidths, j) & spec.stateMask(j)
		}
		for j := range e.packets {
			e.packets[j] = uint64(r.Intn(8)) & mask & widthMask(spec.PacketWidths, j)
			if v, ok := spec.Fixed[j]; ok {
				e.packets[j] = v & mask
			}
		}
		out = append(out, e)
	}
	// Inputs near the spec's constants, and anywhere in the word.
	var near []uint64
	for _, c := range spec.Constants {
		near = append(near, c-1, c, c+1)
	}
	pick := func(wm uint64) uint64 {
		k := r.Intn(len(near) + 3)
		switch {
		case k < len(near):
			return near[k] & mask & wm
		case k == len(near):
			return 0
		}
		return r.Uint64() & mask & wm
	}
	for i := 0; i < 4; i++ {
		e := example{states: make([]uint64, spec.States), packets: make([]uint64, spec.Packets)}
		for j := range e.states {
			e.states[j] = pick(widthMask(spec.StateWidths, j)) & spec.stateMask(j)
		}
		for j := range e.packets {
			e.packets[j] = pick(widthMask(spec.PacketWidths, j))
			if v, ok := spec.Fixed[j]; ok {
				e.packets[j] = v & mask
			}
		}
		out = append(out, e)
	}
	return out
}

// assumed keeps the examples that meet the spec's precondition: an
// example outside it would ask the ALU for what no input needs.
func assumed(ctx context.Context, x *z3.Context, spec Spec, es []example, width int) []example {
	if spec.Assume == nil {
		return es
	}
	var out []example
	for _, e := range es {
		s := x.NewSolverFor(solverLogic)
		s.Assert(spec.Assume(x, consts(x, e.states, width), consts(x, e.packets, width)))
		if res, err := s.Check(ctx); err == nil && res == z3.Sat {
			out = append(out, e)
		}
	}
	return out
}

// addExample constrains the holes so that the grammar agrees with the spec
// on one concrete input.
func addExample(x *z3.Context, s *z3.Solver, g sketch, spec Spec, holes []z3.Expr, e example, width int) error {
	states, packets := consts(x, e.states, width), consts(x, e.packets, width)
	terms, err := g.encode(x, holes, states, packets, width)
	if err != nil {
		return err
	}
	wantStates, wantOut := spec.Encode(x, states, packets)
	for _, eq := range agreement(x, spec, terms, wantStates, wantOut) {
		s.Assert(eq)
	}
	return x.Err()
}

// agreement lists the equalities the spec cares about.
func agreement(x *z3.Context, spec Spec, got ALUTerms, wantStates []z3.Expr, wantOut z3.Expr) []z3.Expr {
	var eqs []z3.Expr
	for i, w := range wantStates {
		if spec.CareStates == nil || spec.CareStates[i] {
			eqs = append(eqs, got.States[i].Eq(w))
		}
	}
	if spec.CareOutput {
		eqs = append(eqs, got.Output.Eq(wantOut))
	}
	return eqs
}

// verify checks a candidate at full width; when it fails it returns an
// input on which it does.
func verify(ctx context.Context, x *z3.Context, g sketch, spec Spec, cfg grammar.Config, width int) (example, bool, error) {
	states := make([]z3.Expr, spec.States)
	for i := range states {
		states[i] = x.BVConst(fmt.Sprintf("s%d", i), width)
	}
	packets := make([]z3.Expr, spec.Packets)
	for i := range packets {
		packets[i] = x.BVConst(fmt.Sprintf("p%d", i), width)
	}
	terms, err := g.encode(x, HoleConsts(x, g.holes(), cfg), states, packets, width)
	if err != nil {
		return example{}, false, err
	}
	wantStates, wantOut := spec.Encode(x, states, packets)
	eqs := agreement(x, spec, terms, wantStates, wantOut)
	s := x.NewSolverFor(solverLogic)
	s.Assert(spec.inRange(x, states, packets, width))
	if spec.Assume != nil {
		s.Assert(spec.Assume(x, states, packets))
	}
	s.Assert(x.And(eqs...).Not())
	res, err := check(ctx, s)
	if err != nil {
		return example{}, false, fmt.Errorf("synth: ALU %s: verifying: %w", g.name(), err)
	}
	switch res {
	case z3.Unsat:
		return example{}, true, nil
	case z3.Unknown:
		return example{}, false, fmt.Errorf("synth: ALU %s: verification gave up: %s", g.name(), s.ReasonUnknown())
	}
	m := s.Model()
	cex := example{states: make([]uint64, len(states)), packets: make([]uint64, len(packets))}
	for i, v := range states {
		val, err := m.Uint(v)
		if err != nil {
			return example{}, false, err
		}
		cex.states[i] = val.Uint64()
	}
	for i, v := range packets {
		val, err := m.Uint(v)
		if err != nil {
			return example{}, false, err
		}
		cex.packets[i] = val.Uint64()
	}
	return cex, false, nil
}

// stateMask is 0 for a state input pinned to 0, all ones otherwise.
func (spec Spec) stateMask(j int) uint64 {
	if j < len(spec.ZeroStates) && spec.ZeroStates[j] {
		return 0
	}
	return ^uint64(0)
}

// widthMask is the mask of input j's values.
func widthMask(widths []int, j int) uint64 {
	if j >= len(widths) || widths[j] == 0 || widths[j] >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(widths[j]) - 1
}

func consts(x *z3.Context, vs []uint64, width int) []z3.Expr {
	out := make([]z3.Expr, len(vs))
	for i, v := range vs {
		out[i] = x.BV(v, width)
	}
	return out
}

func readConfig(m *z3.Model, holes []z3.Expr) (grammar.Config, error) {
	cfg := make(grammar.Config, len(holes))
	for i, h := range holes {
		v, err := m.Uint(h)
		if err != nil {
			return nil, err
		}
		cfg[i] = v.Uint64()
	}
	return cfg, nil
}

// constantPool lists the values a constant hole likely takes: the spec's
// constants, their negations and neighbours, 0, 1 and -1, at width w.
func constantPool(spec Spec, w int) []uint64 {
	mask := uint64(1)<<uint(w) - 1
	pool := []uint64{0, 1, mask}
	for _, c := range spec.Constants {
		for _, near := range nearConstant {
			if v := near(c) & mask; !slices.Contains(pool, v) {
				pool = append(pool, v)
			}
		}
	}
	return pool
}

// holeValue is the value of a constant hole that makes the width-bit
// word v, if the hole holds it: a narrower unsigned hole holds v's low
// bits when the rest are 0, a signed one when they repeat its sign.
func holeValue(h *grammar.Hole, v uint64, width int) (uint64, bool) {
	if h.Bits >= width || h.Bits >= 64 {
		return v, true
	}
	low := v & (1<<uint(h.Bits) - 1)
	if low == v {
		return low, h.Kind != grammar.HoleSConst || v>>uint(h.Bits-1) == 0
	}
	signExtended := low | (^uint64(0) << uint(h.Bits))
	if width < 64 {
		signExtended &= 1<<uint(width) - 1
	}
	return low, h.Kind == grammar.HoleSConst && signExtended == v
}

// A query's budget is counted in Z3's resource units (its "rlimit"), not
// in time: a time budget cuts a query sooner on a loaded machine, and the
// mapping found, hence the stage count, would depend on the load.
// unitsPerSecond converts: about what Z3 counts in a second of these
// queries on the 2-core machine the budgets were set on (QF_FD's SAT
// solver; QF_BV's SMT core counted about 6 million).
const unitsPerSecond = 10_000_000

// errBudget is a query's work budget running out.
var errBudget = errors.New("the query's work budget ran out")

// workBudget is what a query has left of its budget.
type workBudget struct{ left uint64 }

type budgetKey struct{}

// withBudget gives the queries run under ctx a budget of d's worth of
// solver work.
func withBudget(ctx context.Context, d time.Duration) context.Context {
	return context.WithValue(ctx, budgetKey{}, &workBudget{left: uint64(d.Seconds() * unitsPerSecond)})
}

// check runs a solver check within the query's budget, if it has one.
func check(ctx context.Context, s *z3.Solver) (z3.Result, error) {
	b, _ := ctx.Value(budgetKey{}).(*workBudget)
	if b == nil {
		return s.Check(ctx)
	}
	if b.left == 0 {
		return z3.Unknown, errBudget
	}
	limit := min(b.left, math.MaxUint32)
	s.SetResourceLimit(uint32(limit))
	before := s.ResourcesUsed()
	res, err := s.Check(ctx)
	used := s.ResourcesUsed() - before
	b.left -= min(used, b.left)
	// Z3 says "canceled" when its resource limit stops a check.
	if err == nil && res == z3.Unknown && (used >= limit || strings.Contains(s.ReasonUnknown(), "cancel")) {
		b.left = 0
		return res, errBudget
	}
	return res, err
}
