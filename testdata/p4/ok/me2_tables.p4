// ME-2 with tables in its branches: each round of the hash applies a table
// of its own, keyed on the flow's source, whose action mixes one word with
// the flow's key into the result. The three tables write one field under
// disjoint conditions. Written as three if statements, a compiler that
// ignores the guards sees write-after-write dependencies between the
// tables and needs 3 stages and 3 gateways; phase 1 turns the conditions
// into one table keyed on the round and applies each round's table in
// the case of the action it ran (a switch on action_run is the table's
// choice of next table, not a gateway): 0 gateways and 1 stage.
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
    action mix_a(bit<32> k) { hdr.app.result = hdr.app.a ^ k; }
    action mix_b(bit<32> k) { hdr.app.result = hdr.app.b ^ k; }
    action mix_c(bit<32> k) { hdr.app.result = hdr.app.c ^ k; }

    table round1 {
        key = { hdr.ipv4.srcAddr: exact; }
        actions = { mix_a; NoAction; }
        default_action = NoAction();
        size = 256;
    }
    table round2 {
        key = { hdr.ipv4.srcAddr: exact; }
        actions = { mix_b; NoAction; }
        default_action = NoAction();
        size = 256;
    }
    table round3 {
        key = { hdr.ipv4.srcAddr: exact; }
        actions = { mix_c; NoAction; }
        default_action = NoAction();
        size = 256;
    }

    apply {
        if (hdr.app.round == V1) {
            round1.apply();
        }
        if (hdr.app.round == V2) {
            round2.apply();
        }
        if (hdr.app.round == V3) {
            round3.apply();
        }
    }
}

BENCH_MAIN
