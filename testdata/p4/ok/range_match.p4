// Range and optional match kinds, and const entries with ranges, masks
// and don't-cares in priority order.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<16> port;
    bit<8>  proto;
    bit<8>  class;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action set_class(bit<8> c) { hdr.app.class = c; }

    table classify {
        key = {
            hdr.app.port  : range;
            hdr.app.proto : optional;
        }
        actions = { set_class; }
        default_action = set_class(0);
        const entries = {
            (0 .. 1023, 6)      : set_class(1);   // well-known TCP
            (0 .. 1023, _)      : set_class(2);   // well-known other
            (1024 .. 49151, _)  : set_class(3);   // registered
            (_, 17)             : set_class(4);
        }
    }

    apply {
        classify.apply();
    }
}

BENCH_MAIN
