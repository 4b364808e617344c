// A for loop and compound assignments: sum the words of a small array of
// header fields, then scale the result.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<32> w0;
    bit<32> w1;
    bit<32> w2;
    bit<32> w3;
    bit<32> sum;
    bit<8>  n;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        bit<32>[4] words;
        words[0] = hdr.app.w0;
        words[1] = hdr.app.w1;
        words[2] = hdr.app.w2;
        words[3] = hdr.app.w3;
        bit<32> sum = 0;
        for (bit<8> i = 0; i < 4; i += 1) {
            if (i >= hdr.app.n) {
                break;
            }
            sum += words[i];
        }
        sum <<= 1;
        sum |= 1;
        sum ^= 32w0xf0f0f0f0;
        sum >>= 2;
        sum |+|= 100;
        hdr.app.sum = sum;
    }
}

BENCH_MAIN
