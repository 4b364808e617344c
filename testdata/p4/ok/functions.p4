// Functions with return values and inout parameters, called from an action
// and from apply.
#include <core.p4>
#include <v1model.p4>

bit<32> max32(in bit<32> a, in bit<32> b) {
    if (a > b) {
        return a;
    }
    return b;
}

void swap32(inout bit<32> a, inout bit<32> b) {
    bit<32> t = a;
    a = b;
    b = t;
}

bit<16> fold(in bit<32> x) {
    return x[31:16] ^ x[15:0];
}

header app_t {
    bit<32> a;
    bit<32> b;
    bit<32> m;
    bit<16> f;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action order() {
        if (hdr.app.a > hdr.app.b) {
            swap32(hdr.app.a, hdr.app.b);
        }
    }

    table t {
        actions = { order; }
        default_action = order();
    }

    apply {
        hdr.app.m = max32(hdr.app.a, hdr.app.b);
        t.apply();
        hdr.app.f = fold(hdr.app.m);
    }
}

BENCH_MAIN
