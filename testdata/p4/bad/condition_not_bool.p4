// An if condition that is not bool.
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
        if (hdr.app.a) { // ERROR "an if condition must be bool, not bit<8>"
            hdr.app.a = 0;
        }
    }
}

BENCH_MAIN
