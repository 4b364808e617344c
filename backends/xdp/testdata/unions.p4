// Header unions on the xdp target: the parser fills one header of a
// union; setValid of a union's header invalidates the others (and zeroes
// its own fields), setInvalid only itself; a union's isValid; headers
// with 128-bit fields, which the program only carries (extracted, copied
// whole, emitted, moved by a header pushed in front).
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header tag_t { bit<8> op; bit<8> arg; }
header a_t { bit<8> x; bit<24> y; }
header b_t { bit<16> p; bit<128> addr; bit<16> q; }
header_union ab_t { a_t a; b_t b; }
header pad_t { bit<32> v; }

struct headers {
    ethernet_t ethernet;
    tag_t      tag;
    pad_t      pad;
    ab_t       u;
    b_t        copy;
}
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.tag);
        transition select(hdr.ethernet.etherType) {
            0x0a0a: pa;
            0x0b0b: pb;
            default: accept;
        }
    }
    state pa { pkt.extract(hdr.u.a); transition accept; }
    state pb { pkt.extract(hdr.u.b); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.tag.op == 1) {
            hdr.u.a.setValid();
            hdr.u.a.x = hdr.tag.arg;
        } else if (hdr.tag.op == 2) {
            hdr.u.b.setValid();
            hdr.u.b.q = 0x1234;
        } else if (hdr.tag.op == 3) {
            hdr.u.b.setInvalid();
        } else if (hdr.tag.op == 4) {
            hdr.copy = hdr.u.b;
            hdr.pad.setValid();
            hdr.pad.v = 0xdeadbeef;
        } else if (hdr.tag.op == 5) {
            hdr.u.a.setInvalid();
        }
        if (hdr.u.isValid()) {
            sm.egress_spec = 2;
        }
        if (hdr.u.a.isValid()) {
            hdr.u.a.y = hdr.u.a.y + 1;
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.tag); pkt.emit(hdr.pad); pkt.emit(hdr.u); pkt.emit(hdr.copy); }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
