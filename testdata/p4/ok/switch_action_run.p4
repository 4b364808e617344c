// switch on the action a table ran, with labels that share a block and a
// default; and if on hit and miss.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<32> key;
    bit<32> value;
    bit<8>  path;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action fast(bit<32> v) { hdr.app.value = v; }
    action slow(bit<32> v) { hdr.app.value = v + 1; }
    action other() { }
    action count_miss() { hdr.app.path = 255; }

    table lookup {
        key = { hdr.app.key : exact; }
        actions = { fast; slow; other; }
        const default_action = other();
    }

    table second {
        key = { hdr.app.value : exact; }
        actions = { count_miss; NoAction; }
    }

    apply {
        switch (lookup.apply().action_run) {
            fast:
            slow: {
                hdr.app.path = 1;
            }
            default: {
                hdr.app.path = 2;
            }
        }
        if (second.apply().miss) {
            count_miss();
        }
    }
}

BENCH_MAIN
