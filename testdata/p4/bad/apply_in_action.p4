// A table applied inside an action.
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
    table t { actions = { a; } }
    action b() {
        t.apply(); // ERROR "tables and controls cannot be applied inside an action or function"
    }
    apply {
    }
}

BENCH_MAIN
