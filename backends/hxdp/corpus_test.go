package hxdp_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/backends/hxdp"
	"github.com/p4hls/p4hls/backends/xdp"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/internal/corpus"
)

// xdpCompile compiles a program for the xdp target and returns what the
// hxdp target starts from.
func xdpCompile(t *testing.T, file string) (*driver.Result, []byte, kernel.Layout, bool) {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: xdp.Name}, nil)
	if err != nil {
		return nil, nil, kernel.Layout{}, false // the xdp target refuses it (its own tests say why)
	}
	var obj []byte
	var layout kernel.Layout
	for _, a := range res.Artifacts {
		switch a.Name {
		case kernel.ObjectFile:
			obj = a.Data
		case kernel.LayoutFile:
			if err := json.Unmarshal(a.Data, &layout); err != nil {
				t.Fatal(err)
			}
		}
	}
	return res, obj, layout, true
}

// TestCorpusAgainstKernel: every corpus program the xdp target compiles,
// compiled for the core (whether or not its ROM fits the core's 256
// rows), runs on the model as it runs in the kernel on 10,000 random
// packets with random entries and register contents: the XDP action, the
// metadata, the packet's bytes, every map entry a packet writes, and at
// the end every map.
func TestCorpusAgainstKernel(t *testing.T) {
	files, err := filepath.Glob(filepath.Join(corpus.Dir(), "ok", "*.p4"))
	if err != nil {
		t.Fatal(err)
	}
	var agreed, fit []string
	compiled := 0
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".p4")
		res, obj, layout, ok := xdpCompile(t, file)
		if !ok {
			continue // the xdp target refuses it: backends/xdp's tests check why
		}
		compiled++
		t.Run(name, func(t *testing.T) {
			im, err := hxdp.Build(context.Background(), obj, layout, hxdp.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if im.Fits() {
				fit = append(fit, name)
			}
			d, st, err := hxdp.Diff(context.Background(), res.Program, obj, layout, im, 7, 10000)
			if err != nil {
				t.Fatal(err)
			}
			if d != nil {
				t.Fatalf("the model disagrees with the kernel: %v", d)
			}
			agreed = append(agreed, name)
			t.Logf("%d eBPF instructions, %d after the passes, %d rows (IPC %.2f, %.2f lanes per row), %.1f cycles per packet", im.EBPF, im.Scheduled, im.Rows(), im.IPC(), im.LanesPerRow(), st.CyclesPerPacket())
		})
	}
	t.Logf("compiled for xdp %d, fit the core %d, agree with the kernel on 10,000 packets %d", compiled, len(fit), len(agreed))
	if compiled == 0 {
		t.Fatal("the xdp target compiled no corpus program")
	}
}

// TestPassesOff: with each pass off in turn, and with every pass off and
// one instruction per row, the model still agrees with the kernel: each
// pass keeps the program's meaning on its own, and the model runs the
// unscheduled program as the kernel does.
func TestPassesOff(t *testing.T) {
	all := []string{"fold checks", "drop zeroing", "parameterized exit", "dead code", "six byte access", "three operand", "layout", "rename registers"}
	for _, name := range []string{"ipv4_lpm", "flowlet", "tunnel_encap", "range_match", "bit_ops"} {
		res, obj, layout, ok := xdpCompile(t, filepath.Join(corpus.Dir(), "ok", name+".p4"))
		if !ok {
			t.Fatalf("the xdp target refuses %s", name)
		}
		runs := []hxdp.Options{{Off: all, Sequential: true}}
		for _, p := range all {
			runs = append(runs, hxdp.Options{Off: []string{p}})
		}
		for _, opts := range runs {
			im, err := hxdp.Build(context.Background(), obj, layout, opts)
			if err != nil {
				t.Fatal(err)
			}
			d, _, err := hxdp.Diff(context.Background(), res.Program, obj, layout, im, 3, 1000)
			if err != nil || d != nil {
				t.Errorf("%s with %+v: %v %v", name, opts, err, d)
			}
		}
	}
}
