// Package alloc is phase 3 of p4hls, resource allocation (CaT §3.3): it
// places every table part and every ALU in a pipeline stage, optimally or
// feasibly, with an ILP or SMT solver.
//
// The types here are the phase's input and output. They describe tables,
// actions and ALUs abstractly (by index), so that alloc does not import the
// phases above it; the driver builds a Problem from the program and the
// resource graphs.
package alloc

import "github.com/p4hls/p4hls/target"

// Problem is what allocation places.
type Problem struct {
	Limits  target.Limits
	Tables  []Table
	Actions []Action
	Deps    []Dep
}

// Table is a match-action table.
type Table struct {
	Name    string
	Entries int
	// Actions are indexes into Problem.Actions.
	Actions []int
}

// Action is an action and the ALUs of its resource graph.
type Action struct {
	Name string
	ALUs []ALU
	// ModifiesKey is set when the action writes a field of its table's key
	// (then its match cannot be repeated in later stages).
	ModifiesKey bool
}

// ALU is one ALU of an action: whether it is stateful, and the ALUs of
// the same action whose outputs it reads.
type ALU struct {
	Stateful bool
	Reads    []int
}

// DepKind is a kind of table dependency (Jose et al.).
type DepKind int

const (
	Match        DepKind = iota // the later table matches on what the earlier writes: strictly later
	ActionDep                   // both write the same field: strictly later
	Successor                   // applied only on a result of the earlier: not earlier
	ReverseMatch                // the later writes what the earlier matches on: not earlier
)

// Dep orders two tables.
type Dep struct {
	From, To int
	Kind     DepKind
}

// Solution is a placement.
type Solution struct {
	// Stages is the number of stages used.
	Stages int
	// TableParts[t] holds the stage of each part of table t (a table with
	// more entries than a stage holds is split into parts).
	TableParts [][]int
	// ALUStages[a] holds the stage of each ALU of action a.
	ALUStages [][]int
	// Objective is the solver's objective value (the last stage used).
	Objective int
}
