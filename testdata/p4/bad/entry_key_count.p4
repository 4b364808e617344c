// A const entry with more values than the table has keys.
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
        key = { hdr.app.a : exact; }
        actions = { a; }
        const entries = {
            (1, 2) : a(); // ERROR "entry has 2 values, but there are 1 keys"
        }
    }
    apply {
    }
}

BENCH_MAIN
