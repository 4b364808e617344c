// A direct action call without all its arguments.
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
    action set(bit<8> x, bit<8> y) { hdr.app.a = x + y; }
    apply {
        set(1); // ERROR "action set: missing argument for parameter y"
    }
}

BENCH_MAIN
