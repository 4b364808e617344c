// Marple TCP non-monotonic: count packets whose sequence number is below
// the highest seen so far (reordering), and remember the highest (CaT
// Table 4).
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<32> seq;    // TCP sequence number
    bit<32> count;  // out: reordered packets so far
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) maxseq;
    register<bit<32>>(1) count;

    action nmo() {
        @atomic {
            bit<32> m;
            bit<32> c;
            maxseq.read(m, 0);
            count.read(c, 0);
            if (hdr.app.seq < m) {
                c = c + 1;
            } else {
                m = hdr.app.seq;
            }
            maxseq.write(0, m);
            count.write(0, c);
            hdr.app.count = c;
        }
    }

    table tcp_nmo {
        actions = { nmo; }
        default_action = nmo();
    }

    apply {
        if (hdr.app.isValid()) {
            tcp_nmo.apply();
        }
    }
}

BENCH_MAIN
