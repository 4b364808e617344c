// A generic header specialized (pair_t<bit<8>>, a name P4 cannot write as
// it is in the programs p4hls writes), and a sub-control whose if-else
// chain is applied twice: each application is inlined, and phase 1 leaves
// the chain, written once for both, as it is.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header pair_t<T> { T lo; T hi; }
struct headers { ethernet_t eth; pair_t<bit<8>> p; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.p); transition accept; }
}

control Classify(inout headers hdr, in bit<8> v) {
    apply {
        if (v == 0) {
        } else if (v[7:4] == 1) {
            hdr.p.hi = hdr.p.hi + 1;
        } else {
            hdr.p.lo = hdr.p.lo + 1;
        }
    }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    Classify() classify;
    apply {
        classify.apply(hdr, hdr.p.lo);
        classify.apply(hdr, hdr.p.hi);
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
