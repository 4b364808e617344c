// Package frontend reads P4-16 programs: it preprocesses (package cpp),
// parses with the ANTLR-generated parser (package parser, imported only
// here), builds an AST at once, resolves names and checks types, and lowers
// a checked program to ir.Program. Every problem becomes a diagnostic with
// the file, line and column it is about.
package frontend

import (
	"context"
	"embed"
	"io/fs"
	"path/filepath"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend/cpp"
	"github.com/p4hls/p4hls/internal/fsread"
	"github.com/p4hls/p4hls/ir"
)

//go:embed include/*.p4 include/bmv2/*.p4
var bundled embed.FS

// Bundled returns the include files shipped with p4hls: core.p4, v1model.p4,
// psa.p4, pna.p4 and tna.p4, and bmv2/psa.p4 and bmv2/pna.p4 where p4c's
// BMv2 programs look for the last two.
func Bundled() fs.FS {
	sub, err := fs.Sub(bundled, "include")
	if err != nil {
		panic(err) // the embed pattern guarantees the folder
	}
	return sub
}

// Options configure the frontend. The zero Options reads includes from the
// bundled files only.
type Options struct {
	// IncludeDirs are searched for #include files, before the bundled ones.
	IncludeDirs []string
	// Defines are predefined macros (NAME → body), as -D gives them.
	Defines map[string]string
	// ReadFile reads include files; nil means the file system, as
	// ReadSource reads.
	ReadFile func(name string) ([]byte, error)
	// Files, when not nil, are the only files #include reads besides the
	// bundled ones, by relative path ("lib/h.p4"), and ReadFile is not
	// used: a service compiles a request's files without reading its own
	// disk. An #include that resolves outside them (an absolute path, or
	// one climbing above the request's root) is not found.
	Files map[string][]byte
	// Written, when not nil, is the file as the user wrote it, when the
	// source given is p4hls's rewrite of it (phase 1's), whose #line
	// directives keep the user's line numbers: positions and excerpts
	// are of the lines the user wrote.
	Written []byte
}

func (o Options) cppOptions() cpp.Options {
	read := o.ReadFile
	if o.Files != nil {
		read = readFrom(o.Files)
	}
	return cpp.Options{IncludeDirs: o.IncludeDirs, Bundled: Bundled(), Defines: o.Defines, ReadFile: read}
}

// readFrom reads include files from files alone. The preprocessor joins
// folders and names with filepath.Join, which cleans them, so a name that
// climbs out of the root keeps its leading "..", and an absolute one its
// "/": neither is a key.
func readFrom(files map[string][]byte) func(string) ([]byte, error) {
	return func(name string) ([]byte, error) {
		if src, ok := files[filepath.ToSlash(filepath.Clean(name))]; ok {
			return src, nil
		}
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
}

// Load parses, checks and lowers a program to the IR: the frontend's whole
// job. The program is nil when d has errors. The error is for cancellation.
// Lowering is complete for v1model programs; for other architectures it
// reports what it does not support yet (Check alone accepts them).
func Load(ctx context.Context, file string, src []byte, opts Options, d *diag.List) (*ir.Program, *Source, error) {
	checked, source, err := Check(ctx, file, src, opts, d)
	if err != nil || checked == nil {
		return nil, source, err
	}
	return Lower(checked, d), source, nil
}

// CheckProgram is what `p4hls check` runs: parse and check, and lower too
// when the program targets v1model, whose lowering is complete (so check
// finds everything a compile would). Programs of other architectures are
// checked but not lowered.
func CheckProgram(ctx context.Context, file string, src []byte, opts Options, d *diag.List) (*Source, error) {
	_, source, err := AnalyzeProgram(ctx, file, src, opts, d)
	return source, err
}

// AnalyzeProgram is CheckProgram that also returns what the checker
// learned, errors or not (Analyze): the same diagnostics, for an editor
// that also answers hovers.
func AnalyzeProgram(ctx context.Context, file string, src []byte, opts Options, d *diag.List) (*Checked, *Source, error) {
	checked, source, err := Analyze(ctx, file, src, opts, d)
	if err != nil || d.HasErrors() {
		return checked, source, err
	}
	if checked.Arch() == ir.V1Model {
		Lower(checked, d)
	}
	return checked, source, nil
}

// ReadSource reads a program's file from disk as includes are read: a
// regular file of at most MaxInputBytes, so that a device, a FIFO or a
// huge file is an error instead of a hang or an exhausted memory.
func ReadSource(name string) ([]byte, error) { return fsread.ReadRegular(name, MaxInputBytes) }
