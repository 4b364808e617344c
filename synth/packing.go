package synth

import (
	"slices"
	"sort"
)

// Predecessor packing (CaT §3.2.3): a multi-state ALU can hold a group of
// state variables together with a group it reads, doing in one stage what
// two would do. Which groups to pack matters: DNS TTL change's counter
// reads both the "seen" flag and the last TTL; packed with the last TTL it
// compares the TTL in the ALU and takes the flag as an input (two stages),
// while packed with the flag it needs the TTL comparison computed first
// (three). So synthesis tries the plans in order of the bound they allow.

// merge packs the group holding cell from into the group holding cell
// into (groups are rebuilt for every attempt; cells name them).
type merge struct{ from, into *Cell }

// plan is one way to pack: its merges, and the longest chain of stateful
// ALUs it leaves, which no mapping of it beats.
type plan struct {
	merges []merge
	chain  int
	// mixed counts the values the ALUs read that combine two inputs (a
	// comparison of two fields, say): a stateful ALU compares state with
	// one input, so each may cost a stateless stage before it.
	mixed int
}

// baseGroups puts the live cells into groups, merging cells that read
// each other (CaT's strongly connected components).
func (s *synthesizer) baseGroups() ([]*group, map[*Cell]*group) {
	var groups []*group
	groupOf := map[*Cell]*group{}
	for _, c := range s.liveCells() {
		gr := &group{cells: []*Cell{c}}
		groups = append(groups, gr)
		groupOf[c] = gr
	}
	for {
		for _, gr := range groups {
			s.linkGroup(gr, groupOf)
		}
		merged := mergeCycles(groups, groupOf)
		if len(merged) == len(groups) {
			return groups, groupOf
		}
		groups = merged
	}
}

// pack makes a plan's merges and links the groups again.
func (s *synthesizer) pack(groups []*group, groupOf map[*Cell]*group, merges []merge) []*group {
	for _, m := range merges {
		from, into := groupOf[m.from], groupOf[m.into]
		if from == into {
			continue
		}
		into.cells = append(into.cells, from.cells...)
		for _, c := range from.cells {
			groupOf[c] = into
		}
		groups = slices.DeleteFunc(groups, func(g *group) bool { return g == from })
	}
	for _, gr := range groups {
		s.linkGroup(gr, groupOf)
	}
	return groups
}

// packingPlans lists the plans to try: every set of merges of a group
// into a group it reads that fits the ALU and leaves no cycle, each group
// in at most one merge, most promising first (shortest chain, then fewest
// mixed inputs, then most merges; the plan without packing last among
// equals).
func (s *synthesizer) packingPlans() []plan {
	groups, _ := s.baseGroups()
	type candidate struct{ from, into *group }
	var cands []candidate
	for _, g := range groups {
		for _, d := range g.deps {
			if len(g.cells)+len(d.cells) <= len(s.stateful.States) && sameAddress(append(slices.Clone(g.cells), d.cells...)) {
				cands = append(cands, candidate{g, d})
			}
		}
	}
	// A handful of groups make a handful of candidates; the bound keeps
	// the subsets few on a transaction with many.
	const maxCandidates = 8
	cands = cands[:min(len(cands), maxCandidates)]
	var plans []plan
	for set := 0; set < 1<<len(cands); set++ {
		used := map[*group]bool{}
		var merges []merge
		disjoint := true
		for i, c := range cands {
			if set&(1<<i) == 0 {
				continue
			}
			if used[c.from] || used[c.into] {
				disjoint = false
				break
			}
			used[c.from], used[c.into] = true, true
			merges = append(merges, merge{c.from.cells[0], c.into.cells[0]})
		}
		if !disjoint {
			continue
		}
		groups, groupOf := s.baseGroups()
		groups = s.pack(groups, groupOf, merges)
		if chain, ok := longestChain(groups); ok {
			plans = append(plans, plan{merges, chain, mixedInputs(groups)})
		}
	}
	sort.SliceStable(plans, func(i, j int) bool {
		a, b := plans[i], plans[j]
		switch {
		case a.chain != b.chain:
			return a.chain < b.chain
		case a.mixed != b.mixed:
			return a.mixed < b.mixed
		}
		return len(a.merges) > len(b.merges)
	})
	return plans
}

// mixedInputs counts the groups' frontier terms that read two or more
// leaves.
func mixedInputs(groups []*group) int {
	n := 0
	for _, g := range groups {
		for _, t := range g.frontier {
			if len(t.Leaves()) > 1 {
				n++
			}
		}
	}
	return n
}

// longestChain is the longest chain of groups reading each other; ok is
// false when they read each other in a cycle.
func longestChain(groups []*group) (int, bool) {
	const visiting = -1
	length := map[*group]int{}
	var walk func(g *group) int
	walk = func(g *group) int {
		switch n, ok := length[g]; {
		case ok && n == visiting:
			return -1
		case ok:
			return n
		}
		length[g] = visiting
		n := 1
		for _, d := range g.deps {
			dn := walk(d)
			if dn < 0 {
				return -1
			}
			n = max(n, dn+1)
		}
		length[g] = n
		return n
	}
	longest := 0
	for _, g := range groups {
		n := walk(g)
		if n < 0 {
			return 0, false
		}
		longest = max(longest, n)
	}
	return longest, true
}
