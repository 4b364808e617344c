// A small L2/L3 switch of five tables: port mapping, MAC termination, IPv4
// routing, next hop, and an egress ACL. (The interpreter's throughput
// benchmark runs this program.)
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
struct metadata {
    bit<12> vrf;
    bit<1>  routed;
    bit<16> nexthop;
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
    action drop() { mark_to_drop(sm); }
    action set_vrf(bit<12> vrf) { meta.vrf = vrf; }
    action terminate() { meta.routed = 1; }
    action set_nexthop(bit<16> nh) { meta.nexthop = nh; }
    action rewrite(bit<48> smac, bit<48> dmac, bit<9> port) {
        hdr.ethernet.src = smac;
        hdr.ethernet.dst = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        sm.egress_spec = port;
    }

    table port_map {
        key = { sm.ingress_port : exact; }
        actions = { set_vrf; drop; }
        default_action = set_vrf(0);
    }
    table my_mac {
        key = { hdr.ethernet.dst : exact; }
        actions = { terminate; NoAction; }
        default_action = NoAction();
    }
    table routes {
        key = { meta.vrf : exact; hdr.ipv4.dstAddr : lpm; }
        actions = { set_nexthop; drop; }
        default_action = drop();
    }
    table nexthops {
        key = { meta.nexthop : exact; }
        actions = { rewrite; drop; }
        default_action = drop();
    }

    apply {
        port_map.apply();
        my_mac.apply();
        if (meta.routed == 1 && hdr.ipv4.isValid()) {
            routes.apply();
            nexthops.apply();
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action deny() { mark_to_drop(sm); }
    table egress_acl {
        key = { sm.egress_port : exact; hdr.ipv4.protocol : ternary; }
        actions = { deny; NoAction; }
        default_action = NoAction();
    }
    apply { egress_acl.apply(); }
}

control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.ipv4); } }

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
