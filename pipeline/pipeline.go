// Package pipeline is the target-independent model of a compiled pipeline.
// It runs a program like the interpreter does, except that each
// synthesized action executes as its configured ALUs, placed in stages:
// stage by stage, every ALU of a stage reads the fields as they were at the
// start of the stage (VLIW semantics), reads ALU outputs of earlier stages,
// and writes its results at the end of its stage; a stateful ALU reads and
// updates its register cells once per packet. Differential tests compare
// the model with the interpreter on the same packets and state.
//
// Tables still apply in program order; the model checks the stages inside
// each action, and allocation's placement of ALUs across its stages.
package pipeline

import (
	"fmt"
	"sort"

	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
)

// Placed is a resource graph with the stage of each of its ALUs.
type Placed struct {
	Graph  *synth.Graph
	Stages []int
}

// AtDepths places each ALU of a graph in the stage of its depth: the
// action on its own, from stage 0.
func AtDepths(g *synth.Graph) Placed {
	stages := make([]int, len(g.ALUs))
	for i, a := range g.ALUs {
		stages[i] = a.Depth
	}
	return Placed{Graph: g, Stages: stages}
}

// Model is a program whose synthesized actions run as placed ALUs. It is
// an interp.Target.
type Model struct {
	*interp.Switch
}

// New builds a model. width is the target's word width. It returns an
// error when a placement cannot run: an ALU placed no later than an ALU
// whose output it reads, or a field wider than a word.
func New(prog *ir.Program, placed []Placed, width int, opts interp.Options) (*Model, error) {
	overrides := map[*ir.Action]*interp.Override{}
	for k, v := range opts.Override {
		overrides[k] = v
	}
	for _, p := range placed {
		r, err := newRunner(p, width)
		if err != nil {
			return nil, fmt.Errorf("pipeline: action %s: %w", p.Graph.Action.Name, err)
		}
		overrides[p.Graph.Action] = &interp.Override{Fields: p.Graph.Fields, Run: r.run}
	}
	opts.Override = overrides
	sw, err := interp.New(prog, opts)
	if err != nil {
		return nil, err
	}
	return &Model{Switch: sw}, nil
}

// runner executes one placed graph.
type runner struct {
	g      *synth.Graph
	width  int
	stages [][]int // ALU indexes of each used stage, in stage order
	masks  []uint64
	// scratch, reused: the model runs one packet at a time
	snapshot, out []uint64
	hashes        []uint64
}

func newRunner(p Placed, width int) (*runner, error) {
	g := p.Graph
	if len(p.Stages) != len(g.ALUs) {
		return nil, fmt.Errorf("%d ALUs but %d stages", len(g.ALUs), len(p.Stages))
	}
	for i, a := range g.ALUs {
		for _, op := range a.Operands() {
			if op.Kind == synth.FromALU && p.Stages[op.Index] >= p.Stages[i] {
				return nil, fmt.Errorf("ALU %d (stage %d) reads the output of ALU %d (stage %d): a stage reads only earlier stages' results",
					i, p.Stages[i], op.Index, p.Stages[op.Index])
			}
		}
		if len(a.Inputs) != len(a.Grammar.Packets) || len(a.State) != len(a.Grammar.States) {
			return nil, fmt.Errorf("ALU %d: %d inputs and %d state cells for grammar %s (%d and %d)",
				i, len(a.Inputs), len(a.State), a.Grammar.Name, len(a.Grammar.Packets), len(a.Grammar.States))
		}
	}
	r := &runner{g: g, width: width, out: make([]uint64, len(g.ALUs)), snapshot: make([]uint64, len(g.Fields)),
		hashes: make([]uint64, len(g.Hashes))}
	for i, h := range g.Hashes {
		if _, ok := interp.HashFields(h.Spec.Algo, nil, nil, 0, 0, 1); !ok {
			return nil, fmt.Errorf("hash unit %d: algorithm %s", i, h.Spec.Algo)
		}
	}
	for _, f := range g.Fields {
		w := ir.WidthBits(f.Type())
		if w == 0 || w > 64 {
			return nil, fmt.Errorf("field %s is not 1 to 64 bits wide", ir.Format(f))
		}
		r.masks = append(r.masks, wordMask(w))
	}
	byStage := map[int][]int{}
	var order []int
	for i, s := range p.Stages {
		if _, ok := byStage[s]; !ok {
			order = append(order, s)
		}
		byStage[s] = append(byStage[s], i)
	}
	sort.Ints(order)
	for _, s := range order {
		r.stages = append(r.stages, byStage[s])
	}
	return r, nil
}

func (r *runner) operand(op synth.Operand) uint64 {
	switch op.Kind {
	case synth.FromField:
		return r.snapshot[op.Index]
	case synth.FromALU:
		return r.out[op.Index]
	case synth.FromHash:
		return r.hashes[op.Index]
	}
	return op.Value
}

// address is the register index a state cell's address unit computes.
func (r *runner) address(c synth.StateCell) uint64 {
	i := r.operand(c.Index)
	if c.IndexBits > 0 {
		i &= wordMask(c.IndexBits)
	}
	return i
}

// run executes the graph on the action's fields, stage by stage.
func (r *runner) run(vals []uint64, regs interp.Registers) {
	g := r.g
	// The hash units hash the fields as the action begins.
	copy(r.snapshot, vals)
	for i, h := range g.Hashes {
		data := make([]uint64, len(h.Data))
		for j, d := range h.Data {
			data[j] = r.operand(d)
		}
		r.hashes[i], _ = interp.HashFields(h.Spec.Algo, h.DataWidths, data, h.Spec.Base, h.Spec.Max, h.Width)
	}
	for _, stage := range r.stages {
		copy(r.snapshot, vals) // every ALU of the stage sees the fields as the stage began
		for _, i := range stage {
			a := g.ALUs[i]
			inputs := make([]uint64, len(a.Inputs))
			for j, in := range a.Inputs {
				inputs[j] = r.operand(in)
			}
			states := make([]uint64, len(a.State))
			for j, c := range a.State {
				if c.Register != nil {
					states[j] = regs.Read(c.Register, r.address(c))
				}
			}
			res := a.Grammar.Eval(a.Config, states, inputs, r.width)
			for j, c := range a.State {
				if c.Register != nil {
					regs.Write(c.Register, r.address(c), res.States[j])
				}
			}
			r.out[i] = res.Output
		}
		// The stage's results land in their fields at the end of the stage.
		for _, w := range g.Writes {
			if w.Value.Kind == synth.FromALU && contains(stage, w.Value.Index) {
				vals[w.Field] = r.out[w.Value.Index] & r.masks[w.Field]
			}
		}
	}
	// Copies and constants land with the action's last stage.
	copy(r.snapshot, vals)
	for _, w := range g.Writes {
		if w.Value.Kind != synth.FromALU {
			vals[w.Field] = r.operand(w.Value) & r.masks[w.Field]
		}
	}
}

func wordMask(w int) uint64 {
	if w >= 64 {
		return ^uint64(0)
	}
	return 1<<uint(w) - 1
}

func contains(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// VerifyGraphs runs Verify with every graph at the stages stagesOf
// gives it (nil: at its depths, as for an action no table runs), and
// turns a divergence into an error holding its STF reproduction.
func VerifyGraphs(prog *ir.Program, graphs []*synth.Graph, stagesOf func(*synth.Graph) []int, width, packets int) error {
	var placed []Placed
	for _, g := range graphs {
		p := AtDepths(g)
		if stages := stagesOf(g); stages != nil {
			p.Stages = stages
		}
		placed = append(placed, p)
	}
	d, err := Verify(prog, placed, width, packets)
	switch {
	case err != nil:
		return fmt.Errorf("verifying: %w", err)
	case d != nil:
		return fmt.Errorf("internal error: the synthesized ALUs disagree with the program: %v\n%s", d, d.STF(prog))
	}
	return nil
}

// Verify runs prog with every synthesized action replaced by its placed
// graph (ALUs of width bits) against the interpreter, on packets random
// packets with random entries, register state carried across packets. It
// returns the divergence, minimized, or nil.
func Verify(prog *ir.Program, placed []Placed, width, packets int) (*interp.Divergence, error) {
	model := func() (interp.Target, error) { return New(prog, placed, width, interp.Options{}) }
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	c := interp.NewGenerator(prog, 1).Case(packets, 2, 2)
	return interp.Diff(ref, model, c, interp.RegisterCells(prog))
}
