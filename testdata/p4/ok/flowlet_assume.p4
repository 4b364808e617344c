// Flowlet switching, as flowlet.p4, with the preconditions that a flow's
// packets arrive in time order and after THRESHOLD: arrival - last never
// wraps, nor does arrival - THRESHOLD, and CaT's comparison arrival -
// THRESHOLD > last is then the gap's. Tofino: 1 stage (CaT 2; 3 without
// them); Banzai pred_raw: 3, as CaT (4 without them).
#include <core.p4>
#include <v1model.p4>

#define NUM_FLOWLETS 8000
#define THRESHOLD    5
#define NUM_HOPS     10

header app_t {
    bit<32> sport;
    bit<32> dport;
    bit<32> arrival;
    bit<32> new_hop;   // temporary: a fresh hop for this packet
    bit<32> id;        // temporary: the flowlet slot
    bit<32> next_hop;  // out
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_FLOWLETS) last_time;
    register<bit<32>>(NUM_FLOWLETS) saved_hop;

    action flowlet() {
        hash(hdr.app.new_hop, HashAlgorithm.crc16, (bit<32>)0,
             { hdr.app.sport, hdr.app.dport, hdr.app.arrival }, (bit<32>)NUM_HOPS);
        hash(hdr.app.id, HashAlgorithm.crc16, (bit<32>)0,
             { hdr.app.sport, hdr.app.dport }, (bit<32>)NUM_FLOWLETS);
        @atomic {
            bit<32> lt;
            bit<32> hop;
            last_time.read(lt, hdr.app.id);
            saved_hop.read(hop, hdr.app.id);
            assume(hdr.app.arrival >= lt && hdr.app.arrival >= THRESHOLD);
            if (hdr.app.arrival - lt > THRESHOLD) {
                hop = hdr.app.new_hop;
            }
            lt = hdr.app.arrival;
            last_time.write(hdr.app.id, lt);
            saved_hop.write(hdr.app.id, hop);
            hdr.app.next_hop = hop;
        }
    }

    table flowlets {
        actions = { flowlet; }
        default_action = flowlet();
    }

    apply {
        if (hdr.app.isValid()) {
            flowlets.apply();
        }
    }
}

BENCH_MAIN
