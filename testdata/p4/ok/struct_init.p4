// Struct and list expressions: a struct initialized by field names, a
// header assigned from a list, a tuple, and header equality.
#include <core.p4>
#include <v1model.p4>

struct pair_t {
    bit<32> first;
    bit<32> second;
}

header app_t {
    bit<32> a;
    bit<32> b;
    bit<8>  same;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        pair_t p = { first = hdr.app.b, second = hdr.app.a };
        pair_t q = { hdr.app.a, hdr.app.b };
        tuple<bit<32>, bit<8>> t = { p.first, 8w7 };
        app_t copy = hdr.app;
        hdr.app.a = p.first + q.second;
        hdr.app.b = t[0];
        if (copy == hdr.app) {
            hdr.app.same = 1;
        } else {
            hdr.app.same = t[1];
        }
    }
}

BENCH_MAIN
