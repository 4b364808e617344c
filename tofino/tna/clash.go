package tna

import (
	"context"
	"fmt"
	"sync"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
)

// tnaNames are the names the bundled tna.p4 declares at its top level
// beyond core.p4's (the program includes core.p4 itself, so it cannot
// clash with those). A program's type, function, parser or control of
// one of these names (a PSA-style `struct PortId_t`, say) would be
// declared twice in the TNA program. Computed once: the bundled files
// do not change.
var tnaNames = sync.OnceValue(func() map[string]bool {
	names := topLevelNames("#include <tna.p4>\n")
	for name := range topLevelNames("#include <core.p4>\n") {
		delete(names, name)
	}
	return names
})

// topLevelNames parses src with the bundled includes and lists the names
// its top-level declarations declare.
func topLevelNames(src string) map[string]bool {
	var d diag.List
	f, _, err := frontend.Parse(context.Background(), "names.p4", []byte(src), frontend.Options{}, &d)
	if err != nil || f == nil || d.HasErrors() {
		panic(fmt.Sprintf("tna: the bundled includes do not parse: %v", d.Err())) // a build defect
	}
	names := map[string]bool{}
	for _, decl := range f.Decls {
		if id := decl.DeclName(); id != nil {
			names[id.Name] = true
		}
	}
	return names
}

// checkNames refuses a program that declares, at its top level, a name
// the emitted TNA program takes from tna.p4.
func (e *emitter) checkNames() error {
	names := tnaNames()
	clash := func(sp diag.Span, what, name string) error {
		return errorAt(sp, "%s %s: tna.p4 declares %s too, so the TNA program cannot hold both; rename it to compile for Tofino", what, name, name)
	}
	for _, t := range e.prog.Types {
		if name := typeName(t); names[name] && !bundled[name] {
			return clash(e.declared(name), "type", name)
		}
	}
	for _, f := range e.prog.Functions {
		if names[f.Name] {
			return clash(f.Span, "function", f.Name)
		}
	}
	if names[e.parser.Name] {
		return clash(e.parser.Span, "parser", e.parser.Name)
	}
	for _, c := range []*ir.Control{e.ingress, e.egress, e.deparser} {
		if names[c.Name] {
			return clash(c.Span, "control", c.Name)
		}
	}
	return nil
}

// declared finds where the program declares name at its top level (the
// IR keeps no position for a type), or the main file when it cannot.
func (e *emitter) declared(name string) diag.Span {
	src := e.in.Source
	var d diag.List
	f, _, err := frontend.Parse(e.ctx, src.File, src.Text, frontend.Options{IncludeDirs: src.IncludeDirs, Defines: src.Defines}, &d)
	if err == nil && f != nil {
		for _, decl := range f.Decls {
			if id := decl.DeclName(); id != nil && id.Name == name {
				return id.Span()
			}
		}
	}
	return diag.Span{File: src.File}
}
