// An L2 learning switch: unknown source MACs are sent to the control plane
// as digests; known destinations are forwarded, unknown ones flooded.
#include <core.p4>
#include <v1model.p4>

typedef bit<48> mac_t;
typedef bit<9>  port_t;

header ethernet_t { mac_t dst; mac_t src; bit<16> etherType; }

struct headers { ethernet_t ethernet; }
struct metadata { }
struct learn_t { mac_t mac; port_t port; }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.ethernet); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action learn() {
        digest<learn_t>(1, { hdr.ethernet.src, sm.ingress_port });
    }
    action forward(port_t port) { sm.egress_spec = port; }
    action flood() { sm.mcast_grp = 1; }

    table smac {
        key = { hdr.ethernet.src : exact; }
        actions = { learn; NoAction; }
        default_action = learn();
        size = 4096;
    }
    table dmac {
        key = { hdr.ethernet.dst : exact; }
        actions = { forward; flood; }
        default_action = flood();
        size = 4096;
    }

    apply {
        smac.apply();
        dmac.apply();
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        // Never send a flooded copy back where it came from.
        if (sm.egress_port == sm.ingress_port) {
            mark_to_drop(sm);
        }
    }
}
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); } }

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
