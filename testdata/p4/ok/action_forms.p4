// Actions as programs others write them: declared at the top level and
// used by a table (a directional argument bound in its actions list) or
// called from the apply block; one calling another; direct calls with
// named arguments, a parameter's default value and _ for an out value; and
// a table action that writes through an out parameter bound in the
// actions list.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header data_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
struct headers { ethernet_t eth; data_t data; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.data); transition accept; }
}

action forward(inout standard_metadata_t sm, bit<9> port) { sm.egress_spec = port; }
action diff(out bit<8> x, in bit<8> y, in bit<8> z = 3) { x = y - z; }
action diff_twice(inout bit<8> x) {
    diff(x, x);     // x - 3
    diff(x, x, 1);  // then - 1
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action put(out bit<8> r, bit<8> v) { r = v; }
    action mark(out bit<8> r) { r = 0xee; }
    table route {
        key = { hdr.data.a : exact; }
        actions = { forward(sm); NoAction; }
        default_action = forward(sm, 1);
    }
    table fill {
        key = { hdr.data.a : exact; }
        actions = { put(hdr.data.d); NoAction; }
        default_action = NoAction();
    }
    apply {
        route.apply();
        diff(y = hdr.data.a, x = hdr.data.b);
        diff_twice(hdr.data.c);
        mark(_);
        fill.apply();
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.data); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
