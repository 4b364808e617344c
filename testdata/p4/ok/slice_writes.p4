// Writes to slices: assigned, a slice of a slice, and a slice given to an
// action's inout parameter and to a function's out parameter. The other
// bits keep their values.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<16> a;
    bit<16> b;
    bit<8>  c;
    bit<8>  d;
    bit<64> pad; // an Ethernet header's worth of bytes in all
}

struct headers {
    data_t data;
}

struct metadata {
    bit<8> m;
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.data);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta) {
    apply { }
}

// Sets x to 3 (the out argument's bits, whatever they held).
void three(out bit<4> x) {
    x = 3;
}

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t sm) {
    action flip(inout bit<4> x) {
        x = ~x;
    }
    action bump(inout bit<8> y) {
        y = y + 1;
    }
    table bumps {
        key = { hdr.data.d: exact; }
        actions = { bump(hdr.data.b[15:8]); }
        default_action = bump(hdr.data.b[15:8]);
    }
    apply {
        sm.egress_spec = 1;
        hdr.data.a[7:0] = hdr.data.c;      // the low byte
        hdr.data.a[15:8][3:0] = 4w0xf;     // bits 11:8
        flip(hdr.data.b[3:0]);
        three(hdr.data.b[7:4]);
        meta.m = hdr.data.d;
        meta.m[0:0] = 1w0;
        hdr.data.d = meta.m;
        bumps.apply();
    }
}

control MyEgress(inout headers hdr, inout metadata meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MyComputeChecksum(inout headers hdr, inout metadata meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.data);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
