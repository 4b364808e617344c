package synth

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth/grammar"
)

// Graph is the result of synthesizing one action: configured ALUs wired
// into a DAG (the resource graph of CaT §3.2), and the fields they read and
// write.
type Graph struct {
	Action *ir.Action
	// Fields are the storage the action reads and writes: lvalues in the
	// action's scope (header and metadata fields, action data), each at
	// most a word wide.
	Fields []ir.Expr
	ALUs   []*ALU
	// Writes are the action's results: each field written, and where its
	// value comes from (an ALU's output, a field, a constant, a hash).
	Writes []Write
	// Hashes are the hash units the action uses: they hash fields as the
	// action begins, and every stage may read their results.
	Hashes []Hash
}

// Hash is one hash unit: Spec over Data (fields), Width bits wide.
type Hash struct {
	Spec       HashSpec
	Data       []Operand // FromField
	DataWidths []int
	Width      int
	term       *Term // the transaction's leaf it computes (for Prove)
}

// ALU is one configured ALU of a graph.
type ALU struct {
	Grammar *grammar.Grammar
	Config  grammar.Config
	// Inputs feed the grammar's packet inputs, in order.
	Inputs []Operand
	// State maps the grammar's state variables, in order, to register
	// cells (stateful ALUs only).
	State []StateCell
	// Depth is the ALU's stage within the action: one more than the
	// deepest ALU it reads (0 when it reads only fields).
	Depth int
	// term is the transaction's value the output is meant to be (nil for
	// a tree's inner ALUs): Prove checks each ALU against it.
	term *Term
}

// OperandKind says where an operand comes from.
type OperandKind int

const (
	FromField OperandKind = iota // Graph.Fields[Index], as the stage reads it
	FromALU                      // the output of Graph.ALUs[Index]
	FromConst                    // Value (an immediate, or action data where no immediate holds it)
	FromHash                     // the result of Graph.Hashes[Index]
)

// Operand is an ALU input or a written value.
type Operand struct {
	Kind  OperandKind
	Index int
	Value uint64
}

// StateCell is the register cell a state variable lives in. A nil
// Register is a state variable the action does not use: it reads 0 and is
// never stored (a one-state update on a two-register ALU, ALUS.md §3.3).
type StateCell struct {
	Register *ir.Instance
	Index    Operand
	// IndexBits, when not 0, says the address unit takes the low IndexBits
	// bits of Index (a register of 2^IndexBits cells indexed by i & mask
	// needs no ALU for the mask).
	IndexBits int
}

// Write sends a value to a field.
type Write struct {
	Field int
	Value Operand
}

// Depth is the number of stages the graph needs on its own.
func (g *Graph) Depth() int {
	d := 0
	for _, a := range g.ALUs {
		d = max(d, a.Depth+1)
	}
	return d
}

// ComputeDepths sets each ALU's Depth from its inputs (ALUs must be listed
// producers first).
func (g *Graph) ComputeDepths() error {
	for i, a := range g.ALUs {
		a.Depth = 0
		for _, op := range a.operands() {
			if op.Kind != FromALU {
				continue
			}
			if op.Index >= i {
				return fmt.Errorf("ALU %d reads ALU %d, which is not listed before it", i, op.Index)
			}
			a.Depth = max(a.Depth, g.ALUs[op.Index].Depth+1)
		}
	}
	return nil
}

// operands lists every operand an ALU reads: its inputs and its cells'
// indexes.
func (a *ALU) operands() []Operand {
	out := append([]Operand(nil), a.Inputs...)
	for _, c := range a.State {
		if c.Register != nil {
			out = append(out, c.Index)
		}
	}
	return out
}

// Operands is the exported form of operands, for the allocator and models.
func (a *ALU) Operands() []Operand { return a.operands() }

// String prints the graph, one ALU per line.
func (g *Graph) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "action %s: %d ALUs, depth %d\n", g.Action.Name, len(g.ALUs), g.Depth())
	op := func(o Operand) string {
		switch o.Kind {
		case FromField:
			return ir.Format(g.Fields[o.Index])
		case FromALU:
			return fmt.Sprintf("alu%d", o.Index)
		case FromHash:
			return fmt.Sprintf("hash%d", o.Index)
		}
		return fmt.Sprint(o.Value)
	}
	for i, h := range g.Hashes {
		var data []string
		for _, d := range h.Data {
			data = append(data, op(d))
		}
		fmt.Fprintf(&b, "  hash%d %s(%d, %d){%s}\n", i, h.Spec.Algo, h.Spec.Base, h.Spec.Max, strings.Join(data, ", "))
	}
	for i, a := range g.ALUs {
		var ins []string
		for _, in := range a.Inputs {
			ins = append(ins, op(in))
		}
		var cells []string
		for _, c := range a.State {
			if c.Register == nil {
				cells = append(cells, "-")
			} else {
				cells = append(cells, fmt.Sprintf("%s[%s]", c.Register.Name, op(c.Index)))
			}
		}
		fmt.Fprintf(&b, "  alu%d depth %d %s(%s) state [%s]: %s\n", i, a.Depth, a.Grammar.Name,
			strings.Join(ins, ", "), strings.Join(cells, ", "), a.Grammar.FormatConfig(a.Config))
	}
	for _, w := range g.Writes {
		fmt.Fprintf(&b, "  %s = %s\n", ir.Format(g.Fields[w.Field]), op(w.Value))
	}
	return b.String()
}
