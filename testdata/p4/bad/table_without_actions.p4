// A table with no actions property.
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
    table t { // ERROR "table t has no actions property"
        key = { hdr.app.a : exact; }
    }
    apply {
    }
}

BENCH_MAIN
