// Package transform is phase 1 of p4hls, CaT's resource transformation
// (section 3.1): the control-flow graph of each control's apply block,
// dependencies between its nodes guarded by path conditions (a dependency
// whose guard cannot hold is false and dropped), the table dependency
// graph of Jose et al. that allocation reads, and the rewrite of if-else
// chains into match-action tables, which spend abundant table memory
// instead of scarce gateways and stages.
package transform

import (
	"context"
	"fmt"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/ir"
)

// Summary is what phase 1 trades: gateways (if-conditions the hardware
// evaluates), tables (match tables and the keyless tables a compiler makes
// for statements outside tables) and the stages these need.
type Summary struct {
	Gateways int `json:"gateways"`
	Tables   int `json:"tables"`
	Stages   int `json:"stages"`
}

// Options tune the analysis.
type Options struct {
	// TablesPerStage is how many logical tables a stage holds; a gateway
	// takes one, as a keyless table does. Zero means no limit.
	TablesPerStage int
}

// ControlGraph is one control's control-flow graph and its table
// dependency graph.
type ControlGraph struct {
	Control *ir.Control
	Nodes   []*Node
	// Deps are the dependencies kept, False those whose guard cannot hold.
	Deps, False []Dep
	// Stage is each node's stage in the estimate from all dependencies
	// (what a compiler without guards sees), by Order; Summary.Stages is
	// its count. GuardedStages counts stages from Deps alone.
	Stage []int
	Summary
	GuardedStages int
}

// Analysis is the dependency analysis of a program's match-action
// controls.
type Analysis struct {
	Controls []*ControlGraph
	// Summary adds the controls' gateways and tables; Stages is the
	// largest control's (ingress and egress share the physical stages).
	Summary
	// Queries counts the solver queries on guards; GuardsExhausted says
	// they reached their bound, after which guards were taken to hold.
	Queries         int
	GuardsExhausted bool
}

// Analyze builds the graphs of prog's match-action controls.
func Analyze(ctx context.Context, prog *ir.Program, opts Options) (*Analysis, error) {
	names := newNamer()
	gs := newGuards(names)
	defer gs.close()
	a := &Analysis{}
	for _, c := range matchActionControls(prog) {
		cg, err := analyzeControl(ctx, c, names, gs, opts)
		if err != nil {
			return nil, fmt.Errorf("control %s: %w", c.Name, err)
		}
		a.Controls = append(a.Controls, cg)
		a.Gateways += cg.Gateways
		a.Tables += cg.Tables
		a.Stages = max(a.Stages, cg.Stages)
	}
	a.Queries, a.GuardsExhausted = gs.queries, gs.exhausted
	return a, nil
}

func analyzeControl(ctx context.Context, c *ir.Control, names *namer, gs *guards, opts Options) (*ControlGraph, error) {
	g := buildGraph(c, names)
	deps, falseDeps, err := dependencies(ctx, g.nodes, gs)
	if err != nil {
		return nil, err
	}
	cg := &ControlGraph{Control: c, Nodes: g.nodes, Deps: deps, False: falseDeps}
	for _, n := range g.nodes {
		if n.Kind == GatewayNode {
			cg.Gateways++
		} else {
			cg.Tables++
		}
	}
	cg.Stage, cg.Stages = placeStages(g.nodes, append(append([]Dep(nil), deps...), falseDeps...), opts.TablesPerStage)
	_, cg.GuardedStages = placeStages(g.nodes, deps, opts.TablesPerStage)
	return cg, nil
}

// matchActionControls are the controls whose apply blocks run on the
// match-action stages: for v1model, ingress and egress (the checksum
// controls and the deparser run elsewhere); otherwise every control of
// the main package.
func matchActionControls(prog *ir.Program) []*ir.Control {
	var out []*ir.Control
	for i, b := range prog.Pipeline {
		if b.Control == nil {
			continue
		}
		if prog.Arch == ir.V1Model && i != ir.V1Ingress && i != ir.V1Egress {
			continue
		}
		out = append(out, b.Control)
	}
	return out
}

// placeStages estimates the stages a control needs: in program order
// (every dependency points forward), each node goes to the first stage
// its dependencies allow that has a logical table free. This is a
// placement that exists, so an upper bound; allocation (phase 3) finds
// the optimum.
func placeStages(nodes []*Node, deps []Dep, perStage int) (stage []int, stages int) {
	stage = make([]int, len(nodes))
	used := map[int]int{}
	byTarget := map[*Node][]Dep{}
	for _, d := range deps {
		byTarget[d.To] = append(byTarget[d.To], d)
	}
	for _, n := range nodes {
		s := 0
		for _, d := range byTarget[n] {
			from := stage[d.From.Order]
			if d.Kind.NextStage() {
				from++
			}
			s = max(s, from)
		}
		for perStage > 0 && used[s] >= perStage {
			s++
		}
		stage[n.Order] = s
		used[s]++
		stages = max(stages, s+1)
	}
	return stage, stages
}

// TooManyTablesError says a control applies more tables than the target's
// stages hold: no rewrite of phase 1 removes a table application, and
// each takes a logical table in some stage.
type TooManyTablesError struct {
	// Span is the control's; Msg says what binds.
	Span diag.Span
	Msg  string
}

func (e *TooManyTablesError) Error() string { return e.Span.String() + ": " + e.Msg }

// UnsupportedError is a construct of the program phase 1 cannot place;
// Span is the construct's.
type UnsupportedError struct {
	Span diag.Span
	Msg  string
}

func (e *UnsupportedError) Error() string { return e.Span.String() + ": " + e.Msg }

// CheckKeys refuses a table whose key applies another table (p4c takes
// it): a pipeline applies each table in a stage of its own, before the
// tables that read its result, and a key is read as its table is.
func CheckKeys(prog *ir.Program) error {
	for _, c := range matchActionControls(prog) {
		for _, t := range c.Tables {
			for _, k := range t.Keys {
				if len(tableHits(k.Expr)) > 0 {
					return &UnsupportedError{Span: k.Expr.Span(), Msg: fmt.Sprintf("the key of table %s applies a table; apply it before, into a variable the key reads", t.Name)}
				}
			}
		}
	}
	return nil
}

// CheckTableCount refuses a program one of whose match-action controls
// applies more tables than stages × tablesPerStage hold (0 for either
// means no limit). It is linear in the program, and it runs before
// Analyze, whose dependency analysis is quadratic in a control's nodes:
// 4,000 tables in sequence took 3 GB there before allocation refused
// them.
func CheckTableCount(prog *ir.Program, stages, tablesPerStage int) error {
	if stages <= 0 || tablesPerStage <= 0 {
		return nil
	}
	for _, c := range matchActionControls(prog) {
		tables := map[*ir.Table]bool{}
		appliedTables(c.Body, tables)
		need := (len(tables) + tablesPerStage - 1) / tablesPerStage
		if need <= stages {
			continue
		}
		per := (len(tables) + stages - 1) / stages
		return &TooManyTablesError{Span: c.Span, Msg: fmt.Sprintf(
			"control %s applies %d tables, which need at least %d stages at %d tables per stage; the target has %d: "+
				"merge tables, or compile for %d stages (--stages %d) or %d tables per stage (--tables-per-stage %d)",
			c.Name, len(tables), need, tablesPerStage, stages, need, need, per, per)}
	}
	return nil
}

// appliedTables adds to out the tables the statements apply: the tables
// of buildGraph's table nodes, found without the effects it computes
// for every node (which for an action of 100,000 statements are
// hundreds of megabytes).
func appliedTables(ss []ir.Stmt, out map[*ir.Table]bool) {
	for _, st := range ss {
		switch st := st.(type) {
		case *ir.If:
			for _, h := range tableHits(st.Cond) {
				out[h.Table] = true
			}
			appliedTables(st.Then, out)
			appliedTables(st.Else, out)
		case *ir.ApplyTable:
			out[st.Table] = true
		case *ir.SwitchAction:
			out[st.Table] = true
			for _, c := range st.Cases {
				appliedTables(c.Body, out)
			}
		case *ir.Switch:
			for _, c := range st.Cases {
				appliedTables(c.Body, out)
			}
		case *ir.Block:
			if !st.Atomic {
				appliedTables(st.Body, out)
			}
		}
	}
}
