// Counters, indexed and direct, on the xdp target: an ARRAY map of
// {packets, bytes} each, added to atomically.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
struct headers { ethernet_t ethernet; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start { pkt.extract(hdr.ethernet); transition accept; }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    counter(16, CounterType.packets_and_bytes) by_port;
    direct_counter(CounterType.packets) hits;

    action fwd(bit<9> port) { hits.count(); sm.egress_spec = port; }
    action drop() { mark_to_drop(sm); }

    table dmac {
        key = { hdr.ethernet.dst: exact; }
        actions = { fwd; drop; }
        default_action = drop();
        counters = hits;
    }

    apply {
        by_port.count((bit<32>)sm.ingress_port);
        dmac.apply();
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr.ethernet); } }

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
