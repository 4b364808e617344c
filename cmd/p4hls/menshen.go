package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/menshen/lower"
	"github.com/p4hls/p4hls/synth"
)

// The Menshen artifacts of `p4hls compile --target menshen -o OUT`:
// OUT/menshen.conf (the text form, one entry per line), OUT/menshen-
// config.pcap (its control frames), and OUT/menshen.json, the compile
// that made them. `p4hls sim --target menshen OUT TEST.stf` compiles the
// program again from OUT/menshen.json, checks that it gives menshen.conf
// exactly, adds the test's table entries (Menshen's tables are part of
// its configuration) and runs the test on the model.

// menshenBuild is OUT/menshen.json.
type menshenBuild struct {
	File        string            `json:"file"`
	SHA256      string            `json:"sha256"`
	IncludeDirs []string          `json:"include_dirs,omitempty"`
	Defines     map[string]string `json:"defines,omitempty"`
	NoTransform bool              `json:"no_transform,omitempty"`
	Solver      string            `json:"solver,omitempty"`
	Alloc       string            `json:"alloc"`
	Tenant      int               `json:"tenant"`
	// Registers says which stage's container ALU holds each register.
	Registers map[string]lower.Cell `json:"registers"`
}

// writeMenshen writes the Menshen artifacts of a compile.
func writeMenshen(dir string, req driver.Request, res *driver.Result) error {
	conf := strings.Join(res.Menshen.Lines, "\n") + "\n"
	if err := os.WriteFile(filepath.Join(dir, "menshen.conf"), []byte(conf), 0o644); err != nil {
		return err
	}
	frames, err := menshen.LineFrames(res.Menshen.Lines)
	if err != nil {
		return err
	}
	var pcap bytes.Buffer
	if err := menshen.WritePcap(&pcap, frames); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "menshen-config.pcap"), pcap.Bytes(), 0o644); err != nil {
		return err
	}
	abs, err := filepath.Abs(req.File)
	if err != nil {
		return err
	}
	var includes []string
	for _, d := range req.Frontend.IncludeDirs {
		a, err := filepath.Abs(d)
		if err != nil {
			return err
		}
		includes = append(includes, a)
	}
	sum := sha256.Sum256(req.Source)
	b := menshenBuild{File: abs, SHA256: hex.EncodeToString(sum[:]), IncludeDirs: includes, Defines: req.Frontend.Defines,
		NoTransform: req.NoTransform, Solver: req.Solver, Alloc: req.AllocMode.String(), Tenant: driver.MenshenTenant,
		Registers: res.Menshen.Lowered.Registers}
	data, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "menshen.json"), append(data, '\n'), 0o644)
}

// menshenMachine compiles the program OUT was compiled from, as it was,
// and returns a machine that runs it on the Menshen model.
func menshenMachine(ctx context.Context, dir string, stderr io.Writer) (*lower.Machine, error) {
	data, err := os.ReadFile(filepath.Join(dir, "menshen.json"))
	if err != nil {
		return nil, fmt.Errorf("%w (compile with --target menshen -o %s first)", unwrapPathError(err), dir)
	}
	var b menshenBuild
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", filepath.Join(dir, "menshen.json"), err)
	}
	req := driver.Request{File: b.File, Target: "menshen", NoTransform: b.NoTransform, Solver: b.Solver,
		Frontend: frontend.Options{IncludeDirs: b.IncludeDirs, Defines: b.Defines}}
	if b.Alloc == alloc.Feasible.String() {
		req.AllocMode = alloc.Feasible
	}
	if req.Source, err = os.ReadFile(b.File); err != nil {
		return nil, unwrapPathError(err)
	}
	if sum := sha256.Sum256(req.Source); hex.EncodeToString(sum[:]) != b.SHA256 {
		return nil, fmt.Errorf("%s changed since %s was compiled; compile it again", b.File, dir)
	}
	req.Synth.Cache = synth.NewMemoryCache()
	res, err := driver.Compile(ctx, req, nil)
	if err != nil {
		return nil, fmt.Errorf("compiling %s again: %w", b.File, err)
	}
	conf, err := os.ReadFile(filepath.Join(dir, "menshen.conf"))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if string(conf) != strings.Join(res.Menshen.Lines, "\n")+"\n" {
		return nil, fmt.Errorf("%s is not what this compiler makes of %s; compile it again", filepath.Join(dir, "menshen.conf"), b.File)
	}
	in, err := driver.MenshenInput(res, nil)
	if err != nil {
		return nil, err
	}
	return lower.NewMachine(in), nil
}

// runMenshenSim runs a packet test on the Menshen model.
func runMenshenSim(ctx context.Context, dir, test string, stdout, stderr io.Writer) int {
	m, err := menshenMachine(ctx, dir, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	}
	return runSTF(m, test, stdout, stderr)
}

// runSTF runs a packet test on a target and reports every broken
// expectation.
func runSTF(t interp.STFTarget, test string, stdout, stderr io.Writer) int {
	stf, err := os.ReadFile(test)
	if err != nil {
		fmt.Fprintf(stderr, "%s: error: %v\n", test, unwrapPathError(err))
		return exitUserErr
	}
	cmds, err := interp.ParseSTF(test, string(stf))
	if err == nil {
		var res *interp.STFResult
		res, err = interp.RunSTF(t, test, cmds)
		if res != nil {
			for _, m := range res.Mismatches {
				fmt.Fprintf(stderr, "%s:%d: mismatch: %s\n", test, m.Line, mismatchText(m))
			}
			fmt.Fprintf(stdout, "%s: %d packets, %d expectations, %d mismatches\n", test, res.Packets, res.Expectations, len(res.Mismatches))
			if err == nil && len(res.Mismatches) > 0 {
				return exitUserErr
			}
		}
	}
	if err != nil {
		var se *interp.STFError
		if errors.As(err, &se) {
			fmt.Fprintln(stderr, se.Error())
		} else {
			fmt.Fprintf(stderr, "%s: error: %v\n", test, err)
		}
		return exitUserErr
	}
	return exitOK
}
