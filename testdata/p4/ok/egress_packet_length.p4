// The egress reads the packet's length, as link monitors do to count
// bytes: v1model's standard_metadata.packet_length is the length the
// packet came in with. Tofino's egress has it in eg_intr_md.pkt_length,
// with the frame check sequence counted; its ingress has none.
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header len_t { bit<16> bytes; bit<16> total; }
struct headers { ethernet_t eth; len_t len; }
struct metadata { }
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.eth); pkt.extract(hdr.len); transition accept; }
}
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 1; }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    register<bit<32>>(1) bytes;
    apply {
        hdr.len.bytes = (bit<16>) sm.packet_length;
        bit<32> total;
        bytes.read(total, 0);
        total = total + sm.packet_length;
        bytes.write(0, total);
        hdr.len.total = (bit<16>) total;
    }
}
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
