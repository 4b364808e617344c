// IP-in-IP tunnel encapsulation and decapsulation: an exact match on the
// destination pushes an outer IPv4 header; packets addressed to the tunnel
// endpoint lose theirs.
#include <core.p4>
#include <v1model.p4>

const bit<16> ETH_IPV4 = 0x0800;
const bit<8>  PROTO_IPIP = 4;

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header ipv4_t {
    bit<4> version; bit<4> ihl; bit<8> diffserv; bit<16> totalLen;
    bit<16> identification; bit<3> flags; bit<13> fragOffset;
    bit<8> ttl; bit<8> protocol; bit<16> hdrChecksum;
    bit<32> srcAddr; bit<32> dstAddr;
}

struct headers { ethernet_t ethernet; ipv4_t outer; ipv4_t inner; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) { ETH_IPV4: outer; default: accept; }
    }
    state outer {
        pkt.extract(hdr.outer);
        transition select(hdr.outer.protocol) { PROTO_IPIP: inner; default: accept; }
    }
    state inner { pkt.extract(hdr.inner); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action encap(bit<32> tunnel_src, bit<32> tunnel_dst, bit<9> port) {
        // The received IPv4 header becomes the inner one.
        hdr.inner = hdr.outer;
        hdr.outer.setValid();
        hdr.outer.version = 4;
        hdr.outer.ihl = 5;
        hdr.outer.diffserv = hdr.inner.diffserv;
        hdr.outer.totalLen = hdr.inner.totalLen + 20;
        hdr.outer.identification = 0;
        hdr.outer.flags = 0;
        hdr.outer.fragOffset = 0;
        hdr.outer.ttl = 64;
        hdr.outer.protocol = PROTO_IPIP;
        hdr.outer.srcAddr = tunnel_src;
        hdr.outer.dstAddr = tunnel_dst;
        sm.egress_spec = port;
    }

    action decap(bit<9> port) {
        hdr.outer = hdr.inner;
        hdr.inner.setInvalid();
        sm.egress_spec = port;
    }

    action drop() { mark_to_drop(sm); }

    table tunnels {
        key = { hdr.outer.dstAddr : exact; hdr.inner.isValid() : exact; }
        actions = { encap; decap; drop; NoAction; }
        default_action = NoAction();
    }

    apply {
        if (hdr.outer.isValid()) {
            tunnels.apply();
        }
    }
}

control MyEgress(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }

control CC(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(hdr.outer.isValid(),
            { hdr.outer.version, hdr.outer.ihl, hdr.outer.diffserv, hdr.outer.totalLen,
              hdr.outer.identification, hdr.outer.flags, hdr.outer.fragOffset, hdr.outer.ttl,
              hdr.outer.protocol, hdr.outer.srcAddr, hdr.outer.dstAddr },
            hdr.outer.hdrChecksum, HashAlgorithm.csum16);
    }
}

control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.outer); pkt.emit(hdr.inner); }
}

V1Switch(P(), VC(), MyIngress(), MyEgress(), CC(), D()) main;
