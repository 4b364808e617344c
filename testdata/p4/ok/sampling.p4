// Sampling: mark every 30th packet for sampling (Domino's sampling, CaT
// Table 4).
#include <core.p4>
#include <v1model.p4>

#define N 30

header app_t {
    bit<32> sample;  // out: 1 when this packet is sampled
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) count;

    action sample() {
        @atomic {
            bit<32> c;
            count.read(c, 0);
            if (c == N - 1) {
                hdr.app.sample = 1;
                c = 0;
            } else {
                hdr.app.sample = 0;
                c = c + 1;
            }
            count.write(0, c);
        }
    }

    table sampler {
        actions = { sample; }
        default_action = sample();
    }

    apply {
        if (hdr.app.isValid()) {
            sampler.apply();
        }
    }
}

BENCH_MAIN
