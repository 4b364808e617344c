package alloc

import (
	"fmt"
	"slices"
)

// Validate re-checks every constraint of the problem on a solution, in
// plain Go and from the problem alone (it shares no code with the
// encodings, so a wrong encoding cannot hide behind it).
func Validate(p *Problem, s *Solution) error {
	if err := p.check(); err != nil {
		return err
	}
	if len(s.Parts) != len(p.Tables) || len(s.ALUs) != len(p.Tables) {
		return fmt.Errorf("the solution places %d tables, the problem has %d", len(s.Parts), len(p.Tables))
	}
	l := p.Limits
	last := -1
	tables, stateful, stateless := make([]int, l.Stages), make([]int, l.Stages), make([]int, l.Stages)
	for t, tab := range p.Tables {
		if len(s.Parts[t]) != p.Parts(t) || len(s.ALUs[t]) != p.Parts(t) {
			return fmt.Errorf("table %s: %d parts placed, it has %d", tab.Name, len(s.Parts[t]), p.Parts(t))
		}
		for i, stages := range s.Parts[t] {
			if err := checkPart(p, s, t, i, stateful, stateless); err != nil {
				return fmt.Errorf("table %s, part %d: %w", tab.Name, i+1, err)
			}
			for _, st := range stages {
				tables[st]++
				last = max(last, st)
			}
		}
	}
	if s.Stages != last+1 {
		return fmt.Errorf("the solution says %d stages; it uses %d", s.Stages, last+1)
	}
	for st := 0; st < l.Stages; st++ {
		switch {
		case tables[st] > l.TablesPerStage:
			return fmt.Errorf("stage %d holds %d tables; the limit is %d", st, tables[st], l.TablesPerStage)
		case stateful[st] > l.StatefulALUsPerStage:
			return fmt.Errorf("stage %d holds %d stateful ALUs; the limit is %d", st, stateful[st], l.StatefulALUsPerStage)
		case stateless[st] > l.ALUsPerStage-l.HeaderALUs:
			return fmt.Errorf("stage %d holds %d stateless ALUs and propagations; the limit is %d", st, stateless[st], l.ALUsPerStage-l.HeaderALUs)
		}
	}
	return checkOrder(p, s)
}

// checkPart checks one table part's stages and ALUs, and counts its ALUs
// (and the propagation of their outputs) per stage.
func checkPart(p *Problem, s *Solution, t, i int, stateful, stateless []int) error {
	stages := s.Parts[t][i]
	if len(stages) == 0 {
		return fmt.Errorf("no stage holds its match")
	}
	for k, st := range stages {
		if st < 0 || st >= p.Limits.Stages || (k > 0 && st <= stages[k-1]) {
			return fmt.Errorf("its stages %v are not increasing stages of the target's %d", stages, p.Limits.Stages)
		}
	}
	tab := p.Tables[t]
	if len(s.ALUs[t][i]) != len(tab.Actions) {
		return fmt.Errorf("%d actions placed, it has %d", len(s.ALUs[t][i]), len(tab.Actions))
	}
	for _, a := range tab.Actions {
		if p.Actions[a].ModifiesKey && len(stages) > 1 {
			return fmt.Errorf("action %s writes the table's key where it matches, yet the match repeats in stages %v", p.Actions[a].Name, stages)
		}
	}
	for k, a := range tab.Actions {
		act, placed := p.Actions[a], s.ALUs[t][i][k]
		if len(placed) != len(act.ALUs) {
			return fmt.Errorf("action %s: %d ALUs placed, it has %d", act.Name, len(placed), len(act.ALUs))
		}
		for u, alu := range act.ALUs {
			st := placed[u]
			switch {
			case !slices.Contains(stages, st):
				return fmt.Errorf("action %s: ALU %d is in stage %d, where the table has no match", act.Name, u, st)
			case st < stages[0]:
				return fmt.Errorf("action %s: ALU %d is in stage %d, before the match", act.Name, u, st)
			case act.ModifiesKey && st != stages[0]:
				return fmt.Errorf("action %s writes its table's key, yet ALU %d runs in stage %d after the match's %d", act.Name, u, st, stages[0])
			case (alu.WritesKey != "" || act.ModifiesKey) && st != stages[len(stages)-1]:
				return fmt.Errorf("action %s: ALU %d writes the table's key in stage %d, yet the match repeats in stage %d", act.Name, u, st, stages[len(stages)-1])
			}
			if alu.Stateful {
				stateful[st]++
			} else {
				stateless[st]++
			}
			end := st
			for v, other := range act.ALUs {
				if slices.Contains(other.Reads, u) {
					if placed[v] <= st {
						return fmt.Errorf("action %s: ALU %d (stage %d) reads ALU %d (stage %d)", act.Name, v, placed[v], u, st)
					}
					end = max(end, placed[v])
				}
			}
			for mid := st + 1; mid < end; mid++ {
				stateless[mid]++ // carrying the output through the stage
			}
		}
	}
	return nil
}

// checkOrder checks the table dependencies and the order of the parts of
// ternary, LPM and range tables.
func checkOrder(p *Problem, s *Solution) error {
	span := func(t int) (first, last int) {
		first, last = p.Limits.Stages, -1
		for _, stages := range s.Parts[t] {
			first, last = min(first, stages[0]), max(last, stages[len(stages)-1])
		}
		return first, last
	}
	for _, d := range p.Deps {
		_, last := span(d.From)
		first, _ := span(d.To)
		if first < last || (d.Kind.strict() && first == last) {
			return fmt.Errorf("%s depends on %s (%s) but starts in stage %d, and %s ends in stage %d",
				p.Tables[d.To].Name, p.Tables[d.From].Name, d.Kind, first, p.Tables[d.From].Name, last)
		}
	}
	for t, tab := range p.Tables {
		switch tab.Match {
		case "ternary", "lpm", "range":
			for i := 1; i < len(s.Parts[t]); i++ {
				prev := s.Parts[t][i-1]
				if s.Parts[t][i][0] < prev[len(prev)-1] {
					return fmt.Errorf("table %s: part %d starts in stage %d, before part %d ends", tab.Name, i+1, s.Parts[t][i][0], i)
				}
			}
		}
	}
	return nil
}
