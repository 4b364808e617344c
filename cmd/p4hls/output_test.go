package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// documentedKeys reads docs/output.md's tables: per file (a "## NAME"
// heading's first word; "operand" for the operand's table), each key and
// its type.
func documentedKeys(t *testing.T) map[string]map[string]string {
	f, err := os.Open(filepath.Join("..", "..", "docs", "output.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string]map[string]string{}
	file := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, ok := strings.CutPrefix(line, "## "); ok {
			file = strings.Fields(name)[0]
			out[file] = map[string]string{}
			continue
		}
		if row, ok := strings.CutPrefix(line, "| `"); ok && file != "" {
			key, rest, _ := strings.Cut(row, "`")
			cells := strings.Split(rest, "|")
			out[file][key] = strings.TrimSpace(cells[1])
		}
	}
	return out
}

// keyWriter collects the key paths of JSON documents: "[]" for a list's
// objects, "*" for the names of an object the documentation gives as
// named by the program (a documented key with "*" there); the keys of
// operands go to the operand's own set.
type keyWriter struct {
	documented map[string]string // the file's keys and types
	keys       map[string]bool
	operand    map[string]bool
}

func (w keyWriter) add(v any, prefix string) {
	join := func(k string) string {
		if prefix == "" {
			return k
		}
		return prefix + "." + k
	}
	if strings.Contains(w.documented[prefix], "operand") {
		w.operands(v)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		_, named := w.documented[join("*")]
		for k, x := range v {
			if named {
				k = "*"
			}
			w.keys[join(k)] = true
			w.add(x, join(k))
		}
	case []any:
		for _, x := range v {
			if _, ok := x.(map[string]any); ok {
				w.add(x, prefix+"[]")
			}
		}
	}
}

// operands records the keys of an operand or a list of them.
func (w keyWriter) operands(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k := range v {
			w.operand[k] = true
		}
	case []any:
		for _, x := range v {
			w.operands(x)
		}
	}
}

// TestDocumentedKeys: the keys report.json, pipeline.json,
// menshen.json and check --format json are written with are exactly
// docs/output.md's. The
// compiles between them write every key: a Menshen compile with include
// folders, macros and solver given; Banzai's flowlets (a hash unit);
// ME-2 (if statements rewritten) and Marple's new flow (one kept) for
// Tofino; a value_set for xdp; and a program with errors (a diagnostic
// with a related place).
func TestDocumentedKeys(t *testing.T) {
	docs := documentedKeys(t)
	compiles := [][]string{
		{"--target", "menshen", "--solver", "cbc", "-I", filepath.Join(corpus, "include"), "-D", "UNUSED=1", "--no-transform", "--emit", "transformed", "ok/sampling.p4"},
		{"--target", "banzai", "ok/flowlet_assume.p4"}, // with a precondition
		{"--target", "tofino", "ok/me2_disjoint_writes.p4"},
		{"--target", "tofino", "ok/marple_new_flow.p4"},
		{"--target", "tofino", "bad/redeclared.p4"},
		{"--target", "xdp", "-I", filepath.Join(corpus, "include"), "-D", "UNUSED=1", "ok/ipv4_lpm.p4"},
		{"--target", "xdp", "../../backends/xdp/testdata/counters.p4"},
		{"--target", "xdp", "../../backends/xdp/testdata/sketch.p4"},
		{"--target", "xdp", "ok/value_set.p4"}, // a value_set
		{"--target", "hxdp", "ok/ecmp.p4"},
	}
	written := map[string]map[string]bool{"operand": {}}
	for _, args := range compiles {
		out := t.TempDir()
		last := len(args) - 1
		runCLI(append(append([]string{"compile", "-o", out}, args[:last]...), filepath.Join(corpus, args[last]))...)
		for file := range docs {
			data, err := os.ReadFile(filepath.Join(out, file))
			if os.IsNotExist(err) {
				continue
			}
			var v any
			if err == nil {
				err = json.Unmarshal(data, &v)
			}
			if err != nil {
				t.Fatalf("%v: %s: %v", args, file, err)
			}
			if written[file] == nil {
				written[file] = map[string]bool{}
			}
			keyWriter{documented: docs[file], keys: written[file], operand: written["operand"]}.add(v, "")
		}
	}
	// check --format json: a program with errors writes every key (a
	// related place among them).
	_, stdout, _ := runCLI("check", "--format", "json", filepath.Join(corpus, "bad/redeclared.p4"))
	var v any
	if err := json.Unmarshal([]byte(stdout), &v); err != nil {
		t.Fatalf("check --format json: %v", err)
	}
	written["check"] = map[string]bool{}
	keyWriter{documented: docs["check"], keys: written["check"], operand: written["operand"]}.add(v, "")
	for file, keys := range docs {
		for k := range keys {
			if !written[file][k] {
				t.Errorf("%s: docs/output.md documents %s, which no compile wrote", file, k)
			}
		}
		for k := range written[file] {
			if _, ok := keys[k]; !ok {
				t.Errorf("%s: %s is written but not in docs/output.md", file, k)
			}
		}
	}
}
