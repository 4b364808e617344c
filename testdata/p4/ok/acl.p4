// An access-control list: ternary matches on the 5-tuple with explicit
// priorities, and a few entries for well-known ports (not const: const
// entries take no priorities).
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
header l4_t { bit<16> srcPort; bit<16> dstPort; }

struct headers { ethernet_t ethernet; ipv4_t ipv4; l4_t l4; }
struct metadata { bit<1> denied; }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x0800: ipv4; default: accept; }
    }
    state ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) { 6: l4; 17: l4; default: accept; }
    }
    state l4 { pkt.extract(hdr.l4); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action deny() { meta.denied = 1; mark_to_drop(sm); }
    action permit() { meta.denied = 0; }
    action permit_to(bit<9> port) { meta.denied = 0; sm.egress_spec = port; }

    table acl {
        key = {
            hdr.ipv4.srcAddr  : ternary;
            hdr.ipv4.dstAddr  : ternary;
            hdr.ipv4.protocol : ternary;
            hdr.l4.srcPort    : ternary;
            hdr.l4.dstPort    : ternary;
        }
        actions = { deny; permit; permit_to; }
        default_action = permit();
        size = 4096;
        entries = {
            priority = 10: (_, _, 6, _, 23) : deny();       // telnet
            priority = 20: (_, _, 17, _, 161) : deny();     // snmp
            priority = 30: (0x0a000000 &&& 0xff000000, _, _, _, _) : permit_to(1);
        }
    }

    apply {
        if (hdr.ipv4.isValid()) {
            acl.apply();
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4); pkt.emit(hdr.l4); }
}

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
