// Package target describes a compilation target as data: its resource
// limits and its ALU grammars. It is a leaf: the target packages (tofino,
// menshen, backends/banzai) fill it in, and synth and alloc read it. Code
// asks a target for its numbers and grammars; it never tests its name.
// Being data, it links no C library: its grammars are syntax, and the
// solver encoding of them lives in synth (TestNoCgo keeps it so).
package target

import (
	"errors"
	"fmt"
	"sort"

	"github.com/p4hls/p4hls/synth/grammar"
)

// Limits are a pipeline's resources. Every field must be set (no hidden
// defaults): Validate rejects zeros, except HeaderALUs, for which zero
// means no ALU is reserved for carrying header fields across stages.
type Limits struct {
	// Stages is the number of match-action stages (N_S in CaT's Table 3).
	Stages int `json:"stages"`
	// ALUsPerStage is the number of stateless ALUs (action slots) per
	// stage (N_alu).
	ALUsPerStage int `json:"alus_per_stage"`
	// StatefulALUsPerStage is the number of stateful ALUs per stage.
	StatefulALUsPerStage int `json:"stateful_alus_per_stage"`
	// HeaderALUs is the number of ALUs per stage reserved for carrying
	// packet header fields (N_H).
	HeaderALUs int `json:"header_alus"`
	// TablesPerStage is the number of logical tables per stage (N_table).
	TablesPerStage int `json:"tables_per_stage"`
	// EntriesPerTable is the number of match entries a table may hold in
	// one stage (N_entries).
	EntriesPerTable int `json:"entries_per_table"`
	// Containers and ContainerBits describe the packet header vector.
	Containers    int `json:"containers"`
	ContainerBits int `json:"container_bits"`
	// WordBits is the width of the words the ALUs compute on.
	WordBits int `json:"word_bits"`
}

// Validate reports the limits that are not set.
func (l Limits) Validate() error {
	var errs []error
	check := func(name string, v int) {
		if v <= 0 {
			errs = append(errs, fmt.Errorf("limit %s is %d; it must be positive", name, v))
		}
	}
	check("Stages", l.Stages)
	check("ALUsPerStage", l.ALUsPerStage)
	check("StatefulALUsPerStage", l.StatefulALUsPerStage)
	check("TablesPerStage", l.TablesPerStage)
	check("EntriesPerTable", l.EntriesPerTable)
	check("Containers", l.Containers)
	check("ContainerBits", l.ContainerBits)
	check("WordBits", l.WordBits)
	if l.HeaderALUs < 0 || l.HeaderALUs >= l.ALUsPerStage {
		errs = append(errs, fmt.Errorf("limit HeaderALUs is %d; it must be from 0 to ALUsPerStage-1", l.HeaderALUs))
	}
	return errors.Join(errs...)
}

// With returns the limits with the given ones in place (a count of 0
// keeps the limit as it is): stages, ALUs per stage (which bounds the
// stateful ALUs too), tables per stage, entries per table.
func (l Limits) With(stages, alusPerStage, tablesPerStage, entriesPerTable int) (Limits, error) {
	for _, o := range []struct {
		name string
		v    int
		dst  *int
	}{
		{"stages", stages, &l.Stages},
		{"ALUs per stage", alusPerStage, &l.ALUsPerStage},
		{"tables per stage", tablesPerStage, &l.TablesPerStage},
		{"entries per table", entriesPerTable, &l.EntriesPerTable},
	} {
		switch {
		case o.v < 0:
			return l, fmt.Errorf("%s: %d is not a count", o.name, o.v)
		case o.v > 0:
			*o.dst = o.v
		}
	}
	l.StatefulALUsPerStage = min(l.StatefulALUsPerStage, l.ALUsPerStage)
	return l, nil
}

// Target is a compilation target.
type Target struct {
	Name        string
	Description string
	Limits      Limits
	// Grammars are the target's ALUs; Stateful and Stateless name the ones
	// synthesis uses by default.
	Grammars  []*grammar.Grammar
	Stateful  string
	Stateless string
	// NoNextTables says the target's tables cannot choose the tables
	// applied after them (a switch on the action a table ran): gateways,
	// or conditions folded into keys, decide whether a table runs. Phase 1
	// then leaves if statements whose branches apply tables as written.
	NoNextTables bool
	// RegistersInActions says the target runs a register's accesses only
	// in the stateful ALU of an action (Tofino's RegisterActions): the
	// actions phase 1 makes of apply-block code that uses a register are
	// synthesized too, where other targets run that code as statements.
	RegistersInActions bool
	// Processor marks a target that runs the program as instructions on a
	// processor (a CPU or a NIC's cores) rather than on a pipeline of ALUs
	// and stages: synthesis and allocation, which map actions onto ALUs
	// and tables onto stages, do not apply, so it has neither limits nor
	// grammars, and its backend takes the program as written.
	Processor bool
}

// Grammar returns the grammar called name, or an error listing the
// target's grammars.
func (t *Target) Grammar(name string) (*grammar.Grammar, error) {
	var names []string
	for _, g := range t.Grammars {
		if g.Name == name {
			return g, nil
		}
		names = append(names, g.Name)
	}
	sort.Strings(names)
	return nil, fmt.Errorf("target %s has no ALU %q (it has: %v)", t.Name, name, names)
}

// Validate checks the limits and that the default grammars exist and are
// of the right kind.
func (t *Target) Validate() error {
	if t.Processor {
		if t.Name == "" {
			return errors.New("a target has no name")
		}
		return nil
	}
	errs := []error{t.Limits.Validate()}
	for _, want := range []struct {
		name string
		kind grammar.Kind
	}{{t.Stateful, grammar.Stateful}, {t.Stateless, grammar.Stateless}} {
		g, err := t.Grammar(want.name)
		switch {
		case err != nil:
			errs = append(errs, err)
		case g.Kind != want.kind:
			errs = append(errs, fmt.Errorf("target %s: ALU %s is %s, want %s", t.Name, g.Name, g.Kind, want.kind))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("target %s: %w", t.Name, err)
	}
	return nil
}
