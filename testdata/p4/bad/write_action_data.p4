// An assignment to action data.
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
    action a(bit<8> v) {
        v = 1; // ERROR "cannot assign to v: it is a directionless parameter \(action data set by the control plane\)"
    }
    apply {
    }
}

BENCH_MAIN
