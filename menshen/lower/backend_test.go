package lower_test

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/menshen/lower"
	"github.com/p4hls/p4hls/synth"
)

// sharedCache keeps synthesis queries across the end-to-end tests.
var sharedCache = synth.NewMemoryCache()

// menshenPrograms are the stateful benchmarks Menshen's ALUs can run,
// in the one-cell variants its state allows (FORMAT.md §A.12: one word
// per container ALU), and a switch-style program sized for it.
var menshenPrograms = []struct {
	name    string
	defines map[string]string
}{
	{"sampling", nil},
	{"rcp", nil}, // rtt < 30 unsigned: a tree over Menshen's signed comparisons
	{"marple_new_flow", map[string]string{"NUM_FLOWS": "1"}},
	{"dns_ttl_change", map[string]string{"NUM_DOMAINS": "1"}},
	{"learn_filter", map[string]string{"FILTER_SIZE": "1"}},
	{"stateful_firewall", map[string]string{"NUM_CONNS": "1"}},
	{"../../menshen/l2_sampling", nil},                                  // exact tables with installed entries, ports, drops, a 48-bit MAC
	{"../../menshen/l2_sampling", map[string]string{"FWD_SIZE": "512"}}, // an exact table in two parts
	{"../alloc/sampling_ipv4_lpm", nil},                                 // an LPM table of 32 parts
	// The allocation suite's programs whose stateful part Menshen's ALUs
	// run, with 256-entry switch tables (Menshen's CAM).
	{"../alloc/sampling_ipv4_lpm", map[string]string{"SWITCH_TABLE_SIZE": "256"}},
	{"../alloc/sampling_dmac_ipv4_lpm_nexthop", map[string]string{"SWITCH_TABLE_SIZE": "256"}},
	{"../alloc/marple_new_flow_tunnel_acl_ipv4_lpm_nexthop", map[string]string{"SWITCH_TABLE_SIZE": "256", "NUM_FLOWS": "1"}},
	{"../alloc/dns_ttl_change_dmac_ipv4_lpm_nexthop", map[string]string{"SWITCH_TABLE_SIZE": "256", "NUM_DOMAINS": "1"}},
	{"../alloc/learn_filter_ipv4_lpm", map[string]string{"SWITCH_TABLE_SIZE": "256", "FILTER_SIZE": "1"}},
	{"../alloc/stateful_firewall_dmac_tunnel_acl_ipv4_lpm_nexthop", map[string]string{"SWITCH_TABLE_SIZE": "256", "NUM_CONNS": "1"}},
}

// TestMenshenEndToEnd compiles each program for Menshen, configures the
// bit-accurate model through its control frames with 16 random entries
// in each table (three times, with other entries), and runs 10,000 random frames through it and through the
// interpreter: every output frame, port, drop and register must agree.
func TestMenshenEndToEnd(t *testing.T) {
	for _, p := range menshenPrograms {
		name := filepath.Base(p.name)
		for _, k := range slices.Sorted(maps.Keys(p.defines)) {
			name += "," + k + "=" + p.defines[k]
		}
		t.Run(name, func(t *testing.T) {
			file := filepath.Join(corpus.Dir(), "ok", p.name+".p4")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src,
				Frontend: frontend.Options{Defines: p.defines}, Target: "menshen", Synth: synth.Options{Cache: sharedCache}}, nil)
			if err != nil {
				t.Fatal(err, res.Diagnostics)
			}
			// Three sets of random entries: chained tables (a port set by
			// one, matched by the next) need entries that meet.
			for seed := int64(1); seed <= 3; seed++ {
				d, err := lower.Check(menshenInput(t, res, nil), 10000, seed)
				if err != nil {
					t.Fatal(err)
				}
				if d != nil {
					t.Fatalf("seed %d: the Menshen model disagrees with the interpreter: %v\n%s", seed, d, d.STF(res.TransformedProgram))
				}
			}
		})
	}
}

// menshenSource is a program over bench.p4's headers with app_t and the
// ingress control's declarations and apply block given.
func menshenSource(app, decls, apply string) []byte {
	return []byte(`#include <core.p4>
#include <v1model.p4>
header app_t {` + app + `}
#include "../p4/include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
` + decls + `
    apply {` + apply + `}
}
BENCH_MAIN
`)
}

// TestMenshenRefuses: what the target lacks is an error that says what,
// and where.
func TestMenshenRefuses(t *testing.T) {
	counter := `register<bit<32>>(SIZE) r;
    action count() { @atomic { bit<32> v; r.read(v, 0); v = v + 1; r.write(0, v); hdr.app.x = v; } }
    table t { actions = { count; } default_action = count(); }`
	tests := []struct {
		name              string
		app, decls, apply string
		want              string
	}{
		{"register cells", "bit<32> x;", strings.Replace(counter, "SIZE", "4", 1), "t.apply();",
			"x.p4:6:1: register r has 4 cells; a Menshen ALU holds one 32-bit word"},
		{"narrow ALU field", "bit<16> x;", `register<bit<32>>(1) r;
    action count() { @atomic { bit<32> v; r.read(v, 0); v = v + (bit<32>)hdr.app.x; r.write(0, v); } }
    table t { actions = { count; } default_action = count(); }`, "t.apply();",
			"reads hdr.app.x (16 bits) with ALUs; Menshen's ALUs compute on whole 32-bit containers"},
		{"inequality", "bit<32> x;", strings.Replace(counter, "SIZE", "1", 1), "if (hdr.app.x > 5) { t.apply(); }",
			"x.p4:9:16: condition (hdr.app.x > 32w5): Menshen has no gateways"},
		{"narrow sum", "bit<32> x;", `action set() { hdr.ipv4.ttl = hdr.ipv4.ttl + hdr.ipv4.protocol; }
    table t { key = { hdr.app.x: exact; } actions = { set; NoAction; } default_action = NoAction(); }`, "t.apply();",
			"Menshen cannot compute hdr.ipv4.ttl = (hdr.ipv4.ttl + hdr.ipv4.protocol) in one sub-action"},
		{"nine key containers", "bit<32> a; bit<32> b; bit<32> c; bit<32> d; bit<32> e; bit<32> f; bit<32> g; bit<32> h; bit<32> i;",
			`table t { key = { hdr.app.a: exact; hdr.app.b: exact; hdr.app.c: exact; hdr.app.d: exact; hdr.app.e: exact;
        hdr.app.f: exact; hdr.app.g: exact; hdr.app.h: exact; hdr.app.i: exact; } actions = { NoAction; } default_action = NoAction(); }`,
			"t.apply();", "table t needs more than the 8 key containers"},
		{"beyond the window", "bit<32> x; bit<2000> pad1; bit<2000> pad2; bit<32> far;", `action set() { hdr.app.far = 1; }
    table t { key = { hdr.app.x: exact; } actions = { set; NoAction; } default_action = NoAction(); }`, "t.apply();",
			"field hdr.app.far ends at byte 554 of the frame; Menshen's parser sees the first 512"},
		{"65 containers", manyFields(65), `action set() {` + manyWrites(65) + `}
    table t { actions = { set; } default_action = set(); }`, "t.apply();",
			"the program needs more than the 64 containers the target has"},
		{"ingress port", "bit<32> x;", `action set() { hdr.app.x = 1; }
    table t { key = { standard_metadata.ingress_port: exact; } actions = { set; NoAction; } default_action = NoAction(); }`, "t.apply();",
			"Menshen has no standard_metadata.ingress_port"},
		{"a one-cell counter fits", "bit<32> x;", strings.Replace(counter, "SIZE", "1", 1), "t.apply();", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			file := filepath.Join(corpus.Dir(), "..", "menshen", "x.p4")
			res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: menshenSource(tc.app, tc.decls, tc.apply), Target: "menshen"}, nil)
			var fit *driver.DoesNotFitError
			switch {
			case tc.want == "":
				if err != nil {
					t.Fatalf("%v %v", err, res.Diagnostics)
				}
			case !errors.As(err, &fit) || !strings.Contains(err.Error(), tc.want):
				t.Errorf("got %v (%T) %v\nwant a DoesNotFitError with %q", err, err, res.Diagnostics, tc.want)
			}
		})
	}
}

// TestMenshenRefusesEntries: installed entries the CAM cannot hold are
// refused when the configuration is built.
func TestMenshenRefusesEntries(t *testing.T) {
	file := filepath.Join(corpus.Dir(), "..", "menshen", "x.p4")
	src := menshenSource("bit<32> x;", `action set(bit<32> v, bit<9> p) { hdr.app.x = v; standard_metadata.egress_spec = p; }
    table t { key = { hdr.ipv4.dstAddr: lpm; } actions = { set; NoAction; } default_action = NoAction(); size = 256; }`, "t.apply();")
	res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: "menshen"}, nil)
	if err != nil {
		t.Fatal(err, res.Diagnostics)
	}
	lpm := func(v uint32, n int, port int64) interp.TableEntry {
		return interp.TableEntry{Table: "MyIngress.t", Entry: interp.Entry{Action: "set",
			Keys: []interp.Match{{Kind: interp.MatchLPM, Value: big.NewInt(int64(v)), PrefixLen: n}}, Data: []*big.Int{big.NewInt(1), big.NewInt(port)}}}
	}
	tests := []struct {
		name    string
		entries []interp.TableEntry
		want    string // "" when the configuration is built; then rows CAM entries
		rows    int
	}{
		// /24 and /20: the /20 entry expands over 4 bits into 16 CAM
		// entries, one of which is the /24 entry's key: it never hits, and goes.
		{"prefixes expand", []interp.TableEntry{lpm(0x0a000100, 24, 1), lpm(0x0a000000, 20, 2)}, "", 16},
		{"prefixes too far apart", []interp.TableEntry{lpm(0x0a000100, 24, 1), lpm(0x0a000000, 8, 2)}, "an entry ignores 16 bits", 0},
		{"port too wide", []interp.TableEntry{lpm(0x0a000100, 24, 300)}, "egress port 300: Menshen's ports are 8 bits", 0},
	}
	many := []interp.TableEntry{}
	for i := 0; i < 257; i++ {
		many = append(many, lpm(uint32(i)<<8, 24, 1))
	}
	tests = append(tests, struct {
		name    string
		entries []interp.TableEntry
		want    string
		rows    int
	}{"257 entries", many, "needs 257 CAM entries in stage 0; the CAM holds 256", 0})
	// A keyed table's default action is a last entry that matches every
	// key: with no other entry, one CAM entry; after an exact entry on 32
	// bits, 2^32.
	dflt, err := driver.Compile(context.Background(), driver.Request{File: file, Target: "menshen", Source: menshenSource("bit<32> x;",
		`action set() { hdr.app.x = 1; }
    table t { key = { hdr.app.x: exact; } actions = { set; } default_action = set(); }`, "t.apply();")}, nil)
	if err != nil {
		t.Fatal(err, dflt.Diagnostics)
	}
	in := menshenInput(t, dflt, nil)
	if lr, err := lower.Lower(in); err != nil || len(lr.Config.Tables[0].Entries) != 1 {
		t.Errorf("default action alone: %v", err)
	}
	in = menshenInput(t, dflt, []interp.TableEntry{{Table: "t", Entry: interp.Entry{Action: "set", Keys: []interp.Match{{Kind: interp.MatchExact, Value: big.NewInt(7)}}}}})
	if _, err := lower.Lower(in); err == nil || !strings.Contains(err.Error(), "table t: a miss runs nothing on Menshen, so its default action set becomes an entry matching every key: 2^32 CAM entries") {
		t.Errorf("default action after an entry: %v", err)
	}

	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := menshenInput(t, res, tc.entries)
			lr, err := lower.Lower(in)
			if tc.want != "" {
				if err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("got %v, want %q", err, tc.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if n := len(lr.Config.Tables[0].Entries); n != tc.rows {
				t.Errorf("%d CAM entries, want %d", n, tc.rows)
			}
		})
	}
}

// manyFields declares n 32-bit fields f0, f1, ...; manyWrites sets each.
func manyFields(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "bit<32> f%d; ", i)
	}
	return b.String()
}

func manyWrites(n int) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "hdr.app.f%d = %d; ", i, i)
	}
	return b.String()
}

// menshenInput is the lowering's input for a compile, with entries.
func menshenInput(t *testing.T, res *driver.Result, entries []interp.TableEntry) lower.Input {
	t.Helper()
	in, err := lower.NewInput(res.Compiled, lower.Backend{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	in.Entries = entries
	return in
}
