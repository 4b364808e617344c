// An exact-match firewall: a 5-tuple table allows a flow out of a port;
// anything else is dropped.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
header ports_t { bit<16> src; bit<16> dst; }
struct headers { ethernet_t ethernet; ipv4_t ipv4; ports_t ports; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x0800: ipv4; default: accept; }
    }
    state ipv4 {
        pkt.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) { 6: ports; 17: ports; default: accept; }
    }
    state ports { pkt.extract(hdr.ports); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action allow(bit<9> port) { sm.egress_spec = port; }
    action deny() { mark_to_drop(sm); }
    table flows {
        key = {
            hdr.ipv4.srcAddr: exact;
            hdr.ipv4.dstAddr: exact;
            hdr.ipv4.protocol: exact;
            hdr.ports.src: exact;
            hdr.ports.dst: exact;
        }
        actions = { allow; deny; }
        default_action = deny();
        size = 65536;
    }
    apply {
        if (hdr.ports.isValid()) {
            flows.apply();
        } else {
            mark_to_drop(sm);
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4); pkt.emit(hdr.ports); }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
