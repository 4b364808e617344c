// A name with no declaration.
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
        y = 1; // ERROR "undeclared name y"
    }
}

BENCH_MAIN
