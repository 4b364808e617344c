package xdp_test

import (
	"bytes"
	"encoding/binary"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/backends/xdp/kernel"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
)

// TestPacketFields runs testdata/packet_fields.p4, whose actions leave
// its headers in place, moved, invalidated and made valid again, or
// emitted twice, and whose checksums take fields out of order, against
// the interpreter: its checksums read the fields it never writes from the
// packet, and its deparser keeps them there. Every action runs on some
// packet (the table gets as many entries as it has actions, the packets
// drawn from them).
func TestPacketFields(t *testing.T) {
	file := "testdata/packet_fields.p4"
	res, obj, layout := compileFile(t, file)
	var prog string
	for _, a := range res.Artifacts {
		if a.Name == kernel.SourceFile {
			prog = string(a.Data)
		}
	}
	// ipv4's srcAddr, first in the update's list and never written, is
	// one 32-bit load of the packet's bytes 12 to 15 of the header.
	if !strings.Contains(prog, "u64 r_ = (u64)*(u32 *)(q_ + 12)") {
		t.Errorf("prog.c does not load srcAddr from the packet for the checksum")
	}
	c := kernel.Case(res.Program, layout, 11, 10000, 24, 4)
	var loaded []*kernel.Machine
	defer func() {
		for _, m := range loaded {
			m.Close()
		}
	}()
	ran := map[string]bool{}
	for _, e := range c.Entries {
		ran[e.Entry.Action] = true
	}
	for _, a := range []string{"forward", "push_vlan", "pop_vlan", "renew_ipv4", "duplicate"} {
		if !ran[a] && !ran["I."+a] {
			t.Errorf("no entry runs %s: %v", a, ran)
		}
	}
	d, err := interp.Diff(func() (interp.Target, error) { return interp.New(res.Program, interp.Options{Seed: 11}) },
		func() (interp.Target, error) {
			m, err := kernel.Load(obj, layout, res.Program)
			if err == nil {
				loaded = append(loaded, m)
			}
			return m, err
		}, c, interp.RegisterCells(res.Program))
	if err != nil {
		t.Fatal(err)
	}
	if d != nil {
		t.Fatalf("the kernel disagrees with the interpreter: %v\n%s", d, d.STF(res.Program))
	}
}

// TestStacks runs testdata/stacks.p4 against the interpreter: a parser
// loop over a header stack, next and last, elements of run-time indexes
// in and out of range, push_front and pop_front, size and lastIndex, and
// an array written in a for loop.
func TestStacks(t *testing.T) {
	agreesOnFile(t, "testdata/stacks.p4", 5)
}

// TestUnions runs testdata/unions.p4 against the interpreter: a header
// union's headers extracted, made valid and invalid, and headers of
// 128-bit fields carried, copied and moved.
func TestUnions(t *testing.T) {
	agreesOnFile(t, "testdata/unions.p4", 5)
}

// TestUnionAfterHeader runs testdata/union_after_header.p4 against the
// interpreter: the kernel refused to load it ("offset is outside of the
// packet") until each extract's packet pointer was kept from clang.
func TestUnionAfterHeader(t *testing.T) {
	agreesOnFile(t, "testdata/union_after_header.p4", 5)
}

// TestWideFieldRefused: a 128-bit field is carried, but a program that
// computes with its value is refused at the place it does.
func TestWideFieldRefused(t *testing.T) {
	file := "testdata/unions.p4"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Replace(string(src), "hdr.u.b.q = 0x1234;", "hdr.u.b.addr = hdr.u.b.addr + 1;", 1)
	if text == string(src) {
		t.Fatal("the test's edit did not apply")
	}
	_, err = compile(t, file, []byte(text))
	checkRefusal(t, err, `unions.p4:49:28: bit<128>: values wider than 64 bits are not supported by the xdp target`)
}

// TestValueSet fills value_set.p4's set on the kernel and in the
// interpreter alike (the random differential runs leave it empty) and
// runs packets to ports in it and not: both parse the tunnel header for
// the same ones. Both refuse a value past the set's size.
func TestValueSet(t *testing.T) {
	file := filepath.Join(corpus.Dir(), "ok", "value_set.p4")
	res, obj, layout := compileFile(t, file)
	m, err := kernel.Load(obj, layout, res.Program)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sw, err := interp.New(res.Program, interp.Options{Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	ports := []int64{4789, 1000, 7, 65535}
	for _, p := range ports {
		if err := m.AddToValueSet("tunnel_ports", big.NewInt(p)); err != nil {
			t.Fatal(err)
		}
		if err := sw.AddToValueSet("tunnel_ports", big.NewInt(p)); err != nil {
			t.Fatal(err)
		}
	}
	if m.AddToValueSet("tunnel_ports", big.NewInt(9)) == nil || sw.AddToValueSet("tunnel_ports", big.NewInt(9)) == nil {
		t.Errorf("a fifth value went into a value_set of 4")
	}
	rng := rand.New(rand.NewSource(3))
	tunnels := 0
	for i := 0; i < 2000; i++ {
		pkt := make([]byte, 14+8+4+rng.Intn(8))
		rng.Read(pkt)
		binary.BigEndian.PutUint16(pkt[12:], 0x88b5)
		port := uint16(rng.Intn(65536))
		if i%2 == 0 {
			port = uint16(ports[rng.Intn(len(ports))])
		}
		binary.BigEndian.PutUint16(pkt[16:], port)
		want, err := sw.Process(0, pkt)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Process(0, pkt)
		if err != nil {
			t.Fatal(err)
		}
		if got.Dropped != want.Dropped || got.Port != want.Port || !bytes.Equal(got.Data, want.Data) {
			t.Fatalf("packet %x: the kernel sends %v to %d (%x), the interpreter %v to %d (%x)", pkt, got.Dropped, got.Port, got.Data, want.Dropped, want.Port, want.Data)
		}
		if want.Port != 0 {
			tunnels++
		}
	}
	if tunnels < 500 {
		t.Errorf("only %d packets of 2000 took the tunnel", tunnels)
	}
}

// TestTuples runs testdata/tuples.p4 against the interpreter: tuples
// built, read, written and hashed; structs of a header and a tuple
// initialized and compared; headers compared valid and invalid.
func TestTuples(t *testing.T) {
	agreesOnFile(t, "testdata/tuples.p4", 5)
}

// TestDeparserInPlace: the bench's LPM forwarder, whose valid headers are
// always where its parser found them, is deparsed in place (no
// bpf_xdp_adjust_head in its C); reorder.p4, whose deparser reorders and
// drops headers, packet_fields.p4, which makes headers valid and
// invalid, and union_order.p4, whose parser's second extract into a
// union invalidates the first, are not, and agree with the interpreter.
func TestDeparserInPlace(t *testing.T) {
	for _, c := range []struct {
		file    string
		inPlace bool
	}{
		{"../../cmd/p4hls/benchxdp/lpm.p4", true},
		{"testdata/reorder.p4", false},
		{"testdata/packet_fields.p4", false},
		{"testdata/union_order.p4", false},
	} {
		src, err := os.ReadFile(c.file)
		if err != nil {
			t.Fatal(err)
		}
		res, err := compile(t, c.file, src)
		if err != nil {
			t.Fatal(err)
		}
		obj, layout := output(t, res)
		var prog string
		for _, a := range res.Artifacts {
			if a.Name == kernel.SourceFile {
				prog = string(a.Data)
			}
		}
		if got := !strings.Contains(prog, "bpf_xdp_adjust_head(ctx"); got != c.inPlace {
			t.Errorf("%s: deparsed in place %v, want %v", c.file, got, c.inPlace)
		}
		d, err := kernel.Diff(res.Program, obj, layout, 9, 10000)
		if err != nil {
			t.Fatal(err)
		}
		if d != nil {
			t.Fatalf("%s: the kernel disagrees with the interpreter: %v\n%s", c.file, d, d.STF(res.Program))
		}
	}
}

// agreesOnFile compiles a test program for the xdp target and runs it in
// the kernel against the interpreter on 10,000 random packets (seed).
func agreesOnFile(t *testing.T, file string, seed int64) {
	t.Helper()
	res, obj, layout := compileFile(t, file)
	d, err := kernel.Diff(res.Program, obj, layout, seed, 10000)
	if err != nil {
		t.Fatal(err)
	}
	if d != nil {
		t.Fatalf("the kernel disagrees with the interpreter: %v\n%s", d, d.STF(res.Program))
	}
}

// TestNoMain: a program whose main is no V1Switch (here, none) is refused
// at its first block, not a crash.
func TestNoMain(t *testing.T) {
	src := "control C(inout bit<8> x) { apply { x = 1; } }\n"
	_, err := compile(t, "nomain.p4", []byte(src))
	checkRefusal(t, err, `nomain.p4:1:1: the xdp target takes v1model programs`)
}
