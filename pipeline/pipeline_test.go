package pipeline

import (
	"strings"
	"testing"

	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/synth/grammar"
)

// field builds an lvalue such as hdr.app.sample in a control's scope.
func field(t *testing.T, c *ir.Control, path string) ir.Expr {
	t.Helper()
	parts := strings.Split(path, ".")
	var e ir.Expr
	for _, p := range c.Params {
		if p.Name == parts[0] {
			e = &ir.VarRef{Var: p}
		}
	}
	for _, name := range parts[1:] {
		st := e.Type().(*ir.Struct)
		f, i := st.Field(name)
		e = &ir.Member{X: e, Name: name, Index: i, T: f.Type}
	}
	return e
}

func instance(c *ir.Control, name string) *ir.Instance {
	for _, inst := range c.Instances {
		if inst.Name == name {
			return inst
		}
	}
	return nil
}

// samplingGraph is sampling.p4's action by hand: an if_else_raw ALU keeps
// the count (s == 29 ? 0 : s + 1, output the old count) and a stateless
// ALU in the next stage computes sample = (old count == i).
func samplingGraph(t *testing.T, prog *ir.Program, i uint64) *synth.Graph {
	tg, _ := banzai.Target("if_else_raw")
	stateful, _ := tg.Grammar("if_else_raw")
	stateless, _ := tg.Grammar("stateless")
	c := prog.Control("MyIngress")
	zero := synth.Operand{Kind: synth.FromConst}
	g := &synth.Graph{
		Action: c.Action("sample"),
		Fields: []ir.Expr{field(t, c, "hdr.app.sample")},
		ALUs: []*synth.ALU{
			{Grammar: stateful, Config: grammar.Config{0, 29, 2, 3, 1, 0, 2, 0, 1, 2, 0},
				Inputs: []synth.Operand{zero, zero}, State: []synth.StateCell{{Register: instance(c, "count"), Index: zero}}},
			{Grammar: stateless, Config: grammar.Config{i, 9 /* a == i */},
				Inputs: []synth.Operand{{Kind: synth.FromALU, Index: 0}, zero, zero}},
		},
		Writes: []synth.Write{{Field: 0, Value: synth.Operand{Kind: synth.FromALU, Index: 1}}},
	}
	if err := g.ComputeDepths(); err != nil {
		t.Fatal(err)
	}
	return g
}

// TestModelAgreesWithInterpreter: the placed graph and the P4 action agree
// on 10,000 random packets with random register contents carried across
// packets.
func TestModelAgreesWithInterpreter(t *testing.T) {
	prog := corpus.Load(t, "sampling.p4")
	g := samplingGraph(t, prog, 29)
	if g.Depth() != 2 {
		t.Fatalf("depth %d, want 2", g.Depth())
	}
	model := func() (interp.Target, error) { return New(prog, []Placed{{g, []int{0, 1}}}, 32, interp.Options{}) }
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	for _, registerCells := range []int{0, 1} { // the count from 0, and from a random start
		c := interp.NewGenerator(prog, int64(registerCells)).Case(10000, 2, registerCells)
		d, err := interp.Diff(ref, model, c, interp.RegisterCells(prog))
		if err != nil {
			t.Fatal(err)
		}
		if d != nil {
			t.Fatalf("the model disagrees: %v\n%s", d, d.STF(prog))
		}
	}
}

// TestModelCatchesWrongConfiguration: a configuration that compares with
// 28 instead of 29 diverges, and the harness says where. The count starts
// at 0 (no register writes), so it passes 28 and 29.
func TestModelCatchesWrongConfiguration(t *testing.T) {
	prog := corpus.Load(t, "sampling.p4")
	g := samplingGraph(t, prog, 28)
	model := func() (interp.Target, error) { return New(prog, []Placed{{g, []int{0, 1}}}, 32, interp.Options{}) }
	ref := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
	c := interp.NewGenerator(prog, 1).Case(200, 2, 0)
	d, err := interp.Diff(ref, model, c, interp.RegisterCells(prog))
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Fatal("a wrong configuration went unnoticed")
	}
}

// TestPlacementMustRespectDependencies: an ALU cannot read an output
// computed in its own stage.
func TestPlacementMustRespectDependencies(t *testing.T) {
	prog := corpus.Load(t, "sampling.p4")
	g := samplingGraph(t, prog, 29)
	_, err := New(prog, []Placed{{g, []int{0, 0}}}, 32, interp.Options{})
	if err == nil || !strings.Contains(err.Error(), "ALU 1 (stage 0) reads the output of ALU 0 (stage 0)") {
		t.Errorf("got %v", err)
	}
}
