package tna_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/p4hls/p4hls/diag"
	"github.com/p4hls/p4hls/driver"
	"github.com/p4hls/p4hls/frontend"
	"github.com/p4hls/p4hls/internal/corpus"
	"github.com/p4hls/p4hls/interp"
	"github.com/p4hls/p4hls/ir"
	"github.com/p4hls/p4hls/synth"
	"github.com/p4hls/p4hls/tofino/tna"
)

// sharedCache keeps synthesis queries across the end-to-end tests: the
// allocation suite's programs hold the benchmarks' actions.
var sharedCache = synth.NewMemoryCache()

// tofinoPrograms are corpus programs the Tofino backend writes today:
// stateful benchmarks (on one register or a pair), and programs of
// tables, gateways, switches and rewritten if-else chains.
var tofinoPrograms = []string{"sampling", "marple_new_flow", "dns_ttl_change", "rcp", "spam_detection",
	"blue_increase", "blue_decrease", "blue_increase_sat", "blue_decrease_sat", "conga", "snap_heavy_hitter", "marple_tcp_nmo", // register pairs
	"nested_ifs", "me2_disjoint_writes", "me3_upf_rate_enforcer", "acl", "mpls", "switch_action_run",
	"ipv4_lpm", "tunnel_encap", // checksums computed in the deparser
	"range_match",                  // an optional key as a ternary one
	"five_tables", "egress_bridge", // egress tables: metadata bridged to the egress, headers re-parsed
	"exit_return",                         // exit and return in the ingress; a table applied three times
	"value_set",                           // a parser value set (its .stf fills it)
	"functions",                           // functions called from an action and from the apply block
	"counters_meters",                     // counters and meters, direct and indexed (its .stf sets colours)
	"l2_learning",                         // a digest (packed in the deparser) and a multicast group
	"checksum_verify", "lookahead_verify", // parser errors (verify, short packets) and a checksum verified in the parser
	"checksum16",           // a Checksum16 computed by the ingress deparser
	"plain_registers",      // registers read and written by plain actions (no @atomic), under nested ifs
	"apply_register_runs",  // register code in the apply block between tables: phase 1 makes actions of it
	"egress_packet_length", // the egress reads the packet length, and its deparser emits the whole header struct
	"header_union",         // a union's isValid() written over its members
	"egress_encap",         // the ingress adds a header: the egress parser goes by the headers' validity
	"multicast_copies",     // the egress tells a multicast copy by the group the bridge carries
	// Switch programs of the allocation suite: L2/L3 tables (exact, LPM,
	// ternary, 9-bit ports) with a stateful benchmark.
	"../alloc/sampling_dmac_ipv4_lpm_nexthop", "../alloc/marple_new_flow_tunnel_acl_ipv4_lpm_nexthop",
	"../alloc/conga_tunnel_acl_ipv4_lpm_nexthop", "../alloc/marple_tcp_nmo_dmac_tunnel_acl_ipv4_lpm_nexthop"}

// TestTofinoEndToEnd compiles each program for Tofino, loads the TNA
// program it writes (with the bundled tna.p4), and runs both in the
// interpreter on 10,000 random packets with the same random entries and
// register contents: every output, drop and register cell must agree.
func TestTofinoEndToEnd(t *testing.T) {
	for _, name := range tofinoPrograms {
		t.Run(filepath.Base(name), func(t *testing.T) {
			file := filepath.Join(corpus.Dir(), "ok", name+".p4")
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: "tofino",
				Synth: synth.Options{Cache: sharedCache}}, nil)
			if err != nil {
				t.Fatal(err, res.Diagnostics)
			}
			prog := loadTNA(t, res)
			checkTNANames(t, tnaText(t, res))
			orig := res.Program
			c := interp.NewGenerator(orig, 3).Case(10000, 2, 2)
			ref := func() (interp.Target, error) { return interp.New(orig, interp.Options{}) }
			emitted := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
			div, err := interp.Diff(ref, emitted, c, interp.RegisterCells(orig))
			if err != nil {
				t.Fatal(err)
			}
			if div != nil {
				t.Fatalf("the TNA program disagrees with the original: %v\n%s", div, div.STF(orig))
			}
			runSTF(t, prog, strings.TrimSuffix(file, ".p4")+".stf")
		})
	}
}

// runSTF runs the program's packet test, when it has one, on the TNA
// program: installed entries and value sets the random packets do not
// reach.
func runSTF(t *testing.T, tna *ir.Program, file string) {
	t.Helper()
	src, err := os.ReadFile(file)
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	cmds, err := interp.ParseSTF(file, string(src))
	if err != nil {
		t.Fatal(err)
	}
	sw, err := interp.New(tna, interp.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res, err := sw.RunSTF(file, cmds)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Mismatches) > 0 {
		t.Errorf("%s on the TNA program: %v", filepath.Base(file), res.Mismatches)
	}
}

// TestTofinoMulticastAndDigests: variants of l2_learning.p4. A packet
// with a multicast group ignores egress_spec (BMv2's rule: the TNA
// program must not add a unicast copy), and mark_to_drop clears the
// group; a program with two digest calls, or a receiver no digest_type
// holds, is refused.
func TestTofinoMulticastAndDigests(t *testing.T) {
	const flood = "action flood() { sm.mcast_grp = 1; }"
	tofinoVariants(t, "l2_learning.p4", nil, []tofinoVariant{
		{"a group and a port", flood, "action flood() { sm.mcast_grp = 1; sm.egress_spec = 4; }", "", "", ""},
		{"a group, then dropped", flood, "action flood() { sm.mcast_grp = 1; if (hdr.ethernet.etherType == 0x800) { mark_to_drop(sm); } }", "", "", ""},
		{"a group, then port 511", flood, "action flood() { sm.mcast_grp = 1; sm.egress_spec = 511; }", "", "", ""},
		{"two digests", flood, "action flood() { sm.mcast_grp = 1; digest<learn_t>(1, { hdr.ethernet.dst, sm.ingress_port }); }",
			"l2_learning.p4:26:40: a second digest call", "", ""},
		{"receiver 9", "digest<learn_t>(1,", "digest<learn_t>(9,", "digest's receiver 32w9: on Tofino it is the digest_type, a constant from 1 to 7", "", ""},
	})
}

// TestTofinoParserErrors: variants of lookahead_verify.p4's verify, each
// a select of its own kind (on the field against a constant, for == and
// !=; on the condition as a bit otherwise), two in a state, and one in the
// start state; and a select with no default (NoMatch, which the ingress
// then tests); an error tna.p4 declares too (Timeout) is tna.p4's. A
// parser that fills a header stack may overflow it, an
// error parser_err has no flag for: reading parser_error is refused.
func TestTofinoParserErrors(t *testing.T) {
	const verify = "verify(hdr.probe.version == 1, error.BadVersion);"
	tofinoVariants(t, "lookahead_verify.p4", nil, []tofinoVariant{
		{"!=", verify, "verify(hdr.probe.version != 2, error.BadVersion);", "", "", ""},
		{"a condition", verify, "verify(hdr.probe.version < 3 && hdr.probe.kind != 7, error.BadVersion);", "", "", ""},
		{"two in a state", verify, verify + " verify(hdr.probe.kind == 0, error.HeaderTooShort);", "", "", ""},
		{"in the start state", "pkt.extract(hdr.ethernet);", "pkt.extract(hdr.ethernet); verify(hdr.ethernet.dst != 0, error.BadVersion);", "", "", ""},
		{"an error tna.p4 declares too", "error { BadVersion }", "error { BadVersion, Timeout }", "",
			verify, "verify(hdr.probe.version == 1, error.Timeout);"},
		{"no default", "0x9000: peek; default: accept;", "0x9000: peek; 0x0800: accept;", "",
			"sm.parser_error == error.PacketTooShort", "sm.parser_error == error.NoMatch"},
	})
	tofinoVariants(t, "mpls.p4", nil, []tofinoVariant{
		{"a stack", "    apply {\n", "    apply {\n        if (sm.parser_error != error.NoError) { mark_to_drop(sm); }\n",
			"mpls.p4:23:9: state label fills a header stack, and control MyIngress reads parser_error", "", ""},
	})
}

// TestTofinoChecksumCondition: a verify_checksum whose condition asks more
// than the header's validity (IPv4 without options, as programs often
// check it) sets checksum_error only where the condition holds, as in
// v1model; a condition without the header's validity is refused.
func TestTofinoChecksumCondition(t *testing.T) {
	const call = "verify_checksum(hdr.ipv4.isValid(),"
	tofinoVariants(t, "checksum_verify.p4", nil, []tofinoVariant{
		{"the header's fields", call, "verify_checksum(hdr.ipv4.isValid() && hdr.ipv4.ihl == 5,", "", "", ""},
		{"the validity last", call, "verify_checksum(hdr.ipv4.ttl != 0 && hdr.ipv4.isValid(),", "", "", ""},
		{"no validity", call, "verify_checksum(hdr.ipv4.ihl == 5,",
			"checksum_verify.p4:31:9: verify_checksum((hdr.ipv4.ihl == 4w5)", "", ""},
	})
}

// TestTofinoBridgedEnum: a serializable enum in the metadata the egress
// reads crosses in the bridge as its bits.
func TestTofinoBridgedEnum(t *testing.T) {
	withEnum := func(src string) string {
		return strings.Replace(src, "struct route_t {", "enum bit<4> Cls_t { Best = 0, Gold = 8 }\nstruct route_t {", 1)
	}
	tofinoVariants(t, "egress_bridge.p4", withEnum, []tofinoVariant{
		{"a class as an enum", "    bit<4> cls;", "    Cls_t cls;", "",
			"meta.route.cls = hdr.ipv4.diffserv[7:4];", "meta.route.cls = (Cls_t) hdr.ipv4.diffserv[7:4];"},
	})
}

// TestTofinoUnemittedHeader: a header the parser extracts and the
// deparser does not emit (a CPU's header between Ethernet and IPv4,
// stripped by the ingress) is left
// out of the egress parser, which re-parses the packet the ingress wrote;
// the ingress may invalidate it. The egress using it, or a transition
// selecting on it, is refused.
func TestTofinoUnemittedHeader(t *testing.T) {
	withCPU := func(src string) string {
		src = strings.Replace(src, "struct headers { ethernet_t ethernet; ipv4_t ipv4; }",
			"header cpu_t { bit<8> reason; }\nstruct headers { cpu_t cpu; ethernet_t ethernet; ipv4_t ipv4; }", 1)
		return strings.Replace(src, "transition select(hdr.ethernet.etherType) { 0x0800: ipv4; default: accept; }\n    }",
			"transition select(hdr.ethernet.etherType) { 0x0800: ipv4; 0x9000: cpu; default: accept; }\n    }\n"+
				"    state cpu { pkt.extract(hdr.cpu); transition ipv4; }", 1)
	}
	const apply = "        if (hdr.ipv4.isValid()) {\n            routes.apply();"
	const egress = "        if (sm.egress_port == sm.ingress_port) {"
	tofinoVariants(t, "egress_bridge.p4", withCPU, []tofinoVariant{
		{"stripped", apply, "        hdr.cpu.setInvalid();\n" + apply, "", "", ""},
		{"used by the egress", egress, "        hdr.ipv4.ttl = hdr.cpu.reason;\n" + egress,
			"the deparser does not emit hdr.cpu, which the parser extracts and control MyEgress uses", "", ""},
		// The egress parser goes by the headers' validity then.
		{"selected on", "state cpu { pkt.extract(hdr.cpu); transition ipv4; }",
			"state cpu { pkt.extract(hdr.cpu); transition select(hdr.cpu.reason) { 0: accept; default: ipv4; } }", "", "", ""},
	})
}

// TestTofinoEgressByValidity: an ingress that changes which headers are
// valid, or a field the parser selects on, leaves a packet the program's
// parser would parse otherwise; the bridge then carries each emitted
// header's validity, and the egress parser extracts the headers whose bit
// is set, in the deparser's order. Each variant runs against the original
// on random packets, with the egress reading the headers it got.
func TestTofinoEgressByValidity(t *testing.T) {
	const ingressApply = "        if (hdr.ipv4.isValid()) {\n            routes.apply();"
	const egressApply = "        if (sm.egress_port == sm.ingress_port) {"
	const egressReads = "        if (hdr.ipv4.isValid()) { hdr.ethernet.src = (bit<48>) hdr.ipv4.ttl; }\n" + egressApply
	tofinoVariants(t, "egress_bridge.p4", nil, []tofinoVariant{
		{"a header invalidated", ingressApply, "        if (hdr.ipv4.ttl == 7) { hdr.ipv4.setInvalid(); }\n" + ingressApply, "", egressApply, egressReads},
		{"a header added", ingressApply, "        if (!hdr.ipv4.isValid()) { hdr.ipv4.setValid(); hdr.ipv4.ttl = 9; hdr.ipv4.ihl = 5; }\n" + ingressApply, "", egressApply, egressReads},
		{"a field the parser selects on", ingressApply, "        hdr.ethernet.etherType = 0x86dd;\n" + ingressApply, "", egressApply, egressReads},
	})
	// A stack's elements and a union's members, each by its own bit (the
	// header struct's new line moves the ingress's statements down one).
	withStack := func(src string) string {
		src = strings.Replace(src, "struct headers { ethernet_t ethernet; ipv4_t ipv4; }",
			"header tag_t { bit<8> v; } header pad_t { bit<16> p; } header_union tu_t { tag_t t; pad_t p; }\n"+
				"struct headers { ethernet_t ethernet; tag_t[2] tags; tu_t u; ipv4_t ipv4; }", 1)
		src = strings.Replace(src, "pkt.emit(hdr.ipv4); }", "pkt.emit(hdr.tags); pkt.emit(hdr.u); pkt.emit(hdr.ipv4); }", 1)
		return strings.Replace(src, egressApply, "        if (hdr.tags[1].isValid()) { hdr.ipv4.ttl = hdr.tags[1].v; }\n"+
			"        if (hdr.u.p.isValid()) { hdr.ipv4.diffserv = (bit<8>) hdr.u.p.p; }\n"+egressApply, 1)
	}
	tofinoVariants(t, "egress_bridge.p4", withStack, []tofinoVariant{
		{"a stack's second element and a union's member", ingressApply,
			"        if (hdr.ipv4.ttl > 3) { hdr.tags[1].setValid(); hdr.tags[1].v = hdr.ipv4.protocol; hdr.u.p.setValid(); hdr.u.p.p = hdr.ipv4.identification; }\n" + ingressApply, "", "", ""},
		{"a push", ingressApply,
			"        if (hdr.ipv4.ttl > 3) { hdr.tags.push_front(1); hdr.tags[0].setValid(); hdr.tags[0].v = 7; }\n" + ingressApply, "", "", ""},
	})
	// What the egress parser cannot do by validity either: a deparser
	// that decides what to emit (its emit under an if is not one the
	// re-parse sees either; the deparser is on line 86 with the line the
	// variant adds).
	conditional := func(src string) string {
		return strings.Replace(src, "pkt.emit(hdr.ipv4); }", "if (hdr.ethernet.etherType == 0x0800) { pkt.emit(hdr.ipv4); } }", 1)
	}
	tofinoVariants(t, "egress_bridge.p4", func(src string) string {
		return strings.Replace(src, "pkt.emit(hdr.ipv4); }", "pkt.emit(hdr.ipv4); pkt.emit(hdr.ipv4); }", 1)
	}, []tofinoVariant{
		{"a header emitted twice", ingressApply, "        hdr.ipv4.setInvalid();\n" + ingressApply,
			"egress_bridge.p4:51:9: the ingress calls hdr.ipv4.setInvalid(); the Tofino egress parser re-parses the packet; nor can it go by the headers' validity: the deparser emits hdr.ipv4 where another header's validity bit would go", "", ""},
	})
	tofinoVariants(t, "egress_bridge.p4", conditional, []tofinoVariant{
		{"a deparser that does more than emit", ingressApply, "        hdr.ipv4.setInvalid();\n" + ingressApply,
			"egress_bridge.p4:86:1: the deparser does not emit hdr.ipv4, which the parser extracts and control MyEgress uses; the Tofino egress parser would not find it; nor can it go by the headers' validity: the deparser D does more than emit headers", "", ""},
	})
}

// TestTofinoChecksum16: the ingress deparser computes a Checksum16 only
// when it would see what the call saw.
func TestTofinoChecksum16(t *testing.T) {
	const call = "hdr.app.sum = ck.get({ hdr.app.a, hdr.app.b, hdr.app.c });"
	tofinoVariants(t, "checksum16.p4", nil, []tofinoVariant{
		{"a statement after", call, call + " hdr.app.a = 1;",
			"checksum16.p4:20:9: hdr.app.sum = ck.get({hdr.app.a, hdr.app.b, hdr.app.c}): the Tofino backend computes a Checksum16 in the ingress deparser, so the call must be the ingress's last statement", "", ""},
		{"under a condition", call, "if (hdr.app.c == 0) { " + call + " }",
			"must be a statement of the ingress's apply block, its last", "", ""},
		{"a statement before", call, "hdr.app.b = 5; " + call, "", "", ""},
	})
}

// TestTofinoHash: v1model's hash in a plain action (ecmp.p4's, with
// constant maxes): a Tofino hash unit of log2(max) bits, the base added;
// a max that is not a constant power of 2 is refused (no modulo). And
// random, from a Random unit when its range holds a power of 2 of values.
func TestTofinoHash(t *testing.T) {
	const hash = "hash(meta.member, HashAlgorithm.crc16, 16w0,"
	const show = " hdr.ipv4.identification = meta.member;" // the hash into the packet
	// Every packet runs set_group, so the hash reaches the packet.
	always := func(src string) string {
		return strings.Replace(src, "default_action = drop();\n        size = 16384;", "default_action = set_group(7, 3);\n        size = 16384;", 1)
	}
	tofinoVariants(t, "ecmp.p4", always, []tofinoVariant{
		{"max 16", "size);", "32w16);" + show, "", "", ""},
		{"max 1", "size);", "32w1);" + show, "", "", ""},
		{"max 0", "size);", "32w0);" + show, "", "", ""},
		{"a base, max 2^20, crc32", "size);", "32w1048576);" + show, "", hash, "hash(meta.member, HashAlgorithm.crc32, 16w7,"},
		{"identity", "size);", "32w256);" + show, "", hash, "hash(meta.member, HashAlgorithm.identity, 16w0,"},
		{"a run-time max", "", "", "ecmp.p4:41:9: action set_group: hash with max size: a Tofino hash unit has no modulo", "", ""},
		{"max 12", "size);", "32w12);", "hash with max 32w12: a Tofino hash unit has no modulo", "", ""},
		{"random", "size);", "32w16);" + show + " random(hdr.ipv4.diffserv, 8w8, 8w15); log_msg(\"here\");", "", "", ""},
		{"random over 5 values", "size);", "32w16); random(hdr.ipv4.diffserv, 8w8, 8w12);",
			"random(8w8, 8w12): a Tofino Random unit draws uniform bits, so the range must hold a power of 2 of values, not 5", "", ""},
	})
}

// TestErrorsPointAtTheSource: phase 1 rewrites random_clone.p4's if
// statements into a table whose actions hold the branches' statements;
// a refusal of one of them names the line and column the user wrote it
// at (24:13), not its place in the rewritten text.
func TestErrorsPointAtTheSource(t *testing.T) {
	tofinoVariants(t, "random_clone.p4", nil, []tofinoVariant{
		{"clone", "random(hdr.app.r, 0, 1000);", "random(hdr.app.r, 0, 1023);",
			"random_clone.p4:24:13: action if_23_1: the Tofino backend does not write clone(CloneType.I2E, 32w5): TNA resubmits, mirrors and recirculates", "", ""},
	})
}

// TestTofinoEgressExterns: egress_bridge.p4's egress with a counter, a
// direct counter and a direct meter on its table, an indexed meter, a
// hash and a random number, each declared in the TNA egress; the meter's
// colour and the hash reach the packet. Other externs stay refused.
func TestTofinoEgressExterns(t *testing.T) {
	const decls = "    action age() {"
	const externs = `    counter(16, CounterType.packets) port_count;
    meter(16, MeterType.bytes) port_meter;
    action age() {`
	const apply = "        if (sm.egress_port == sm.ingress_port) {"
	// A register update in a plain egress action, called directly.
	const countHits = "    action count_hits() { bit<32> n; hits.read(n, (bit<32>) sm.egress_port & 15); hits.write((bit<32>) sm.egress_port & 15, n + 1); hdr.ipv4.identification = (bit<16>) n; }\n"
	const uses = `        port_count.count((bit<32>) sm.egress_port & 15);
        port_meter.execute_meter((bit<32>) sm.egress_port & 15, hdr.ipv4.diffserv);
        hash(hdr.ipv4.identification, HashAlgorithm.crc16, 16w3, { hdr.ipv4.srcAddr }, 32w1024);
        random(hdr.ipv4.ttl, 8w0, 8w63);
        if (sm.egress_port == sm.ingress_port) {`
	tofinoVariants(t, "egress_bridge.p4", nil, []tofinoVariant{
		{"externs", decls, externs, "", apply, uses},
		{"direct ones", "    action mark(bit<8> dscp) { hdr.ipv4.diffserv = dscp; }",
			"    direct_counter(CounterType.bytes) qos_hits;\n    direct_meter<bit<8>>(MeterType.packets) qos_meter;\n" +
				"    action mark(bit<8> dscp) { hdr.ipv4.diffserv = dscp; qos_hits.count(); qos_meter.read(hdr.ipv4.protocol); }",
			"", "        default_action = NoAction();\n    }\n    apply {\n        if (sm.egress_port",
			"        default_action = NoAction();\n        counters = qos_hits;\n        meters = qos_meter;\n    }\n    apply {\n        if (sm.egress_port"},
		{"a Checksum16", "control MyEgress(", "Checksum16() gck;\ncontrol MyEgress(",
			"egress_bridge.p4:67:9: the apply block: hdr.ipv4.identification = gck.get({hdr.ipv4.srcAddr}): the Tofino backend computes a Checksum16 in the ingress deparser, from the ingress's last statement only",
			apply, "        hdr.ipv4.identification = gck.get({ hdr.ipv4.srcAddr });\n" + apply},
		{"a global counter", "control MyEgress(", "counter(16, CounterType.packets) shared;\ncontrol MyEgress(",
			"egress_bridge.p4:67:9: the apply block: shared is declared outside the egress control; on Tofino the ingress and the egress cannot share it",
			apply, "        shared.count(32w1);\n" + apply},
		{"a register", decls, "    register<bit<32>>(16) hits;\n" + countHits + decls, "", apply, "        count_hits();\n" + apply},
		{"a global register", "control MyEgress(", "register<bit<32>>(16) hits;\ncontrol MyEgress(",
			"egress_bridge.p4:59:5: action count_hits of the egress uses register hits, declared outside the egress control; on Tofino a register belongs to the ingress or the egress, not both",
			decls, countHits + decls},
		{"an extern other than those", decls, "    action_profile(32w16) ap;\n" + decls, "extern action_profile ap in the egress control", "", ""},
	})
}

// tofinoVariant is a change to a corpus program (old replaced by new, and
// then, when given, old2 by new2): the TNA program of the changed source
// must agree with it, or the change is refused with a message (refused,
// when not empty).
type tofinoVariant struct {
	name, old, new, refused string
	old2, new2              string
}

// tofinoVariants compiles each variant of a corpus program (first changed
// by base, when not nil) for Tofino and runs the TNA program against the
// changed original on 2,000 random packets.
func tofinoVariants(t *testing.T, program string, base func(string) string, variants []tofinoVariant) {
	file := filepath.Join(corpus.Dir(), "ok", program)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if base != nil {
		changed := base(string(src))
		if changed == string(src) {
			t.Fatal("base does not change the program")
		}
		src = []byte(changed)
	}
	for _, tc := range variants {
		t.Run(tc.name, func(t *testing.T) {
			changed := string(src) // unchanged when old is ""
			for _, edit := range [][2]string{{tc.old, tc.new}, {tc.old2, tc.new2}} {
				if edit[0] == "" {
					continue
				}
				if !strings.Contains(changed, edit[0]) {
					t.Fatalf("%q is not in the program", edit[0])
				}
				changed = strings.Replace(changed, edit[0], edit[1], 1)
			}
			res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: []byte(changed), Target: "tofino"}, nil)
			if tc.refused != "" {
				var fit *driver.DoesNotFitError
				if !errors.As(err, &fit) || !strings.Contains(err.Error(), tc.refused) {
					t.Errorf("got %v, want a DoesNotFitError with %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err, res.Diagnostics)
			}
			prog := loadTNA(t, res)
			c := interp.NewGenerator(res.Program, 7).Case(2000, 2, 0)
			ref := func() (interp.Target, error) { return interp.New(res.Program, interp.Options{}) }
			emitted := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
			div, err := interp.Diff(ref, emitted, c, nil)
			if err != nil {
				t.Fatal(err)
			}
			if div != nil {
				t.Fatalf("the TNA program disagrees with the original: %v\n%s", div, tnaText(t, res))
			}
		})
	}
}

// loadTNA loads the TNA program a compile wrote.
func loadTNA(t *testing.T, res *driver.Result) *ir.Program {
	t.Helper()
	text := tnaText(t, res)
	var d diag.List
	prog, _, err := frontend.Load(context.Background(), filepath.Join(t.TempDir(), tna.ProgramFile), text, frontend.Options{}, &d)
	if err != nil || prog == nil || prog.Arch != ir.TNA {
		t.Fatalf("the TNA program does not load: %v\n%s\n%s", err, d.String(), text)
	}
	return prog
}

// tnaText is the TNA program among a compile's artifacts.
func tnaText(t *testing.T, res *driver.Result) []byte {
	t.Helper()
	for _, a := range res.Artifacts {
		if a.Name == tna.ProgramFile {
			return a.Data
		}
	}
	t.Fatalf("no %s among the artifacts", tna.ProgramFile)
	return nil
}

// TestTofinoCounts: the TNA program's counters count what the original's
// do (the differential test compares packets and registers, not
// counters): the same packets in the same cells.
func TestTofinoCounts(t *testing.T) {
	file := filepath.Join(corpus.Dir(), "ok", "counters_meters.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: "tofino"}, nil)
	if err != nil {
		t.Fatal(err, res.Diagnostics)
	}
	emitted := loadTNA(t, res)
	c := interp.NewGenerator(res.Program, 5).Case(3000, 2, 0)
	var counts [2][1024]uint64
	for k, prog := range []*ir.Program{res.Program, emitted} {
		sw, err := interp.New(prog, interp.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range c.Packets {
			if _, err := sw.Process(p.Port, p.Data); err != nil {
				t.Fatal(err)
			}
		}
		for i := range counts[k] {
			n, err := sw.Counter("per_flow", uint64(i))
			if err != nil {
				t.Fatal(err)
			}
			counts[k][i] = n.Packets
		}
	}
	total := uint64(0)
	for i := range counts[0] {
		total += counts[0][i]
		if counts[0][i] != counts[1][i] {
			t.Errorf("per_flow[%d]: the original counts %d packets, the TNA program %d", i, counts[0][i], counts[1][i])
		}
	}
	if total == 0 {
		t.Error("no packet was counted")
	}
}

// TestTofinoRefuses: what the backend cannot write as TNA is refused with
// what stops it, and where. The egress parser re-parses what the ingress
// deparser wrote, or goes by the headers' validity (TestTofinoEgressByValidity),
// so the deparser must emit every header the parser extracts; the egress keeps the ports of the standard metadata only, and cannot change
// the port; a table applied twice is two tables, which the control plane
// would have to fill both of; TNA verifies checksums in the parser, in the
// state that extracts the header, so the fields must be the header's; a
// type or function of the name of something tna.p4 declares would be
// declared twice (a function of a tna.p4 function's name overloads it).
func TestTofinoRefuses(t *testing.T) {
	file := filepath.Join(corpus.Dir(), "ok", "egress_bridge.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const ingressApply = "        if (hdr.ipv4.isValid()) {\n            routes.apply();"
	const egressApply = "        if (sm.egress_port == sm.ingress_port) {"
	tests := []struct{ name, old, new, want string }{
		{"a header not emitted", "pkt.emit(hdr.ipv4); ", "",
			"the deparser does not emit hdr.ipv4, which the parser extracts"},
		{"a priority", egressApply, "        if (sm.priority > 1) { mark_to_drop(sm); }\n" + egressApply,
			"control MyEgress reads sm.priority: Tofino's queue is chosen by ig_tm_md.qid and ingress_cos"},
		{"the port", egressApply, "        sm.egress_port = 2;\n" + egressApply,
			"control MyEgress sets sm.egress_port; a Tofino egress cannot change the port"},
		{"a function with an extern", "control VC(", "void drop_it(inout standard_metadata_t s) { mark_to_drop(s); }\ncontrol VC(",
			"egress_bridge.p4:35:45: function drop_it: the Tofino backend writes functions of plain statements only, not mark_to_drop(s);"},
		{"a verify-checksum control", "control VC(inout headers hdr, inout metadata meta) { apply { } }",
			"control VC(inout headers hdr, inout metadata meta) { apply {\n    verify_checksum(hdr.ipv4.isValid(), { hdr.ethernet.etherType }, hdr.ipv4.hdrChecksum, HashAlgorithm.csum16); } }",
			"egress_bridge.p4:36:5: verify_checksum(hdr.ipv4.isValid(), {hdr.ethernet.etherType}, hdr.ipv4.hdrChecksum, HashAlgorithm.csum16): the Tofino backend writes verify_checksum(H.isValid() [&& ...], { fields of H }, H.field, HashAlgorithm.csum16) only"},
		{"a keyed table applied twice", "            routes.apply();", "            routes.apply();\n            routes.apply();",
			"egress_bridge.p4:52:13: table routes is applied 2 times"},
		{"a type of a tna.p4 name", "control VC(", "struct PortId_t { bit<9> v; }\nvoid keep(in PortId_t p) { }\ncontrol VC(",
			"egress_bridge.p4:35:8: type PortId_t: tna.p4 declares PortId_t too"},
		{"a function of the name of a tna.p4 type", "control VC(", "bit<8> Hash(in bit<8> a) { return a; }\ncontrol VC(",
			"egress_bridge.p4:35:1: function Hash: tna.p4 declares Hash too"},
		{"a table applied in a loop", "            routes.apply();", "            for (bit<8> i = 0; i < hdr.ipv4.ttl; i = i + 1) { routes.apply(); }",
			"egress_bridge.p4:52:13: the apply block applies table routes in a loop"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			changed := strings.Replace(string(src), tc.old, tc.new, 1)
			if changed == string(src) {
				t.Fatalf("%q is not in the program", tc.old)
			}
			res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: []byte(changed), Target: "tofino"}, nil)
			var fit *driver.DoesNotFitError
			if !errors.As(err, &fit) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v (%T) %v\nwant a DoesNotFitError with %q", err, err, res.Diagnostics, tc.want)
			}
		})
	}
}

// TestTofinoPlainRegisters: plain_registers.p4's counters, ordinary
// actions that read and write registers, go through synthesis as @atomic
// code does. Called directly from the apply block (phase 1 off, so the
// ifs stay), each call is a keyless table pinned to its stage; what cannot
// be placed that way is refused where it is written, saying why.
func TestTofinoPlainRegisters(t *testing.T) {
	file := filepath.Join(corpus.Dir(), "ok", "plain_registers.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	const red = `            if (hdr.app.session_color == V1MODEL_METER_COLOR_RED) {
                count_red();
            } else if (hdr.app.app_color == V1MODEL_METER_COLOR_RED) {
                count_red();
            }`
	const oneRed = `            if (hdr.app.session_color == V1MODEL_METER_COLOR_RED || hdr.app.app_color == V1MODEL_METER_COLOR_RED) {
                count_red();
            }`
	const yellowApp = `            } else if (hdr.app.app_color == V1MODEL_METER_COLOR_YELLOW) {
                count_yellow();
            }`
	tests := []struct {
		name        string
		edits       [][2]string
		noTransform bool
		refused     string
	}{
		{"direct calls", [][2]string{{red, oneRed}, {yellowApp, "            }"}}, true, ""},
		{"two calls", nil, true,
			"plain_registers.p4:61:17: action count_red is applied by two tables (a call of it is a table too); it uses register red_pkts"},
		// Phase 1 makes an action of register code in the apply block
		// (apply_register_runs.p4); without it, the code is refused.
		{"in the apply block", [][2]string{{red, oneRed}, {yellowApp, "            }"},
			{"        if (hdr.app.isValid()) {", "        red_pkts.write(0, 7);\n        if (hdr.app.isValid()) {"}}, true,
			"plain_registers.p4:57:9: the apply block uses register red_pkts outside an action: p4hls maps the register accesses of an action onto a stateful ALU; move red_pkts.write(32w0, 32w7) into an action"},
		{"a data argument", [][2]string{{red, oneRed}, {yellowApp, "            }"}, {"action count_green() {", "action count_green(bit<32> d) {"},
			{"n = n + 1;\n        green_pkts", "n = n + d;\n        green_pkts"}, {"count_green();", "count_green(hdr.app.session);"}}, true,
			"a call of action count_green with argument hdr.app.session: on Tofino the call is a keyless table whose default action it is"},
		{"an extern synthesis does not map", [][2]string{{"        hdr.app.count = n;\n    }\n\n    action count_yellow", "        hdr.app.count = n;\n        random(hdr.app.qfi, 0, 7);\n    }\n\n    action count_yellow"}}, false,
			"plain_registers.p4:35:9: the call random(hdr.app.qfi, 8w0, 8w7) in a synthesized action (action count_green uses register green_pkts outside @atomic code, which p4hls maps onto a stateful ALU as it does an @atomic block)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			changed := string(src)
			for _, ed := range tc.edits {
				if !strings.Contains(changed, ed[0]) {
					t.Fatalf("%q is not in the program", ed[0])
				}
				changed = strings.Replace(changed, ed[0], ed[1], 1)
			}
			res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: []byte(changed), Target: "tofino", NoTransform: tc.noTransform,
				Synth: synth.Options{Cache: sharedCache}}, nil)
			if tc.refused != "" {
				var fit *driver.DoesNotFitError
				if !errors.As(err, &fit) || !strings.Contains(err.Error(), tc.refused) {
					t.Errorf("got %v, want a DoesNotFitError with %q", err, tc.refused)
				}
				return
			}
			if err != nil {
				t.Fatal(err, res.Diagnostics)
			}
			text := string(tnaText(t, res))
			for _, want := range []string{"@stage(0)\n    table p4hls_call_count_red {", "p4hls_call_count_green.apply();"} {
				if !strings.Contains(text, want) {
					t.Errorf("the TNA program has no %q:\n%s", want, text)
				}
			}
			prog := loadTNA(t, res)
			c := interp.NewGenerator(res.Program, 11).Case(3000, 2, 2)
			ref := func() (interp.Target, error) { return interp.New(res.Program, interp.Options{}) }
			emitted := func() (interp.Target, error) { return interp.New(prog, interp.Options{}) }
			div, err := interp.Diff(ref, emitted, c, interp.RegisterCells(res.Program))
			if err != nil {
				t.Fatal(err)
			}
			if div != nil {
				t.Fatalf("the TNA program disagrees with the original: %v\n%s", div, text)
			}
		})
	}
}

// compileCorpus compiles a corpus program for Tofino.
func compileCorpus(t *testing.T, program string) *driver.Result {
	t.Helper()
	file := filepath.Join(corpus.Dir(), "ok", program)
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: src, Target: "tofino", Synth: synth.Options{Cache: sharedCache}}, nil)
	if err != nil {
		t.Fatal(err, res.Diagnostics)
	}
	return res
}

// TestTofinoBridgesIngressTimestamp: v1model's egress reads the
// ingress's timestamp (INT's hop latency does); Tofino's egress has only
// its own, so the ingress loads it from ig_prsr_md, the bridge carries it
// (48 bits after the 9-bit port) and the egress loads it back.
func TestTofinoBridgesIngressTimestamp(t *testing.T) {
	const apply = "        if (sm.egress_port == sm.ingress_port) {"
	const read = "        hdr.ipv4.identification = (bit<16>) (sm.egress_global_timestamp - sm.ingress_global_timestamp);\n" + apply
	tofinoVariants(t, "egress_bridge.p4", nil, []tofinoVariant{{"hop latency", apply, read, "", "", ""}})
	file := filepath.Join(corpus.Dir(), "ok", "egress_bridge.p4")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	res, err := driver.Compile(context.Background(), driver.Request{File: file, Source: []byte(strings.Replace(string(src), apply, read, 1)), Target: "tofino"}, nil)
	if err != nil {
		t.Fatal(err, res.Diagnostics)
	}
	text := string(tnaText(t, res))
	for _, want := range []string{
		"bit<48> p4hls_ingress_global_timestamp;",
		"sm.ingress_global_timestamp = ig_prsr_md.global_tstamp;",
		"hdr.p4hls_bridge.p4hls_ingress_global_timestamp = sm.ingress_global_timestamp;",
		"sm.ingress_global_timestamp = hdr.p4hls_bridge.p4hls_ingress_global_timestamp;",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the TNA program has no %q:\n%s", want, text)
		}
	}
}

// TestTofinoTables: tables as users write them. One with no default
// action and no NoAction among its actions runs P4's implied NoAction: the
// TNA table writes no default either (it named an action the table did
// not list, an internal error, exit 3). A key of an action selector's is
// refused where the table is (TNA's ActionSelector is not written).
func TestTofinoTables(t *testing.T) {
	const acts = "            drop;\n            NoAction;\n        }\n        size = 1024;\n        default_action = drop();"
	tofinoVariants(t, "ipv4_lpm.p4", nil, []tofinoVariant{
		{"no default action", acts, "            drop;\n        }\n        size = 1024;", "", "", ""},
		{"an action selector", acts, "            drop;\n        }\n        implementation = action_selector(HashAlgorithm.crc16, 32w64, 32w14);",
			"ipv4_lpm.p4:78:5: table ipv4_lpm: key hdr.ipv4.srcAddr is an action selector's; p4hls does not write TNA's ActionSelector for Tofino yet",
			"            hdr.ipv4.dstAddr: lpm;\n", "            hdr.ipv4.dstAddr: lpm;\n            hdr.ipv4.srcAddr: selector;\n"},
	})
}

// TestTofinoStandardMetadata: v1model's standard metadata beyond the
// ports comes from Tofino's intrinsic metadata where it has the field (the
// ingress's global timestamp from ig_prsr_md; the egress's timestamps,
// queue depths and replication id from eg_prsr_md and eg_intr_md), and is
// refused, saying why, where it does not.
func TestTofinoStandardMetadata(t *testing.T) {
	const fwd = "        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;\n"
	tofinoVariants(t, "ipv4_lpm.p4", nil, []tofinoVariant{
		{"the ingress timestamp", fwd, fwd + "        hdr.ipv4.identification = (bit<16>) standard_metadata.ingress_global_timestamp;\n", "", "", ""},
		{"the packet length", fwd, fwd + "        hdr.ipv4.totalLen = (bit<16>) standard_metadata.packet_length;\n",
			"control MyIngress reads standard_metadata.packet_length: Tofino's ingress has no packet length", "", ""},
		{"a queue depth in the ingress", fwd, fwd + "        hdr.ipv4.totalLen = (bit<16>) standard_metadata.deq_qdepth;\n",
			"control MyIngress reads standard_metadata.deq_qdepth: v1model fills the queueing metadata in the egress only", "", ""},
		// No clones, resubmits or recirculations: every packet is normal.
		{"the instance type", fwd, fwd + "        if (standard_metadata.instance_type != 0) { hdr.ipv4.ttl = 0; }\n", "", "", ""},
	})
	const apply = "        if (sm.egress_port == sm.ingress_port) {"
	// A register update in a plain egress action, called directly.
	const countHits = "    action count_hits() { bit<32> n; hits.read(n, (bit<32>) sm.egress_port & 15); hits.write((bit<32>) sm.egress_port & 15, n + 1); hdr.ipv4.identification = (bit<16>) n; }\n"
	tofinoVariants(t, "egress_bridge.p4", nil, []tofinoVariant{
		{"queueing metadata in the egress", apply, "        if (sm.enq_qdepth > 100 || sm.deq_qdepth > 100 || sm.deq_timedelta > 5 || sm.enq_timestamp == 1 || sm.egress_rid == 3) { mark_to_drop(sm); }\n" +
			"        hdr.ipv4.identification = (bit<16>) sm.egress_global_timestamp;\n" + apply, "", "", ""},
	})
}
