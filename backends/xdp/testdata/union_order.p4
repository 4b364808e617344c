// A header union whose parser extracts one header and then, on some paths,
// the other, which makes the first invalid: the first's bytes leave the
// packet though the parser extracts in the deparser's order, so the
// deparser cannot write in place (gen.inPlace).
#include <core.p4>
#include <v1model.p4>
header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header a_t { bit<8> x; }
header b_t { bit<16> y; }
header_union ab_t { a_t a; b_t b; }
struct headers { ethernet_t ethernet; ab_t u; }
struct metadata { }
parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.ethernet); pkt.extract(hdr.u.a); transition select(hdr.u.a.x) { 1: pb; default: accept; } }
    state pb { pkt.extract(hdr.u.b); transition accept; }
}
control VC(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { sm.egress_spec = 1; } }
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.u); } }
V1Switch(P(), VC(), I(), E(), CC(), D()) main;
