// ME-3 (CaT Figure 4): the rate enforcer of a UPF (5G user plane function).
// A meter colours each session's traffic; red packets are dropped and
// yellow ones demoted. Written with if-else on the colour, it needs a gateway
// per condition and 2 stages; as one table keyed on the colour, 1 stage.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<32> session;  // the UE session the packet belongs to
    bit<8>  qfi;      // QoS flow identifier
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    meter<bit<32>>(1024, MeterType.bytes) session_meter;
    bit<32> color;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action demote() {
        hdr.ipv4.diffserv = 0;
        hdr.app.qfi = 9;
    }

    action keep() {
    }

    apply {
        if (hdr.app.isValid()) {
            session_meter.execute_meter(hdr.app.session & 1023, color);
            if (color == V1MODEL_METER_COLOR_RED) {
                drop();
            } else if (color == V1MODEL_METER_COLOR_YELLOW) {
                demote();
            } else {
                keep();
            }
        }
    }
}

BENCH_MAIN
