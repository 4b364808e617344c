// An action that writes its inout argument and then exits: P4-16 copies
// the argument back before the control ends. And a header made from a
// list: the assignment makes it valid, with those fields.
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<16> a;
    bit<16> b;
    bit<80> pad; // an Ethernet header's worth of bytes in all
}

header tag_t {
    bit<8> kind;
    bit<8> len;
}

struct headers {
    data_t data;
    tag_t  tag;
}

struct metadata { }

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

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t sm) {
    action set_and_exit(inout bit<16> v) {
        v = 0x0303;
        exit;
    }
    apply {
        sm.egress_spec = 1;
        tag_t t;
        t = { 8w7, 8w2 };
        hdr.tag = t;
        if (hdr.data.b == 1) {
            set_and_exit(hdr.data.a);
        }
        hdr.data.a = 0xffff; // not reached when the action exits
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
        packet.emit(hdr.tag);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
