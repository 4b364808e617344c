package interp

import (
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/frontend"
)

// TestMulticastAndDigests: l2_learning.p4 and variants of its flood
// action. A packet with a multicast group follows the replica for port 0,
// whatever egress_spec says (replication is not simulated; BMv2 ignores
// egress_spec then); mark_to_drop clears the group, as BMv2's does; a
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
