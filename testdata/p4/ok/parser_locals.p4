// A parser state that declares a variable (from a lookahead), checks it
// with verify, and reads it after the check; a bit<0> field, which P4 can
// declare and assign but no literal writes.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> type; }
header opt_t { bit<8> kind; bit<8> len; bit<0> none; }
header data_t { bit<8> a; bit<8> b; }
struct headers { ethernet_t eth; opt_t opt; data_t data; }
struct metadata { }

error { BadLength }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.eth);
        bit<8> len = pkt.lookahead<opt_t>().len;
        verify(len == 2, error.BadLength);
        pkt.extract(hdr.opt);
        transition select(len) {
            2: data;
            default: accept;
        }
    }
    state data { pkt.extract(hdr.data); transition accept; }
}

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        if (sm.parser_error == error.NoError) {
            hdr.opt.none = 0;
            hdr.data.b = hdr.data.a + hdr.opt.len;
            sm.egress_spec = 1;
        } else {
            sm.egress_spec = 2;
        }
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control V(inout headers hdr, inout metadata meta) { apply { } }
control C(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) { apply { pkt.emit(hdr); } }
V1Switch(P(), V(), I(), E(), C(), D()) main;
