// Package emit is the Banzai backend. Banzai is a machine model, so what
// a compile produces for it is the resource graphs and the allocation
// themselves, as JSON (the schema is docs/report.md's) and as a Graphviz
// drawing of the ALU pipeline.
//
// It is a package of its own, like tofino/tna and menshen/lower, so that
// banzai, the target description synthesis reads, does not depend on
// the phases.
package emit

import (
	"fmt"
	"sort"
	"strings"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// ALUPipeline is the resource graph of every synthesized action and the
// stage allocation gave each of its ALUs.
type ALUPipeline struct {
	Target  string        `json:"target"`
	ALU     string        `json:"alu"`
	Stages  int           `json:"stages"`
	Tables  []PlacedTable `json:"tables"`
	Actions []ActionGraph `json:"actions"`
}

// PlacedTable is a table (or gateway) and the stages of each part's match.
type PlacedTable struct {
	Name  string  `json:"name"`
	Parts [][]int `json:"parts"`
}

// ActionGraph is one action's resource graph and its placements (one per
// table part that runs it).
type ActionGraph struct {
	Name       string           `json:"name"`
	ALUs       []GraphALU       `json:"alus"`
	Edges      []GraphEdge      `json:"edges"`
	Writes     []GraphWrite     `json:"writes"`
	Hashes     []GraphHash      `json:"hashes,omitempty"`
	Placements []GraphPlacement `json:"placements"`
}

// GraphALU is one configured ALU: its grammar, hole values, inputs (in
// the grammar's packet-input order) and the register cells of its state
// variables.
type GraphALU struct {
	ID      int         `json:"id"`
	Grammar string      `json:"grammar"`
	Kind    string      `json:"kind"`
	Holes   []GraphHole `json:"holes"`
	Inputs  []Operand   `json:"inputs"`
	State   []string    `json:"state,omitempty"`
	Depth   int         `json:"depth"`
}

// GraphHole is one hole's value; Name is the hole's name, or where an
// anonymous hole is in the grammar ("mux3 at 9:22").
type GraphHole struct {
	Name  string `json:"name"`
	Value uint64 `json:"value"`
}

// Operand is where a value comes from: kind "field" (Name), "alu"
// (Index), "const" (Value) or "hash" (Index).
type Operand struct {
	Kind  string  `json:"kind"`
	Name  string  `json:"name,omitempty"`
	Index *int    `json:"index,omitempty"`
	Value *uint64 `json:"value,omitempty"`
}

// GraphEdge wires ALU From's output to input Input of ALU To.
type GraphEdge struct {
	From  int `json:"from"`
	To    int `json:"to"`
	Input int `json:"input"`
}

// GraphWrite sends a value to a field when the action ends.
type GraphWrite struct {
	Field string  `json:"field"`
	Value Operand `json:"value"`
}

// GraphHash is a hash unit: algorithm, base, max, the fields it hashes.
type GraphHash struct {
	Algorithm string    `json:"algorithm"`
	Base      uint64    `json:"base"`
	Max       uint64    `json:"max"`
	Data      []Operand `json:"data"`
}

// GraphPlacement is the stage of each ALU in one table part's copy of
// the action.
type GraphPlacement struct {
	Table  string `json:"table"`
	Part   int    `json:"part"`
	Stages []int  `json:"stages"`
}

// Pipeline describes a compile's resource graphs and allocation.
func Pipeline(c *backends.Compiled) *ALUPipeline {
	out := &ALUPipeline{Target: c.Target.Name, ALU: c.Target.Stateful}
	p, sol := c.Problem, c.Placement
	out.Stages = sol.Stages
	for t, tab := range p.Tables {
		out.Tables = append(out.Tables, PlacedTable{Name: tab.Name, Parts: sol.Parts[t]})
	}
	for _, g := range c.Graphs {
		ag := actionGraph(g)
		for t, tab := range p.Tables {
			for k, a := range tab.Actions {
				if p.Actions[a].Name != g.Action.Name {
					continue
				}
				for i := range sol.Parts[t] {
					ag.Placements = append(ag.Placements, GraphPlacement{Table: tab.Name, Part: i, Stages: sol.ALUs[t][i][k]})
				}
			}
		}
		out.Actions = append(out.Actions, ag)
	}
	return out
}

func actionGraph(g *synth.Graph) ActionGraph {
	op := func(o synth.Operand) Operand {
		switch o.Kind {
		case synth.FromField:
			return Operand{Kind: "field", Name: ir.Format(g.Fields[o.Index])}
		case synth.FromALU:
			return Operand{Kind: "alu", Index: &o.Index}
		case synth.FromHash:
			return Operand{Kind: "hash", Index: &o.Index}
		}
		return Operand{Kind: "const", Value: &o.Value}
	}
	ag := ActionGraph{Name: g.Action.Name}
	for _, h := range g.Hashes {
		gh := GraphHash{Algorithm: h.Spec.Algo, Base: h.Spec.Base, Max: h.Spec.Max}
		for _, d := range h.Data {
			gh.Data = append(gh.Data, op(d))
		}
		ag.Hashes = append(ag.Hashes, gh)
	}
	for i, a := range g.ALUs {
		ga := GraphALU{ID: i, Grammar: a.Grammar.Name, Kind: a.Grammar.Kind.String(), Depth: a.Depth}
		for h, v := range a.Config {
			ga.Holes = append(ga.Holes, GraphHole{Name: holeName(a.Grammar.Holes[h]), Value: v})
		}
		for j, in := range a.Inputs {
			ga.Inputs = append(ga.Inputs, op(in))
			if in.Kind == synth.FromALU {
				ag.Edges = append(ag.Edges, GraphEdge{From: in.Index, To: i, Input: j})
			}
		}
		for _, c := range a.State {
			if c.Register == nil {
				ga.State = append(ga.State, "")
				continue
			}
			idx := op(c.Index)
			ga.State = append(ga.State, fmt.Sprintf("%s[%s]", c.Register.Name, operandText(idx)))
		}
		ag.ALUs = append(ag.ALUs, ga)
	}
	for _, w := range g.Writes {
		ag.Writes = append(ag.Writes, GraphWrite{Field: ir.Format(g.Fields[w.Field]), Value: op(w.Value)})
	}
	return ag
}

func holeName(h *grammar.Hole) string {
	if h.Name != "" {
		return h.Name
	}
	return h.Label
}

func operandText(o Operand) string {
	switch o.Kind {
	case "field":
		return o.Name
	case "alu", "hash":
		return fmt.Sprintf("%s%d", o.Kind, *o.Index)
	}
	return fmt.Sprint(*o.Value)
}

// Dot draws the ALU pipeline in Graphviz's language: a cluster per
// stage holding the ALUs placed there (each action's first placement),
// fields as boxes, edges for every value an ALU reads or a field gets.
func (p *ALUPipeline) Dot() string {
	var b strings.Builder
	b.WriteString("digraph pipeline {\n  rankdir=LR;\n  node [fontname=\"monospace\"];\n")
	byStage := map[int][]string{}
	fields := map[string]bool{}
	var edges []string
	for ai, a := range p.Actions {
		stages := make([]int, len(a.ALUs))
		for u := range a.ALUs {
			stages[u] = a.ALUs[u].Depth
		}
		if len(a.Placements) > 0 {
			stages = a.Placements[0].Stages
		}
		id := func(u int) string { return fmt.Sprintf("a%d_alu%d", ai, u) }
		for u, alu := range a.ALUs {
			byStage[stages[u]] = append(byStage[stages[u]],
				fmt.Sprintf("%s [shape=ellipse, label=\"%s alu%d\\n%s\"];", id(u), a.Name, u, alu.Grammar))
			for j, in := range alu.Inputs {
				switch in.Kind {
				case "alu":
					edges = append(edges, fmt.Sprintf("%s -> %s [label=\"in%d\"];", id(*in.Index), id(u), j))
				case "field":
					fields[in.Name] = true
					edges = append(edges, fmt.Sprintf("%q -> %s [label=\"in%d\"];", in.Name, id(u), j))
				}
			}
		}
		for _, w := range a.Writes {
			fields[w.Field] = true
			switch w.Value.Kind {
			case "alu":
				edges = append(edges, fmt.Sprintf("%s -> %q [style=dashed];", id(*w.Value.Index), w.Field))
			case "field":
				fields[w.Value.Name] = true
				edges = append(edges, fmt.Sprintf("%q -> %q [style=dashed];", w.Value.Name, w.Field))
			}
		}
	}
	var names []string
	for f := range fields {
		names = append(names, f)
	}
	sort.Strings(names)
	for _, f := range names {
		fmt.Fprintf(&b, "  %q [shape=box];\n", f)
	}
	var stages []int
	for s := range byStage {
		stages = append(stages, s)
	}
	sort.Ints(stages)
	for _, s := range stages {
		fmt.Fprintf(&b, "  subgraph cluster_stage%d {\n    label=\"stage %d\";\n", s, s)
		for _, n := range byStage[s] {
			fmt.Fprintf(&b, "    %s\n", n)
		}
		b.WriteString("  }\n")
	}
	for _, e := range edges {
		fmt.Fprintf(&b, "  %s\n", e)
	}
	b.WriteString("}\n")
	return b.String()
}
