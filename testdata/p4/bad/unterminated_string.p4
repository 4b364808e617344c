// A string literal with no closing quote.
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
    // ERROR@+1 "string literal is not terminated \(no closing quote before the end of the file\)"
    @name("never closed)
    action a() { }
    apply {
    }
}

BENCH_MAIN
