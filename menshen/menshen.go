// Package menshen is the target of the CaT fork of the Menshen FPGA
// pipeline: its limits and ALU grammars, and (with the Menshen backend) the
// configuration emitter and a bit-accurate model of the pipeline.
package menshen

import (
	"embed"

	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
)

//go:embed alus/*.alu
var alus embed.FS

var grammars = grammar.Embedded(alus, "alus")

// Limits of the CaT fork of Menshen, from shared/targets/menshen/FORMAT.md
// and ALUS.md §5.1: 6 stages; 8 match sub-units per stage, each a CAM of
// 256 entries; 64 containers of 32 bits, each with its own ALU and its own
// stateful word; containers pass between stages unchanged.
var limits = target.Limits{
	Stages:               6,
	ALUsPerStage:         64,
	StatefulALUsPerStage: 64,
	HeaderALUs:           0,
	TablesPerStage:       8,
	EntriesPerTable:      256,
	Containers:           64,
	ContainerBits:        32,
	WordBits:             32,
}

// Target returns the Menshen target.
func Target() *target.Target {
	return &target.Target{
		Name:        "menshen",
		Description: "the CaT fork of the Menshen FPGA pipeline (6 stages, 64 x 32-bit containers)",
		Limits:      limits,
		Grammars:    grammars(),
		Stateful:    "if_else",
		Stateless:   "stateless",
	}
}
