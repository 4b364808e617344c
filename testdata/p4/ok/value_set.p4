// A parser value_set: the control plane chooses which UDP ports carry the
// application header.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header udp_t { bit<16> srcPort; bit<16> dstPort; bit<16> length; bit<16> checksum; }
header tunnel_t { bit<32> vni; }

struct headers { ethernet_t ethernet; udp_t udp; tunnel_t tunnel; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    value_set<bit<16>>(4) tunnel_ports;

    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { 0x88b5: udp; default: accept; }
    }
    state udp {
        pkt.extract(hdr.udp);
        transition select(hdr.udp.dstPort) {
            tunnel_ports: tunnel;
            default: accept;
        }
    }
    state tunnel { pkt.extract(hdr.tunnel); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.tunnel.isValid()) {
            sm.egress_spec = (bit<9>)hdr.tunnel.vni[8:0];
        }
    }
}
control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.udp); pkt.emit(hdr.tunnel); }
}

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
