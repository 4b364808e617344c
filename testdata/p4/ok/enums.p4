// Enums: a plain enum in a local variable, a serializable enum over a
// header field, switch on both, and casts between an enum and its bits.
#include <core.p4>
#include <v1model.p4>

enum bit<8> Op {
    ADD = 1,
    SUB = 2,
    XOR = 3
}

enum Verdict { PASS, DROP }

header app_t {
    bit<8>  op;
    bit<32> x;
    bit<32> y;
    bit<32> result;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        Verdict v = Verdict.PASS;
        Op op = (Op)hdr.app.op;
        switch (op) {
            Op.ADD: { hdr.app.result = hdr.app.x + hdr.app.y; }
            Op.SUB: { hdr.app.result = hdr.app.x - hdr.app.y; }
            Op.XOR: { hdr.app.result = hdr.app.x ^ hdr.app.y; }
            default: { v = Verdict.DROP; }
        }
        if (op == Op.ADD) {
            hdr.app.op = (bit<8>)Op.SUB;
        }
        if (v == Verdict.DROP) {
            mark_to_drop(standard_metadata);
        }
    }
}

BENCH_MAIN
