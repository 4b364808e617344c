// v1model's resubmit, recirculation and clones, as BMv2 runs them: a
// resubmitted packet comes in again as it first came; a recirculated one
// as the egress deparsed it; an ingress-to-egress clone is the packet as
// it came, through the egress of the clone session's port; an
// egress-to-egress clone the headers as the egress left them. Each keeps
// the metadata of the field list its call names (kept) and loses the rest
// (lost). A packet that comes in again has its instance type in the
// parser already.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header tag_t { bit<8> op; bit<8> pass; bit<8> kept; bit<8> lost; bit<8> inst; }
struct headers { ethernet_t eth; tag_t tag; }
struct metadata {
    @field_list(1) bit<8> kept;
    bit<8> lost;
    bit<8> parsed_as; // the instance type the parser saw
}

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        meta.parsed_as = (bit<8>) sm.instance_type;
        pkt.extract(hdr.eth);
        pkt.extract(hdr.tag);
        transition accept;
    }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        hdr.tag.pass = hdr.tag.pass + 1;
        if (sm.instance_type == 0) {
            meta.kept = 0xaa;
            meta.lost = 0xbb;
            if (hdr.tag.op == 1) {
                resubmit_preserving_field_list(1);
            } else if (hdr.tag.op == 2) {
                clone_preserving_field_list(CloneType.I2E, 7, 1);
            } else if (hdr.tag.op == 4) {
                clone(CloneType.I2E, 9); // no session 9: no copy
            }
        }
        hdr.tag.kept = meta.kept;
        hdr.tag.lost = meta.lost;
        hdr.tag.inst = meta.parsed_as;
        sm.egress_spec = 1;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 0 && hdr.tag.op == 3) {
            recirculate_preserving_field_list(1);
        }
        if (sm.instance_type == 0 && hdr.tag.op == 5) {
            clone_preserving_field_list(CloneType.E2E, 7, 1);
            hdr.tag.lost = 0x55; // after the call: the clone has it too
        }
        if (sm.instance_type == 1 || sm.instance_type == 2) {
            hdr.tag.inst = (bit<8>) sm.instance_type;
            hdr.tag.kept = meta.kept;
        }
    }
}

control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
