package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/menshen/lower"
	"github.com/p4hls/p4hls/synth"
)

// `p4hls sim --target menshen OUT TEST.stf` compiles the program again
// from OUT/menshen.json (the Menshen backend's record of the compile that
// wrote OUT), checks that it gives OUT/menshen.conf exactly, adds the
// test's table entries (Menshen's tables are part of its configuration)
// and runs the test on the model.

// menshenMachine compiles the program OUT was compiled from, as it was,
// and returns a machine that runs it on the Menshen model.
func menshenMachine(ctx context.Context, dir string) (*lower.Machine, error) {
	path := filepath.Join(dir, lower.BuildFile)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%w (compile with --target menshen -o %s first)", unwrapPathError(err), dir)
	}
	var b lower.Build
	if err := json.Unmarshal(data, &b); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	req := driver.Request{File: b.File, Target: "menshen", NoTransform: b.NoTransform, Solver: b.Solver,
		Frontend: frontend.Options{IncludeDirs: b.IncludeDirs, Defines: b.Defines},
		Options:  backends.Options{"tenant": strconv.Itoa(b.Tenant)}}
	if b.Alloc == alloc.Feasible.String() {
		req.AllocMode = alloc.Feasible
	}
	if req.Source, err = frontend.ReadSource(b.File); err != nil {
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
	conf, err := os.ReadFile(filepath.Join(dir, lower.ConfigFile))
	if err != nil {
		return nil, unwrapPathError(err)
	}
	if !bytes.Equal(conf, artifact(res, lower.ConfigFile)) {
		return nil, fmt.Errorf("%s is not what this compiler makes of %s; compile it again", filepath.Join(dir, lower.ConfigFile), b.File)
	}
	in, err := lower.NewInput(res.Compiled, lower.Backend{}, req.Options)
	if err != nil {
		return nil, err
	}
	return lower.NewMachine(in), nil
}

// artifact is the data of a compile's artifact called name (nil when it
// has none).
func artifact(res *driver.Result, name string) []byte {
	for _, a := range res.Artifacts {
		if a.Name == name {
			return a.Data
		}
	}
	return nil
}

// runMenshenSim runs a packet test on the Menshen model.
func runMenshenSim(ctx context.Context, dir, test string, stdout, stderr io.Writer) int {
	m, err := menshenMachine(ctx, dir)
	if err != nil {
		fmt.Fprintf(stderr, "p4hls: %v\n", err)
		return exitUserErr
	}
	return runSTF(ctx, m, test, stdout, stderr)
}
