// Command p4hls is the p4hls compiler's command line.
//
//	p4hls check [-I DIR]... [-D NAME[=VALUE]]... [--syntax-only] FILE.p4...
//	p4hls compile [--target NAME] [--alu NAME] [--option NAME=VALUE]... [-o OUTDIR] FILE.p4
//	p4hls compile --jobs N [flags] FILE.p4...
//	p4hls compile --server ADDR [flags] FILE.p4
//	p4hls serve [--grpc-addr ADDR] [--http-addr ADDR] [--cache STORE]
//	p4hls lsp [-I DIR]... [-D NAME[=VALUE]]...
//	p4hls targets [--json]
//	p4hls sim [-I DIR]... [--seed N] PROGRAM.p4 TEST.stf
//	p4hls bench synth|transform|alloc|sweep|edit|copies|... [--json FILE]
//	p4hls bench growth [--timeout D] [--json FILE]
//	p4hls bench conformance --p4c DIR [--bundled] [--failures FILE] [--json FILE]
//	p4hls help [COMMAND]
//	p4hls --version
//
// Exit status: 0 success, 1 the program is wrong, 2 usage errors (and,
// for compile, a program the target cannot hold), 3 an internal error of
// p4hls.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/p4hls/p4hls/frontend"
)

// Exit statuses, shared by every subcommand.
const (
	exitOK       = 0
	exitUserErr  = 1 // the program has errors
	exitUsage    = 2 // bad command line
	exitInternal = 3 // a bug in p4hls
)

// command is one subcommand: its name, a one-line summary, and its entry
// point, which gets the arguments after the name.
type command struct {
	name    string
	summary string
	run     func(ctx context.Context, args []string, stdout, stderr io.Writer) int
}

func commands() []command {
	return []command{
		{"check", "parse and check P4-16 programs, print diagnostics", runCheck},
		{"compile", "compile a program for a target: phase 1, synthesis, allocation, the target's files", runCompile},
		{"serve", "serve the compiler over gRPC and REST (loopback by default)", runServe},
		{"lsp", "serve an editor: the Language Server Protocol on stdin and stdout", runLSP},
		{"targets", "list the targets, their limits, ALUs and options", runTargets},
		{"bench", "run a benchmark table (bench synth: CaT's Table 4; bench growth: compile time and memory as programs grow; bench conformance: p4c's test programs; bench stf: p4c's packet tests, or every program of a folder)", runBench},
		{"sim", "run a packet test (.stf) on the reference interpreter", runSim},
		{"version", "print the version of p4hls", runVersion},
		{"help", "print the usage of p4hls or of a command", runHelp},
	}
}

// version is set at build time with -ldflags "-X main.version=...".
var version = "dev"

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "p4hls: internal error: %v\nplease report this with the input that caused it\n", r)
			code = exitInternal
		}
	}()
	if len(args) == 0 {
		usage(stderr)
		return exitUsage
	}
	switch args[0] {
	case "-h", "-help", "--help":
		usage(stdout)
		return exitOK
	case "--version":
		return runVersion(ctx, args[1:], stdout, stderr)
	}
	for _, c := range commands() {
		if c.name == args[0] {
			return c.run(ctx, args[1:], stdout, stderr)
		}
	}
	if strings.HasPrefix(args[0], "-") {
		return usageError(stderr, "", "flag provided but not defined: %s", args[0])
	}
	return usageError(stderr, "", "unknown command %q", args[0])
}

// usage prints the usage of p4hls itself: every command with its summary.
func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: p4hls COMMAND [flags] [arguments]")
	fmt.Fprintln(w, "       p4hls --help | --version")
	fmt.Fprintln(w, "\ncommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-10s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nrun 'p4hls COMMAND --help' or 'p4hls help COMMAND' for a command's usage")
}

// runHelp implements `p4hls help [COMMAND]`.
func runHelp(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("help", flag.ContinueOnError)
	want := operands{synopsis: "[COMMAND]", min: 0, max: 1}
	fs.Usage = func() { usage(stdout) } // it lists the commands help takes
	names, code, done := parseArgs(ctx, fs, args, want, stderr)
	if done {
		return code
	}
	if len(names) == 0 {
		usage(stdout)
		return exitOK
	}
	for _, c := range commands() {
		if c.name == names[0] {
			return c.run(ctx, []string{"--help"}, stdout, stderr)
		}
	}
	return usageError(stderr, "help", "unknown command %q", names[0])
}

func runVersion(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("version", flag.ContinueOnError)
	want := operands{}
	fs.Usage = func() { printHelp(stdout, fs, want) }
	if _, code, done := parseArgs(ctx, fs, args, want, stderr); done {
		return code
	}
	fmt.Fprintf(stdout, "p4hls %s\n", version)
	return exitOK
}

// parseInterspersed parses flags that may come before, between or after
// positional arguments, as GCC's do, and returns the positional ones.
func parseInterspersed(fs *flag.FlagSet, args []string) ([]string, error) {
	var positional []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return positional, nil
		}
		if args[0] == "--" {
			return append(positional, args[1:]...), nil
		}
		positional = append(positional, args[0])
		args = args[1:]
	}
}

// frontendFlags registers -I and -D, which every command that reads a P4
// program takes, and returns a function giving the frontend's options.
func frontendFlags(fs *flag.FlagSet) func() frontend.Options {
	var includes, defines listFlag
	fs.Var(&includes, "I", "add `DIR` to the folders searched for #include (repeatable)")
	fs.Var(&defines, "D", "predefine macro `NAME[=VALUE]` (repeatable)")
	return func() frontend.Options {
		return frontend.Options{IncludeDirs: includes, Defines: parseDefines(defines)}
	}
}

// listFlag collects a repeatable flag (-I a -I b).
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// isTerminal reports whether w is a character device (a terminal), where
// diagnostics get source excerpts and progress lines update in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// errUsage marks command-line errors (exit status 2).
var errUsage = errors.New("usage")
