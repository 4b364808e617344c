// A default action the table may not run.
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
    action b() { }
    table t {
        actions = { a; }
        default_action = b(); // ERROR "default action b is not in the actions of table t"
    }
    apply {
    }
}

BENCH_MAIN
