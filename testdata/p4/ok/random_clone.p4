// Architecture externs: random, clone, digest, resubmit and recirculate
// with field lists, truncate, and log_msg.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<32> r;
    bit<8>  action_code;
}

struct digest_t {
    bit<32> r;
    bit<9>  port;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        random(hdr.app.r, 0, 1000);
        log_msg("r = {}", { hdr.app.r });
        if (hdr.app.action_code == 1) {
            clone(CloneType.I2E, 32w5);
        } else if (hdr.app.action_code == 2) {
            digest<digest_t>(1, { hdr.app.r, standard_metadata.ingress_port });
        } else if (hdr.app.action_code == 3 && standard_metadata.instance_type == 0) {
            resubmit_preserving_field_list(0); // once: the resubmitted packet has instance type 6
        } else if (hdr.app.action_code == 4) {
            truncate(64);
        }
    }
}

BENCH_MAIN
