// Const entries ranked by p4c's @priority annotation, as BMv2 ranks them:
// the smallest number wins, and an entry without one ranks by its place
// in the list (from 1).
#include <core.p4>
#include <v1model.p4>

header probe_t {
    bit<16> key;
    bit<8>  port;
    bit<96> pad; // an Ethernet header's worth of bytes in all
}

struct headers {
    probe_t probe;
}

struct metadata { }

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.probe);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta) {
    apply { }
}

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t sm) {
    action send(bit<9> port) {
        sm.egress_spec = port;
        hdr.probe.port = (bit<8>)port;
    }
    action drop() {
        mark_to_drop(sm);
    }
    table classify {
        key = { hdr.probe.key: ternary; }
        actions = { send; drop; }
        default_action = drop();
        const entries = {
            0x0001 &&& 0x000f : send(1) @priority(30);
            0x1001            : send(2);
            0x1001 &&& 0xf00f : send(3) @priority(1);
            0x2000 &&& 0xf000 : send(4) @priority(2);
        }
    }
    apply {
        classify.apply();
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
        packet.emit(hdr.probe);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
