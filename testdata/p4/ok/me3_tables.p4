// ME-3 with tables in its branches: the UPF rate enforcer of
// me3_upf_rate_enforcer.p4, where the control plane says per QoS flow
// what a yellow session or a yellow application does to the packet's
// class (two tables keyed on the QFI) instead of the program. Written as
// if-else, it needs 4 gateways and 4 tables (two keyless ones for the
// drops); phase 1 makes one table keyed on the two colours whose actions
// drop or choose the QFI table to apply next: no gateway, 3 tables,
// 1 stage.
#include <core.p4>
#include <v1model.p4>

#define DSCP_BEST_EFFORT 0

header app_t {
    bit<32> session;        // the UE session the packet belongs to
    bit<8>  session_color;  // the session meter's colour (V1MODEL_METER_COLOR_*)
    bit<8>  app_color;      // the application meter's colour
    bit<8>  qfi;            // QoS flow identifier
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action drop() {
        mark_to_drop(standard_metadata);
    }

    action set_dscp(bit<8> dscp) {
        hdr.ipv4.diffserv = dscp;
    }

    action demote() {
        hdr.ipv4.diffserv = DSCP_BEST_EFFORT;
    }

    action keep() {
    }

    // A yellow session: each QoS flow drops a class (the entries say to
    // which); flows without an entry go to best effort.
    table session_yellow {
        key = { hdr.app.qfi: exact; }
        actions = { set_dscp; demote; }
        default_action = demote();
        size = 64;
    }

    // A yellow application: the flows with an entry keep their class.
    table app_yellow {
        key = { hdr.app.qfi: exact; }
        actions = { keep; demote; }
        default_action = demote();
        size = 64;
    }

    apply {
        if (hdr.app.session_color == V1MODEL_METER_COLOR_RED) {
            drop();
        } else if (hdr.app.app_color == V1MODEL_METER_COLOR_RED) {
            drop();
        } else if (hdr.app.session_color == V1MODEL_METER_COLOR_YELLOW) {
            session_yellow.apply();
        } else if (hdr.app.app_color == V1MODEL_METER_COLOR_YELLOW) {
            app_yellow.apply();
        }
    }
}

BENCH_MAIN
