// Register code in the apply block, as tutorials write it: an if-else
// chain whose branch counts in a narrow (bit<8>) register, indexed by a
// variable of the control. Phase 1 makes the chain a table whose actions
// hold the branches; synthesis maps the counting one onto a stateful ALU.
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
    register<bit<8>>(16) counts;
    bit<32> cell;
    bit<8> n;
    apply {
        cell = (bit<32>) hdr.data.a[3:0];
        if (hdr.data.b == 1) {
            counts.read(n, cell);
            n = n + 1;
            counts.write(cell, n);
            hdr.data.d = n;
        } else if (hdr.data.b == 2) {
            hdr.data.d = 0xee;
        }
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
