// Stateful firewall behind a key, after SNAP's (Domino's stateful
// firewall, CaT Table 4): the transaction computes the connection's slot
// itself (array_index = src * 1 + dst, the pair's slot), remembers
// connections opened from the trusted address, and sets the verdict of
// packets to it. It is the action of a table with one exact key on the
// verdict (size 1); the verdict is the transaction's last result, so
// the match, repeated in each stage the transaction spans (CaT §3.3),
// sees the key the packet came with. Banzai pred_raw: CaT 4 stages.
#include <core.p4>
#include <v1model.p4>

#define TRUSTED   10
#define NUM_CONNS 1024

header app_t {
    bit<32> src;
    bit<32> dst;
    bit<32> drop;  // out: 1 when the packet is to be dropped
}

// verdict: 1 for a packet to the trusted address on no connection it
// opened, for the tables after; the firewall matches it as the packet
// arrives (0).
#define BENCH_METADATA bit<32> verdict;
#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_CONNS) established;

    action firewall() {
        @atomic {
            bit<32> idx = (hdr.app.src * 1 + hdr.app.dst) & (NUM_CONNS - 1);
            bit<32> est;
            established.read(est, idx);
            if (hdr.app.src == TRUSTED) {
                est = 1;
                meta.verdict = 0;
                hdr.app.drop = 0;
            } else if (hdr.app.dst == TRUSTED && est == 0) {
                meta.verdict = 1;
                hdr.app.drop = 1;
            } else {
                meta.verdict = 0;
                hdr.app.drop = 0;
            }
            established.write(idx, est);
        }
    }

    table fw {
        key = { meta.verdict: exact; }
        actions = { firewall; NoAction; }
        size = 1;
        default_action = NoAction();
    }

    apply {
        if (hdr.app.isValid()) {
            fw.apply();
        }
    }
}

BENCH_MAIN
