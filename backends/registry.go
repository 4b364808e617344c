package backends

import (
	"fmt"
	"strings"

	"github.com/p4hls/p4hls/synth/grammar"
)

// Registry is the targets a compiler offers, by name. It does not change
// once made, so compiles running at once may share it.
type Registry struct {
	backends []Backend
}

// NewRegistry makes a registry of the backends, listed in the order
// given. Each target must validate, and names must differ.
func NewRegistry(bs ...Backend) (*Registry, error) {
	seen := map[string]bool{}
	for _, b := range bs {
		tg := b.Target()
		if err := tg.Validate(); err != nil {
			return nil, err
		}
		if seen[tg.Name] {
			return nil, fmt.Errorf("two targets are called %s", tg.Name)
		}
		seen[tg.Name] = true
	}
	return &Registry{backends: append([]Backend(nil), bs...)}, nil
}

// Backends lists the targets in the registry's order.
func (r *Registry) Backends() []Backend { return append([]Backend(nil), r.backends...) }

// Names lists the targets' names in the registry's order.
func (r *Registry) Names() []string {
	var names []string
	for _, b := range r.backends {
		names = append(names, b.Target().Name)
	}
	return names
}

// Lookup returns the target called name, or an error listing the
// registry.
func (r *Registry) Lookup(name string) (Backend, error) {
	for _, b := range r.backends {
		if b.Target().Name == name {
			return b, nil
		}
	}
	return nil, fmt.Errorf("unknown target %q (targets: %s)", name, strings.Join(r.Names(), ", "))
}

// StatefulGrammars lists the names of a target's stateful ALUs, the ones
// a compile may choose among.
func StatefulGrammars(b Backend) []string {
	var names []string
	for _, g := range b.Target().Grammars {
		if g.Kind == grammar.Stateful {
			names = append(names, g.Name)
		}
	}
	return names
}
