// A bit<8> where a bool is needed.
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
        bool f = hdr.app.a; // ERROR "initializer of f: cannot use a value of type bit<8> as bool"
    }
}

BENCH_MAIN
