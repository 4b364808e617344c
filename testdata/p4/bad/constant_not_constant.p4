// A constant initialized from a packet field.
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
        const bit<8> K = hdr.app.a; // ERROR "value of constant K is not a compile-time constant"
    }
}

BENCH_MAIN
