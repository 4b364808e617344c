// ME-1: SipHash-2-4 over 32-bit words (the HalfSipHash variant, as P4
// implementations for switches use 32-bit arithmetic) of one 32-bit
// message word, written as one multi-stage action. CaT's motivating example
// ME-1: the Tofino compiler rejects it because it does not fit one stage.
#include <core.p4>
#include <v1model.p4>

#define K0 32w0x03020100
#define K1 32w0x07060504

// One SipRound on the four state words.
#define ROTL(x, b) (((x) << (b)) | ((x) >> (32 - (b))))
#define SIPROUND                      \
    v0 = v0 + v1; v1 = ROTL(v1, 5);   \
    v1 = v1 ^ v0; v0 = ROTL(v0, 16);  \
    v2 = v2 + v3; v3 = ROTL(v3, 8);   \
    v3 = v3 ^ v2; v0 = v0 + v3;       \
    v3 = ROTL(v3, 7); v3 = v3 ^ v0;   \
    v2 = v2 + v1; v1 = ROTL(v1, 13);  \
    v1 = v1 ^ v2; v2 = ROTL(v2, 16);

header app_t {
    bit<32> msg;   // the message word
    bit<32> hash;  // out: its 32-bit SipHash
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    action siphash() {
        // One transaction: p4hls splits it across stages (CaT §2).
        @atomic {
            bit<32> v0 = K0;
            bit<32> v1 = K1;
            bit<32> v2 = 32w0x6c796765 ^ K0;
            bit<32> v3 = 32w0x74656462 ^ K1;
            bit<32> m = hdr.app.msg;
            // Compression of the message word: 2 rounds.
            v3 = v3 ^ m;
            SIPROUND
            SIPROUND
            v0 = v0 ^ m;
            // The final block holds the message length (4 bytes) in its top byte.
            bit<32> b = 32w4 << 24;
            v3 = v3 ^ b;
            SIPROUND
            SIPROUND
            v0 = v0 ^ b;
            // Finalization: 4 rounds.
            v2 = v2 ^ 0xff;
            SIPROUND
            SIPROUND
            SIPROUND
            SIPROUND
            hdr.app.hash = v1 ^ v3;
        }
    }

    table hasher {
        actions = { siphash; }
        default_action = siphash();
    }

    apply {
        if (hdr.app.isValid()) {
            hasher.apply();
        }
    }
}

BENCH_MAIN
