// Flowlet switching with C's meaning: a flow may change its next hop only
// after a gap of more than THRESHOLD ticks (Domino's flowlets, CaT Table 4).
// Written with C's meaning of the subtraction: the Domino original computes
// on int, where a difference below zero compares below every time; P4's
// saturating |-| gives 0 there, which compares the same way, where bit<32>'s
// - wraps to a large value (the corpus's flowlet.p4 keeps the wrap).
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
            if ((hdr.app.arrival |-| lt) > THRESHOLD) {
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
