// A count-min sketch of two rows and a total, updated in one @atomic
// block: the atomicity test runs it on several CPUs at once.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header flow_t { bit<32> key; bit<32> seen; }
struct headers { ethernet_t ethernet; flow_t flow; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x88b5: parse_flow;
            default: accept;
        }
    }
    state parse_flow { pkt.extract(hdr.flow); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    register<bit<32>>(1024) row0;
    register<bit<32>>(1024) row1;
    register<bit<32>>(1) total;

    action count() {
        bit<32> i0;
        bit<32> i1;
        hash(i0, HashAlgorithm.crc32, 32w0, { hdr.flow.key }, 32w1024);
        hash(i1, HashAlgorithm.crc16, 32w0, { hdr.flow.key }, 32w1024);
        @atomic {
            bit<32> a;
            bit<32> b;
            bit<32> n;
            row0.read(a, i0);
            row0.write(i0, a + 1);
            row1.read(b, i1);
            row1.write(i1, b + 1);
            total.read(n, 0);
            total.write(0, n + 1);
        }
    }

    table sketch { actions = { count; } default_action = count(); }

    apply {
        if (hdr.flow.isValid()) {
            sketch.apply();
            sm.egress_spec = 1;
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.flow); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
