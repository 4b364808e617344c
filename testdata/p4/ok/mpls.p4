// MPLS label switching with a header stack: the parser walks the label
// stack to its bottom; the ingress swaps, pushes or pops the top label.
#include <core.p4>
#include <v1model.p4>

#define MAX_LABELS 4

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header mpls_t { bit<20> label; bit<3> tc; bit<1> bos; bit<8> ttl; }

struct headers {
    ethernet_t ethernet;
    mpls_t[MAX_LABELS] mpls;
}
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x8847: label; default: accept; }
    }
    state label {
        pkt.extract(hdr.mpls.next);
        transition select(hdr.mpls.last.bos) { 1: accept; default: label; }
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action swap(bit<20> label, bit<9> port) {
        hdr.mpls[0].label = label;
        hdr.mpls[0].ttl = hdr.mpls[0].ttl - 1;
        sm.egress_spec = port;
    }
    action push(bit<20> label, bit<9> port) {
        hdr.mpls.push_front(1);
        hdr.mpls[0].setValid();
        hdr.mpls[0].label = label;
        hdr.mpls[0].tc = hdr.mpls[1].tc;
        hdr.mpls[0].bos = 0;
        hdr.mpls[0].ttl = hdr.mpls[1].ttl - 1;
        sm.egress_spec = port;
    }
    action pop(bit<9> port) {
        hdr.mpls.pop_front(1);
        sm.egress_spec = port;
    }
    action drop() { mark_to_drop(sm); }

    table lfib {
        key = { hdr.mpls[0].label : exact; }
        actions = { swap; push; pop; drop; }
        default_action = drop();
        size = 65536;
    }

    apply {
        if (hdr.mpls[0].isValid()) {
            lfib.apply();
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.mpls); }
}

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
