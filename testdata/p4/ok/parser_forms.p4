// Parser forms of programs others write: a select on the ingress port
// (standard metadata in the parser), a header skipped by extract into _
// (v1model drops it from the packet), a select on a bool, and a stack of
// header unions filled through next.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header data_t { bit<8> a; bit<8> b; bit<8> c; bit<8> d; }
header byte_t { bit<8> v; }
header short_t { bit<16> v; }
header_union u_t { byte_t byte; short_t short; }
struct headers { ethernet_t eth; data_t data; u_t[2] u; }
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        transition select(sm.ingress_port) {
            3: skip;
            default: data;
        }
    }
    state skip {
        pkt.extract<data_t>(_);
        transition data;
    }
    state data {
        pkt.extract(hdr.data);
        transition select(hdr.data.a == 0xff) {
            true: mark;
            false: units;
        }
    }
    state mark {
        hdr.data.b = 0xbb;
        transition units;
    }
    state units {
        pkt.extract(hdr.u.next.byte);
        pkt.extract(hdr.u.next.short);
        transition accept;
    }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply { sm.egress_spec = 1; }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
