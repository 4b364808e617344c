package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
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
