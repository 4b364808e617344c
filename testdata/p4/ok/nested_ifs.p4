// Nested if-else chains over header fields, the shape transformation
// rewrites into a table: conditions with equality, masks and ranges.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<8>  proto;
    bit<16> port;
    bit<8>  tos;
    bit<8>  class;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action set_class(bit<8> c) { hdr.app.class = c; }

    apply {
        if (hdr.app.proto == 6) {
            if (hdr.app.port < 1024) {
                set_class(1);
            } else {
                set_class(2);
            }
        } else if (hdr.app.proto == 17 && (hdr.app.tos & 0xe0) == 0xa0) {
            set_class(3);
        } else {
            set_class(4);
        }
    }
}

BENCH_MAIN
