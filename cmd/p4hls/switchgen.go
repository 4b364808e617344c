package main

import (
	"fmt"
	"strings"
)

// switchProgram writes a switch-scale v1model program of n tables, in
// layers the way a switch's pipeline is: the first layer matches packet
// headers (exact, LPM and ternary keys); each later layer matches the
// metadata the layer before it set (a match dependency per layer). Table
// sizes vary from 512 to 16,384 entries, so the larger ones split into
// parts on a target with 4,096 entries per table and stage. Every 20th
// table also sets the packet's DSCP, so those depend on each other too.
func switchProgram(n, layers int) string {
	var b strings.Builder
	b.WriteString(`#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dstAddr; bit<48> srcAddr; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen; bit<16> identification;
    bit<3> flags; bit<13> fragOffset; bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
struct headers { ethernet_t ethernet; ipv4_t ipv4; }
struct metadata {
`)
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "    bit<16> m%d;\n", k)
	}
	b.WriteString(`}

parser SwitchParser(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control SwitchVerify(inout headers hdr, inout metadata meta) { apply { } }

control SwitchIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
`)
	sizes := []int{512, 1024, 2048, 4096, 1024, 8192, 2048, 16384}
	headerKeys := []string{"hdr.ipv4.dstAddr: lpm", "hdr.ethernet.dstAddr: exact", "hdr.ipv4.srcAddr: ternary", "hdr.ipv4.protocol: exact"}
	width := (n + layers - 1) / layers
	for k := 0; k < n; k++ {
		layer := k / width
		key := headerKeys[k%len(headerKeys)]
		if layer > 0 {
			prev := (layer-1)*width + k%width
			kind := "exact"
			if k%3 == 0 {
				kind = "ternary"
			}
			key = fmt.Sprintf("meta.m%d: %s", prev, kind)
		}
		dscp := ""
		if k%20 == 19 {
			dscp = "\n        hdr.ipv4.diffserv = (bit<8>) v;"
		}
		fmt.Fprintf(&b, `    action set%d(bit<16> v) {
        meta.m%d = v;%s
    }
    table t%d {
        key = { %s; }
        actions = { set%d; NoAction; }
        default_action = NoAction();
        size = %d;
    }
`, k, k, dscp, k, key, k, sizes[k%len(sizes)])
	}
	b.WriteString("    apply {\n")
	for k := 0; k < n; k++ {
		fmt.Fprintf(&b, "        t%d.apply();\n", k)
	}
	b.WriteString(`    }
}

control SwitchEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control SwitchCompute(inout headers hdr, inout metadata meta) { apply { } }
control SwitchDeparser(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(SwitchParser(), SwitchVerify(), SwitchIngress(), SwitchEgress(), SwitchCompute(), SwitchDeparser()) main;
`)
	return b.String()
}
