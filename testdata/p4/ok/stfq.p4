// STFQ: start-time fair queueing computes each packet's virtual start time
// from its flow's last finish time and the link's virtual time (Goyal et
// al.; Domino's stfq, CaT Table 4, the nested-ifs ALU).
#include <core.p4>
#include <v1model.p4>

#define NUM_FLOWS 1024

header app_t {
    bit<32> flow;
    bit<32> length;
    bit<32> virtual_time;
    bit<32> start;  // out: the packet's virtual start time
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_FLOWS) last_finish;

    action stfq() {
        bit<32> idx = hdr.app.flow & (NUM_FLOWS - 1);
        @atomic {
            bit<32> finish;
            last_finish.read(finish, idx);
            if (finish != 0 && finish > hdr.app.virtual_time) {
                hdr.app.start = finish;
            } else {
                hdr.app.start = hdr.app.virtual_time;
            }
            finish = hdr.app.start + hdr.app.length;
            last_finish.write(idx, finish);
        }
    }

    table fq {
        actions = { stfq; }
        default_action = stfq();
    }

    apply {
        if (hdr.app.isValid()) {
            fq.apply();
        }
    }
}

BENCH_MAIN
