// Package banzai is the Banzai target, the machine model of Domino and
// Chipmunk that the CaT paper evaluates with: a pipeline of stages of
// stateless ALUs and one kind of stateful atom. Its output is the resource
// graph and allocation themselves.
package banzai

import (
	"embed"
	"fmt"

	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
)

//go:embed alus/*.alu
var alus embed.FS

var grammars = grammar.Embedded(alus, "alus")

// DefaultAtom is the atom used when none is named.
const DefaultAtom = "pred_raw"

// Banzai's depth and width are parameters of the model, not hardware
// facts; these defaults are p4hls's, large enough that the CaT benchmarks
// are limited by their dependencies, not by resources.
var limits = target.Limits{
	Stages:               32,
	ALUsPerStage:         64,
	StatefulALUsPerStage: 16,
	HeaderALUs:           0,
	TablesPerStage:       16,
	EntriesPerTable:      4096,
	Containers:           64,
	ContainerBits:        32,
	WordBits:             32,
}

// Target returns the Banzai target with the stateful atom called atom
// ("" for the default). The atoms are the stateful grammars of alus/
// (raw, pred_raw, if_else_raw, sub, nested_ifs, pair: the CaT paper's, in
// the order of their power).
func Target(atom string) (*target.Target, error) {
	if atom == "" {
		atom = DefaultAtom
	}
	tg := &target.Target{
		Name:        "banzai",
		Description: "the Banzai machine model of Domino and Chipmunk: stages of stateless ALUs and one kind of stateful atom (--alu)",
		Limits:      limits,
		Grammars:    grammars(),
		Stateful:    atom,
		Stateless:   "stateless",
	}
	if g, err := tg.Grammar(atom); err != nil || g.Kind != grammar.Stateful {
		return nil, fmt.Errorf("banzai has no stateful atom %q", atom)
	}
	return tg, nil
}
