// Learn filter: a Bloom filter with three hash functions that learns the
// flows it sees and reports whether a packet's flow was seen before
// (Domino's learn_filter, CaT Table 4, the raw ALU).
#include <core.p4>
#include <v1model.p4>

#ifndef FILTER_SIZE  // -D FILTER_SIZE=1 gives the one-cell variant Menshen runs
#define FILTER_SIZE 256
#endif

header app_t {
    bit<32> sport;
    bit<32> dport;
    bit<32> member;  // out: 1 when the flow was already in the filter
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(FILTER_SIZE) filter1;
    register<bit<32>>(FILTER_SIZE) filter2;
    register<bit<32>>(FILTER_SIZE) filter3;

    action learn() {
        bit<32> h1;
        bit<32> h2;
        bit<32> h3;
        hash(h1, HashAlgorithm.crc16, (bit<32>)0, { hdr.app.sport, hdr.app.dport }, (bit<32>)FILTER_SIZE);
        hash(h2, HashAlgorithm.crc32, (bit<32>)0, { hdr.app.sport, hdr.app.dport }, (bit<32>)FILTER_SIZE);
        hash(h3, HashAlgorithm.identity, (bit<32>)0, { hdr.app.dport }, (bit<32>)FILTER_SIZE);
        @atomic {
            bit<32> f1;
            bit<32> f2;
            bit<32> f3;
            filter1.read(f1, h1);
            filter2.read(f2, h2);
            filter3.read(f3, h3);
            if (f1 != 0 && f2 != 0 && f3 != 0) {
                hdr.app.member = 1;
            } else {
                hdr.app.member = 0;
            }
            filter1.write(h1, 1);
            filter2.write(h2, 1);
            filter3.write(h3, 1);
        }
    }

    table filter {
        actions = { learn; }
        default_action = learn();
    }

    apply {
        if (hdr.app.isValid()) {
            filter.apply();
        }
    }
}

BENCH_MAIN
