package lower

import (
	"context"
	"math/big"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/alloc"
	"github.com/p4hls/p4hls/backends"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/menshen"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/transform"
)

// compiled builds what the driver gives the lowering, from the packages
// below it: phase 1's analysis of the program as written, the
// synthesized @atomic actions, and a placement made by hand instead of
// allocation's: every node in stages of its own, one after another (so
// no dependency can break), each ALU of a synthesized action at its
// depth.
func compiled(t *testing.T, prog *ir.Program) backends.Compiled {
	t.Helper()
	ctx := context.Background()
	an, err := transform.Analyze(ctx, prog, transform.Options{TablesPerStage: 8})
	if err != nil {
		t.Fatal(err)
	}
	tg := menshen.Target()
	stateful, err := tg.Grammar(tg.Stateful)
	if err != nil {
		t.Fatal(err)
	}
	stateless, err := tg.Grammar(tg.Stateless)
	if err != nil {
		t.Fatal(err)
	}
	c := backends.Compiled{Program: prog, Placement: &alloc.Solution{}, Graphs: map[string]*synth.Graph{}}
	for _, a := range prog.AtomicActions() {
		tx, err := synth.PreprocessWith(a, synth.PreprocessOptions{})
		if err != nil {
			t.Fatal(err)
		}
		g, _, err := synth.Synthesize(ctx, tx, stateful, stateless, synth.Options{})
		if err != nil {
			t.Fatalf("action %s: %v", a.Name, err)
		}
		c.Graphs[a.Name] = g
	}
	next := 0
	for _, cg := range an.Controls {
		if cg.Control == prog.Pipeline[2].Control {
			c.Ingress, c.Base = cg, len(c.Placement.Parts)
		}
		for _, n := range cg.Nodes {
			next = placeNode(c.Placement, n, c.Graphs, next)
		}
	}
	if c.Ingress == nil {
		t.Fatal("no ingress control")
	}
	return c
}

// placeNode gives a node one part from stage next on, as deep as its
// deepest action; it returns the next free stage. Gateways take none:
// Menshen has none.
func placeNode(sol *alloc.Solution, n *transform.Node, graphs map[string]*synth.Graph, next int) int {
	actions := n.Actions()
	if n.Kind == transform.DefaultNode {
		actions = actions[:0]
		actions = append(actions, nil) // the statements: one plain action
	}
	depth := 1
	var alus [][]int
	for _, a := range actions {
		var stages []int
		if a != nil {
			if g, ok := graphs[a.Name]; ok {
				for _, u := range g.ALUs {
					stages = append(stages, next+u.Depth)
					depth = max(depth, u.Depth+1)
				}
			}
		}
		alus = append(alus, stages)
	}
	var part []int
	for s := next; s < next+depth; s++ {
		part = append(part, s)
	}
	sol.Parts = append(sol.Parts, [][]int{part})
	sol.ALUs = append(sol.ALUs, [][][]int{alus})
	if n.Kind == transform.GatewayNode {
		return next
	}
	return next + depth
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
	in := Input{Compiled: compiled(t, corpus.Load(t, "sampling.p4")), Tenant: 1}
	res, err := Lower(in)
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
	in := Input{Compiled: compiled(t, corpus.Load(t, "../../menshen/l2_sampling.p4")), Tenant: 1}
	n := func(v int64) *big.Int { return big.NewInt(v) }
	exact := func(v int64) interp.Match { return interp.Match{Kind: interp.MatchExact, Value: n(v)} }
	in.Entries = []interp.TableEntry{
		{Table: "MyIngress.fwd", Entry: interp.Entry{Action: "forward", Keys: []interp.Match{exact(0x0a000001)}, Data: []*big.Int{n(3), n(0x0102)}}},
		{Table: "MyIngress.fwd", Entry: interp.Entry{Action: "drop", Keys: []interp.Match{exact(0x0a000002)}}},
		{Table: "MyIngress.port_mac", Entry: interp.Entry{Action: "set_smac", Keys: []interp.Match{exact(3)}, Data: []*big.Int{n(0xaa)}}},
		{Table: "MyIngress.classify", Entry: interp.Entry{Action: "set_class", Keys: []interp.Match{exact(0x1234), exact(0)}, Data: []*big.Int{n(7)}}},
	}
	res, err := Lower(in)
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
	in := Input{Compiled: compiled(t, corpus.LoadSource(t, "egress.p4", []byte(src))), Tenant: 1,
		Entries: []interp.TableEntry{{Table: "MyIngress.acl", Entry: interp.Entry{Action: "drop",
			Keys: []interp.Match{{Kind: interp.MatchExact, Value: big.NewInt(9)}}}}}}
	res, err := Lower(in)
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
func checkListing(t *testing.T, in Input, res *Result) string {
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
