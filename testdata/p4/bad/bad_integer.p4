// A hex literal with a digit that is not hex.
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
        hdr.app.a = 8w0xZZ; // ERROR "malformed integer literal \"8w0xZZ\": bad digit for base 16"
    }
}

BENCH_MAIN
