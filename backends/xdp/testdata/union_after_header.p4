// A header union's member extracted right after a first header of one
// byte whose field the parser selects on (p4c's header-bool-bmv2 shape): clang
// read the member through the pointer of the first header's state, which
// the kernel's verifier had not seen checked for the second byte.
#include <core.p4>
#include <v1model.p4>

header h1_t { bit<7> a; bool x; }
header h2_t { bit<16> b; }
header_union u_t { h1_t h1; h2_t h2; }
struct headers { h1_t h1; u_t u; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.h1);
        transition select(hdr.h1.a) {
            0: one;
            default: two;
        }
    }
    state one { pkt.extract(hdr.u.h1); transition accept; }
    state two { pkt.extract(hdr.u.h2); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (hdr.u.h1.isValid() && hdr.u.h1.x) {
            hdr.h1.a = 0x55;
        } else if (hdr.u.h2.isValid()) {
            hdr.h1.a = (bit<7>) hdr.u.h2.b;
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
