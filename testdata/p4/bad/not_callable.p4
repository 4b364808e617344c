// A call of a header field.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<8>  a;
    bit<16> b;
    bit<32> c;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        hdr.app.a(); // ERROR "hdr.app.a is not a function, method or action \(its type is bit<8>\)"
    }
}

BENCH_MAIN
