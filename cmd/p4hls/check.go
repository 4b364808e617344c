package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
)

// runCheck implements `p4hls check`: every file is parsed and checked on its
// own; diagnostics go to stderr in GCC's form.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	options := frontendFlags(fs)
	syntaxOnly := fs.Bool("syntax-only", false, "stop after parsing")
	dumpIR := fs.Bool("dump-ir", false, "print the lowered IR of each valid program to stdout")
	want := operands{synopsis: "FILE.p4...", min: 1, max: -1, none: "no input files"}
	fs.Usage = func() { printHelp(stdout, fs, want) }
	files, code, done := parseArgs(ctx, fs, args, want, stderr)
	if done {
		return code
	}
	opts := options()
	excerpt := isTerminal(stderr)
	status := exitOK
	for _, file := range files {
		code := checkFile(ctx, file, opts, *syntaxOnly, excerpt, stderr)
		if code == exitOK && *dumpIR && !*syntaxOnly {
			code = dumpFile(ctx, file, opts, stdout, stderr)
		}
		if code > status {
			status = code
		}
	}
	return status
}

func checkFile(ctx context.Context, file string, opts frontend.Options, syntaxOnly, excerpt bool, stderr io.Writer) int {
	src, err := frontend.ReadSource(file)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", file, unwrapPathError(err))
		return exitUserErr
	}
	var d diag.List
	var source *frontend.Source
	if syntaxOnly {
		_, source, err = frontend.Parse(ctx, file, src, opts, &d)
	} else {
		source, err = frontend.CheckProgram(ctx, file, src, opts, &d)
	}
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %s: %v\n", file, err)
		return exitUserErr
	}
	diag.Print(stderr, &d, source.FileText, excerpt)
	if d.HasErrors() {
		return exitUserErr
	}
	return exitOK
}

// dumpFile prints the IR of a file that checked cleanly.
func dumpFile(ctx context.Context, file string, opts frontend.Options, stdout, stderr io.Writer) int {
	src, err := frontend.ReadSource(file)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", file, unwrapPathError(err))
		return exitUserErr
	}
	var d diag.List
	prog, _, err := frontend.Load(ctx, file, src, opts, &d)
	if err != nil || prog == nil {
		return exitUserErr
	}
	ir.Print(stdout, prog)
	return exitOK
}

func parseDefines(defs []string) map[string]string {
	out := map[string]string{}
	for _, d := range defs {
		name, value, ok := strings.Cut(d, "=")
		if !ok {
			value = "1"
		}
		out[name] = value
	}
	return out
}

// unwrapPathError drops the path from an *os.PathError, which the caller
// already prints.
func unwrapPathError(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
