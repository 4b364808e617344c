// BLUE (decrease) with C's meaning: lower the marking probability by DELTA
// at most once every FREEZE_TIME ticks (Domino's blue_decrease, CaT Table 4).
// Written with C's meaning of the subtraction: the Domino original computes
// on int, where a difference below zero compares below every time; P4's
// saturating |-| gives 0 there, which compares the same way, where bit<32>'s
// - wraps to a large value (the corpus's blue_decrease.p4 keeps the wrap).
#include <core.p4>
#include <v1model.p4>

#define FREEZE_TIME 10
#define DELTA       1

header app_t {
    bit<32> now;     // arrival time
    bit<32> p_mark;  // out: the marking probability after this packet
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) last_update;
    register<bit<32>>(1) p_mark;

    action blue_decrease() {
        @atomic {
            bit<32> lu;
            bit<32> pm;
            last_update.read(lu, 0);
            p_mark.read(pm, 0);
            bit<32> tmp = hdr.app.now |-| FREEZE_TIME;
            if (tmp > lu) {
                pm = pm - DELTA;
                lu = hdr.app.now;
            }
            last_update.write(0, lu);
            p_mark.write(0, pm);
            hdr.app.p_mark = pm;
        }
    }

    table blue {
        actions = { blue_decrease; }
        default_action = blue_decrease();
    }

    apply {
        if (hdr.app.isValid()) {
            blue.apply();
        }
    }
}

BENCH_MAIN
