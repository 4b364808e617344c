// Sampling behind a key: CaT's sampling input, where the 1-in-N sampling
// transaction is the action of a table with one exact key on a metadata
// field (size 1), and the action writes that field. The transaction takes
// two stages (the count, then whether it wrapped), so the table's match
// repeats in both (CaT §3.3); the key changes only when the second
// ends, so both matches see the key the packet came with. Banzai
// if_else_raw: 2 stages, as CaT.
#include <core.p4>
#include <v1model.p4>

#define N 30

header app_t {
    bit<32> sample;  // out: 1 when this packet is sampled
}

// sampled: whether the packet was sampled, for the tables after (a mirror
// session, say); the sampler matches it as the packet arrives (0).
#define BENCH_METADATA bit<32> sampled;
#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) count;

    action sample() {
        @atomic {
            bit<32> c;
            count.read(c, 0);
            if (c == N - 1) {
                meta.sampled = 1;
                hdr.app.sample = 1;
                c = 0;
            } else {
                meta.sampled = 0;
                hdr.app.sample = 0;
                c = c + 1;
            }
            count.write(0, c);
        }
    }

    table sampler {
        key = { meta.sampled: exact; }
        actions = { sample; NoAction; }
        size = 1;
        default_action = NoAction();
    }

    apply {
        if (hdr.app.isValid()) {
            sampler.apply();
        }
    }
}

BENCH_MAIN
