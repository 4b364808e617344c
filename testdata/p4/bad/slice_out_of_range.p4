// A slice beyond the width of its operand.
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
        hdr.app.b = (bit<16>)hdr.app.a[8:0]; // ERROR "slice \[8:0\] is out of range for bit<8>: need 8 > hi >= lo >= 0"
    }
}

BENCH_MAIN
