// Package stagemap writes report.html, the stage map of a compile: a
// column per pipeline stage holding each table part and ALU placed there,
// arrows for the tables' dependencies and for the values ALUs pass from
// stage to stage, bars of each stage's use against the target's limits,
// each synthesized action's ALU tree with its configured holes, and the
// diagnostics with their source lines. The page is one self-contained
// file (inline CSS and SVG, no script, nothing fetched), so it opens from
// a CI artifact or a mail.
package stagemap

import (
	"fmt"
	"sort"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/alloc/placement"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/report"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/target"
	"github.com/p4hls/p4hls/transform"
)

// Input is what a compile produced, as far as it went (driver.Result's
// fields).
type Input struct {
	File   string
	Report report.Report
	// Target has the compile's limits (nil when the request named no
	// valid target); Placement is phase 3's (nil, or unsolved, when the
	// compile stopped before).
	Target    *target.Target
	Placement *placement.Placement
	Graphs    []*synth.Graph
	// Source gives a file's text, for the diagnostics' excerpts (nil:
	// none).
	Source func(file string) []byte
}

// Item is one thing a stage holds: a table part (or a gateway's, or a
// statement group's) match, or an ALU of an action's copy in a part.
type Item struct {
	Stage int
	// Kind is "table", "gateway" or "alu".
	Kind string
	// Table and Part are the table part (for an ALU: the part whose copy
	// of the action it is); Action and ALU name an ALU.
	Table       string
	Part        int
	Action      string
	ALU         int
	Stateful    bool
	Grammar     string
	Entries     int
	X, Y, W, H  int // its box in the map
	Label, Note string
}

// Name is how the DOM names an item (data-name): a table's name, or
// ACTION#ALU for an ALU.
func (it Item) Name() string {
	if it.Kind == "alu" {
		return fmt.Sprintf("%s#%d", it.Action, it.ALU)
	}
	return it.Table
}

// Arrow joins two items: a table dependency (Kind "match", "action",
// "successor", "reverse-match") or a value from one ALU to another
// ("value"; Carried when it crosses stages between).
type Arrow struct {
	From, To int // indexes into Items
	Kind     string
	Carried  bool
}

// Stage is one stage's use against the limits.
type Stage struct {
	Index                             int
	Tables, ALUs, Stateful, Entries   int
	MaxTables, MaxALUs, MaxStateful   int
	MaxEntries, Carried, Gateways     int
	TablesPct, ALUsPct, StatefulPct   int
	EntriesPct                        int
	OverTables, OverALUs, OverEntries bool
}

// items lays out what each stage holds: per stage, the table parts in
// table order, then the ALUs.
func items(pl *placement.Placement, graphs map[string]*synth.Graph) ([]Item, []Arrow) {
	p, sol := pl.Problem, pl.Solution
	var out []Item
	var arrows []Arrow
	first := map[int]int{} // table -> its first item
	for t, tab := range p.Tables {
		kind := "table"
		if t < len(pl.Nodes) && pl.Nodes[t].Kind == transform.GatewayNode {
			kind = "gateway"
		}
		for i, stages := range sol.Parts[t] {
			entries := partEntries(p, t, i)
			for _, s := range stages {
				if _, ok := first[t]; !ok {
					first[t] = len(out)
				}
				out = append(out, Item{Stage: s, Kind: kind, Table: tab.Name, Part: i, Entries: entries})
			}
			for k, a := range tab.Actions {
				act := p.Actions[a]
				base := len(out)
				for u, s := range sol.ALUs[t][i][k] {
					it := Item{Stage: s, Kind: "alu", Table: tab.Name, Part: i, Action: act.Name, ALU: u, Stateful: act.ALUs[u].Stateful}
					if g := graphs[act.Name]; g != nil && u < len(g.ALUs) {
						it.Grammar = g.ALUs[u].Grammar.Name
					}
					out = append(out, it)
				}
				for u, alu := range act.ALUs {
					for _, r := range alu.Reads {
						from, to := out[base+r], out[base+u]
						arrows = append(arrows, Arrow{From: base + r, To: base + u, Kind: "value", Carried: to.Stage > from.Stage+1})
					}
				}
			}
		}
	}
	for _, d := range p.Deps {
		from, ok1 := first[d.From]
		to, ok2 := first[d.To]
		if ok1 && ok2 {
			arrows = append(arrows, Arrow{From: from, To: to, Kind: d.Kind.String()})
		}
	}
	return out, arrows
}

// partEntries is the entries part i of table t holds: a stage's worth,
// the last part the rest.
func partEntries(p *alloc.Problem, t, i int) int {
	e, per := p.Tables[t].Entries, p.Limits.EntriesPerTable
	if p.Parts(t) == 1 {
		return e
	}
	return min(per, e-i*per)
}

// stages counts each stage's use against the limits.
func stages(pl *placement.Placement, its []Item, l target.Limits) []Stage {
	sol := pl.Solution
	out := make([]Stage, sol.Stages)
	for s := range out {
		out[s] = Stage{Index: s, MaxTables: l.TablesPerStage, MaxALUs: l.ALUsPerStage - l.HeaderALUs,
			MaxStateful: l.StatefulALUsPerStage, MaxEntries: l.TablesPerStage * l.EntriesPerTable}
		if s < len(sol.Propagated) {
			out[s].Carried = sol.Propagated[s]
			out[s].ALUs = sol.Propagated[s]
		}
	}
	for _, it := range its {
		st := &out[it.Stage]
		switch {
		case it.Kind == "alu" && it.Stateful:
			st.Stateful++
		case it.Kind == "alu":
			st.ALUs++
		case it.Kind == "gateway":
			st.Gateways++
			st.Tables++
		default:
			st.Tables++
			st.Entries += it.Entries
		}
	}
	for s := range out {
		st := &out[s]
		st.TablesPct, st.OverTables = pct(st.Tables, st.MaxTables)
		st.ALUsPct, st.OverALUs = pct(st.ALUs, st.MaxALUs)
		st.StatefulPct, _ = pct(st.Stateful, st.MaxStateful)
		st.EntriesPct, st.OverEntries = pct(st.Entries, st.MaxEntries)
	}
	return out
}

// pct is n of limit in percent (at most 100, for the bar), and whether
// it is over.
func pct(n, limit int) (int, bool) {
	if limit <= 0 {
		return 0, false
	}
	return min(100, n*100/limit), n > limit
}

// ALUTree is a synthesized action's resource graph for the page.
type ALUTree struct {
	Action      string
	Nodes       []TreeNode
	Edges       []TreeEdge
	Writes      []string
	Width, Tall int
}

// TreeNode is one configured ALU: its grammar, its inputs and its holes.
type TreeNode struct {
	ID, Depth  int
	Grammar    string
	Stateful   bool
	Inputs     []string
	Holes      []string
	State      []string
	X, Y, W, H int
}

// TreeEdge is an ALU's output feeding another's input.
type TreeEdge struct {
	From, To, Input int
}

// tree lays out an action's ALUs by depth, left to right.
func tree(g *synth.Graph) ALUTree {
	t := ALUTree{Action: g.Action.Name}
	perDepth := map[int]int{}
	for i, a := range g.ALUs {
		n := TreeNode{ID: i, Depth: a.Depth, Grammar: a.Grammar.Name, Stateful: len(a.State) > 0}
		for h, v := range a.Config {
			name := a.Grammar.Holes[h].Name
			if name == "" {
				name = a.Grammar.Holes[h].Label
			}
			n.Holes = append(n.Holes, fmt.Sprintf("%s = %d", name, v))
		}
		for j, in := range a.Inputs {
			n.Inputs = append(n.Inputs, fmt.Sprintf("in%d = %s", j, operand(g, in)))
			if in.Kind == synth.FromALU {
				t.Edges = append(t.Edges, TreeEdge{From: in.Index, To: i, Input: j})
			}
		}
		for _, c := range a.State {
			if c.Register != nil {
				n.State = append(n.State, fmt.Sprintf("%s[%s]", c.Register.Name, operand(g, c.Index)))
			}
		}
		row := perDepth[a.Depth]
		perDepth[a.Depth]++
		n.W, n.H = treeNodeW, treeNodeH
		n.X, n.Y = 10+a.Depth*(treeNodeW+treeGapX), 10+row*(treeNodeH+treeGapY)
		t.Width = max(t.Width, n.X+n.W+10)
		t.Tall = max(t.Tall, n.Y+n.H+10)
		t.Nodes = append(t.Nodes, n)
	}
	for _, w := range g.Writes {
		t.Writes = append(t.Writes, fmt.Sprintf("%s = %s", ir.Format(g.Fields[w.Field]), operand(g, w.Value)))
	}
	sort.Strings(t.Writes)
	return t
}

const (
	treeNodeW, treeNodeH = 170, 44
	treeGapX, treeGapY   = 60, 16
)

// operand is where an ALU's input comes from, as text.
func operand(g *synth.Graph, o synth.Operand) string {
	switch o.Kind {
	case synth.FromField:
		return ir.Format(g.Fields[o.Index])
	case synth.FromALU:
		return fmt.Sprintf("alu%d", o.Index)
	case synth.FromHash:
		return fmt.Sprintf("hash%d", o.Index)
	}
	return fmt.Sprint(o.Value)
}
