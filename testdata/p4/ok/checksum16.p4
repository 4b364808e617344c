// The Checksum16 extern: compute the Internet checksum of a list of fields
// into a header field.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<16> a;
    bit<16> b;
    bit<8>  c;
    bit<16> sum;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    Checksum16() ck;

    apply {
        hdr.app.sum = ck.get({ hdr.app.a, hdr.app.b, hdr.app.c });
    }
}

BENCH_MAIN
