// Package tofino is the Tofino-1 target: its limits, its ALU grammars, and
// (with the Tofino backend) the emitter of TNA P4-16.
package tofino

import (
	"embed"

	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
)

//go:embed alus/*.alu
var alus embed.FS

var grammars = grammar.Embedded(alus, "alus")

// Limits of Tofino-1. Sources: the CaT paper (§4.3: 12 stages); ALUS.md
// §3-4 (one SALU per register per stage, 32-bit words); the remaining
// numbers are the commonly published Tofino-1 figures (16 logical tables
// and 4 stateful ALUs per MAU stage, 224 PHV containers of up to 32 bits,
// one VLIW slot per container), not checked against a Tofino compiler.
var limits = target.Limits{
	Stages:               12,
	ALUsPerStage:         224,
	StatefulALUsPerStage: 4,
	HeaderALUs:           0, // PHV containers carry fields across stages without ALUs
	TablesPerStage:       16,
	EntriesPerTable:      4096, // an assumption: exact-match SRAM per table per stage
	Containers:           224,
	ContainerBits:        32,
	WordBits:             32,
}

// Target returns the Tofino-1 target.
func Target() *target.Target {
	return &target.Target{
		Name:        "tofino",
		Description: "Intel Tofino-1: TNA P4-16 with every table, action and register action placed in a stage",
		Limits:      limits,
		Grammars:    grammars(),
		Stateful:    "stateful",
		Stateless:   "stateless",
		// A TNA program reaches a Register through a RegisterAction only.
		RegistersInActions: true,
	}
}
