package emit

import (
	"context"
	"encoding/json"

	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/backends/banzai"
	"github.com/p4hls/p4hls/target"
)

// The files the Banzai backend writes.
const (
	PipelineFile = "pipeline.json"
	DotFile      = "pipeline.dot"
)

// Backend is the Banzai target, with its default atom; a compile chooses
// another among the target's stateful grammars.
type Backend struct{}

// Target is Banzai with the default atom.
func (Backend) Target() *target.Target {
	tg, err := banzai.Target(banzai.DefaultAtom)
	if err != nil {
		panic(err) // DefaultAtom is one of the grammars (banzai.TestTarget)
	}
	return tg
}

// Options: the Banzai backend takes none.
func (Backend) Options() []backends.Option { return nil }

// Emit writes the resource graphs and their placement as JSON and as a
// Graphviz drawing.
func (Backend) Emit(_ context.Context, c *backends.Compiled, _ backends.Options) (*backends.Output, error) {
	p := Pipeline(c)
	data, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return nil, err
	}
	return &backends.Output{Artifacts: []backends.Artifact{
		{Name: PipelineFile, MediaType: "application/json", Data: append(data, '\n')},
		{Name: DotFile, MediaType: "text/vnd.graphviz", Data: []byte(p.Dot())},
	}}, nil
}
