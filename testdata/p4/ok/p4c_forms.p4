// Forms of P4-16 that p4c accepts and a stricter reading of the grammar
// would not, in one program that runs: an annotated typedef, a new type
// given an integer, bit<W + 4>, underscores after a base prefix, typedef
// struct, a constant struct, static_assert, a serializable enum in
// arithmetic, a parenthesized keyset, .a in an actions list, annotation
// bodies across lines and with any token, an @pragma line, a sub-parser, a
// control instantiated with a constructor argument and one applied
// directly, locals with initializers, for-in over a range, x[lo +: w] with
// a constant and a varying lo, and h = {#}.
#include <core.p4>
#include <v1model.p4>

@pragma doc the forms of p4c_forms.p4
@ethernet_address typedef bit<48> mac_t;
type bit<8> tag_t;
const bit<32> W = 4;
typedef struct pair { bit<8> lo; bit<8> hi; } pair_t;
enum bit<8> op_t { ADD = 1, SHIFT = 2 }

header eth_t {
    mac_t   dst;
    mac_t   src;
    bit<16> type;
}

header app_t {
    bit<8>     op;
    bit<16>    data;
    bit<8>     pos;
    bit<W + 4> sum;
    bit<8>     out1;
    bit<8>     out2;
    tag_t      tag;
}

struct headers {
    eth_t eth;
    app_t app;
}

struct meta_t {
    bit<8> seen;
}

const pair_t BASE = { lo = 8w0x_0f, hi = 8w0b_0000_0001 };
const bool SUM_IS_A_BYTE = static_assert(W + 4 == 8, "app.sum is a byte");

parser AppParser(packet_in pkt, out app_t app) {
    state start {
        pkt.extract(app);
        transition accept;
    }
}

parser MyParser(packet_in pkt, out headers hdr, inout meta_t meta,
                inout standard_metadata_t sm) {
    AppParser() app_parser;
    bit<8> seen = 1;
    state start {
        pkt.extract(hdr.eth);
        transition select(hdr.eth.type) {
            (16w0x88b5 &&& 16w0xffff): app;
            default: accept;
        }
    }
    state app {
        app_parser.apply(pkt, hdr.app);
        meta.seen = seen;
        transition accept;
    }
}

control MyVerifyChecksum(inout headers hdr, inout meta_t meta) {
    apply { }
}

// Adds the four nibbles of app.data to bias.
control Sum(inout app_t app)(bit<8> bias) {
    bit<8> acc = bias;
    apply {
        for (bit<8> i in 0 .. 3) {
            acc = acc + (bit<8>) app.data[i * 4 +: 4];
        }
        app.sum = acc;
    }
}

control Mark(inout app_t app) {
    action set_out(bit<8> v) {
        app.out1 = v;
    }
    @description("marks the packet
        by its operation")
    @note(it's any token: $ too)
    table by_op {
        key = { app.op: exact; }
        actions = { set_out; .NoAction; }
        const entries = {
            (op_t.ADD): set_out(1);
            2: set_out(2);
        }
        default_action = .NoAction();
    }
    apply {
        by_op.apply();
    }
}

control MyIngress(inout headers hdr, inout meta_t meta,
                  inout standard_metadata_t sm) {
    Sum(8w0x_10) sum;
    apply {
        sm.egress_spec = 1;
        if (!hdr.app.isValid()) {
            return;
        }
        sum.apply(hdr.app);
        Mark.apply(hdr.app);
        hdr.app.out1 = hdr.app.out1 + BASE.lo;
        hdr.app.out2 = hdr.app.data[hdr.app.pos +: 8];
        hdr.app.tag = (tag_t) (op_t.ADD + op_t.SHIFT);
        if (hdr.app.op == 3) {
            hdr.app = {#};
        }
    }
}

control MyEgress(inout headers hdr, inout meta_t meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MyComputeChecksum(inout headers hdr, inout meta_t meta) {
    apply { }
}

control MyDeparser(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.eth);
        pkt.emit(hdr.app);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(),
         MyComputeChecksum(), MyDeparser()) main;
