package frontend

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
)

const corpus = "../testdata/p4"

// TestCorpusOK loads every program of testdata/p4/ok and testdata/p4/tna
// (programs for the bundled tna.p4): each must parse and check without
// errors, and a v1model program must lower too.
func TestCorpusOK(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "ok", "*.p4"))
	tna, _ := filepath.Glob(filepath.Join(corpus, "tna", "*.p4"))
	files = append(files, tna...)
	if len(files) == 0 {
		t.Fatal("no programs in the ok corpus")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			var d diag.List
			checked, _, err := Check(context.Background(), file, src, Options{}, &d)
			if err != nil {
				t.Fatal(err)
			}
			if d.HasErrors() || checked == nil {
				t.Fatalf("want no errors, got:\n%s", d.String())
			}
			for _, w := range d.Items() {
				t.Errorf("unexpected warning: %s", w)
			}
			arch := ""
			for _, a := range []string{"v1model", "tna"} {
				if strings.Contains(string(src), "<"+a+".p4>") {
					arch = a
				}
			}
			if arch == "" {
				return // another architecture: checking is all it needs
			}
			// Both architectures lower to their six blocks (TNA's Switch
			// names a Pipeline package, whose blocks these are).
			prog := Lower(checked, &d)
			if prog == nil || prog.Arch != arch || len(prog.Pipeline) != 6 {
				t.Fatalf("lowering failed: %s", d.String())
			}
			for _, c := range prog.Controls {
				for _, inst := range c.Instances {
					if inst.Type.Name == "RegisterAction" && inst.Method("apply") == nil {
						t.Errorf("RegisterAction %s has no apply", inst.Name)
					}
				}
			}
		})
	}
}

// errorComment is the expectation a rejected program carries on the line of
// the error: // ERROR "regexp", or // ERROR@+1 "regexp" for the next line
// (where the error's own line cannot hold a comment, as an unterminated
// string's).
var errorComment = regexp.MustCompile(`//\s*ERROR(@\+1)?\s+"((?:[^"\\]|\\.)*)"`)

// TestCorpusBad checks every program of testdata/p4/bad: each error the
// frontend reports must be expected by an ERROR comment on its line, and
// each ERROR comment must be matched by a reported error (as go/types'
// tests do).
func TestCorpusBad(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "bad", "*.p4"))
	if len(files) == 0 {
		t.Fatal("no programs in the bad corpus")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := expectedErrors(t, file, src)
			if len(want) == 0 {
				t.Fatal("the program has no // ERROR comment")
			}
			var d diag.List
			prog, _, err := Load(context.Background(), file, src, Options{}, &d)
			if err != nil {
				t.Fatal(err)
			}
			if prog != nil {
				t.Errorf("the program was accepted")
			}
			for _, got := range d.Items() {
				if got.Severity != diag.Error {
					continue
				}
				key := lineKey{got.Span.File, got.Span.Start.Line}
				if !matchOne(want, key, got.Msg) {
					t.Errorf("unexpected error %s", got)
				}
			}
			for key, rxs := range want {
				for _, rx := range rxs {
					if rx != nil {
						t.Errorf("%s:%d: missing error matching %q", key.file, key.line, rx)
					}
				}
			}
		})
	}
}

type lineKey struct {
	file string
	line int
}

func expectedErrors(t *testing.T, file string, src []byte) map[lineKey][]*regexp.Regexp {
	want := map[lineKey][]*regexp.Regexp{}
	for i, line := range strings.Split(string(src), "\n") {
		for _, m := range errorComment.FindAllStringSubmatch(line, -1) {
			rx, err := regexp.Compile(strings.ReplaceAll(m[2], `\"`, `"`))
			if err != nil {
				t.Fatalf("%s:%d: bad ERROR pattern: %v", file, i+1, err)
			}
			key := lineKey{file, i + 1}
			if m[1] != "" {
				key.line++
			}
			want[key] = append(want[key], rx)
		}
	}
	return want
}

// matchOne consumes the first expectation on the line that matches msg.
func matchOne(want map[lineKey][]*regexp.Regexp, key lineKey, msg string) bool {
	for i, rx := range want[key] {
		if rx != nil && rx.MatchString(msg) {
			want[key][i] = nil
			return true
		}
	}
	return false
}
