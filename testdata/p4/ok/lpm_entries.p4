// Const entries of an lpm table rank by prefix length, not by the order
// written, as any lpm table's: the /4 entry comes first, and the /8 one
// still wins where both match.
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
    action to(bit<9> port) { sm.egress_spec = port; }
    table route {
        key = { hdr.data.a : lpm; }
        actions = { to; }
        default_action = to(9);
        const entries = {
            0x10 &&& 0xf0 : to(1);
            0x12 : to(2);
        }
    }
    apply { route.apply(); }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.eth); pkt.emit(hdr.data); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
