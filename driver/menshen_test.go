package driver

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/corpus"
)

// menshenPrograms are the stateful benchmarks Menshen's ALUs can run,
// in the one-cell variants its state allows (FORMAT.md §A.12: one word
// per container ALU).
var menshenPrograms = []struct {
	name    string
	defines map[string]string
}{
	{"sampling", nil},
	{"marple_new_flow", map[string]string{"NUM_FLOWS": "1"}},
	{"dns_ttl_change", map[string]string{"NUM_DOMAINS": "1"}},
	{"learn_filter", map[string]string{"FILTER_SIZE": "1"}},
	{"stateful_firewall", map[string]string{"NUM_CONNS": "1"}},
}

// TestMenshenEndToEnd compiles each program for Menshen, configures the
// bit-accurate model through its control frames, and runs 10,000 random
// frames through it and through the interpreter: every output frame,
// drop and register must agree.
func TestMenshenEndToEnd(t *testing.T) {
	for _, p := range menshenPrograms {
		t.Run(p.name, func(t *testing.T) {
			file := filepath.Join(corpus.Dir(), "ok", p.name+".p4")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Compile(context.Background(), Request{File: file, Source: src,
				Frontend: frontend.Options{Defines: p.defines}, Target: "menshen"}, nil)
			if err != nil {
				t.Fatal(err, res.Diagnostics)
			}
			d, err := VerifyMenshen(res, 10000, 7)
			if err != nil {
				t.Fatal(err)
			}
			if d != nil {
				t.Fatalf("the Menshen model disagrees with the interpreter: %v\n%s", d, d.STF(res.TransformedProgram))
			}
		})
	}
}
