// Register code in the apply block between table applications, as a
// firewall's bloom filter is written: straight-line reads and writes on
// variables the apply block declares, in branches that also apply a
// table (so phase 1 keeps the if). For Tofino, phase 1 makes each run of
// register statements an action of its own, and the apply block's
// variables the control's.
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header flow_t { bit<8> dir; bit<8> key; bit<8> seen; bit<8> count; }
struct headers { ethernet_t eth; flow_t flow; }
struct metadata { }
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.flow); transition accept; }
}
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    register<bit<1>>(16) filter;
    register<bit<8>>(16) counts;
    action set_port(bit<9> port) { sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }
    table route {
        key = { hdr.eth.dst: exact; }
        actions = { set_port; drop; }
        default_action = set_port(1);
    }
    apply {
        bit<32> cell = (bit<32>) hdr.flow.key[3:0];
        if (hdr.flow.dir == 0) {
            route.apply();
            filter.write(cell, 1);
            bit<8> n;
            counts.read(n, cell);
            n = n + 1;
            counts.write(cell, n);
            hdr.flow.count = n;
        } else {
            bit<1> seen;
            filter.read(seen, cell);
            hdr.flow.seen = (bit<8>) seen;
            if (seen == 0) {
                drop();
            }
        }
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
