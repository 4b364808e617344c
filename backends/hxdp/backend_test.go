package hxdp_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/backends"
	hxdpc "github.com/p4hls/p4hls/backends/hxdp"
	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/hxdp"
	"github.com/p4hls/p4hls/internal/corpus"
)

func compileHXDP(t *testing.T, name string) (*driver.Result, error) {
	t.Helper()
	file := filepath.Join(corpus.Dir(), "ok", name+".p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: hxdpc.Name}, nil)
}

// TestArtifacts compiles ipv4_lpm for the core: the xdp target's files
// and the core's; a ROM that reads back with the report's rows; a map
// configuration of maps.json's maps and the data section; a listing that
// names the P4 line of the Ethernet parse, with its text, beside the
// 6-byte loads that read the addresses.
func TestArtifacts(t *testing.T) {
	res, err := compileHXDP(t, "ipv4_lpm")
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, a := range res.Artifacts {
		files[a.Name] = a.Data
	}
	for _, name := range []string{kernel.ObjectFile, kernel.LayoutFile, kernel.SourceFile, hxdpc.ROMFile, hxdpc.ConfigFile, hxdpc.AXIFile, hxdpc.ListingFile} {
		if files[name] == nil {
			t.Errorf("no %s", name)
		}
	}
	rom, err := hxdp.ParseHex(files[hxdpc.ROMFile])
	if err != nil {
		t.Fatal(err)
	}
	rep, ok := res.Report.Backend.(hxdpc.Report)
	if !ok || rep.Rows != len(rom) || len(rom) > hxdp.MaxRows || rep.EBPFInstructions == 0 {
		t.Errorf("report %+v, %d rows in %s", res.Report.Backend, len(rom), hxdpc.ROMFile)
	}
	var cfg hxdp.Config
	var layout kernel.Layout
	if err := json.Unmarshal(files[hxdpc.ConfigFile], &cfg); err != nil || cfg.Validate() != nil {
		t.Fatalf("%s: %v %v", hxdpc.ConfigFile, err, cfg.Validate())
	}
	if err := json.Unmarshal(files[kernel.LayoutFile], &layout); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Maps) != len(layout.Maps) || cfg.Maps[0].Name != layout.Maps[0].Name {
		t.Errorf("%d maps, the first %s; want maps.json's %d, the first %s", len(cfg.Maps), cfg.Maps[0].Name, len(layout.Maps), layout.Maps[0].Name)
	}
	listing := string(files[hxdpc.ListingFile])
	if !regexp.MustCompile(`r\d = \*\(u48 \*\)\(r\d \+ 6\) +\S*ipv4_lpm\.p4:48  packet\.extract\(hdr\.ethernet\);`).MatchString(listing) {
		t.Errorf("the listing has no 6-byte load of the source address at line 48:\n%s", listing)
	}
	if lines := strings.Count(listing, "\n"); lines < len(rom) {
		t.Errorf("the listing has %d lines for %d rows", lines, len(rom))
	}
}

// TestRefusal: mpls's ROM passes the core's 256 rows; the compile is
// refused at the line whose code takes the most instructions, its
// deparser (mpls.p4:68), which writes each of the label stack's elements
// wherever the ingress pushed or popped them, as a program the target
// cannot hold.
func TestRefusal(t *testing.T) {
	_, err := compileHXDP(t, "mpls")
	var be *backends.Error
	var dnf *driver.DoesNotFitError
	if !errors.As(err, &be) || !errors.As(err, &dnf) {
		t.Fatalf("got %v (%T); want a *backends.Error reported as does-not-fit", err, err)
	}
	if !strings.HasSuffix(be.Span.File, "mpls.p4") || be.Span.Start.Line != 68 ||
		!regexp.MustCompile(`needs \d+ rows; the hXDP core holds 256`).MatchString(be.Msg) {
		t.Errorf("refused at %s:%d with %q; want mpls.p4:68, needs N rows", be.Span.File, be.Span.Start.Line, be.Msg)
	}
}

// TestRandom: a program that draws random numbers compiles, and on the
// core each packet gets a number from 0 to 1000 beside x + 1 (the numbers
// are the core's own: no kernel draws the same).
func TestRandom(t *testing.T) {
	file := "testdata/random.p4"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: hxdpc.Name}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rom hxdp.ROM
	var cfg hxdp.Config
	for _, a := range res.Artifacts {
		switch a.Name {
		case hxdpc.ROMFile:
			rom, err = hxdp.ParseHex(a.Data)
		case hxdpc.ConfigFile:
			err = json.Unmarshal(a.Data, &cfg)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	c, err := hxdp.New(rom, cfg)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[uint32]bool{}
	for i := 0; i < 20; i++ {
		pkt := make([]byte, hxdp.MinFrame)
		pkt[12], pkt[13] = 0x88, 0xb5 // bench.p4's app header
		pkt[17] = byte(i)
		out, err := c.Run(hxdp.Input{Data: pkt})
		if err != nil {
			t.Fatal(err)
		}
		x, r := binary.BigEndian.Uint32(out.Data[14:]), binary.BigEndian.Uint32(out.Data[18:])
		if x != uint32(i)+1 || r > 1000 {
			t.Fatalf("packet %d: x %d, r %d; want %d, at most 1000", i, x, r, i+1)
		}
		seen[r] = true
	}
	if len(seen) < 10 {
		t.Errorf("20 packets drew %d numbers", len(seen))
	}
}
