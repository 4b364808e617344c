// An assignment to an in parameter.
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
    action a(in bit<8> x) {
        x = 1; // ERROR "cannot assign to x: it is an in parameter"
    }
    apply {
    }
}

BENCH_MAIN
