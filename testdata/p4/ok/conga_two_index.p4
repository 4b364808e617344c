// CONGA with its two registers at two indexes: the best path's
// utilization is kept per destination, the best path itself per source
// leaf (a mistake a programmer could make, or a design). The two updates
// read each other's old values (a less utilized path replaces the best
// one; a packet on the best path refreshes its utilization), so one
// stateful ALU must update both in one stage, and a multi-state ALU
// (Tofino's register pair, Banzai's pair) holds its state variables at
// one index. Every target refuses it, and says why and what would fit:
// both registers at one index (conga.p4).
#include <core.p4>
#include <v1model.p4>

#define NUM_DESTS 256

header app_t {
    bit<32> dst;
    bit<32> leaf;     // the source leaf switch
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
        bit<32> lidx = hdr.app.leaf & (NUM_DESTS - 1);
        @atomic {
            bit<32> util;
            bit<32> path;
            best_path_util.read(util, idx);
            best_path.read(path, lidx);
            if (hdr.app.util < util) {
                util = hdr.app.util;
                path = hdr.app.path_id;
            } else if (hdr.app.path_id == path) {
                util = hdr.app.util;
            }
            best_path_util.write(idx, util);
            best_path.write(lidx, path);
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
