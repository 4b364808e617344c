// A constant passed to an out parameter.
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
        random(8w7, 8w0, 8w10); // ERROR "cannot pass as out argument an expression that is not a variable, field or slice"
    }
}

BENCH_MAIN
