// Multicast copies in the egress: the ingress sends a frame whose
// destination is a group address to group 7 and any other to port 1; the
// egress tells a copy by its instance type (5, v1model's
// PKT_INSTANCE_TYPE_REPLICATION) and marks it with its replication id and
// group. (On Tofino the egress has no instance type: a packet there is a
// copy when the ingress chose a group, which the bridge carries.)
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
struct headers { ethernet_t ethernet; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.ethernet); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.ethernet.dst[40:40] == 1) {
            sm.mcast_grp = 7;
        } else {
            sm.egress_spec = 1;
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.instance_type == 5) {
            hdr.ethernet.src = (bit<48>) sm.egress_rid;
            hdr.ethernet.etherType = sm.mcast_grp;
        }
    }
}

control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); } }

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
