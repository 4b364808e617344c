package interp

import (
	"context"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// TestMulticastAndDigests: l2_learning.p4 and variants of its flood
// action. A packet with a multicast group the control plane did not
// configure follows the replica for port 0, whatever egress_spec says
// (BMv2 ignores egress_spec then); mark_to_drop clears the group, as BMv2's does; a
// digest is reported with the packet that sent it, dropped or not.
func TestMulticastAndDigests(t *testing.T) {
	file := filepath.Join(corpus, "ok", "l2_learning.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const flood = "action flood() { sm.mcast_grp = 1; }"
	// From port 3, source 0a0b0c0d0e0f (unknown: learnt), destination 01
	// (unknown: flooded).
	pkt := unhex(t, "000000000001 0a0b0c0d0e0f 0800 00")
	// learn_t: the 48-bit MAC, then the 9-bit port 3, padded to 64 bits.
	const learnt = "0a0b0c0d0e0f0180"
	tests := []struct {
		name, flood string
		dropped     bool
	}{
		{"flooded", flood, false},
		{"flooded with a port", "action flood() { sm.mcast_grp = 1; sm.egress_spec = 4; }", false},
		{"flooded, then dropped", "action flood() { sm.mcast_grp = 1; mark_to_drop(sm); }", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			changed := strings.Replace(string(src), flood, tc.flood, 1)
			var d diag.List
			prog, _, err := frontend.Load(context.Background(), file, []byte(changed), frontend.Options{}, &d)
			if err != nil {
				t.Fatal(err, d.String())
			}
			sw, err := New(prog, Options{})
			if err != nil {
				t.Fatal(err)
			}
			out, err := sw.Process(3, pkt)
			if err != nil {
				t.Fatal(err)
			}
			if out.Dropped != tc.dropped || !tc.dropped && out.Port != 0 {
				t.Errorf("dropped %v, port %d; want dropped %v, port 0", out.Dropped, out.Port, tc.dropped)
			}
			if len(out.Digests) != 1 || out.Digests[0].Receiver != 1 || hex.EncodeToString(out.Digests[0].Data) != learnt {
				t.Errorf("digests %v, want one to receiver 1 of %s", out.Digests, learnt)
			}
		})
	}
}

// TestReplication: with group 1 configured, the flood of l2_learning.p4
// (its egress changed to write the copy's egress_rid and instance_type
// into the packet's last two bytes) leaves once per replica, in the
// group's order, each with its replication id and v1model's replica
// instance type (5); the copy to the port it came in on is dropped in
// the egress, and a group of that copy alone drops the packet.
func TestReplication(t *testing.T) {
	file := filepath.Join(corpus, "ok", "l2_learning.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const egress = "        if (sm.egress_port == sm.ingress_port) {"
	changed := strings.Replace(string(src), egress,
		"        hdr.ethernet.etherType = sm.egress_rid[7:0] ++ sm.instance_type[7:0];\n"+egress, 1)
	if changed == string(src) {
		t.Fatal("the egress is not in the program")
	}
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), file, []byte(changed), frontend.Options{}, &d)
	if err != nil || prog == nil {
		t.Fatal(err, d.String())
	}
	sw, err := New(prog, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pkt := unhex(t, "000000000001 0a0b0c0d0e0f 0800 00")
	sw.SetMulticastGroup(1, []Replica{{Port: 5, Rid: 0x21}, {Port: 3, Rid: 0x22}, {Port: 7, Rid: 0x23}})
	out, err := sw.Process(3, pkt)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, o := range append([]*Output{out}, out.Copies...) {
		got = append(got, fmt.Sprintf("%d:%x", o.Port, o.Data))
	}
	want := []string{"5:0000000000010a0b0c0d0e0f210500", "7:0000000000010a0b0c0d0e0f230500"}
	if !slices.Equal(got, want) {
		t.Errorf("copies %v, want %v", got, want)
	}
	sw.SetMulticastGroup(1, []Replica{{Port: 3, Rid: 1}})
	if out, err := sw.Process(3, pkt); err != nil || !out.Dropped {
		t.Errorf("a group of the ingress port alone: %+v, %v; want dropped", out, err)
	}
}
