// A key with a misspelled match kind.
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
    action a() { }
    table t {
        key = { hdr.app.a : exactt; } // ERROR "exactt is not a match kind \(declared: exact, ternary, lpm, range, optional, selector\)"
        actions = { a; }
    }
    apply {
    }
}

BENCH_MAIN
