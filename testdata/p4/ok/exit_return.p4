// exit and return: return leaves an action or the apply block; exit
// leaves the whole control.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<8> stage;
    bit<8> stop_at;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action step() {
        if (hdr.app.stage == hdr.app.stop_at) {
            return;
        }
        hdr.app.stage = hdr.app.stage + 1;
    }

    table steps {
        actions = { step; }
        default_action = step();
    }

    apply {
        standard_metadata.egress_spec = 7;  // kept whichever way the control ends
        steps.apply();
        if (hdr.app.stage == 1) {
            return;
        }
        steps.apply();
        if (hdr.app.stage == 2) {
            exit;
        }
        steps.apply();
    }
}

BENCH_MAIN
