// ME-2 (CaT Figure 3, simplified from SipHash): three assignments to one
// field under disjoint conditions. A dependency analysis that ignores the
// guards sees write-after-write dependencies and needs 3 stages; the
// conditions are disjoint, so one table in 1 stage does it.
#include <core.p4>
#include <v1model.p4>

#define V1 1
#define V2 2
#define V3 3

header app_t {
    bit<8>  round;  // which step of the hash this packet is at
    bit<32> a;
    bit<32> b;
    bit<32> c;
    bit<32> result;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action set_a() { hdr.app.result = hdr.app.a; }
    action set_b() { hdr.app.result = hdr.app.b; }
    action set_c() { hdr.app.result = hdr.app.c; }

    apply {
        if (hdr.app.round == V1) {
            set_a();
        }
        if (hdr.app.round == V2) {
            set_b();
        }
        if (hdr.app.round == V3) {
            set_c();
        }
    }
}

BENCH_MAIN
