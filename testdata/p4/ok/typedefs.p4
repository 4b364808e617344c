// typedef (a synonym) and type (a new type that needs explicit casts).
#include <core.p4>
#include <v1model.p4>

typedef bit<32> word_t;
type bit<16> port_id_t;
typedef port_id_t port_t;

const port_id_t CPU_PORT = (port_id_t)16w510;

header app_t {
    word_t  w;
    bit<16> port;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action to_port(port_t p) {
        hdr.app.port = (bit<16>)p;
        standard_metadata.egress_spec = (bit<9>)(bit<16>)p;
    }

    table forward {
        key = { hdr.app.w : exact; }
        actions = { to_port; }
        default_action = to_port(CPU_PORT);
    }

    apply {
        word_t copy = hdr.app.w;
        hdr.app.w = copy + 1;
        forward.apply();
    }
}

BENCH_MAIN
