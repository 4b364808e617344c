// A block comment that never ends.
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
    }
}

BENCH_MAIN
/* this comment has no end // ERROR "comment is not terminated \(no \*\/ before the end of the file\)"
