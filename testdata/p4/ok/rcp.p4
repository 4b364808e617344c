// RCP: accumulate the traffic and the round-trip times the Rate Control
// Protocol computes its rate from (Dukkipati; Domino's rcp, CaT Table 4).
#include <core.p4>
#include <v1model.p4>

#define MAX_ALLOWABLE_RTT 30

header app_t {
    bit<32> size_bytes;
    bit<32> rtt;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) input_traffic_bytes;
    register<bit<32>>(1) sum_rtt;
    register<bit<32>>(1) num_pkts_with_rtt;

    action rcp() {
        @atomic {
            bit<32> traffic;
            bit<32> rtt_sum;
            bit<32> pkts;
            input_traffic_bytes.read(traffic, 0);
            sum_rtt.read(rtt_sum, 0);
            num_pkts_with_rtt.read(pkts, 0);
            traffic = traffic + hdr.app.size_bytes;
            if (hdr.app.rtt < MAX_ALLOWABLE_RTT) {
                rtt_sum = rtt_sum + hdr.app.rtt;
                pkts = pkts + 1;
            }
            input_traffic_bytes.write(0, traffic);
            sum_rtt.write(0, rtt_sum);
            num_pkts_with_rtt.write(0, pkts);
        }
    }

    table rcp_stats {
        actions = { rcp; }
        default_action = rcp();
    }

    apply {
        if (hdr.app.isValid()) {
            rcp_stats.apply();
        }
    }
}

BENCH_MAIN
