// ME-3's shape over plain registers: the UPF rate enforcer's nested ifs on
// the colours of the session's and the application's meters (which ran
// upstream: the colours come in the packet), each branch counting the
// packet in one of three per-session counters. The counters are ordinary
// actions, as most v1model programs write them: a read, an increment and a
// write, with no @atomic block. Each is one stateful ALU; phase 1 turns
// the ifs into one table keyed on the colours and the QFI.
#include <core.p4>
#include <v1model.p4>

#define QFI_CONVERSATIONAL 1

header app_t {
    bit<32> session;        // the UE session: its counters are cell session & 15
    bit<8>  session_color;  // V1MODEL_METER_COLOR_*: green 0, yellow 1, red 2
    bit<8>  app_color;
    bit<8>  qfi;
    bit<32> count;          // out: the packet's counter after it
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(16) green_pkts;
    register<bit<32>>(16) yellow_pkts;
    register<bit<32>>(16) red_pkts;

    action count_green() {
        bit<32> n;
        green_pkts.read(n, hdr.app.session & 15);
        n = n + 1;
        green_pkts.write(hdr.app.session & 15, n);
        hdr.app.count = n;
    }

    action count_yellow() {
        bit<32> n;
        yellow_pkts.read(n, hdr.app.session & 15);
        n = n + 1;
        yellow_pkts.write(hdr.app.session & 15, n);
        hdr.app.count = n;
    }

    // A red packet is counted and dropped.
    action count_red() {
        bit<32> n;
        red_pkts.read(n, hdr.app.session & 15);
        red_pkts.write(hdr.app.session & 15, n + 1);
        mark_to_drop(standard_metadata);
    }

    action pass() {
    }

    apply {
        if (hdr.app.isValid()) {
            if (hdr.app.session_color == V1MODEL_METER_COLOR_RED) {
                count_red();
            } else if (hdr.app.app_color == V1MODEL_METER_COLOR_RED) {
                count_red();
            } else if (hdr.app.session_color == V1MODEL_METER_COLOR_YELLOW) {
                // conversational traffic of a yellow session passes uncounted
                if (hdr.app.qfi == QFI_CONVERSATIONAL) {
                    pass();
                } else {
                    count_yellow();
                }
            } else if (hdr.app.app_color == V1MODEL_METER_COLOR_YELLOW) {
                count_yellow();
            } else {
                count_green();
            }
        }
    }
}

BENCH_MAIN
