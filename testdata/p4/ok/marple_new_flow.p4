// Marple new flow: flag the first packet of each flow (Narayana et al.;
// CaT Table 4).
#include <core.p4>
#include <v1model.p4>

#ifndef NUM_FLOWS  // -D NUM_FLOWS=1 gives the one-cell variant Menshen runs
#define NUM_FLOWS 1024
#endif

header app_t {
    bit<32> flow;      // flow identifier
    bit<32> new_flow;  // out: 1 on the flow's first packet
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_FLOWS) seen;

    action new_flow() {
        bit<32> idx = hdr.app.flow & (NUM_FLOWS - 1);
        @atomic {
            bit<32> s;
            seen.read(s, idx);
            if (s == 0) {
                hdr.app.new_flow = 1;
                s = 1;
            } else {
                hdr.app.new_flow = 0;
            }
            seen.write(idx, s);
        }
    }

    table flows {
        actions = { new_flow; }
        default_action = new_flow();
    }

    apply {
        if (hdr.app.isValid()) {
            flows.apply();
        }
    }
}

BENCH_MAIN
