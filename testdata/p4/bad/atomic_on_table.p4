// @atomic on a table.
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
    @atomic // ERROR "@atomic applies to a block statement, not to a table"
    table t { actions = { a; } }
    apply {
    }
}

BENCH_MAIN
