// Fields the program never writes are read from the packet by the
// checksums and kept in the packet by the deparser (backends/xdp's
// gen.fromPacket). Each action leaves the headers somewhere else: in
// place, moved by a header pushed or popped in front (the kernel keeps at
// least 14 bytes: no action removes more), invalidated and made
// valid again (its unwritten fields then 0), or emitted twice; the
// checksums take fields out of the header's order, across bytes, an odd
// number of bits.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header vlan_t {
    bit<3>  pcp;
    bit<1>  cfi;
    bit<12> vid;
    bit<16> etherType;
}

header ipv4_t {
    bit<4>  version;
    bit<4>  ihl;
    bit<8>  diffserv;
    bit<16> totalLen;
    bit<16> identification;
    bit<3>  flags;
    bit<13> fragOffset;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> hdrChecksum;
    bit<32> srcAddr;
    bit<32> dstAddr;
}

struct metadata { }

struct headers {
    ethernet_t ethernet;
    vlan_t     vlan;
    ipv4_t     ipv4;
    ipv4_t     copy;
}

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            0x8100: parse_vlan;
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_vlan {
        pkt.extract(hdr.vlan);
        transition select(hdr.vlan.etherType) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control VC(inout headers hdr, inout metadata meta) {
    apply {
        verify_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.diffserv, hdr.ipv4.totalLen,
              hdr.ipv4.identification, hdr.ipv4.flags, hdr.ipv4.fragOffset,
              hdr.ipv4.ttl, hdr.ipv4.protocol, hdr.ipv4.srcAddr, hdr.ipv4.dstAddr },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
    }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    action forward(bit<9> port) {
        sm.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    action push_vlan(bit<12> vid) {
        sm.egress_spec = 1;
        hdr.vlan.setValid();
        hdr.vlan.vid = vid;
        hdr.vlan.etherType = hdr.ethernet.etherType;
        hdr.ethernet.etherType = 0x8100;
    }
    action pop_vlan() {
        sm.egress_spec = 2;
        hdr.ethernet.etherType = hdr.vlan.etherType;
        hdr.vlan.setInvalid();
    }
    action renew_ipv4(bit<8> proto) {
        sm.egress_spec = 4;
        hdr.ipv4.setInvalid();
        hdr.ipv4.setValid();
        hdr.ipv4.protocol = proto;
    }
    action duplicate() {
        sm.egress_spec = 5;
        hdr.copy = hdr.ipv4;
        hdr.copy.diffserv = 7;
    }
    table t {
        key = { hdr.ethernet.srcAddr[7:0]: exact; }
        actions = { forward; push_vlan; pop_vlan; renew_ipv4; duplicate; }
        default_action = forward(6);
    }
    apply {
        if (sm.checksum_error == 1) {
            sm.egress_spec = 7;
        }
        t.apply();
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply { }
}

control CC(inout headers hdr, inout metadata meta) {
    apply {
        update_checksum(hdr.ipv4.isValid(),
            { hdr.ipv4.srcAddr, hdr.ipv4.version, hdr.ipv4.ihl, hdr.ipv4.ttl, hdr.ipv4.protocol,
              hdr.ipv4.totalLen, hdr.ipv4.fragOffset, hdr.ipv4.dstAddr, hdr.ipv4.diffserv },
            hdr.ipv4.hdrChecksum, HashAlgorithm.csum16);
        update_checksum(hdr.vlan.isValid(),
            { hdr.vlan.vid, hdr.ethernet.srcAddr, hdr.vlan.pcp },
            hdr.vlan.etherType, HashAlgorithm.csum16);
    }
}

control D(packet_out pkt, in headers hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.vlan);
        pkt.emit(hdr.ipv4);
        pkt.emit(hdr.copy);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
