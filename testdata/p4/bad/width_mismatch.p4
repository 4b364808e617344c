// Operands of different widths.
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
        hdr.app.c = (bit<32>)(hdr.app.a + hdr.app.b); // ERROR "operands of \+ have different types: bit<8> and bit<16>; cast one operand to the other's width"
    }
}

BENCH_MAIN
