// Counters and meters: an indexed counter, a direct counter and a direct
// meter attached to a table, and an indexed meter.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<32> flow;
    bit<8>  color;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    counter(1024, CounterType.packets_and_bytes) per_flow;
    direct_counter(CounterType.packets) hits;
    direct_meter<bit<8>>(MeterType.bytes) policer;
    meter(1024, MeterType.packets) flow_meter;

    action police() {
        hits.count();
        policer.read(hdr.app.color);
    }

    table flows {
        key = { hdr.app.flow : exact; }
        actions = { police; NoAction; }
        counters = hits;
        meters = policer;
    }

    apply {
        per_flow.count(hdr.app.flow & 1023);
        flows.apply();
        if (hdr.app.color == 0) {
            flow_meter.execute_meter(hdr.app.flow & 1023, hdr.app.color);
        }
    }
}

BENCH_MAIN
