// Header stacks on the xdp target: a parser loop bounded by the stack
// (one label more than it holds is error.StackOutOfBounds), next and last
// in the parser, elements of constant and run-time indexes read and
// written (out of range: reads 0, writes nothing), push_front and
// pop_front past the ends, size, lastIndex (in the parser), and an array of scalars
// written in a for loop.
#include <core.p4>
#include <v1model.p4>

header ethernet_t { bit<48> dst; bit<48> src; bit<16> etherType; }
header label_t { bit<20> label; bit<3> tc; bit<1> bos; bit<8> ttl; }
header info_t { bit<8> idx; bit<8> op; bit<8> size; bit<8> last; bit<32> sum; }

struct headers {
    ethernet_t ethernet;
    info_t     info;
    label_t[3] labels;
}
struct metadata { }

parser P(packet_in pkt, out headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    state start {
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.info);
        transition select(hdr.ethernet.etherType) { 0x8847: label; default: accept; }
    }
    state label {
        pkt.extract(hdr.labels.next);
        hdr.info.last = (bit<8>)hdr.labels.lastIndex;
        transition select(hdr.labels.last.bos) { 1: accept; default: label; }
    }
}

control VC(inout headers hdr, inout metadata meta) { apply { } }

control I(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        if (sm.parser_error != error.NoError) {
            sm.egress_spec = 2;
            if (sm.parser_error == error.StackOutOfBounds) {
                hdr.info.sum = 1;
            }
            exit;
        }
        bit<8> i = hdr.info.idx & 3;
        if (hdr.info.op == 1) {
            hdr.labels[i].ttl = hdr.labels[i].ttl + 1;
        } else if (hdr.info.op == 2) {
            hdr.labels.push_front(2);
            hdr.labels[0].setValid();
            hdr.labels[0].label = 0xabcde;
        } else if (hdr.info.op == 3) {
            hdr.labels.pop_front(1);
        } else if (hdr.info.op == 4) {
            hdr.labels[i].setInvalid();
        } else if (hdr.info.op == 5) {
            hdr.labels[i] = hdr.labels[0];
            hdr.labels[i].tc = 5;
        }
        bit<32>[4] words;
        for (bit<8> k = 0; k < 4; k += 1) {
            words[k] = (bit<32>)hdr.labels[k].label + (bit<32>)k;
        }
        words[i] = words[i] + 7;
        hdr.info.sum = words[0] ^ words[1] ^ words[2] ^ words[3];
        if (hdr.labels[i].isValid()) {
            hdr.info.sum = hdr.info.sum + 1;
        }
        hdr.info.size = (bit<8>)hdr.labels.size;
    }
}

control E(inout headers hdr, inout metadata meta, inout standard_metadata_t sm) { apply { } }
control CC(inout headers hdr, inout metadata meta) { apply { } }
control D(packet_out pkt, in headers hdr) {
    apply { pkt.emit(hdr.ethernet); pkt.emit(hdr.info); pkt.emit(hdr.labels); }
}

V1Switch(P(), VC(), I(), E(), CC(), D()) main;
