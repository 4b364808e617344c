// Parser features: lookahead to choose a branch, advance to skip bytes,
// verify to reject, and a select on a parser error in ingress.
#include <core.p4>
#include <v1model.p4>

error { BadVersion }

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header probe_t { bit<8> version; bit<8> kind; bit<16> len; }

struct headers { ethernet_t ethernet; probe_t probe; }
struct metadata { bit<8> peek; }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x9000: peek; default: accept; }
    }
    state peek {
        meta.peek = pkt.lookahead<bit<8>>();
        transition select(meta.peek) {
            0: skip;
            default: probe;
        }
    }
    state skip {
        pkt.advance(32);
        transition probe;
    }
    state probe {
        pkt.extract(hdr.probe);
        verify(hdr.probe.version == 1, error.BadVersion);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.parser_error == error.BadVersion) {
            mark_to_drop(sm);
        } else if (sm.parser_error == error.PacketTooShort) {
            sm.egress_spec = 1;
        }
    }
}
control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.probe); } }

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
