package interp

import (
	"context"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/ir"
)

const corpus = "../testdata/p4"

// load compiles a corpus program for the interpreter.
func load(t testing.TB, name string) (*ir.Program, *Switch) {
	t.Helper()
	file := filepath.Join(corpus, "ok", name)
	if strings.Contains(name, "/") {
		file = filepath.Join(corpus, name)
	}
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), file, src, frontend.Options{}, &d)
	if err != nil || prog == nil {
		t.Fatalf("%s: %v %s", name, err, &d)
	}
	sw, err := New(prog, Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return prog, sw
}

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSTF runs every testdata/p4/ok/*.stf (and testdata/p4/tna/*.stf, for
// TNA programs) against its program. The expectations in those files are
// worked out by hand from each algorithm.
func TestSTF(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(corpus, "ok", "*.stf"))
	tna, _ := filepath.Glob(filepath.Join(corpus, "tna", "*.stf"))
	files = append(files, tna...)
	if len(files) == 0 {
		t.Fatal("no .stf tests")
	}
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".stf")
		if filepath.Base(filepath.Dir(file)) == "tna" {
			name = "tna/" + name
		}
		t.Run(name, func(t *testing.T) {
			_, sw := load(t, name+".p4")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			cmds, err := ParseSTF(file, string(src))
			if err != nil {
				t.Fatal(err)
			}
			res, err := sw.RunSTF(file, cmds)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range res.Mismatches {
				t.Errorf("%s", m)
			}
			if res.Expectations == 0 {
				t.Error("the test checks nothing")
			}
		})
	}
}

// TestSTFExpectations: expectations meet the packets out of their port in
// order, as p4c's do: before or after the packet line, on the first bytes
// of the packet unless they end in $; a packet no expectation meets and an
// expectation no packet meets are mismatches.
func TestSTFExpectations(t *testing.T) {
	_, sw := load(t, "ipv4_lpm.p4")
	const (
		routes = "add ipv4_lpm hdr.ipv4.dstAddr:10.0.1.0/24 ipv4_forward(dstAddr:0x000000000303, port:3)\n" +
			"add ipv4_lpm hdr.ipv4.dstAddr:10.0.0.0/8 ipv4_forward(dstAddr:0x000000000404, port:1)\n"
		// Out of port 3 and port 1, as ipv4_lpm.stf works them out.
		toPort3 = "packet 0 000000000101 000000000202 0800 4500 0014 0000 0000 4006 0000 0a000001 0a000102\n"
		out3    = "000000000303 000000000101 0800 4500 0014 0000 0000 3f06 66e2 0a000001 0a000102"
		toPort1 = "packet 0 000000000101 000000000202 0800 4500 0014 0000 0000 4006 0000 0a000001 0a090909\n"
		out1    = "000000000404 000000000101 0800 4500 0014 0000 0000 3f06 5ed2 0a000001 0a090909"
	)
	for _, tc := range []struct {
		name, src string
		want      []string // the mismatches, each by a part of its text
	}{
		{"expect before its packet", "expect 3 " + out3 + " $\n" + toPort3, nil},
		{"ports in any order", toPort3 + toPort1 + "expect 1 " + out1 + "\nexpect 3 " + out3 + "\n", nil},
		{"the first bytes only", toPort3 + "expect 3 000000000303 000000000101\n", nil},
		{"any packet", toPort3 + "expect 3\n", nil},
		{"the whole packet", toPort3 + "expect 3 000000000303 000000000101 $\n", []string{"length: got 34 bytes, want 12"}},
		{"a packet too short", toPort3 + "expect 3 " + out3 + " 00\n", []string{"length: got 34 bytes, want 35"}},
		{"no expect", toPort3, []string{"line 3: packet 1: came out on port 3, where no expect awaits"}},
		{"no packet", "expect 1 " + out1 + "\n", []string{"line 3: no packet came out on port 1"}},
		{"the wrong port", toPort3 + "expect 1 " + out1 + "\n", []string{"came out on port 3", "no packet came out on port 1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmds, err := ParseSTF("t.stf", routes+tc.src)
			if err != nil {
				t.Fatal(err)
			}
			res, err := sw.RunSTF("t.stf", cmds)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Mismatches) != len(tc.want) {
				t.Fatalf("got mismatches %v, want %d", res.Mismatches, len(tc.want))
			}
			for i, w := range tc.want {
				if got := res.Mismatches[i].String(); !strings.Contains(got, w) {
					t.Errorf("mismatch %d: got %q, want it to say %q", i, got, w)
				}
			}
		})
	}
}

// TestSTFErrors: a malformed test file gets an error naming its line.
func TestSTFErrors(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown command", "packet 0 00\nfrobnicate x\n", "t.stf:2: error: unknown command \"frobnicate\""},
		{"odd hex", "packet 0 abc\n", "t.stf:1: error: hex data has an odd number of digits (3)"},
		{"bad hex", "packet 0 zz\n", "t.stf:1: error: bad hex data"},
		{"wildcard in a packet", "packet 0 0*\n", "t.stf:1: error: * is allowed only in expect"},
		{"bad port", "# comment\npacket x 00\n", "t.stf:2: error: bad port \"x\""},
		{"add without action", "add t k:1\n", "t.stf:1: error: add needs an action after the keys"},
		{"bad action argument", "add t k:1 a(5)\n", "t.stf:1: error: action argument \"5\" needs PARAM:VALUE"},
		{"bad number", "register_write r 0 12q\n", "t.stf:1: error: bad number \"12q\""},
		{"register_write arity", "register_write r 0\n", "t.stf:1: error: register_write needs NAME INDEX VALUE"},
		{"index past 64 bits", "register_write r 18446744073709551616 1\n", "t.stf:1: error: index 18446744073709551616 is out of range"},
		{"port past 64 bits", "packet 18446744073709551617 00\n", "t.stf:1: error: port 18446744073709551617 is out of range"},
		{"a number of 100,000 digits", "register_write r 0 " + strings.Repeat("9", 100000) + "\n", "t.stf:1: error: a number of 100000 digits"},
		{"a line of 2 MB", "packet 0 " + strings.Repeat("00", 1<<20) + "\n", "t.stf:1: error: a line longer than"},
		{"a node without ports", "mc_node_create 1\n", "t.stf:1: error: mc_node_create needs a replication id and ports"},
		{"a group without a handle", "mc_node_associate 1\n", "t.stf:1: error: mc_node_associate needs GROUP HANDLE"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseSTF("t.stf", tc.src)
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("got %v, want an error starting %q", err, tc.want)
			}
		})
	}
	// Errors found when running name the line too.
	_, sw := load(t, "ipv4_lpm.p4")
	run := func(src string) error {
		cmds, err := ParseSTF("t.stf", src)
		if err != nil {
			return err
		}
		_, err = sw.RunSTF("t.stf", cmds)
		return err
	}
	for _, tc := range []struct{ src, want string }{
		{"add nosuch k:1 a()\n", "t.stf:1: error: no table \"nosuch\""},
		{"\nadd ipv4_lpm dstAddr:1/8 nosuch()\n", "t.stf:2: error: table ipv4_lpm has no action \"nosuch\""},
		{"add ipv4_lpm zzz:1/8 drop()\n", "t.stf:1: error: table ipv4_lpm has no key \"zzz\" (keys: hdr.ipv4.dstAddr)"},
		{"add ipv4_lpm dstAddr:1/8 drop(x:1)\n", "t.stf:1: error: action drop takes 0 action data values, got 1"},
		{"expect drop\n", "t.stf:1: error: expect drop before any packet"},
		{"expect_register nosuch 0 0\n", "t.stf:1: error: no register called \"nosuch\""},
		// Numbers are checked against what they address, never cut to fit.
		{"add ipv4_lpm dstAddr:0x1ffffffff/8 drop()\n", "t.stf:1: error: key hdr.ipv4.dstAddr: 0x1ffffffff does not fit bit<32>"},
		{"add ipv4_lpm dstAddr:1/33 drop()\n", "t.stf:1: error: key hdr.ipv4.dstAddr: a prefix of 33 bits in bit<32>"},
		{"add ipv4_lpm dstAddr:1/8 ipv4_forward(dstAddr:1, port:512)\n", "t.stf:1: error: action ipv4_forward, port: 0x200 does not fit bit<9>"},
		{"packet 512 00\n", "t.stf:1: error: port 512 does not fit the ingress port's bit<9>"},
		{"mc_node_create 1 2\nmc_node_associate 7 0\n", "t.stf:2: error: group 7 is not created (mc_mgrp_create)"},
		{"mc_mgrp_create 7\nmc_node_associate 7 3\n", "t.stf:2: error: no node has handle 3"},
	} {
		if err := run(tc.src); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: got %v, want an error starting %q", tc.src, err, tc.want)
		}
	}
}

// TestSTFRegisterWidth: a register value wider than the register's cell is
// refused, not cut.
func TestSTFRegisterWidth(t *testing.T) {
	_, sw := load(t, "blue_increase.p4")
	cmds, err := ParseSTF("t.stf", "register_write last_update 0 0x1ffffffff\n")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sw.RunSTF("t.stf", cmds); err == nil || !strings.Contains(err.Error(), "t.stf:1: error: register last_update: 0x1ffffffff does not fit bit<32>") {
		t.Errorf("got %v", err)
	}
}

// packetLines makes a test of n packets as it is read, never all of it in
// memory: each packet's line and its expectation.
type packetLines struct {
	n, sent int
	pending []byte
}

func (p *packetLines) Read(b []byte) (int, error) {
	for len(p.pending) == 0 {
		if p.sent == p.n {
			return 0, io.EOF
		}
		p.sent++
		p.pending = []byte("packet 0 00\nexpect drop\n")
	}
	n := copy(b, p.pending)
	p.pending = p.pending[n:]
	return n, nil
}

// TestSTFStream: a test runs as it is read, and a cancelled context stops
// it, saying after how many packets.
func TestSTFStream(t *testing.T) {
	_, sw := load(t, "ipv4_lpm.p4")
	res, err := RunSTFStream(context.Background(), sw, NewSTFReader("gen.stf", &packetLines{n: 20000}))
	// A one-byte frame is too short for Ethernet: ipv4_lpm's parser rejects it.
	if err != nil || res.Packets != 20000 || res.Expectations != 20000 {
		t.Fatalf("%+v, %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := RunSTFStream(ctx, sw, NewSTFReader("gen.stf", &packetLines{n: 10})); !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "stopped after 0 packets") {
		t.Errorf("cancelled: %v", err)
	}
}
