// Tuples and struct initializers on the xdp target: a tuple from a list,
// its elements read and written, hashed whole; a struct of a header and a
// tuple initialized by names and compared; headers compared when one or
// both are invalid.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header app_t { bit<16> a; bit<8> b; bit<8> res; bit<32> h; }

struct pair_t {
    app_t              hd;
    tuple<bit<8>, bit<16>> tp;
}

struct headers { ethernet_t ethernet; app_t app; app_t other; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x0a0a: app; 0x0b0b: both; default: accept; }
    }
    state app { pkt.extract(hdr.app); transition accept; }
    state both { pkt.extract(hdr.app); pkt.extract(hdr.other); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        tuple<bit<16>, bit<8>> t = { hdr.app.a, hdr.app.b };
        t[1] = t[1] + 3;
        pair_t p = { hd = hdr.app, tp = { t[1], t[0] } };
        pair_t q = { hdr.other, { hdr.app.b + 3, hdr.app.a } };
        bit<8> r = 0;
        if (p == q) { r = r | 1; }
        if (hdr.app == hdr.other) { r = r | 2; }
        if (t != { hdr.other.a, hdr.other.b }) { r = r | 4; }
        if (p.tp == q.tp) { r = r | 8; }
        hash(hdr.app.h, HashAlgorithm.crc32, 32w0, t, 32w0);
        hdr.app.res = r;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.app); pkt.emit(hdr.other); }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
