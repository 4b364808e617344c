package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/p4hls/p4hls/check"
	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/report"
)

// runCheck implements `p4hls check`: every file is parsed and checked on its
// own (the check the service and the editor server run); diagnostics go to
// stderr in GCC's form, or to stdout as JSON or SARIF.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	options := frontendFlags(fs)
	syntaxOnly := fs.Bool("syntax-only", false, "stop after parsing")
	dumpIR := fs.Bool("dump-ir", false, "print the lowered IR of each valid program to stdout")
	format := fs.String("format", formatText, formatHelp)
	want := operands{synopsis: "FILE.p4...", min: 1, max: -1, none: "no input files"}
	fs.Usage = func() {
		printHelp(stdout, fs, want)
		exitHelp(stdout, "0  every file is valid", "1  a file has errors (or cannot be read)", "2  a bad command line", "3  an internal error of p4hls")
	}
	files, code, done := parseArgs(ctx, fs, args, want, stderr)
	if done {
		return code
	}
	if err := checkFormat(*format); err != nil {
		return usageError(stderr, "check", "%v", err)
	}
	opts := options()
	excerpt := isTerminal(stderr)
	status := exitOK
	out := checkJSON{OK: true, Diagnostics: []report.Diagnostic{}}
	texts := map[string][]byte{}
	for _, file := range files {
		code, d, text := checkFile(ctx, file, opts, *syntaxOnly, stderr)
		if *format == formatText {
			diag.Print(stderr, &d, text, excerpt)
		}
		for _, it := range d.Items() {
			out.Diagnostics = append(out.Diagnostics, report.NewDiagnostic(it))
			if _, ok := texts[it.Span.File]; !ok {
				texts[it.Span.File] = text(it.Span.File)
			}
		}
		if code == exitOK && *dumpIR && !*syntaxOnly {
			code = dumpFile(ctx, file, opts, stdout, stderr)
		}
		status = max(status, code)
	}
	out.OK = status == exitOK
	return printCheck(*format, out, texts, status, stdout, stderr)
}

// printCheck prints what check found as json or sarif; text was printed
// file by file.
func printCheck(format string, out checkJSON, texts map[string][]byte, status int, stdout, stderr io.Writer) int {
	var err error
	switch format {
	case formatJSON:
		err = printJSON(stdout, out)
	case formatSARIF:
		err = printSARIF(stdout, out.Diagnostics, func(f string) []byte { return texts[f] })
	}
	if err != nil {
		fmt.Fprintf(stderr, "p4hls check: %v\n", err)
		return exitInternal
	}
	return status
}

// checkFile checks one file: its exit status, its diagnostics and the
// text of the files they name.
func checkFile(ctx context.Context, file string, opts frontend.Options, syntaxOnly bool, stderr io.Writer) (int, diag.List, func(string) []byte) {
	none := func(string) []byte { return nil }
	src, err := frontend.ReadSource(file)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", file, unwrapPathError(err))
		return exitUserErr, diag.List{}, none
	}
	var d diag.List
	var source *frontend.Source
	if syntaxOnly {
		_, source, err = frontend.Parse(ctx, file, src, opts, &d)
	} else {
		var res *check.Result
		res, err = check.Run(ctx, check.Request{File: file, Source: src, Frontend: opts})
		d, source = res.Diagnostics, res.Source
	}
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %s: %v\n", file, err)
		return exitUserErr, d, none
	}
	if d.HasErrors() {
		return exitUserErr, d, source.FileText
	}
	return exitOK, d, source.FileText
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
