// SNAP heavy hitter: count a flow's packets and flag it as heavy once the
// count reaches THRESHOLD (Arashloo et al.; CaT Table 4, the pair ALU).
#include <core.p4>
#include <v1model.p4>

#define THRESHOLD 1000
#define NUM_FLOWS 1024

header app_t {
    bit<32> flow;
    bit<32> heavy;  // out: 1 once the flow is a heavy hitter
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_FLOWS) hh_counter;
    register<bit<32>>(NUM_FLOWS) is_heavy;

    action heavy_hitter() {
        bit<32> idx = hdr.app.flow & (NUM_FLOWS - 1);
        @atomic {
            bit<32> cnt;
            bit<32> heavy;
            hh_counter.read(cnt, idx);
            is_heavy.read(heavy, idx);
            if (heavy == 0) {
                cnt = cnt + 1;
                if (cnt == THRESHOLD) {
                    heavy = 1;
                }
            }
            hh_counter.write(idx, cnt);
            is_heavy.write(idx, heavy);
            hdr.app.heavy = heavy;
        }
    }

    table hh {
        actions = { heavy_hitter; }
        default_action = heavy_hitter();
    }

    apply {
        if (hdr.app.isValid()) {
            hh.apply();
        }
    }
}

BENCH_MAIN
