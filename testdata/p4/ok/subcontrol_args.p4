// Sub-controls and their inout arguments: headers and standard metadata
// passed whole, fields passed one by one, and one field passed twice (the
// copies in and out then decide: the last copy out wins).
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header data_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers { ethernet_t eth; data_t data; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.data); transition accept; }
}

control Inc(inout bit<8> x, inout bit<8> y) {
    apply {
        x = x + 1;
        y = y + x;
    }
}

control Forward(inout headers h, inout standard_metadata_t s) {
    apply { s.egress_spec = (bit<9>) h.data.a; }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    Inc() inc;
    Forward() fwd;
    apply {
        inc.apply(hdr.data.a, hdr.data.b);
        inc.apply(hdr.data.c, hdr.data.c);
        fwd.apply(hdr, sm);
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
