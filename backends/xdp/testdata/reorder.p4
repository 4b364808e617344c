// The deparser emits headers in an order other than the parser's (c
// before b), and drops one the parser extracted (d): headers move without
// the program making any valid or invalid, so the deparser cannot write
// in place (gen.inPlace says no).
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header a_t { bit<8> kind; bit<24> v; }
header b_t { bit<16> w; }
header c_t { bit<40> z; }
header d_t { bit<8> gone; }

struct headers { ethernet_t ethernet; a_t a; c_t c; b_t b; d_t d; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.a);
        transition select(hdr.a.kind) { 1: pb; 2: pd; default: accept; }
    }
    state pb { pkt.extract(hdr.b); pkt.extract(hdr.c); transition accept; }
    state pd { pkt.extract(hdr.d); pkt.extract(hdr.b); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }
control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        hdr.a.v = hdr.a.v + 1;
    }
}
control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.a); pkt.emit(hdr.c); pkt.emit(hdr.b); }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
