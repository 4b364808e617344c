// A width prefix of 0.
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
        hdr.app.a = 0w5; // ERROR "integer width 0 is out of range \(1 to 2048\)"
    }
}

BENCH_MAIN
