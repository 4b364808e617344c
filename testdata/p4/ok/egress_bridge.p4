// An egress that reads what the ingress decided: a bool and a nested
// struct of metadata, the ingress port, and the egress port; it changes
// the TTL and the DSCP, and the checksum is computed over the result.
// (On Tofino the egress is a pipeline of its own: the metadata and the
// ingress port cross in a bridge header.)
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}

struct headers { ethernet_t ethernet; ipv4_t ipv4; }
struct route_t {
    bit<8> hops;  // the TTL the path costs
    bit<4> cls;   // the traffic class, from the DSCP's high bits
}
struct metadata {
    bool    routed;
    route_t route;
}

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x0800: ipv4; default: accept; }
    }
    state ipv4 { pkt.extract(hdr.ipv4); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action route(bit<9> port, bit<8> hops) {
        sm.egress_spec = port;
        meta.routed = true;
        meta.route.hops = hops;
        meta.route.cls = hdr.ipv4.diffserv[7:4];
    }
    action drop() { mark_to_drop(sm); }
    table routes {
        key = { hdr.ipv4.dstAddr : lpm; }
        actions = { route; drop; }
        default_action = drop();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            routes.apply();
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action age() { hdr.ipv4.ttl = hdr.ipv4.ttl - meta.route.hops; }
    action mark(bit<8> dscp) { hdr.ipv4.diffserv = dscp; }
    table qos {
        key = { meta.route.cls : exact; sm.ingress_port : exact; }
        actions = { mark; NoAction; }
        default_action = NoAction();
    }
    apply {
        if (sm.egress_port == sm.ingress_port) {
            mark_to_drop(sm);  // never back where it came from
        } else if (meta.routed) {
            age();
            qos.apply();
        }
    }
}

control CC(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset, hdr.ipv4.ttl,
              hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4); } }

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
