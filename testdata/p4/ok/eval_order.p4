// The order of evaluation of an assignment (P4-16 §8.1): the left side
// first, and once. A stack index with a side effect (bump) is evaluated
// once under |=; an index a call on the right side changes (take zeroes
// c) is read before the call.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header data_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header word_t { bit<8> x; }
struct headers { ethernet_t eth; data_t data; word_t[4] w; }
struct metadata { }

bit<8> bump(inout bit<8> i) {
    i = i + 1;
    return i;
}

bit<8> take(inout bit<8> i) {
    i = 0;
    return 7;
}

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        pkt.extract(hdr.data);
        pkt.extract(hdr.w.next);
        pkt.extract(hdr.w.next);
        pkt.extract(hdr.w.next);
        pkt.extract(hdr.w.next);
        transition accept;
    }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        hdr.w[bump(hdr.data.a) & 3].x |= hdr.data.b;
        hdr.w[hdr.data.c & 3].x = take(hdr.data.c);
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
