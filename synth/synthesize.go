package synth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"maps"
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/solver/z3"
	"github.com/p4hls/p4hls/synth/grammar"
)

// Stats counts a synthesis run's solver work.
type Stats struct {
	Queries int // solver queries issued
	Failed  int // queries that proved no configuration exists
	// CacheHits counts the queries answered by the cache: by their own
	// entry, or by a configuration found for other constants of their
	// shape that, moved to theirs, is proved to hold (an edit).
	CacheHits int
	// Deeper says a stateful mapping shallower than the one returned was
	// tried and failed (no configuration, or none within its budget).
	Deeper bool
	// CacheRejected counts answers from outside the process that did not
	// hold for their query (a damaged or forged cache entry); their
	// queries ran again.
	CacheRejected int
}

func (st *Stats) add(o Stats) {
	st.Queries += o.Queries
	st.Failed += o.Failed
	st.CacheHits += o.CacheHits
	st.CacheRejected += o.CacheRejected
}

// DefaultWidth is the ALUs' word width unless Options say otherwise.
const DefaultWidth = 32

// Options tune synthesis.
type Options struct {
	// Width is the ALUs' word width (DefaultWidth when 0).
	Width int
	// NoPredecessorPacking keeps each group of state variables in its own
	// ALU even when a multi-state ALU could also hold the group it reads
	// (CaT §3.2.3; ablation "w/o pred").
	NoPredecessorPacking bool
	// Cache, when not nil, answers repeated queries.
	Cache Cache
	// AttemptBudget bounds each stateful attempt but the last (the
	// deepest): the solver work it may take, given as the time it takes
	// on a reference machine (the bound counts work, not time, so that
	// results do not depend on the load); 0 means DefaultAttemptBudget,
	// negative no bound.
	AttemptBudget time.Duration
	// SearchWidth is the word width of each query's first, cheaper
	// searches: examples at SearchWidth bits, each candidate then verified
	// at Width, the search at Width alone only when they find nothing. 0
	// means DefaultSearchWidth; a negative SearchWidth (or one of Width or
	// more) turns them off, so every query searches at Width alone.
	SearchWidth int
}

// DefaultAttemptBudget is the work (as time on the reference machine) a
// shallower stateful mapping may take before synthesis moves to the next.
// The stateful queries that succeed under a budget, over every Table 4
// row, take at most 9.1 million units (BLUE increase with C's meaning, on
// Tofino); those that use it all are the mappings the wraparound rules out
// (BLUE and flowlets on Tofino, spam detection on Banzai).
const DefaultAttemptBudget = 1200 * time.Millisecond

// assumeBudgetFactor multiplies the default budget of a transaction that
// states preconditions: its queries range over the inputs the fields
// compute from as well, and converge in more iterations, while the
// shallower mapping the precondition allows is what its author asked
// for (spam detection's one-stage mapping on Banzai's pair takes about
// three budgets).
const assumeBudgetFactor = 4

// Synthesize maps a transaction onto configured ALUs: stateful ALUs for
// its state variables (those that read each other share one), fed by
// stateless trees that compute the terms they read (their frontiers), and
// stateless trees for the outputs. Each ALU is found by a CEGIS query.
//
// With a multi-state ALU it tries the ways to pack groups into one ALU
// with a group they read (CaT's predecessor packing), best bound first,
// and keeps the shallowest mapping; without packing last. What cannot be
// mapped is an *UnsupportedError naming the action.
func Synthesize(ctx context.Context, tx *Transaction, stateful, stateless *grammar.Grammar, opts Options) (*Graph, Stats, error) {
	g, stats, err := synthesize(ctx, tx, stateful, stateless, opts)
	return g, stats, withWhy(tx.Action, err)
}

func synthesize(ctx context.Context, tx *Transaction, stateful, stateless *grammar.Grammar, opts Options) (*Graph, Stats, error) {
	if err := tooDeep(tx); err != nil {
		return nil, Stats{}, err
	}
	opts.Width = cmp.Or(opts.Width, DefaultWidth)
	if opts.AttemptBudget == 0 {
		opts.AttemptBudget = DefaultAttemptBudget
		if tx.Assume != nil {
			opts.AttemptBudget *= assumeBudgetFactor
		}
	}
	var stats Stats
	deeper := map[*Graph]bool{}
	// attempt reports whether a query ran out of its budget.
	attempt := func(p plan, budget time.Duration) (*Graph, bool, error) {
		s := &synthesizer{ctx: ctx, tx: tx, stateful: stateful, stateless: stateless, width: opts.Width, searchWidth: opts.SearchWidth,
			plan: p.merges, cache: opts.Cache, attemptBudget: budget,
			g: &Graph{Action: tx.Action}, fields: map[string]int{}, done: map[*Term]Operand{}}
		err := s.run()
		stats.add(s.stats)
		if err != nil {
			return nil, s.budgetCuts > 0, err
		}
		deeper[s.g] = s.deeper
		return s.g, s.budgetCuts > 0, s.g.ComputeDepths()
	}
	plans := []plan{{}}
	if !opts.NoPredecessorPacking && len(stateful.States) >= 2 {
		plans = (&synthesizer{tx: tx, stateful: stateful}).packingPlans()
	}
	var best *Graph
	var lastErr error
	var cut []plan
	var u *UnsupportedError
	failedChain := math.MaxInt // the shallowest bound of a plan that failed
	for _, p := range plans {
		if best != nil && best.Depth() <= p.chain {
			continue // it cannot do better
		}
		g, cuts, err := attempt(p, opts.AttemptBudget)
		if errors.As(err, &u) {
			lastErr = err
			failedChain = min(failedChain, p.chain)
			if cuts && len(p.merges) > 0 {
				cut = append(cut, p)
			}
			continue
		}
		if err != nil {
			return nil, stats, err
		}
		if best == nil || g.Depth() < best.Depth() {
			best = g
		}
	}
	if best != nil {
		stats.Deeper = deeper[best] || failedChain < best.Depth()
		return best, stats, nil
	}
	// Packings had queries cut by their budget, and no plan maps: ask them
	// again, unbounded (a mapping found late beats none).
	for _, p := range cut {
		if g, _, err := attempt(p, -1); !errors.As(err, &u) {
			stats.Deeper = err == nil && deeper[g]
			return g, stats, err
		}
	}
	return nil, stats, lastErr
}

type synthesizer struct {
	ctx                 context.Context
	tx                  *Transaction
	stateful, stateless *grammar.Grammar
	width               int
	searchWidth         int     // as in Options: 0 is the default
	plan                []merge // the groups to pack into one ALU
	cache               Cache
	// budgetCuts counts the queries cut by their budget (under
	// statsMu).
	budgetCuts int
	// keptShapes are the shape entries this run kept, which its own
	// queries do not take (see transferred), and badShapes those it found
	// damaged (both under statsMu).
	keptShapes, badShapes map[string]bool
	attemptBudget         time.Duration
	g                     *Graph
	stats                 Stats
	statsMu               sync.Mutex
	fields                map[string]int    // Graph.Fields index by name
	done                  map[*Term]Operand // stateless results computed so far
	// deeper says a group took an attempt deeper than its first.
	deeper bool
	// obstacle is why the first configuration found for the group being
	// mapped was undone (what its inputs or results needed that the
	// stateless ALUs could not compute), for the error when none holds.
	obstacle *UnsupportedError
}

func (s *synthesizer) unsupported(format string, args ...any) error {
	return &UnsupportedError{Span: s.tx.Action.Span, Msg: fmt.Sprintf("action %s: ", s.tx.Action.Name) + fmt.Sprintf(format, args...)}
}

func (s *synthesizer) run() error {
	for _, t := range s.tx.Cells {
		if t.Width > s.width {
			return s.unsupported("register %s is %d bits wide; the ALUs are %d", t.Register.Name, t.Width, s.width)
		}
	}
	groups, err := s.groups()
	if err != nil {
		return err
	}
	for _, gr := range groups {
		if err := s.statefulALU(gr); err != nil {
			return err
		}
	}
	for _, o := range s.tx.Outputs {
		op, err := s.operand(s.stored(o.Value)) // the state it reads is out of its ALUs by now
		if err != nil {
			return err
		}
		s.g.Writes = append(s.g.Writes, Write{Field: s.field(o.Field), Value: op})
	}
	return nil
}

// stored is the term to give an output's field for value v: a field
// keeps the low bits of the word it is written (each target stores an
// ALU's word into a narrower field so, and the models and Prove mask the
// write to the field's width), so the low bits of a term no wider than
// the word are that term, and no ALU need cut them out (an ALU grammar
// without slices, as Banzai's, could not).
func (s *synthesizer) stored(v *Term) *Term {
	for v.Op == OpExtract && v.Lo == 0 && v.Args[0].Width <= s.width {
		v = v.Args[0]
	}
	return v
}

// group is the state variables one stateful ALU holds: one, or several
// that read each other's state (CaT's strongly connected components).
type group struct {
	cells []*Cell
	// frontier is what the ALU reads: the maximal subterms of its cells'
	// post-states that do not read its own state.
	frontier []*Term
	// needs are the terms read elsewhere (by other ALUs' frontiers and by
	// outputs) that read the group's state; the ALU's one output must
	// make them computable.
	needs []*Term
	deps  []*group // groups whose state the frontier reads
}

func (gr *group) owns(c *Cell) bool {
	for _, d := range gr.cells {
		if d == c {
			return true
		}
	}
	return false
}

// groups puts the live cells into groups, merging cells that read each
// other and packing as the plan says, and returns them in dependency
// order.
func (s *synthesizer) groups() ([]*group, error) {
	groups, groupOf := s.baseGroups()
	for _, gr := range groups {
		if err := s.oneALU(gr); err != nil {
			return nil, err
		}
	}
	groups = s.pack(groups, groupOf, s.plan)
	for _, gr := range groups {
		if len(gr.cells) > len(s.stateful.States) {
			return nil, s.unsupported("state variables %s read each other; ALU %s holds %d", cellNames(gr.cells), s.stateful.Name, len(s.stateful.States))
		}
	}
	var consumers []*Term
	for _, gr := range groups {
		consumers = append(consumers, gr.frontier...)
	}
	for _, o := range s.tx.Outputs {
		consumers = append(consumers, s.stored(o.Value))
	}
	for _, t := range consumers {
		for _, c := range cellsRead(t) {
			if gr := groupOf[c]; !slices.Contains(gr.needs, t) {
				gr.needs = append(gr.needs, t)
			}
		}
	}
	return topoOrder(groups), nil
}

// liveCells are the cells whose state changes or is read by an output.
func (s *synthesizer) liveCells() []*Cell {
	read := map[*Cell]bool{}
	for _, o := range s.tx.Outputs {
		for _, c := range cellsRead(s.stored(o.Value)) {
			read[c] = true
		}
	}
	var live []*Cell
	for _, c := range s.tx.Cells {
		if c.Post != c.Pre || read[c] {
			live = append(live, c)
		}
	}
	// A cell written back unchanged but read by a live cell's update is
	// live too.
	for changed := true; changed; {
		changed = false
		for _, c := range s.tx.Cells {
			if slices.Contains(live, c) {
				continue
			}
			for _, d := range live {
				if slices.Contains(cellsRead(d.Post), c) {
					live = append(live, c)
					changed = true
					break
				}
			}
		}
	}
	return live
}

// linkGroup computes a group's frontier and the groups it reads.
func (s *synthesizer) linkGroup(gr *group, groupOf map[*Cell]*group) {
	gr.frontier, gr.deps = nil, nil
	for _, c := range gr.cells {
		gr.frontier = frontierOf(c.Post, gr, gr.frontier)
	}
	for _, t := range gr.frontier {
		for _, c := range cellsRead(t) {
			if d := groupOf[c]; d != gr && !slices.Contains(gr.deps, d) {
				gr.deps = append(gr.deps, d)
			}
		}
	}
}

// mergeCycles merges groups that reach each other through deps.
func mergeCycles(groups []*group, groupOf map[*Cell]*group) []*group {
	reaches := func(from, to *group) bool {
		seen := map[*group]bool{}
		var walk func(g *group) bool
		walk = func(g *group) bool {
			if g == to {
				return true
			}
			if seen[g] {
				return false
			}
			seen[g] = true
			for _, d := range g.deps {
				if walk(d) {
					return true
				}
			}
			return false
		}
		for _, d := range from.deps {
			if walk(d) {
				return true
			}
		}
		return false
	}
	var out []*group
	for _, gr := range groups {
		var into *group
		for _, o := range out {
			if reaches(gr, o) && reaches(o, gr) {
				into = o
				break
			}
		}
		if into == nil {
			out = append(out, gr)
			continue
		}
		into.cells = append(into.cells, gr.cells...)
		for _, c := range gr.cells {
			groupOf[c] = into
		}
	}
	return out
}

// topoOrder lists groups after the groups they read.
func topoOrder(groups []*group) []*group {
	var out []*group
	done := map[*group]bool{}
	var visit func(g *group)
	visit = func(g *group) {
		if done[g] {
			return
		}
		done[g] = true
		for _, d := range g.deps {
			visit(d)
		}
		out = append(out, g)
	}
	for _, g := range groups {
		visit(g)
	}
	return out
}

// statefulALU synthesizes the ALU of a group. It tries the folded
// frontier first (terms computed from fields are computed inside the ALU,
// CaT's folding, which saves the stages before it), then the frontier as
// it is; for each, the output choices in order.
func (s *synthesizer) statefulALU(gr *group) error {
	g := s.stateful
	attempts := s.attempts(gr)
	if len(attempts) == 0 {
		return s.unsupported("the update of %s needs %d packet inputs (%s); ALU %s has %d",
			cellNames(gr.cells), len(gr.frontier), termList(gr.frontier), g.Name, len(g.Packets))
	}
	s.obstacle = nil
	if ok, err := s.mapGroup(gr, attempts); ok || err != nil {
		return err
	}
	var updates []string
	for _, c := range gr.cells {
		updates = append(updates, fmt.Sprintf("%s = %s", c.Name, c.Post))
	}
	if s.obstacle != nil {
		why := strings.TrimPrefix(s.obstacle.Msg, fmt.Sprintf("action %s: ", s.tx.Action.Name))
		return s.unsupported("ALU %s computes %s, but no mapping of it leaves the rest computable; the first stopped at: %s",
			g.Name, strings.Join(updates, "; "), why)
	}
	return s.unsupported("no configuration of ALU %s computes %s", g.Name, strings.Join(updates, "; "))
}

// attempts lists the ways to map a group, shallowest first; among
// equals, folded before not, the needed term before a state.
func (s *synthesizer) attempts(gr *group) []attempt {
	g := s.stateful
	var attempts []attempt
	for _, out := range s.outputChoices(gr) {
		base := gr.frontier
		if out != nil {
			base = frontierOf(out, gr, append([]*Term(nil), base...))
		}
		for _, f := range s.frontierChoices(base) {
			if len(f) <= len(g.Packets) && s.available(f) {
				attempts = append(attempts, attempt{f, out, s.estimate(gr, f, out)})
				if neg, ok := s.negatedTests(f); ok {
					attempts = append(attempts, attempt{neg, out, s.estimate(gr, neg, out)})
				}
			}
		}
	}
	for _, out := range s.semanticOutputs(gr) {
		for _, f := range s.frontierChoices(frontierOf(out, gr, append([]*Term(nil), gr.frontier...))) {
			if len(f) <= len(g.Packets) && s.available(f) {
				attempts = append(attempts, attempt{f, out, s.stage(gr, f) + 1})
			}
		}
	}
	// A constant wider than the grammar's immediates can come in as an
	// input; without it, no attempt would fit.
	if wide := s.wideConstants(gr); len(wide) > 0 {
		var lifted []attempt
		for _, a := range attempts {
			if f := append(append([]*Term(nil), a.frontier...), wide...); len(f) <= len(g.Packets) {
				lifted = append(lifted, attempt{f, a.out, a.depth})
			}
		}
		attempts = append(lifted, attempts...)
	}
	sort.SliceStable(attempts, func(i, j int) bool { return attempts[i].depth < attempts[j].depth })
	return attempts
}

// mapGroup adds the group's ALU by the first attempt, in order, that has
// a configuration and whose inputs the stateless ALUs can compute (an
// attempt that fails there is undone and the next one tried). The first
// round gives every query but the last a budget (every query, with
// packing: the run without it is the fallback); the queries that ran out
// of it run again without one, since a mapping found late beats none.
func (s *synthesizer) mapGroup(gr *group, attempts []attempt) (bool, error) {
	settled := make([]bool, len(attempts)) // no configuration, or tried
	for round := 0; ; round++ {
		var idx []int
		var queries []sketchQuery
		for k, a := range attempts {
			if !settled[k] {
				idx = append(idx, k)
				queries = append(queries, sketchQuery{aluSketch{s.stateful}, s.statefulSpec(gr, a.frontier, a.out)})
			}
		}
		if len(idx) == 0 || round > 0 && len(s.plan) > 0 {
			return false, nil
		}
		budgeted := 0
		if round == 0 {
			budgeted = len(queries) - 1
			if len(s.plan) > 0 {
				budgeted = len(queries)
			}
		}
		// The retry round takes whichever query succeeds first. Only the
		// queries that ran to "no configuration" are settled: one cut by
		// its budget, or cancelled because another won, is asked again if
		// the winner's mapping is undone.
		i, cfg, noConfig, err := s.firstConfig(queries, budgeted, s.attemptBudget, round > 0)
		if err != nil {
			return false, err
		}
		for _, j := range noConfig {
			settled[idx[j]] = true
		}
		if i < 0 {
			if round > 0 {
				return false, nil // every query ran to its end
			}
			continue
		}
		a := attempts[idx[i]]
		mark := s.mark()
		err = s.addStateful(gr, a.frontier, a.out, cfg)
		if err == nil {
			err = s.readyNeeds(gr)
		}
		var u *UnsupportedError
		if !errors.As(err, &u) {
			if err == nil && a.depth > attempts[0].depth {
				s.deeper = true
			}
			return err == nil, err
		}
		if s.obstacle == nil {
			s.obstacle = u
		}
		s.undo(mark)
		settled[idx[i]] = true
	}
}

// readyNeeds computes the group's needs that are the action's results
// and read no state still to be mapped: the attempt's output must make
// them computable (sampling's flag is the old count == 29, which Tofino's
// stateless ALUs cannot compare; the ALU must output the flag itself).
// Needs that feed other ALUs may still be cut lower by those ALUs.
func (s *synthesizer) readyNeeds(gr *group) error {
	for _, need := range gr.needs {
		if !s.available([]*Term{need}) || !slices.ContainsFunc(s.tx.Outputs, func(o *Output) bool { return s.stored(o.Value) == need }) {
			continue
		}
		if _, err := s.operand(need); err != nil {
			return err
		}
	}
	return nil
}

// mark is how far the graph has been built, to undo an attempt.
type mark struct {
	alus, hashes, fields int
	done                 map[*Term]Operand
	names                map[string]int
}

func (s *synthesizer) mark() mark {
	return mark{len(s.g.ALUs), len(s.g.Hashes), len(s.g.Fields), maps.Clone(s.done), maps.Clone(s.fields)}
}

func (s *synthesizer) undo(m mark) {
	s.g.ALUs, s.g.Hashes, s.g.Fields = s.g.ALUs[:m.alus], s.g.Hashes[:m.hashes], s.g.Fields[:m.fields]
	s.done, s.fields = m.done, m.names
}

// wideConstants lists the constants of a group's updates that no
// immediate of the stateful grammar holds.
func (s *synthesizer) wideConstants(gr *group) []*Term {
	bits := immediateBits(s.stateful)
	var out []*Term
	seen := map[*Term]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		if seen[t] {
			return
		}
		seen[t] = true
		if t.IsConst() && bits < 64 && t.Value>>uint(bits) != 0 && !slices.Contains(out, t) {
			out = append(out, t)
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	for _, c := range gr.cells {
		walk(c.Post)
	}
	return out
}

// attempt is one way to map a group: what its ALU reads and outputs.
type attempt struct {
	frontier []*Term
	out      *Term
	depth    int // the estimated depth at which the needs are ready
}

// sketchQuery is one query: a sketch and what it must compute.
type sketchQuery struct {
	sketch sketch
	spec   Spec
}

// firstConfig returns the first query, in order, that has a
// configuration, and the configuration; -1 when none has. Queries run in
// parallel, GOMAXPROCS at a time; a success cancels the queries after
// it (with anyOrder, the first to succeed wins and cancels the rest). The
// first budgeted queries have a budget (budget's worth of work), so a hard query for a
// shallower mapping does not starve the ones after it (nor a caller's
// fallback). noConfig lists the queries that ran to "no configuration"
// (not those cut by their budget or cancelled).
func (s *synthesizer) firstConfig(attempts []sketchQuery, budgeted int, budget time.Duration, anyOrder bool) (index int, cfg grammar.Config, noConfig []int, err error) {
	type result struct {
		cfg     grammar.Config
		err     error
		skipped bool // no configuration, or out of budget or overtaken
	}
	window := max(runtime.GOMAXPROCS(0), 1)
	for start := 0; start < len(attempts); start += window {
		end := min(start+window, len(attempts))
		results := make([]result, end-start)
		cancels := make([]context.CancelFunc, end-start)
		ctxs := make([]context.Context, end-start)
		for j := range results {
			ctxs[j], cancels[j] = context.WithCancel(s.ctx)
			if start+j < budgeted && budget > 0 {
				ctxs[j] = withBudget(ctxs[j], budget)
			}
		}
		var mu sync.Mutex
		var wg sync.WaitGroup
		for j := range results {
			q := attempts[start+j]
			wg.Add(1)
			go func() {
				defer wg.Done()
				cfg, err := s.safeQuery(ctxs[j], q.sketch, q.spec)
				r := result{cfg: cfg, err: err}
				cut := errors.Is(err, errBudget)
				r.skipped = errors.Is(err, ErrNoConfig) || cut || err != nil && s.ctx.Err() == nil && ctxs[j].Err() != nil
				if cut {
					s.count(func(*Stats) { s.budgetCuts++ })
				}
				mu.Lock()
				results[j] = r
				if err == nil {
					from := j + 1 // a later attempt can no longer win
					if anyOrder {
						from = 0 // nor, in any order, an earlier one
					}
					for k := from; k < len(cancels); k++ {
						if k != j {
							cancels[k]()
						}
					}
				}
				mu.Unlock()
			}()
		}
		wg.Wait()
		for j := range cancels {
			cancels[j]()
		}
		for j, r := range results {
			if errors.Is(r.err, ErrNoConfig) {
				noConfig = append(noConfig, start+j)
			}
		}
		for j, r := range results {
			if r.skipped {
				continue
			}
			if r.err != nil {
				return -1, nil, nil, r.err
			}
			return start + j, r.cfg, noConfig, nil
		}
	}
	return -1, nil, noConfig, nil
}

// estimate is the depth after which a group's needs are ready if its ALU
// reads frontier and outputs out: the ALU's stage, plus the stateless
// levels a need computed from its output takes.
func (s *synthesizer) estimate(gr *group, frontier []*Term, out *Term) int {
	d := s.stage(gr, frontier)
	extra := 0
	for _, need := range gr.needs {
		extra = max(extra, s.levelsAbove(need, out, map[*Term]int{}))
	}
	return d + extra
}

// stage estimates the stage of a group's ALU that reads frontier.
func (s *synthesizer) stage(gr *group, frontier []*Term) int {
	d := 0
	for _, t := range frontier {
		d = max(d, s.arrival(t))
	}
	for _, c := range gr.cells {
		d = max(d, s.arrival(c.Index))
	}
	return d + 1
}

// levelsAbove bounds the stateless levels that compute t from out and
// what is available: one per operation on the longest path.
func (s *synthesizer) levelsAbove(t, out *Term, memo map[*Term]int) int {
	if _, done := s.done[t]; done || t == out || len(t.Args) == 0 || t.IsLeaf() {
		return 0
	}
	if v, ok := memo[t]; ok {
		return v
	}
	h := 0
	for _, a := range t.Args {
		h = max(h, s.levelsAbove(a, out, memo))
	}
	memo[t] = h + 1
	return h + 1
}

// arrival estimates the stage at which a term is ready: fields at 0, ALU
// outputs after their ALU, other terms one stateless ALU after their
// leaves.
func (s *synthesizer) arrival(t *Term) int {
	if op, ok := s.done[t]; ok {
		if op.Kind != FromALU {
			return 0
		}
		s.g.ComputeDepths()
		return s.g.ALUs[op.Index].Depth + 1
	}
	if t.IsConst() || t.Op == OpInput || t.Op == OpHash {
		return 0
	}
	d := 0
	for _, l := range s.leaves(t) {
		if l != t {
			d = max(d, s.arrival(l))
		}
	}
	return d + 1
}

// addStateful adds a configured stateful ALU and the stateless trees that
// feed it.
func (s *synthesizer) addStateful(gr *group, frontier []*Term, out *Term, cfg grammar.Config) error {
	g := s.stateful
	alu := &ALU{Grammar: g, Config: cfg, State: make([]StateCell, len(g.States))}
	for i, c := range gr.cells {
		index, err := s.operand(c.Index)
		if err != nil {
			return err
		}
		alu.State[i] = StateCell{Register: c.Register, Index: index, IndexBits: c.IndexBits}
	}
	for _, t := range frontier {
		op, err := s.operand(t)
		if err != nil {
			return err
		}
		alu.Inputs = append(alu.Inputs, op)
	}
	for len(alu.Inputs) < len(g.Packets) {
		alu.Inputs = append(alu.Inputs, Operand{Kind: FromConst})
	}
	s.g.ALUs = append(s.g.ALUs, alu)
	if out != nil {
		s.done[out] = Operand{Kind: FromALU, Index: len(s.g.ALUs) - 1}
		alu.term = out
	}
	return nil
}

// frontierChoices lists the frontiers to try: with every computed term
// folded down to what is already computed (fields, hashes, earlier ALUs'
// outputs) when that differs, then the frontier itself. The caller drops
// choices that read state not yet available.
func (s *synthesizer) frontierChoices(frontier []*Term) [][]*Term {
	var folded []*Term
	for _, t := range frontier {
		for _, l := range s.leaves(t) {
			folded = appendNew(folded, l)
		}
	}
	// One level down: the ALU computes the frontier's last operations
	// itself (a comparison of a difference that the stateless ALUs
	// computed: Tofino's VLIW slot subtracts but cannot compare).
	var down []*Term
	for _, t := range frontier {
		if _, done := s.done[t]; done || t.IsLeaf() {
			down = appendNew(down, t)
			continue
		}
		for _, a := range t.Args {
			if !a.IsConst() {
				down = appendNew(down, a)
			}
		}
	}
	choices := [][]*Term{folded}
	for _, c := range [][]*Term{down, frontier} {
		if !slices.ContainsFunc(choices, func(d []*Term) bool { return sameTerms(c, d) }) {
			choices = append(choices, c)
		}
	}
	return choices
}

// available says whether every term can be computed now: it reads no
// state whose ALU is still to come.
func (s *synthesizer) available(terms []*Term) bool {
	for _, t := range terms {
		for _, l := range s.leaves(t) {
			if _, done := s.done[l]; l.Op == OpPre && !done {
				return false
			}
		}
	}
	return true
}

func appendNew(ts []*Term, t *Term) []*Term {
	if slices.Contains(ts, t) {
		return ts
	}
	return append(ts, t)
}

func sameTerms(a, b []*Term) bool {
	if len(a) != len(b) {
		return false
	}
	for _, t := range a {
		if !slices.Contains(b, t) {
			return false
		}
	}
	return true
}

// outputChoices lists what the group's ALU may output, best first: the
// one term read elsewhere, else a pre- or post-state from which all such
// terms can be computed; nil when nothing reads the group's state.
func (s *synthesizer) outputChoices(gr *group) []*Term {
	if len(gr.needs) == 0 {
		return []*Term{nil}
	}
	var outs []*Term
	if len(gr.needs) == 1 {
		outs = append(outs, gr.needs[0])
	}
	var states []*Term
	for _, c := range gr.cells {
		for _, t := range []*Term{c.Pre, c.Post} {
			if !slices.Contains(outs, t) && !slices.Contains(states, t) && covers(gr, t) {
				states = append(states, t)
			}
		}
	}
	// Cheapest first: the fewer operations the needs take after the
	// output, the fewer stateless ALUs follow it.
	sort.SliceStable(states, func(i, j int) bool { return gr.costAfter(states[i]) < gr.costAfter(states[j]) })
	return append(outs, states...)
}

// costAfter counts the operations of the group's needs that remain to be
// computed when the ALU outputs out.
func (gr *group) costAfter(out *Term) int {
	seen := map[*Term]bool{}
	var count func(t *Term) int
	count = func(t *Term) int {
		if t == out || seen[t] || len(t.Args) == 0 || t.IsLeaf() {
			return 0
		}
		seen[t] = true
		n := 1
		for _, a := range t.Args {
			n += count(a)
		}
		return n
	}
	total := 0
	for _, need := range gr.needs {
		total += count(need)
	}
	return total
}

// covers says whether, given out, every term that reads gr's state can
// be computed without reading it again.
func covers(gr *group, out *Term) bool {
	for _, need := range gr.needs {
		if readsOwnState(need, gr, out) {
			return false
		}
	}
	return true
}

// readsOwnState says whether t reads gr's state other than through out.
func readsOwnState(t *Term, gr *group, out *Term) bool {
	return gr.reads(t, out, map[*Term]bool{})
}

func (gr *group) reads(t, out *Term, memo map[*Term]bool) bool {
	if t == out {
		return false
	}
	if v, ok := memo[t]; ok {
		return v
	}
	r := false
	if t.Op == OpPre {
		r = gr.owns(t.Cell)
	}
	for _, a := range t.Args {
		if !r && gr.reads(a, out, memo) {
			r = true
		}
	}
	memo[t] = r
	return r
}

func (s *synthesizer) statefulSpec(gr *group, frontier []*Term, out *Term) Spec {
	n := len(s.stateful.States)
	spec := Spec{States: n, Packets: len(s.stateful.Packets), CareStates: make([]bool, n), CareOutput: out != nil,
		StateWidths: make([]int, n), PacketWidths: widths(frontier), ZeroStates: make([]bool, n)}
	for i := len(gr.cells); i < n; i++ {
		spec.ZeroStates[i] = true // no register: it reads 0 (StateCell)
	}
	bound := map[*Term]string{}
	roots := []*Term{out}
	for i, c := range gr.cells {
		spec.CareStates[i] = true
		spec.StateWidths[i] = c.Width
		bound[c.Pre] = "s" + strconv.Itoa(i)
		roots = append(roots, c.Post)
	}
	negations := s.negations(frontier)
	for i, t := range frontier {
		bound[t] = "p" + strconv.Itoa(i)
		if n := negations[i]; n != nil {
			bound[n] = "!p" + strconv.Itoa(i)
		}
		if t.IsConst() {
			if spec.Fixed == nil {
				spec.Fixed = map[int]uint64{}
			}
			spec.Fixed[i] = t.Value
		}
	}
	spec.addTerms("", roots, bound)
	spec.Constants = constantsOf(roots)
	spec.Encode = func(x *z3.Context, states, packets []z3.Expr) ([]z3.Expr, z3.Expr) {
		word := states[0].Width() // findConfig may search at a reduced width
		enc := newTermEncoder(x, word, roots)
		for i, c := range gr.cells {
			enc.bind(c.Pre, states[i])
		}
		for i, t := range frontier {
			enc.bind(t, packets[i])
			if n := negations[i]; n != nil {
				enc.bind(n, packets[i].BVXor(x.BV(1, word)))
			}
		}
		news := append([]z3.Expr(nil), states...)
		for i, c := range gr.cells {
			news[i] = enc.encode(c.Post)
		}
		o := states[0]
		if out != nil {
			o = enc.encode(out)
		}
		return news, o
	}
	pres := make([]*Term, n)
	for i, c := range gr.cells {
		pres[i] = c.Pre
	}
	return s.withAssume(spec, pres, frontier)
}

// operand computes a term that reads no state (or reads it only through
// terms already computed) with stateless ALUs, and returns where its value
// is: a field, a constant, or an ALU's output.
func (s *synthesizer) operand(t *Term) (Operand, error) {
	if op, ok := s.done[t]; ok {
		return op, nil
	}
	var op Operand
	var err error
	switch {
	case t.IsConst():
		op = Operand{Kind: FromConst, Value: t.Value}
	case t.Op == OpInput:
		op = Operand{Kind: FromField, Index: s.field(t.Field)}
	case t.Op == OpHash:
		op = s.hashUnit(t)
	case t.Op == OpPre:
		return op, s.unsupported("%s is read outside its stateful ALU", t.Name)
	case t.Op == OpZext && t.Width <= s.width:
		op, err = s.operand(t.Args[0]) // a word holds a narrower value zero-extended
	default:
		op, err = s.statelessALU(t)
	}
	if err != nil {
		return op, err
	}
	s.done[t] = op
	if op.Kind == FromALU && s.g.ALUs[op.Index].term == nil {
		s.g.ALUs[op.Index].term = t
	}
	return op, nil
}

// hashUnit adds the hash unit that computes t.
func (s *synthesizer) hashUnit(t *Term) Operand {
	h := Hash{Spec: *t.Hash, Width: t.Width, term: t}
	for _, d := range t.Args {
		h.Data = append(h.Data, Operand{Kind: FromField, Index: s.field(d.Field)})
		h.DataWidths = append(h.DataWidths, d.Width)
	}
	s.g.Hashes = append(s.g.Hashes, h)
	return Operand{Kind: FromHash, Index: len(s.g.Hashes) - 1}
}

// statelessALU computes t by one stateless ALU over its leaves if one can,
// else by one ALU for t's operation over its computed arguments.
func (s *synthesizer) statelessALU(t *Term) (Operand, error) {
	g := s.stateless
	if t.Width > s.width {
		return Operand{}, s.unsupported("%s is %d bits wide; the ALUs are %d", t, t.Width, s.width)
	}
	if op, ok, err := s.statelessTree(t); err != nil || ok {
		return op, err
	}
	if shared := s.sharedSubterms(t); len(shared) > 0 {
		if err := s.computeAll(shared); err != nil {
			return Operand{}, err
		}
		if op, ok, err := s.statelessTree(t); err != nil || ok {
			return op, err
		}
	}
	var args []*Term
	for _, a := range t.Args {
		if !a.IsConst() && !slices.Contains(args, a) {
			if _, err := s.operand(a); err != nil {
				return Operand{}, err
			}
			args = append(args, a)
		}
	}
	if len(args) > len(g.Packets) {
		return Operand{}, s.unsupported("%s needs %d inputs; ALU %s has %d", t, len(args), g.Name, len(g.Packets))
	}
	// The ALU's operands are wired in order (Tofino's VLIW slot has x1 -
	// x0 but not x0 - x1), so both orders are tried; the constants no
	// immediate holds come in as inputs (action data), and failing that
	// all of them (Tofino's slot has x0 ^ x1 but not x0 ^ i).
	orders := [][]*Term{args, reversed(args)}
	for _, consts := range [][]*Term{wideConstantArgs(t, g), constantArgs(t)} {
		if len(consts) > 0 && len(args)+len(consts) <= len(g.Packets) {
			with := append(append([]*Term(nil), args...), consts...)
			orders = append(orders, with, reversed(with))
		}
	}
	var tried [][]*Term
	for _, order := range orders {
		if slices.ContainsFunc(tried, func(o []*Term) bool { return slices.Equal(o, order) }) {
			continue
		}
		tried = append(tried, order)
		op, err := s.statelessQuery(t, order)
		if !errors.Is(err, ErrNoConfig) {
			return op, err
		}
	}
	if op, ok, err := s.statelessTreeOfAnyDepth(t); err != nil || ok {
		return op, err
	}
	return Operand{}, s.unsupported("no configuration of ALU %s computes %s", g.Name, t)
}

// sharedSubterms lists, children first, the subterms of t that two of its
// operations read and that stateless ALUs can compute: each takes an ALU
// of its own however t is computed, so they go first, and a tree for t can
// then read them. A tree over t's leaves alone cannot see them: SipHash's
// rotations, (v << 5) | (v >> 27) of a v computed from other rounds, are
// one ALU each only once v is.
func (s *synthesizer) sharedSubterms(t *Term) []*Term {
	readers := map[*Term]int{}
	seen := map[*Term]bool{}
	var order []*Term
	var walk func(u *Term)
	walk = func(u *Term) {
		if seen[u] {
			return
		}
		seen[u] = true
		if _, done := s.done[u]; done || u.IsLeaf() || u.IsConst() {
			return
		}
		var args []*Term
		for _, a := range u.Args {
			if !slices.Contains(args, a) {
				args = append(args, a)
				readers[a]++
				walk(a)
			}
		}
		order = append(order, u)
	}
	walk(t)
	var out []*Term
	for _, u := range order {
		if u != t && readers[u] > 1 && u.Width <= s.width && !s.readsUnavailableState(u) {
			out = append(out, u)
		}
	}
	return out
}

// computeAll computes the terms in order, as far as stateless ALUs can. A
// term they cannot compute alone ends it without an error: a tree for an
// operation above it may still compute that operation from what is below
// it, and if none does, one ALU per operation says why.
func (s *synthesizer) computeAll(terms []*Term) error {
	for _, u := range terms {
		if _, err := s.operand(u); err != nil {
			var unsupported *UnsupportedError
			if errors.As(err, &unsupported) {
				return nil
			}
			return err
		}
	}
	return nil
}

// readsUnavailableState says whether t reads a state whose value no ALU
// gives out (it is computable only from a stateful ALU's output).
func (s *synthesizer) readsUnavailableState(t *Term) bool {
	return slices.ContainsFunc(s.leaves(t), func(l *Term) bool { return l.Op == OpPre })
}

func reversed(ts []*Term) []*Term {
	out := slices.Clone(ts)
	slices.Reverse(out)
	return out
}

// wideConstantArgs lists t's constant operands that no immediate of g
// holds.
func wideConstantArgs(t *Term, g *grammar.Grammar) []*Term {
	bits := immediateBits(g)
	var out []*Term
	for _, a := range t.Args {
		if a.IsConst() && bits < 64 && a.Value>>uint(bits) != 0 && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// constantArgs lists t's constant operands.
func constantArgs(t *Term) []*Term {
	var out []*Term
	for _, a := range t.Args {
		if a.IsConst() && !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// immediateBits is the width of the widest unsigned value an immediate of
// g holds.
func immediateBits(g *grammar.Grammar) int {
	bits := 0
	for _, h := range g.Holes {
		if h.Kind == grammar.HoleConst {
			bits = max(bits, h.Bits)
		} else if h.Kind == grammar.HoleSConst {
			bits = max(bits, h.Bits-1)
		}
	}
	return bits
}

// leaves are the terms a stateless ALU over t would read: inputs, and
// subterms already computed (stateful outputs among them).
func (s *synthesizer) leaves(t *Term) []*Term {
	return t.cut(func(u *Term) bool {
		_, done := s.done[u]
		return done || u.IsLeaf()
	})
}

// statelessQuery configures one stateless ALU to compute t from the
// operands of args.
func (s *synthesizer) statelessQuery(t *Term, args []*Term) (Operand, error) {
	g := s.stateless
	spec := Spec{Packets: len(g.Packets), CareOutput: true, PacketWidths: widths(args)}
	bound := map[*Term]string{}
	for i, a := range args {
		bound[a] = "p" + strconv.Itoa(i)
		if a.IsConst() {
			if spec.Fixed == nil {
				spec.Fixed = map[int]uint64{}
			}
			spec.Fixed[i] = a.Value
		}
	}
	spec.addTerms("", []*Term{t}, bound)
	spec.Constants = constantsOf([]*Term{t})
	spec.Encode = func(x *z3.Context, _, packets []z3.Expr) ([]z3.Expr, z3.Expr) {
		enc := newTermEncoder(x, packets[0].Width(), []*Term{t})
		for i, a := range args {
			enc.bind(a, packets[i])
		}
		return nil, enc.encode(t)
	}
	cfg, err := s.query(aluSketch{g}, s.withAssume(spec, nil, args))
	if err != nil {
		return Operand{}, err
	}
	alu := &ALU{Grammar: g, Config: cfg}
	for _, a := range args {
		op, err := s.operand(a)
		if err != nil {
			return Operand{}, err
		}
		alu.Inputs = append(alu.Inputs, op)
	}
	for len(alu.Inputs) < len(g.Packets) {
		alu.Inputs = append(alu.Inputs, Operand{Kind: FromConst})
	}
	s.g.ALUs = append(s.g.ALUs, alu)
	return Operand{Kind: FromALU, Index: len(s.g.ALUs) - 1}, nil
}

// safeQuery is queryCtx for a goroutine of its own: a panic there would
// end the process, so it comes back as an error.
func (s *synthesizer) safeQuery(ctx context.Context, sk sketch, spec Spec) (cfg grammar.Config, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("internal error in a query for ALU %s: %v", sk.name(), r)
		}
	}()
	return s.queryCtx(ctx, sk, spec)
}

// count updates the statistics; queries run in parallel.
func (s *synthesizer) count(f func(*Stats)) {
	s.statsMu.Lock()
	defer s.statsMu.Unlock()
	f(&s.stats)
}

// query answers a query from the cache or the solver.
func (s *synthesizer) query(sk sketch, spec Spec) (grammar.Config, error) {
	return s.queryCtx(s.ctx, sk, spec)
}

func (s *synthesizer) queryCtx(ctx context.Context, sk sketch, spec Spec) (grammar.Config, error) {
	key, keyed := QueryKey(sk.grammar(), spec, s.width, s.searchWidth)
	// A budget counts solver work, so a query cut by one is cut by it
	// again: that is kept too, under the budget (BLUE's packed attempt on
	// Tofino spends its whole budget on every compile otherwise).
	cut, budgeted := "", false
	if b, ok := ctx.Value(budgetKey{}).(*workBudget); ok {
		cut, budgeted = fmt.Sprintf("%s-cut-%d", key, b.left), true // a file name, in a DiskCache
	}
	if s.cache != nil && keyed {
		if a, ok := s.cache.Get(key); ok && s.usable(ctx, sk, spec, key, a) {
			s.count(func(st *Stats) { st.CacheHits++ })
			if !a.Found {
				return nil, ErrNoConfig
			}
			return a.Config, nil
		}
		if budgeted {
			if _, ok := s.cache.Get(cut); ok {
				s.count(func(st *Stats) { st.CacheHits++ })
				return nil, fmt.Errorf("synth: ALU %s: %w", sk.name(), errBudget)
			}
		}
		if cfg, ok := s.transferred(ctx, sk, spec); ok {
			s.count(func(st *Stats) { st.CacheHits++ })
			s.cache.Put(key, Answer{Config: cfg, Found: true})
			return cfg, nil
		}
	}
	s.count(func(st *Stats) { st.Queries++ })
	cfg, _, err := findConfig(ctx, sk, spec, s.width, s.searchWidth)
	if errors.Is(err, ErrNoConfig) {
		s.count(func(st *Stats) { st.Failed++ })
	}
	if s.cache != nil && keyed {
		switch {
		case err == nil:
			s.cache.Put(key, Answer{Config: cfg, Found: true})
			s.keepShape(sk, spec, cfg)
		case errors.Is(err, ErrNoConfig):
			s.cache.Put(key, Answer{})
		case budgeted && errors.Is(err, errBudget) && ctx.Err() == nil:
			s.cache.Put(cut, Answer{})
		}
	}
	return cfg, err
}

// usable reports whether a cached answer may stand for its query. An
// answer from outside the process (Unchecked) is untrusted input: a
// configuration is proved against the query first, and one that does not
// hold (or has the wrong number of holes) is refused and counted, so the
// query runs and its answer replaces the entry. A "none" from outside
// stands on its entry's checksum alone: proving it would be the search
// itself.
func (s *synthesizer) usable(ctx context.Context, sk sketch, spec Spec, key string, a Answer) bool {
	if !a.Unchecked || !a.Found {
		return true
	}
	ok := len(a.Config) == len(sk.holes())
	if ok {
		var err error
		if ok, err = verifySketch(ctx, sk, spec, a.Config, s.width); err != nil {
			return false // interrupted: the query's own run says so
		}
	}
	if !ok {
		s.count(func(st *Stats) { st.CacheRejected++ })
		return false
	}
	s.cache.Put(key, Answer{Config: a.Config, Found: true}) // checked now
	return true
}

// field returns the Graph.Fields index of an lvalue, adding it if new.
func (s *synthesizer) field(f ir.Expr) int {
	name := ir.Format(f)
	if i, ok := s.fields[name]; ok {
		return i
	}
	s.g.Fields = append(s.g.Fields, f)
	s.fields[name] = len(s.g.Fields) - 1
	return len(s.g.Fields) - 1
}

// widths lists the terms' widths, the ranges of the inputs they feed.
func widths(ts []*Term) []int {
	out := make([]int, len(ts))
	for i, t := range ts {
		out[i] = t.Width
	}
	return out
}

// termEncoder encodes a spec's terms over the words of a search: scaled
// to the word (EncodeScaled) when they all scale, else at their own
// widths over the words' values zero-extended.
type termEncoder struct {
	x      *z3.Context
	env    map[*Term]z3.Expr
	word   int
	scaled bool
}

func newTermEncoder(x *z3.Context, word int, terms []*Term) *termEncoder {
	e := &termEncoder{x: x, env: map[*Term]z3.Expr{}, word: word, scaled: true}
	for _, t := range terms {
		if t != nil && !t.Scales(word) {
			e.scaled = false
		}
	}
	return e
}

// bind gives a leaf the value a word holds.
func (e *termEncoder) bind(t *Term, v z3.Expr) {
	w := t.Width
	if e.scaled {
		w = scaledWidth(w, e.word)
	}
	e.env[t] = narrow(v, w)
}

// encode is a term's value as a word.
func (e *termEncoder) encode(t *Term) z3.Expr {
	if e.scaled {
		return widen(t.EncodeScaled(e.x, e.env, e.word), e.word)
	}
	return widen(t.Encode(e.x, e.env), e.word)
}

// narrow views a word as a w-bit value (the word holds it
// zero-extended; a word narrower than w, in a reduced-width search, holds
// a small value).
func narrow(e z3.Expr, w int) z3.Expr {
	switch {
	case e.Width() > w:
		return e.Extract(w-1, 0)
	case e.Width() < w:
		return e.ZeroExt(w - e.Width())
	}
	return e
}

// widen makes a value a word of w bits: zero-extended, or cut to its low
// bits in a reduced-width search.
func widen(e z3.Expr, w int) z3.Expr {
	switch {
	case e.Width() < w:
		return e.ZeroExt(w - e.Width())
	case e.Width() > w:
		return e.Extract(w-1, 0)
	}
	return e
}

// frontierOf appends to acc the maximal subterms of t that read none of
// gr's state and are not constants: what gr's ALU must be given.
func frontierOf(t *Term, gr *group, acc []*Term) []*Term {
	memo := map[*Term]bool{}
	for _, u := range t.cut(func(u *Term) bool { return !gr.reads(u, nil, memo) }) {
		acc = appendNew(acc, u)
	}
	return acc
}

// cellsRead lists the cells whose pre-state t reads.
func cellsRead(t *Term) []*Cell {
	var out []*Cell
	for _, l := range t.Leaves() {
		if l.Op == OpPre {
			out = append(out, l.Cell)
		}
	}
	return out
}

func cellNames(cs []*Cell) string {
	var names []string
	for _, c := range cs {
		names = append(names, c.Name)
	}
	return strings.Join(names, " and ")
}

func termList(ts []*Term) string {
	var out []string
	for _, t := range ts {
		out = append(out, t.String())
	}
	return strings.Join(out, ", ")
}

// constantsOf lists the constants the terms compute with.
func constantsOf(roots []*Term) []uint64 {
	var out []uint64
	seen := map[*Term]bool{}
	var walk func(t *Term)
	walk = func(t *Term) {
		if t == nil || seen[t] {
			return
		}
		seen[t] = true
		if t.IsConst() && !slices.Contains(out, t.Value) {
			out = append(out, t.Value)
		}
		for _, a := range t.Args {
			walk(a)
		}
	}
	for _, r := range roots {
		walk(r)
	}
	return out
}

// MaxTermDepth bounds the operations in a row a transaction's values may
// take for synthesis to try them. A target's ALUs compute a few
// operations each, over tens of stages, and the deepest action of the
// corpus (SipHash) is 51 operations deep; each query's solver time grows
// with the depth (an action of 1,000 chained statements took 2 to 5 s to
// be refused, one of 10,000 took 10 s, one of 100,000 ran past two
// minutes), so past the bound synthesis refuses at once, saying so,
// rather than spend that time proving that no ALU computes it.
const MaxTermDepth = 256

// tooDeep refuses a transaction one of whose values (a register's new
// value or a field's) is more than MaxTermDepth operations deep.
func tooDeep(tx *Transaction) error {
	check := func(what string, t *Term) error {
		if t == nil || t.depth <= MaxTermDepth {
			return nil
		}
		return &UnsupportedError{Span: tx.Action.Span, Msg: fmt.Sprintf(
			"action %s: the new value of %s is %d operations deep, past synthesis's bound of %d (MaxTermDepth): shorten the chain of statements that computes it",
			tx.Action.Name, what, t.depth, MaxTermDepth)}
	}
	for _, c := range tx.Cells {
		if err := check("register cell "+c.Name, c.Post); err != nil {
			return err
		}
	}
	for _, o := range tx.Outputs {
		if err := check("field "+o.Name, o.Value); err != nil {
			return err
		}
	}
	return nil
}
