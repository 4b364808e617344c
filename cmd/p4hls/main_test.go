package main

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const corpus = "../../testdata/p4"

func runCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func TestCheck(t *testing.T) {
	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string // a regexp the whole stderr must match
	}{
		{"valid program", []string{"check", corpus + "/ok/ipv4_lpm.p4"}, exitOK, `^$`},
		{"several valid programs", []string{"check", corpus + "/ok/acl.p4", corpus + "/ok/stfq.p4"}, exitOK, `^$`},
		{"syntax only", []string{"check", "--syntax-only", corpus + "/bad/undeclared_name.p4"}, exitOK, `^$`},
		{"type error", []string{"check", corpus + "/bad/width_mismatch.p4"}, exitUserErr,
			`^\S+/bad/width_mismatch\.p4:16:31: error: operands of \+ have different types: bit<8> and bit<16>; cast one operand to the other's width\n$`},
		{"one bad among good", []string{"check", corpus + "/ok/acl.p4", corpus + "/bad/redeclared.p4"}, exitUserErr,
			`^\S+/bad/redeclared\.p4:4:14: error: A is already declared in this scope\n\S+/bad/redeclared\.p4:3:14: note: previous declaration of A\n$`},
		{"missing file", []string{"check", "no/such/file.p4"}, exitUserErr, `^no/such/file\.p4: error: no such file or directory\n$`},
		{"flags after files", []string{"check", corpus + "/ok/ipv4_lpm.p4", "-I", corpus + "/include"}, exitOK, `^$`},
		{"no files", []string{"check"}, exitUsage, `no input files`},
		{"unknown flag", []string{"check", "--frobnicate", "x.p4"}, exitUsage, `flag provided but not defined`},
		{"unknown command", []string{"frobnicate"}, exitUsage, `unknown command "frobnicate"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, _, stderr := runCLI(tc.args...)
			if code != tc.code {
				t.Errorf("exit status %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if !regexp.MustCompile(tc.stderr).MatchString(stderr) {
				t.Errorf("stderr:\n%s\nwant a match for %q", stderr, tc.stderr)
			}
		})
	}
}

func TestCheckDefinesAndIncludes(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	os.Mkdir(filepath.Join(dir, "inc"), 0o755)
	write("inc/width.p4", "const bit<32> W = 16;\n")
	main := write("main.p4", "#include <core.p4>\n#include \"width.p4\"\n#ifndef MODE\n#error MODE must be defined\n#endif\nconst bit<(W)> X = MODE;\n")
	if code, _, stderr := runCLI("check", "-I", filepath.Join(dir, "inc"), "-D", "MODE=3", main); code != exitOK {
		t.Errorf("with -I and -D: exit %d, stderr %s", code, stderr)
	}
	code, _, stderr := runCLI("check", "-I", filepath.Join(dir, "inc"), main)
	if code != exitUserErr || !strings.Contains(stderr, "main.p4:4:1: error: #error MODE must be defined") {
		t.Errorf("without -D: exit %d, stderr %s", code, stderr)
	}
}

func TestDumpIR(t *testing.T) {
	code, stdout, stderr := runCLI("check", "--dump-ir", corpus+"/ok/sampling.p4")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{
		"// architecture v1model",
		"register<bit<32>, bit<32>>(32w1) count;",
		"@atomic {",
		"if ((c == 32w29)) {",
		"pipeline(p=MyParser, vr=MyVerifyChecksum, ig=MyIngress, eg=MyEgress, ck=MyComputeChecksum, dep=MyDeparser);",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("IR dump lacks %q", want)
		}
	}
}

// TestBinary builds p4hls and runs it as a user would: exit statuses and
// the GCC form of diagnostics on stderr.
func TestBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "p4hls")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	okFiles, _ := filepath.Glob(corpus + "/ok/*.p4")
	out, err := exec.Command(bin, append([]string{"check"}, okFiles...)...).CombinedOutput()
	if err != nil {
		t.Errorf("check of the ok corpus: %v\n%s", err, out)
	}
	badFiles, _ := filepath.Glob(corpus + "/bad/*.p4")
	for _, f := range badFiles {
		cmd := exec.Command(bin, "check", f)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		exit, ok := err.(*exec.ExitError)
		if !ok || exit.ExitCode() != exitUserErr {
			t.Errorf("%s: got %v, want exit status 1", f, err)
			continue
		}
		first := strings.SplitN(stderr.String(), "\n", 2)[0]
		if !regexp.MustCompile(`^\S+:\d+:\d+: error: .+$`).MatchString(first) {
			t.Errorf("%s: first line %q is not FILE:LINE:COL: error: MESSAGE", f, first)
		}
	}
}

// TestHelp: help that is asked for goes to stdout, with exit status 0.
func TestHelp(t *testing.T) {
	tests := []struct {
		args []string
		want string // the first line of stdout
	}{
		{[]string{"--help"}, "usage: p4hls COMMAND [flags] [arguments]"},
		{[]string{"-h"}, "usage: p4hls COMMAND [flags] [arguments]"},
		{[]string{"help"}, "usage: p4hls COMMAND [flags] [arguments]"},
		{[]string{"help", "check"}, "usage: p4hls check [-D NAME[=VALUE]]... [-I DIR]... [--dump-ir]"},
		{[]string{"check", "--help"}, "usage: p4hls check [-D NAME[=VALUE]]... [-I DIR]... [--dump-ir]"},
		{[]string{"check", "-h"}, "usage: p4hls check [-D NAME[=VALUE]]... [-I DIR]... [--dump-ir]"},
		{[]string{"compile", "x.p4", "--help"}, "usage: p4hls compile [-D NAME[=VALUE]]... [-I DIR]... [--alloc MODE]"},
		{[]string{"help", "version"}, "usage: p4hls version"},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(tc.args...)
			if code != exitOK || stderr != "" {
				t.Errorf("exit %d, stderr %q; want exit 0 and nothing on stderr", code, stderr)
			}
			if first, _, _ := strings.Cut(stdout, "\n"); first != tc.want {
				t.Errorf("first line of stdout:\n%s\nwant\n%s", first, tc.want)
			}
		})
	}
}

// TestUsageLists every command with its summary, on stdout for --help and
// on stderr, with exit status 2, when there are no arguments.
func TestUsageListsCommands(t *testing.T) {
	_, help, _ := runCLI("--help")
	code, stdout, usage := runCLI()
	if code != exitUsage || stdout != "" || usage != help {
		t.Errorf("no arguments: exit %d, stdout %q, stderr %q; want exit 2 and --help's text on stderr", code, stdout, usage)
	}
	for _, c := range commands() {
		line := regexp.MustCompile(`(?m)^  ` + c.name + ` +` + regexp.QuoteMeta(c.summary) + `$`)
		if !line.MatchString(help) {
			t.Errorf("--help lacks the line for %s:\n%s", c.name, help)
		}
	}
}

// TestUsageErrors: a bad command line gets one line of reason and one of
// where help is, on stderr, with exit status 2.
func TestUsageErrors(t *testing.T) {
	tests := []struct {
		args   []string
		reason string
		help   string // the command whose help the second line names
	}{
		{[]string{"compile"}, "p4hls compile: no input file", "compile"},
		{[]string{"compile", "a.p4", "b.p4"}, "p4hls compile: want one FILE.p4, got 2: a.p4 b.p4", "compile"},
		{[]string{"compile", "-x", "a.p4"}, "p4hls compile: flag provided but not defined: -x", "compile"},
		{[]string{"compile", "--frobnicate", "a.p4"}, "p4hls compile: flag provided but not defined: --frobnicate", "compile"},
		{[]string{"compile", "-verify", "many", "a.p4"}, `p4hls compile: invalid value "many" for flag --verify: parse error`, "compile"},
		{[]string{"check"}, "p4hls check: no input files", "check"},
		{[]string{"sim", "a.p4"}, "p4hls sim: want PROGRAM.p4 TEST.stf, got 1: a.p4", "sim"},
		{[]string{"sim"}, "p4hls sim: want PROGRAM.p4 TEST.stf, got none", "sim"},
		{[]string{"sim", "--target", "fpga", "a", "b.stf"}, "p4hls sim: --target fpga: the targets sim runs on are: menshen, xdp", "sim"},
		{[]string{"bench"}, "p4hls bench: no benchmark: want synth, transform, alloc, sweep, edit, copies, serve, xdp, hxdp, sim, growth, conformance or stf", "bench"},
		{[]string{"version", "now"}, "p4hls version: want no arguments, got 1: now", "version"},
		{[]string{"help", "frobnicate"}, `p4hls help: unknown command "frobnicate"`, "help"},
		{[]string{"help", "check", "sim"}, "p4hls help: want at most one COMMAND, got 2: check sim", "help"},
		{[]string{"frobnicate"}, `p4hls: unknown command "frobnicate"`, ""},
		{[]string{"--frobnicate"}, "p4hls: flag provided but not defined: --frobnicate", ""},
	}
	for _, tc := range tests {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			code, stdout, stderr := runCLI(tc.args...)
			want := tc.reason + "\nrun '" + strings.TrimSpace("p4hls "+tc.help) + " --help' for usage\n"
			if code != exitUsage || stdout != "" || stderr != want {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant exit 2, nothing on stdout, stderr:\n%s", code, stdout, stderr, want)
			}
		})
	}
}

func TestVersion(t *testing.T) {
	for _, args := range [][]string{{"--version"}, {"version"}} {
		code, stdout, stderr := runCLI(args...)
		if code != exitOK || stdout != "p4hls "+version+"\n" || stderr != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want p4hls %s", args[0], code, stdout, stderr, version)
		}
	}
}

// TestHelpNamesEveryFlag: each command's help has every flag its FlagSet
// defines, in the usage line and in the list, spelled --name (-I for a
// letter), and no flag spelled otherwise.
func TestHelpNamesEveryFlag(t *testing.T) {
	for _, c := range commands() {
		t.Run(c.name, func(t *testing.T) {
			var fs *flag.FlagSet
			ctx := context.WithValue(context.Background(), flagSetHook{}, func(f *flag.FlagSet) { fs = f })
			var stdout, stderr bytes.Buffer
			if code := run(ctx, []string{c.name, "--help"}, &stdout, &stderr); code != exitOK {
				t.Fatalf("exit %d: %s", code, stderr.String())
			}
			if fs == nil {
				t.Fatal("the command's flags were not parsed by parseArgs")
			}
			help := stdout.String()
			usageLine, list, _ := strings.Cut(help, "\n\n")
			fs.VisitAll(func(f *flag.Flag) {
				spelled := "--" + f.Name
				if len(f.Name) == 1 {
					spelled = "-" + f.Name
				}
				if !regexp.MustCompile(`\[` + regexp.QuoteMeta(spelled) + `[ \]]`).MatchString(usageLine) {
					t.Errorf("the usage line lacks [%s:\n%s", spelled, usageLine)
				}
				if !regexp.MustCompile(`(?m)^  ` + regexp.QuoteMeta(spelled) + `( |$)`).MatchString(list) {
					t.Errorf("the flag list lacks %s:\n%s", spelled, list)
				}
				if len(f.Name) > 1 && regexp.MustCompile(`(^|[\s\[])-`+regexp.QuoteMeta(f.Name)+`\b`).MatchString(help) {
					t.Errorf("help spells --%s with one dash:\n%s", f.Name, help)
				}
			})
		})
	}
}

// TestPrintHelp checks the layout of a command's help on a FlagSet with
// each kind of flag: repeatable, boolean, a type's guessed placeholder,
// defaults that are and are not zero.
func TestPrintHelp(t *testing.T) {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	var dirs listFlag
	fs.Var(&dirs, "I", "add `DIR` to the path (repeatable)")
	fs.Bool("fast", false, "go fast")
	fs.Int("n", 0, "how many")
	fs.String("target", "tofino", "the `TARGET`")
	fs.Duration("timeout", 2*time.Minute, "stop after `D`")
	var b bytes.Buffer
	printHelp(&b, fs, operands{synopsis: "FILE.p4..."}, "--other X")
	// The usage line is 79 columns before FILE.p4..., which wraps under
	// the first flag.
	want := `usage: p4hls demo [-I DIR]... [--fast] [-n int] [--target TARGET] [--timeout D]
                  FILE.p4...
       p4hls demo --other X

flags:
  -I DIR
        add DIR to the path (repeatable)
  --fast
        go fast
  -n int
        how many
  --target TARGET
        the TARGET (default: tofino)
  --timeout D
        stop after D (default: 2m0s)
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}
