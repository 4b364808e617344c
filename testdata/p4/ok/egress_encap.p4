// An ingress that encapsulates and an egress that works on what it added:
// the ingress pushes a tag header after Ethernet and changes the
// EtherType its parser selects on; the egress counts a hop in the tag.
// (On Tofino the egress parser cannot re-parse that packet with the
// program's parser, which knows no tag: it extracts the headers the
// ingress left valid, by the validity bits the bridge carries.)
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header tag_t { bit<8> hops; bit<8> port; bit<16> etherType; }
header ipv4_t {
    bit<8> verIhl; bit<8> tos; bit<16> len; bit<16> id; bit<16> frag;
    bit<8> ttl; bit<8> proto; bit<16> csum; bit<32> src; bit<32> dst;
}
struct headers { ethernet_t ethernet; tag_t tag; ipv4_t ipv4; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x0800: ipv4; default: accept; }
    }
    state ipv4 { pkt.extract(hdr.ipv4); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action encap(bit<9> port) {
        hdr.tag.setValid();
        hdr.tag.hops = 0;
        hdr.tag.port = (bit<8>) port;
        hdr.tag.etherType = hdr.ethernet.etherType;
        hdr.ethernet.etherType = 0x88b5;
        sm.egress_spec = port;
    }
    action forward(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table route {
        key = { hdr.ipv4.dst : exact; }
        actions = { encap; forward; drop; }
        default_action = drop();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            route.apply();
        } else {
            drop();
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.tag.isValid()) {
            hdr.tag.hops = hdr.tag.hops + 1;
            hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
        }
    }
}

control CC(inout headers hdr, inout metadata meta) { apply { } }

control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.tag); pkt.emit(hdr.ipv4); }
}

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
