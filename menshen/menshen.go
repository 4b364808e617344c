// Package menshen is the target of the CaT fork of the Menshen FPGA
// pipeline: its limits and ALU grammars, and (with the Menshen backend) the
// configuration emitter and a bit-accurate model of the pipeline.
package menshen

import (
	"embed"
	"fmt"

	"github.com/p4hls/p4hls/synth/grammar"
	"github.com/p4hls/p4hls/target"
)

//go:embed alus/*.alu
var alus embed.FS

var grammars = grammar.Embedded(alus, "alus")

// Sizes of the CaT fork of Menshen (docs/menshen-format.md): 6 stages; 8
// match sub-units per stage, each a CAM of 256 entries; 64 containers of
// 32 bits, each with its own ALU and its own stateful word; containers
// pass between stages unchanged. The parser and deparser see a frame's
// first 512 bytes.
const (
	Stages        = 6
	SubUnits      = 8
	Containers    = 64
	ContainerBits = 32
	CAMEntries    = 256
	Window        = 512
)

var limits = target.Limits{
	Stages:               Stages,
	ALUsPerStage:         Containers,
	StatefulALUsPerStage: Containers,
	HeaderALUs:           0,
	TablesPerStage:       SubUnits,
	EntriesPerTable:      CAMEntries,
	Containers:           Containers,
	ContainerBits:        ContainerBits,
	WordBits:             ContainerBits,
}

// Target returns the Menshen target.
func Target() *target.Target {
	return &target.Target{
		Name:        "menshen",
		Description: fmt.Sprintf("the CaT fork of the Menshen FPGA pipeline (%d stages, %d x %d-bit containers)", Stages, Containers, ContainerBits),
		Limits:      limits,
		Grammars:    grammars(),
		Stateful:    "if_else",
		Stateless:   "stateless",
		// A table's conditions become part of its key (docs/menshen-format.md);
		// nothing branches on the action a table ran.
		NoNextTables: true,
	}
}
