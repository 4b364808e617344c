// Widths written as constant expressions, bit<(expr)>, and arrays of
// fixed-width values.
#include <core.p4>
#include <v1model.p4>

const bit<32> W = 8;

header app_t {
    bit<(W * 2)>   wide;
    bit<(W + 8)>   other;
    bit<(W)>       narrow;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        bit<(W)>[3] arr;
        arr[0] = hdr.app.narrow;
        arr[1] = hdr.app.wide[7:0];
        arr[2] = arr[0] + arr[1];
        hdr.app.other = hdr.app.wide + (bit<(2 * W)>)arr[2];
    }
}

BENCH_MAIN
