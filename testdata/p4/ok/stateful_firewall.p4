// Stateful firewall: a connection opened from inside is remembered; packets
// from outside pass only for connections opened from inside (SNAP's
// stateful firewall, CaT Table 4).
#include <core.p4>
#include <v1model.p4>

#ifndef NUM_CONNS  // -D NUM_CONNS=1 gives the one-cell variant Menshen runs
#define NUM_CONNS 4096
#endif

header app_t {
    bit<32> src;
    bit<32> dst;
    bit<32> from_inside;  // 1 when the packet comes from the inside network
    bit<32> allowed;      // out
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_CONNS) established;

    action drop() {
        mark_to_drop(standard_metadata);
    }

    action firewall() {
        // Both directions of a connection share one slot: the pair is
        // ordered inside-first.
        bit<32> inside = hdr.app.src;
        bit<32> outside = hdr.app.dst;
        if (hdr.app.from_inside == 0) {
            inside = hdr.app.dst;
            outside = hdr.app.src;
        }
        bit<32> idx;
        hash(idx, HashAlgorithm.crc32, (bit<32>)0, { inside, outside }, (bit<32>)NUM_CONNS);
        @atomic {
            bit<32> est;
            established.read(est, idx);
            if (hdr.app.from_inside == 1) {
                est = 1;
                hdr.app.allowed = 1;
            } else if (est == 1) {
                hdr.app.allowed = 1;
            } else {
                hdr.app.allowed = 0;
            }
            established.write(idx, est);
        }
    }

    table fw {
        actions = { firewall; }
        default_action = firewall();
    }

    apply {
        if (hdr.app.isValid()) {
            fw.apply();
            if (hdr.app.allowed == 0) {
                drop();
            }
        }
    }
}

BENCH_MAIN
