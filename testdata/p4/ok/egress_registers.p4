// Egress state: the ingress forwards IPv4 packets by destination; the
// egress counts the packets sent out of each port in a register (a plain
// action's read, increment and write, without @atomic) and writes the
// count's low 16 bits into the IPv4 identification, and a table on the
// egress port sets the TOS of port 2's packets. Counters count in both.
#include <core.p4>
#include <v1model.p4>

header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> ether_type;
}

header ipv4_t {
    bit<8>  version_ihl;
    bit<8>  tos;
    bit<16> total_len;
    bit<16> identification;
    bit<16> flags_frag;
    bit<8>  ttl;
    bit<8>  protocol;
    bit<16> checksum;
    bit<32> src;
    bit<32> dst;
}

struct headers_t {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct meta_t { }

parser EgParser(packet_in pkt, out headers_t hdr, inout meta_t meta,
                inout standard_metadata_t std) {
    state start {
        pkt.extract(hdr.ethernet);
        transition select(hdr.ethernet.ether_type) {
            0x0800: parse_ipv4;
            default: accept;
        }
    }
    state parse_ipv4 {
        pkt.extract(hdr.ipv4);
        transition accept;
    }
}

control EgVerify(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EgIngress(inout headers_t hdr, inout meta_t meta,
                  inout standard_metadata_t std) {
    counter(16, CounterType.packets) in_pkts;

    action forward(bit<9> port) {
        std.egress_spec = port;
        hdr.ipv4.ttl = hdr.ipv4.ttl - 1;
    }
    action drop() {
        mark_to_drop(std);
    }
    table routes {
        key = { hdr.ipv4.dst: exact; }
        actions = { forward; drop; }
        const entries = {
            0x0a000001 : forward(1);
            0x0a000002 : forward(2);
        }
        default_action = drop();
    }
    apply {
        if (hdr.ipv4.isValid()) {
            in_pkts.count((bit<32>) std.ingress_port);
            routes.apply();
        } else {
            drop();
        }
    }
}

control EgEgress(inout headers_t hdr, inout meta_t meta,
                 inout standard_metadata_t std) {
    register<bit<32>>(16) port_pkts;
    counter(16, CounterType.packets_and_bytes) out_pkts;

    action count_port() {
        bit<32> n;
        port_pkts.read(n, (bit<32>) std.egress_port);
        n = n + 1;
        port_pkts.write((bit<32>) std.egress_port, n);
        hdr.ipv4.identification = (bit<16>) n;
    }
    action set_tos(bit<8> tos) {
        hdr.ipv4.tos = tos;
    }
    table marks {
        key = { std.egress_port: exact; }
        actions = { set_tos; NoAction; }
        const entries = {
            2 : set_tos(0x20);
        }
        default_action = NoAction();
    }
    apply {
        out_pkts.count((bit<32>) std.egress_port);
        count_port();
        marks.apply();
    }
}

control EgCompute(inout headers_t hdr, inout meta_t meta) {
    apply { }
}

control EgDeparser(packet_out pkt, in headers_t hdr) {
    apply {
        pkt.emit(hdr.ethernet);
        pkt.emit(hdr.ipv4);
    }
}

V1Switch(EgParser(), EgVerify(), EgIngress(), EgEgress(), EgCompute(), EgDeparser()) main;
