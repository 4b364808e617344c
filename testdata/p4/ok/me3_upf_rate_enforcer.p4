// ME-3 (CaT Figure 4): the rate enforcer of a UPF (5G user plane function),
// after UP4's. Two meters colour each packet, the session's and the
// application's; here they ran upstream and their colours come in the packet
// (colour-aware policing). Red drops the packet; a yellow session marks
// each QoS flow with an assured-forwarding class (DSCP) one step down; a
// yellow application demotes all but conversational traffic to best effort. Written as if-else, the enforcer needs 8 gateways
// and 9 keyless tables: 17 logical tables, one more than a Tofino stage
// holds, so 2 stages. As one table keyed on the colours and the QFI it needs
// 1 stage and no gateway.
#include <core.p4>
#include <v1model.p4>

#define QFI_CONVERSATIONAL 1
#define QFI_STREAMING      2
#define QFI_INTERACTIVE    3

// DSCP code points, in the IPv4 diffserv byte (DSCP << 2)
#define DSCP_AF41 0x88
#define DSCP_AF31 0x68
#define DSCP_AF21 0x48
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

    apply {
        if (hdr.app.session_color == V1MODEL_METER_COLOR_RED) {
            drop();
        } else if (hdr.app.app_color == V1MODEL_METER_COLOR_RED) {
            drop();
        } else if (hdr.app.session_color == V1MODEL_METER_COLOR_YELLOW) {
            // the session is over its rate: every flow drops a class
            if (hdr.app.qfi == QFI_CONVERSATIONAL) {
                set_dscp(DSCP_AF41);
            } else if (hdr.app.qfi == QFI_STREAMING) {
                set_dscp(DSCP_AF31);
            } else if (hdr.app.qfi == QFI_INTERACTIVE) {
                set_dscp(DSCP_AF21);
            } else {
                demote();
            }
        } else if (hdr.app.app_color == V1MODEL_METER_COLOR_YELLOW) {
            // the application is over its rate: real-time flows keep their class
            if (hdr.app.qfi == QFI_CONVERSATIONAL) {
                keep();
            } else {
                demote();
            }
        } else {
            keep();
        }
    }
}

BENCH_MAIN
