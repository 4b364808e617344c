// A variable of a type that is declared nowhere.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<8>  a;
    bit<16> b;
    bit<32> c;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        foo_t x; // ERROR "syntax error: unexpected 'x'.* \(is foo_t an undeclared type\?\)"
    }
}

BENCH_MAIN
