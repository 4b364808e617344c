// @atomic on an action instead of a block.
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
    @atomic // ERROR "@atomic applies to a block statement, not to an action; write it before the \{ of a block inside an action"
    action a() { }
    apply {
    }
}

BENCH_MAIN
