package tna

import (
	"context"
	"fmt"
	"sync"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
)

// tnaDecls are what the bundled tna.p4 declares beyond core.p4 (the
// program includes core.p4 itself, so it cannot clash with that): the
// names of its top-level declarations, and its error members. A
// program's type, function, parser or control of one of those names (a
// PSA-style `struct PortId_t`, say) would be declared twice in the TNA
// program. Computed once: the bundled files do not change.
var tnaDecls = sync.OnceValue(func() declared {
	tna, core := declarations("#include <tna.p4>\n"), declarations("#include <core.p4>\n")
	for name := range core.names {
		delete(tna.names, name)
	}
	for name := range core.errors {
		delete(tna.errors, name)
	}
	return tna
})

// declared lists what a file declares at its top level: names, each
// mapped to whether it names a function (functions of one name overload
// one another rather than clash), and error members.
type declared struct{ names, errors map[string]bool }

// declarations parses src with the bundled includes and lists what its
// top-level declarations declare.
func declarations(src string) declared {
	var d diag.List
	f, _, err := frontend.Parse(context.Background(), "names.p4", []byte(src), frontend.Options{}, &d)
	if err != nil || f == nil || d.HasErrors() {
		panic(fmt.Sprintf("tna: the bundled includes do not parse: %v", d.Err())) // a build defect
	}
	out := declared{names: map[string]bool{}, errors: map[string]bool{}}
	for _, decl := range f.Decls {
		if e, ok := decl.(*frontend.ErrorDecl); ok {
			for _, m := range e.Members {
				out.errors[m.Name] = true
			}
		}
		if id := decl.DeclName(); id != nil {
			out.names[id.Name] = isFunction(decl)
		}
	}
	return out
}

func isFunction(decl frontend.Decl) bool {
	switch d := decl.(type) {
	case *frontend.FuncDecl:
		return true
	case *frontend.ExternDecl:
		return d.Func != nil
	}
	return false
}

// checkNames refuses a program that declares, at its top level, a name
// the emitted TNA program takes from tna.p4.
func (e *emitter) checkNames() error {
	names := tnaDecls().names
	clash := func(sp diag.Span, what, name string) error {
		return errorAt(sp, "%s %s: tna.p4 declares %s too, so the TNA program cannot hold both; rename it to compile for Tofino", what, name, name)
	}
	for _, t := range e.prog.Types {
		name := typeName(t)
		if _, ok := names[name]; ok && !bundled[name] {
			return clash(e.declaredAt(name), "type", name)
		}
	}
	for _, f := range e.prog.Functions {
		if function, ok := names[f.Name]; ok && !function {
			return clash(f.Span, "function", f.Name)
		}
	}
	if _, ok := names[e.parser.Name]; ok {
		return clash(e.parser.Span, "parser", e.parser.Name)
	}
	for _, c := range []*ir.Control{e.ingress, e.egress, e.deparser} {
		if _, ok := names[c.Name]; ok {
			return clash(c.Span, "control", c.Name)
		}
	}
	return nil
}

// declaredAt finds where the program declares name at its top level (the
// IR keeps no position for a type), or the main file when it cannot.
func (e *emitter) declaredAt(name string) diag.Span {
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
