// Bit-level operations: slices (read and written), concatenation, shifts,
// saturating arithmetic, and casts between widths and signedness.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<32> x;
    bit<32> y;
    bit<16> lo;
    bit<64> wide;
    int<16> s;
    bit<8>  sat;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        hdr.app.lo = hdr.app.x[15:0];
        hdr.app.y[31:24] = hdr.app.x[7:0];
        hdr.app.wide = hdr.app.x ++ hdr.app.y;
        hdr.app.x = (hdr.app.x << 3) | (hdr.app.x >> 29);
        hdr.app.s = (int<16>)hdr.app.lo;
        hdr.app.s = hdr.app.s >> 2;        // arithmetic shift
        hdr.app.sat = hdr.app.sat |+| 200;  // saturates at 255
        hdr.app.sat = hdr.app.sat |-| 100;
        bit<8> small = (bit<8>)hdr.app.x;   // truncates
        bit<64> big = (bit<64>)small;       // zero-extends
        hdr.app.wide = hdr.app.wide + big;
        hdr.app.y = ~hdr.app.y & 0xffff0000;
        hdr.app.x = -hdr.app.x;
    }
}

BENCH_MAIN
