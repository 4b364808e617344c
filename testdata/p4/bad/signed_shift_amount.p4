// A shift by a signed amount.
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
        int<8> s = -1;
        hdr.app.c = hdr.app.c << s; // ERROR "a shift amount must be unsigned, not int<8>"
    }
}

BENCH_MAIN
