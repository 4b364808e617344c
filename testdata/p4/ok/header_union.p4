// A header union of IPv4 and IPv6: the parser fills one member; the
// ingress tests which one is valid.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}
header ipv6_t {
    bit<4> version; bit<8> trafficClass; bit<20> flowLabel;
    bit<16> payloadLen; bit<8> nextHdr; bit<8> hopLimit;
    bit<128> srcAddr; bit<128> dstAddr;
}
header_union ip_t { ipv4_t v4; ipv6_t v6; }

struct headers { ethernet_t ethernet; ip_t ip; }
struct metadata { bit<8> hops; }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x0800: v4;
            0x86dd: v6;
            default: accept;
        }
    }
    state v4 { pkt.extract(hdr.ip.v4); transition accept; }
    state v6 { pkt.extract(hdr.ip.v6); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (hdr.ip.v4.isValid()) {
            hdr.ip.v4.ttl = hdr.ip.v4.ttl - 1;
            meta.hops = hdr.ip.v4.ttl;
        } else if (hdr.ip.v6.isValid()) {
            hdr.ip.v6.hopLimit = hdr.ip.v6.hopLimit - 1;
            meta.hops = hdr.ip.v6.hopLimit;
        }
        if (hdr.ip.isValid() && meta.hops == 0) {
            mark_to_drop(sm);
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.ip); } }

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
