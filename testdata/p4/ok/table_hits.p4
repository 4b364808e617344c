// Tables applied inside expressions: a declaration's initializer, the
// right operand of || (applied only when the left one is false, P4-16
// §8.6) and a conditional expression. Each table's action counts in a
// field of its own, so a table applied when it must not be shows.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header data_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers { ethernet_t eth; data_t data; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.data); transition accept; }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action count_b() { hdr.data.b = hdr.data.b + 1; }
    action count_c() { hdr.data.c = hdr.data.c + 1; }
    action count_d() { hdr.data.d = hdr.data.d + 1; }
    table ta { key = { hdr.data.a : exact; } actions = { count_b; NoAction; } default_action = NoAction(); }
    table tb { key = { hdr.data.a : exact; } actions = { count_c; NoAction; } default_action = NoAction(); }
    table tc { key = { hdr.data.a : exact; } actions = { count_d; NoAction; } default_action = NoAction(); }
    apply {
        bool found = ta.apply().hit;
        if (found || tb.apply().hit) {
            sm.egress_spec = 2;
        } else {
            sm.egress_spec = 3;
        }
        hdr.data.a = tc.apply().miss ? 8w0xaa : hdr.data.a;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.data); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
