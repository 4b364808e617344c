// Package alloc is phase 3 of p4hls, resource allocation (CaT §3.3): it
// places every table part and every ALU in a pipeline stage, optimally or
// feasibly, with an ILP solver (CBC) or an SMT solver (Z3), and checks
// every placement with a validator of its own.
//
// The types here are the phase's input and output. They describe tables,
// actions and ALUs abstractly (by index), so that alloc does not import the
// phases above it; the driver builds a Problem from the program, its table
// dependency graph and the resource graphs.
package alloc

import (
	"context"
	"fmt"
	"time"

	"github.com/p4hls/p4hls/target"
)

// Problem is what allocation places.
type Problem struct {
	Limits  target.Limits
	Tables  []Table
	Actions []Action
	Deps    []Dep
}

// Table is a match-action table (or a gateway, or a keyless table: a
// table with no entries).
type Table struct {
	Name    string
	Entries int
	// Match is the table's widest match kind ("exact", "ternary", "lpm",
	// "range"; "" for a keyless table). Parts of a ternary, LPM or range
	// table hold its entries in priority order and apply in that order.
	Match string
	// Actions are indexes into Problem.Actions.
	Actions []int
}

// Action is an action and the ALUs of its resource graph.
type Action struct {
	Name string
	ALUs []ALU
	// ModifiesKey is set when the action writes a field of its table's key
	// in the match's stage (a plain action, which a target runs where the
	// table matches): then the whole part sits in that stage.
	ModifiesKey bool
}

// ALU is one ALU of an action: whether it is stateful, and the ALUs of
// the same action whose outputs it reads.
type ALU struct {
	Stateful bool
	Reads    []int
	// WritesKey names the field of its table's key the ALU's result lands
	// in, at the end of the ALU's stage ("" for none). A part's match
	// repeats in every stage its actions' ALUs occupy (CaT §3.3), and a
	// repeated match must see the key the first one saw, so no unit of
	// the part may sit after this ALU.
	WritesKey string
}

// DepKind is a kind of table dependency (Jose et al.).
type DepKind int

const (
	Match        DepKind = iota // the later table matches on what the earlier writes: strictly later
	ActionDep                   // the later table's actions read or write what the earlier writes: strictly later
	Successor                   // applied only on a result of the earlier: not earlier
	ReverseMatch                // the later writes what the earlier matches on: not earlier
)

func (k DepKind) String() string {
	return [...]string{"match", "action", "successor", "reverse-match"}[k]
}

// strict reports whether the later table must sit in a later stage.
func (k DepKind) strict() bool { return k == Match || k == ActionDep }

// Dep orders two tables (indexes into Problem.Tables).
type Dep struct {
	From, To int
	Kind     DepKind
}

// Mode says what to look for.
type Mode int

const (
	// Optimal minimizes the number of stages used.
	Optimal Mode = iota
	// Feasible takes the first placement the solver finds.
	Feasible
)

func (m Mode) String() string { return [...]string{"optimal", "feasible"}[m] }

// Solution is a placement.
type Solution struct {
	// Stages is the number of stages used (the last used, plus one).
	Stages int
	// Parts[t][i] lists, in order, the stages that hold part i of table
	// t's match: more than one when an action of the table spans stages.
	Parts [][][]int
	// ALUs[t][i][k][u] is the stage of ALU u of the k-th action of table
	// t, in part i (every part runs its own copy of its actions).
	ALUs [][][][]int
	// Propagated[s] counts the ALU slots stage s spends carrying outputs
	// from earlier stages to later ones.
	Propagated []int
	// Proven is set when the solver proved Stages minimal.
	Proven bool
	Solver string
	Mode   Mode
	Time   time.Duration
}

// Solver finds placements.
type Solver interface {
	Name() string
	Solve(ctx context.Context, p *Problem, mode Mode) (*Solution, error)
}

// InfeasibleError says no placement exists within the target's limits.
type InfeasibleError struct{ Why string }

func (e *InfeasibleError) Error() string { return "no placement: " + e.Why }

// Parts is the number of parts table t splits into: as many as its
// entries need stages' worth of table memory (at least one).
func (p *Problem) Parts(t int) int {
	e, per := p.Tables[t].Entries, p.Limits.EntriesPerTable
	if e <= per || per <= 0 {
		return 1
	}
	return (e + per - 1) / per
}

// check rejects a problem that refers to what it does not have.
func (p *Problem) check() error {
	if err := p.Limits.Validate(); err != nil {
		return err
	}
	for ti, t := range p.Tables {
		for _, a := range t.Actions {
			if a < 0 || a >= len(p.Actions) {
				return fmt.Errorf("table %s names action %d of %d", t.Name, a, len(p.Actions))
			}
		}
		_ = ti
	}
	for _, a := range p.Actions {
		for u, alu := range a.ALUs {
			for _, r := range alu.Reads {
				if r < 0 || r >= u {
					return fmt.Errorf("action %s: ALU %d reads ALU %d; an ALU reads earlier ALUs only", a.Name, u, r)
				}
			}
		}
	}
	for _, d := range p.Deps {
		if d.From < 0 || d.From >= len(p.Tables) || d.To < 0 || d.To >= len(p.Tables) || d.From == d.To {
			return fmt.Errorf("a dependency names tables %d and %d of %d", d.From, d.To, len(p.Tables))
		}
	}
	return nil
}
