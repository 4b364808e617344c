// A switch-style program sized for Menshen: an exact-match forwarding
// table (egress port, destination MAC, TTL decrement, or drop), a table
// on the egress port that rewrites the source MAC, a classifier on the
// UDP source port and the DSCP byte that also resets the TTL, and
// sampling's stateful counter, guarded by the application header's
// validity. Every table holds at most Menshen's 256 CAM entries.
#include <core.p4>
#include <v1model.p4>

#define N 30
#ifndef FWD_SIZE  // -D FWD_SIZE=512 splits fwd over two CAMs
#define FWD_SIZE 256
#endif

header app_t {
    bit<32> sample;  // out: 1 when this packet is sampled
    bit<32> class;   // out: the classifier's verdict
}

#include "../p4/include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(1) count;

    action sample() {
        @atomic {
            bit<32> c;
            count.read(c, 0);
            if (c == N - 1) {
                hdr.app.sample = 1;
                c = 0;
            } else {
                hdr.app.sample = 0;
                c = c + 1;
            }
            count.write(0, c);
        }
    }

    table sampler {
        actions = { sample; }
        default_action = sample();
    }

    action forward(bit<8> port, bit<48> dmac) {
        standard_metadata.egress_spec = (bit<9>)port;
        hdr.ethernet.dstAddr = dmac;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }

    action drop() {
        mark_to_drop(standard_metadata);
    }

    table fwd {
        key = { hdr.ipv4.dstAddr: exact; }
        actions = { forward; drop; NoAction; }
        default_action = NoAction();
        size = FWD_SIZE;
    }

    action set_smac(bit<48> smac) {
        hdr.ethernet.srcAddr = smac;
    }

    table port_mac {
        key = { standard_metadata.egress_spec: exact; }
        actions = { set_smac; NoAction; }
        default_action = NoAction();
        size = 256;
    }

    action set_class(bit<32> c) {
        hdr.app.class = c;
        hdr.ipv4.ttl = 64;
    }

    table classify {
        key = {
            hdr.udp.srcPort: exact;
            hdr.ipv4.diffserv: exact;
        }
        actions = { set_class; NoAction; }
        default_action = NoAction();
        size = 256;
    }

    apply {
        fwd.apply();
        port_mac.apply();
        if (hdr.app.isValid()) {
            sampler.apply();
            classify.apply();
        }
    }
}

BENCH_MAIN
