package interp

import (
	"context"
	"errors"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// TestGeneratedPacketsParse: packets from the generator follow the parser:
// they never run short, and the select on etherType (cases 0x800 and
// default) sends most of them through the IPv4 state: the specific case is
// taken 3 times in 4, plus half of the rest (a uniform pick of 2 cases),
// 7/8 in all.
func TestGeneratedPacketsParse(t *testing.T) {
	prog, sw := load(t, "ipv4_lpm.p4")
	if err := sw.AddEntry("ipv4_lpm", Entry{Keys: []Match{{Kind: MatchLPM, Value: big.NewInt(0), PrefixLen: 0}},
		Action: "NoAction"}); err != nil {
		t.Fatal(err)
	}
	g := NewGenerator(prog, 7)
	const n = 2000
	ipv4 := 0
	for i := 0; i < n; i++ {
		out, err := sw.Process(0, g.Packet())
		if err != nil {
			t.Fatal(err)
		}
		if e := sw.getStd("parser_error"); e != 0 {
			t.Fatalf("packet %d: parser error %s", i, prog.Errors[e])
		}
		for _, h := range out.Emitted {
			if h.Name == "hdr.ipv4" {
				ipv4++
			}
		}
	}
	if ipv4 < n*8/10 || ipv4 > n*95/100 {
		t.Errorf("%d of %d packets went through the IPv4 state, want about 7/8", ipv4, n)
	}
}

// TestSelfDiff runs every corpus program against itself on random cases:
// two interpreters must agree (a check of the harness and of determinism).
func TestSelfDiff(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "ok", "*.stf"))
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".stf")
		t.Run(name, func(t *testing.T) {
			prog, _ := load(t, name+".p4")
			newT := func() (Target, error) { return New(prog, Options{Seed: 3}) }
			c := NewGenerator(prog, 11).Case(300, 4, 4)
			d, err := Diff(newT, newT, c, RegisterCells(prog))
			if err != nil {
				t.Fatal(err)
			}
			if d != nil {
				t.Fatalf("an interpreter disagrees with itself: %v\n%s", d, d.STF(prog))
			}
		})
	}
}

// faulty is a target with a planted bug: it corrupts the last byte of any
// output whose first payload byte (after Ethernet) is odd.
type faulty struct{ *Switch }

func (f faulty) Process(port uint64, data []byte) (*Output, error) {
	out, err := f.Switch.Process(port, data)
	if err == nil && !out.Dropped && len(data) > 14 && data[14]%2 == 1 && len(out.Data) > 0 {
		corrupted := append([]byte(nil), out.Data...)
		corrupted[len(corrupted)-1] ^= 0xff
		out = &Output{Port: out.Port, Data: corrupted, Emitted: out.Emitted}
	}
	return out, err
}

// TestDiffFindsAndMinimizes: the harness finds the planted bug and shrinks
// the case to the one packet that shows it, with no entries left.
func TestDiffFindsAndMinimizes(t *testing.T) {
	prog, _ := load(t, "five_tables.p4")
	good := func() (Target, error) { return New(prog, Options{}) }
	bad := func() (Target, error) {
		sw, err := New(prog, Options{})
		return faulty{sw}, err
	}
	c := NewGenerator(prog, 5).Case(200, 8, 0)
	d, err := Diff(good, bad, c, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d == nil {
		t.Fatal("the planted bug was not found")
	}
	if len(d.Case.Packets) != 1 || len(d.Case.Entries) != 0 || d.Packet != 0 {
		t.Errorf("minimized to %d packets and %d entries (diverging packet %d), want 1 packet and no entries\n%s",
			len(d.Case.Packets), len(d.Case.Entries), d.Packet, d.STF(prog))
	}
	// The reproduction is an STF test the reference passes.
	stf := d.STF(prog)
	cmds, err := ParseSTF("repro.stf", stf)
	if err != nil {
		t.Fatalf("the reproduction does not parse: %v\n%s", err, stf)
	}
	sw, _ := New(prog, Options{})
	res, err := sw.RunSTF("repro.stf", cmds)
	if err != nil || len(res.Mismatches) != 0 || res.Expectations != 1 {
		t.Errorf("the reproduction does not pass on the reference: %v %+v\n%s", err, res, stf)
	}
}

// TestProcessNeverPanics feeds truncated and random packets to every
// corpus program: short packets follow the parser's error path.
func TestProcessNeverPanics(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "ok", "*.stf"))
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".stf")
		prog, sw := load(t, name+".p4")
		g := NewGenerator(prog, 1)
		for i := 0; i < 200; i++ {
			pkt := g.Packet()
			for cut := 0; cut <= len(pkt); cut += 1 + len(pkt)/7 {
				var pre *PreconditionError // a random packet may break a stated precondition
				if _, err := sw.Process(0, pkt[:cut]); err != nil && !errors.As(err, &pre) {
					t.Fatalf("%s: %v", name, err)
				}
			}
		}
	}
}

// TestInputsOfRunningControls: a sub-control is inlined where it is
// applied, its table and register copied under each instance's names; the
// declaration itself runs nowhere. Random entries and register cells are
// those of the copies, which a target's output holds too, and not of the
// declaration, which it need not.
func TestInputsOfRunningControls(t *testing.T) {
	const src = `#include <core.p4>
#include <v1model.p4>
header h_t { bit<8> a; bit<8> b; }
struct headers { h_t h; }
struct metadata { }
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.h); transition accept; }
}
control Count(inout bit<8> x) {
    register<bit<8>>(2) r;
    action set(bit<8> v) { x = v; }
    table foo { key = { x: exact; } actions = { set; NoAction; } }
    apply { foo.apply(); r.write(0, x); }
}
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    Count() c1;
    Count() c2;
    apply { c1.apply(hdr.h.a); c2.apply(hdr.h.b); sm.egress_spec = 1; }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
`
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), "subcontrols.p4", []byte(src), frontend.Options{}, &d)
	if err != nil || prog == nil {
		t.Fatalf("%v %s", err, &d)
	}
	g := NewGenerator(prog, 1)
	tables := map[string]bool{}
	for _, e := range g.Entries(2) {
		tables[e.Table] = true
	}
	registers := map[string]bool{}
	for _, w := range g.Registers(1) {
		registers[w.Register] = true
	}
	for _, c := range RegisterCells(prog) {
		registers[c.Register] = true
	}
	if want := map[string]bool{"I.c1_foo": true, "I.c2_foo": true}; !maps.Equal(tables, want) {
		t.Errorf("entries for tables %v, want %v", tables, want)
	}
	if want := map[string]bool{"c1_r": true, "c2_r": true}; !maps.Equal(registers, want) {
		t.Errorf("cells of registers %v, want %v", registers, want)
	}
}

// TestEndlessResubmit: a program that resubmits every packet, every pass,
// would run forever on BMv2; the interpreter stops it after maxPasses with
// ErrTooManyPasses, and the packet leaves nothing.
func TestEndlessResubmit(t *testing.T) {
	file := filepath.Join(corpus, "ok", "special_ops.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	endless := strings.Replace(string(src), "if (sm.instance_type == 0) {", "if (true) {", 1)
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), file, []byte(endless), frontend.Options{}, &d)
	if err != nil || prog == nil {
		t.Fatalf("%v %s", err, &d)
	}
	sw, err := New(prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	out, err := sw.Process(0, unhex(t, "000000000001 000000000002 1234 01 00 00 00 00"))
	if !errors.Is(err, ErrTooManyPasses) || out == nil || !out.Dropped {
		t.Errorf("got %+v, %v; want a dropped packet and ErrTooManyPasses", out, err)
	}
	if out, err := sw.Process(0, unhex(t, "000000000001 000000000002 1234 00 00 00 00 00")); err != nil || out.Dropped {
		t.Errorf("the next packet (no resubmit): got %+v, %v; want it out", out, err)
	}
}
