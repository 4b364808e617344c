package lower_test

import (
	"context"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/menshen/lower"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/transform"
)

// compiled compiles a program for Menshen (file names it; src is its
// text, or nil to read the file) and returns the lowering's input.
func compiled(t *testing.T, file string, src []byte) lower.Input {
	t.Helper()
	file = filepath.Join(corpus.Dir(), "ok", file)
	if src == nil {
		var err error
		if src, err = os.ReadFile(file); err != nil {
			t.Fatal(err)
		}
	}
	res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: "menshen",
		Synth: synth.Options{Cache: sharedCache}}, nil)
	if err != nil {
		t.Fatal(err, res.Diagnostics.String())
	}
	return menshenInput(t, res, nil)
}

// explained returns the configuration lines a listing's lines say they
// explain (the numbers and ranges before each line's text).
func explained(t *testing.T, listing string) map[int]bool {
	t.Helper()
	out := map[int]bool{}
	for _, ln := range strings.Split(strings.TrimSuffix(listing, "\n"), "\n") {
		if strings.HasPrefix(ln, "#") {
			continue
		}
		refs, _, _ := strings.Cut(ln, " ")
		for _, r := range strings.Split(refs, ",") {
			lo, hi, isRange := strings.Cut(r, "-")
			if !isRange {
				hi = lo
			}
			a, err1 := strconv.Atoi(lo)
			b, err2 := strconv.Atoi(hi)
			if err1 != nil || err2 != nil {
				t.Fatalf("listing line %q does not start with the lines it explains", ln)
			}
			for n := a; n <= b; n++ {
				out[n] = true
			}
		}
	}
	return out
}

// TestListingSampling lists sampling.p4's configuration: every line of
// the text form is explained, and the listing names the table, the
// register, the field the counter writes and the guard. The expected
// numbers come from the frame layout: the application header follows
// Ethernet (14 bytes), IPv4 (20) and UDP (8), at byte 42 of the P4
// frame, 46 on the wire behind the VLAN tag; hdr.app.isValid() is
// hdr.udp.dstPort == 5555 (0x15b3), in the top 16 bits of its container.
func TestListingSampling(t *testing.T) {
	in := compiled(t, "sampling.p4", nil)
	res, err := lower.Lower(in)
	if err != nil {
		t.Fatal(err)
	}
	listing := checkListing(t, in, res)
	for _, rx := range []string{
		`(?m)^1 +parser: container \d+ \(hdr\.app\.sample\) := frame bytes 46\.\.49$`,
		`(?m)^1 +parser: container \d+ \(hdr\.udp\.dstPort, top 16 bits\) := frame bytes 40\.\.43$`,
		`(?m)^2 +deparser: frame bytes 46\.\.49 := container \d+ \(hdr\.app\.sample\)$`,
		`(?m)^3-6 +stage 0, sub-unit 0; P4: table sampler, its stage 1 of 2 \(matched when hdr\.udp\.dstPort == 5555\)$`,
		`(?m)key: slot 0 = container \d+ \(hdr\.udp\.dstPort, top 16 bits\), slots 1-7 unused$`,
		`(?m)mask: slot 0 compares bits 0xffff0000, slots 1-7 and key bit 0 ignored$`,
		`(?m)CAM address 0: prefix 0x001, slot 0 = 0x15b30000 -> action address 0; P4: keyless: the default action sample\(\)$`,
		`(?m)S = the state word of stage \d, container \d+ \(register count\)`,
	} {
		if !regexp.MustCompile(rx).MatchString(listing) {
			t.Errorf("the listing has no line matching %s", rx)
		}
	}
}

// TestListingL2Sampling lists l2_sampling.p4 with entries added to its
// tables: forwarding (a port and a drop), a source MAC by port, and a
// classifier; the entries' P4 names, the wide MAC's containers, the
// port (v1model's 3 is the RTL's 3 XOR 4 = 7) and the drop are listed.
func TestListingL2Sampling(t *testing.T) {
	in := compiled(t, "../../menshen/l2_sampling.p4", nil)
	n := func(v int64) *big.Int { return big.NewInt(v) }
	exact := func(v int64) interp.Match { return interp.Match{Kind: interp.MatchExact, Value: n(v)} }
	in.Entries = []interp.TableEntry{
		{Table: "MyIngress.fwd", Entry: interp.Entry{Action: "forward", Keys: []interp.Match{exact(0x0a000001)}, Data: []*big.Int{n(3), n(0x0102)}}},
		{Table: "MyIngress.fwd", Entry: interp.Entry{Action: "drop", Keys: []interp.Match{exact(0x0a000002)}}},
		{Table: "MyIngress.port_mac", Entry: interp.Entry{Action: "set_smac", Keys: []interp.Match{exact(3)}, Data: []*big.Int{n(0xaa)}}},
		{Table: "MyIngress.classify", Entry: interp.Entry{Action: "set_class", Keys: []interp.Match{exact(0x1234), exact(0)}, Data: []*big.Int{n(7)}}},
	}
	res, err := lower.Lower(in)
	if err != nil {
		t.Fatal(err)
	}
	listing := checkListing(t, in, res)
	for _, rx := range []string{
		// A later exact entry replaces an earlier one of the same key: the
		// later entries come first.
		`CAM address 0: prefix 0x001, slot 0 = 0x0a000002 -> action address 0; P4: added entry 2: hdr\.ipv4\.dstAddr == 0x0a000002 -> drop\(\)\n`,
		`CAM address 1: prefix 0x001, slot 0 = 0x0a000001 -> action address 1 \(indirection entry\); P4: added entry 1: hdr\.ipv4\.dstAddr == 0x0a000001 -> forward\(port=3, dmac=0x000000000102\)\n`,
		`action address 0; P4: drop\(\)\n(\d+ +container .*\n)*\d+ +metadata ALU: drop the frame\n`,
		`action address 1; P4: forward\(port=3, dmac=0x000000000102\)\n(\d+ +container .*\n)*\d+ +metadata ALU: send the frame to port 7\n`,
		// The MAC is 6 bytes: containers at its bytes 0 and 2 (its last 4).
		`container \d+ \(hdr\.ethernet\.dstAddr bytes 0\.\.3\) := 0\n`,
		`container \d+ \(hdr\.ethernet\.dstAddr bytes 2\.\.5\) := 258\n`,
		`P4: table classify`,
		`P4: table port_mac`,
	} {
		if !regexp.MustCompile(rx).MatchString(listing) {
			t.Errorf("the listing has no match for %s", rx)
		}
	}
}

// TestListingEgressDecision: a table that may set the port after an
// earlier one dropped the packet leaves the decision to a table after
// it, which matches the port's container (its top 9 bits) on the values
// the actions write there: 5 (0x02800000) sends to the RTL's port 5 XOR
// 4 = 1, 511 (0xff800000), the drop, drops.
func TestListingEgressDecision(t *testing.T) {
	src := `#include <core.p4>
#include <v1model.p4>
header app_t { bit<32> x; }
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {
    action drop() { mark_to_drop(standard_metadata); }
    action to5() { standard_metadata.egress_spec = 5; }
    table acl { key = { hdr.app.x: exact; } actions = { drop; NoAction; } default_action = NoAction(); }
    table fwd { actions = { to5; } default_action = to5(); }
    apply { acl.apply(); fwd.apply(); }
}
BENCH_MAIN
`
	in := compiled(t, "egress.p4", []byte(src))
	in.Entries = []interp.TableEntry{{Table: "MyIngress.acl", Entry: interp.Entry{Action: "drop",
		Keys: []interp.Match{{Kind: interp.MatchExact, Value: big.NewInt(9)}}}}}
	res, err := lower.Lower(in)
	if err != nil {
		t.Fatal(err)
	}
	listing := checkListing(t, in, res)
	for _, rx := range []string{
		`P4: the egress decision, after the last table that sets standard_metadata\.egress_spec\n`,
		`CAM address 0: prefix 0x001, slot 0 = 0x02800000 -> action address 0; P4: standard_metadata\.egress_spec == 5\n`,
		`CAM address 1: prefix 0x001, slot 0 = 0xff800000 -> action address 1 \(indirection entry\); P4: standard_metadata\.egress_spec == 511\n`,
		`action address 0; P4: port 5 \(the RTL's port 1\)\n\d+ +metadata ALU: send the frame to port 1\n`,
		`action address 1; P4: drop\n\d+ +metadata ALU: drop the frame\n`,
	} {
		if !regexp.MustCompile(rx).MatchString(listing) {
			t.Errorf("the listing has no match for %s", rx)
		}
	}
}

// checkListing lists a lowering, checks that it explains every line of
// the text form and names every table and register of the program, and
// returns it.
func checkListing(t *testing.T, in lower.Input, res *lower.Result) string {
	t.Helper()
	listing, err := res.Listing()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("listing:\n%s", listing)
	lines, err := res.Config.Lines()
	if err != nil {
		t.Fatal(err)
	}
	got := explained(t, listing)
	for n := 1; n <= len(lines); n++ {
		if !got[n] {
			t.Errorf("configuration line %d (%.40s...) is explained by no listing line", n, lines[n-1])
		}
	}
	for n := range got {
		if n < 1 || n > len(lines) {
			t.Errorf("the listing explains line %d; the configuration has %d", n, len(lines))
		}
	}
	for _, n := range in.Ingress.Nodes {
		if n.Kind == transform.TableNode && !strings.Contains(listing, "P4: table "+n.Table.Name) {
			t.Errorf("the listing does not name table %s", n.Table.Name)
		}
	}
	for r := range res.Registers {
		if !strings.Contains(listing, "(register "+r+")") {
			t.Errorf("the listing does not name register %s", r)
		}
	}
	return listing
}
