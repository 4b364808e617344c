/* bench.p4: what every stateful benchmark of the corpus shares.
 *
 * A benchmark declares `header app_t { ... }` (the packet fields its
 * algorithm reads and writes, carried right after the UDP header, so they
 * are visible in output packets), includes this file, then declares
 * MyIngress and the V1Switch main instance.
 *
 * Frames are VLAN-less Ethernet / IPv4 / UDP / app, which is what the
 * Menshen packet filter admits once a VLAN tag is added by its emitter. */

#ifndef BENCH_P4
#define BENCH_P4

#define ETHERTYPE_IPV4 0x0800
#define IPPROTO_UDP    17
#define APP_PORT       5555

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
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

header udp_t {
    bit<16> srcPort;
    bit<16> dstPort;
    bit<16> length;
    bit<16> checksum;
}

struct headers {
    ethernet_t ethernet;
    ipv4_t     ipv4;
    udp_t      udp;
    app_t      app;
}

/* A benchmark that needs metadata fields defines BENCH_METADATA as their
 * declarations before including this file. */
#ifndef BENCH_METADATA
#define BENCH_METADATA
#endif
struct metadata {
    BENCH_METADATA
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t standard_metadata) {
    state start {
        packet.extract(hdr.ethernet);
        transition select(hdr.ethernet.etherType) {
            ETHERTYPE_IPV4: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        packet.extract(hdr.ipv4);
        transition select(hdr.ipv4.protocol) {
            IPPROTO_UDP: parse_udp;
            default: accept;
        }
    }
    state parse_udp {
        packet.extract(hdr.udp);
        transition select(hdr.udp.dstPort) {
            APP_PORT: parse_app;
            default: accept;
        }
    }
    state parse_app {
        packet.extract(hdr.app);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta) {
    apply { }
}

control MyEgress(inout headers hdr, inout metadata meta,
                 inout standard_metadata_t standard_metadata) {
    apply { }
}

control MyComputeChecksum(inout headers hdr, inout metadata meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.ethernet);
        packet.emit(hdr.ipv4);
        packet.emit(hdr.udp);
        packet.emit(hdr.app);
    }
}

#define BENCH_MAIN V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), \
                            MyEgress(), MyComputeChecksum(), MyDeparser()) main;

#endif
