// CONGA: keep, per destination, the least utilized path seen so far, and
// refresh the utilization of the current best path (Alizadeh et al.; CaT
// Table 4, the pair ALU).
#include <core.p4>
#include <v1model.p4>

#define NUM_DESTS 256

header app_t {
    bit<32> dst;
    bit<32> path_id;
    bit<32> util;
    bit<32> best_path;  // out
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_DESTS) best_path_util;
    register<bit<32>>(NUM_DESTS) best_path;

    action conga() {
        bit<32> idx = hdr.app.dst & (NUM_DESTS - 1);
        @atomic {
            bit<32> util;
            bit<32> path;
            best_path_util.read(util, idx);
            best_path.read(path, idx);
            if (hdr.app.util < util) {
                util = hdr.app.util;
                path = hdr.app.path_id;
            } else if (hdr.app.path_id == path) {
                util = hdr.app.util;
            }
            best_path_util.write(idx, util);
            best_path.write(idx, path);
            hdr.app.best_path = path;
        }
    }

    table paths {
        actions = { conga; }
        default_action = conga();
    }

    apply {
        if (hdr.app.isValid()) {
            paths.apply();
        }
    }
}

BENCH_MAIN
