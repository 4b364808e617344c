// A program for an architecture it declares itself (not v1model): a
// two-block package with a generic parser and control type. p4hls must
// parse and check programs of any architecture.
#include <core.p4>

parser SimpleParser<H>(packet_in pkt, out H hdr);
control SimplePipe<H>(inout H hdr, in bit<8> port, out bit<8> egress);
package SimpleSwitch<H>(SimpleParser<H> p, SimplePipe<H> pipe);

header eth_t { bit<48> dst; bit<48> src; bit<16> type; }
struct hdrs_t { eth_t eth; }

parser MyParser(packet_in pkt, out hdrs_t hdr) {
    state start {
        pkt.extract(hdr.eth);
        transition accept;
    }
}

control MyPipe(inout hdrs_t hdr, in bit<8> port, out bit<8> egress) {
    action to(bit<8> p) { egress = p; }
    table fwd {
        key = { hdr.eth.dst : exact; }
        actions = { to; }
        default_action = to(0);
    }
    apply {
        egress = 0;
        fwd.apply();
    }
}

SimpleSwitch(MyParser(), MyPipe()) main;
