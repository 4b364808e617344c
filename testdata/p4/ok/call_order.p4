// Calls of the program's functions inside larger expressions: operands
// are evaluated left to right (x + bump(x) adds x's old value), ?: runs
// the call of one arm only, and && || run the call on their right only
// when the left does not decide (P4-16 §8.6).
#include <core.p4>
#include <v1model.p4>

header data_t {
    bit<8>  x;      // in: the value bump reads and writes
    bit<8>  c;      // in: 1 picks ?:'s first arm, and && needs its right
    bit<8>  sum;    // out: x + bump(x)
    bit<8>  picked; // out: ?:'s value
    bit<8>  first;  // out: how often the first arm's call ran
    bit<8>  second; // out: how often the second arm's call ran
    bit<8>  both;   // out: 1 when c == 1 && bump(x) == ...
    bit<8>  calls;  // out: how often && and || ran their right side
    bit<48> pad;    // an Ethernet header's worth of bytes in all
}

struct headers {
    data_t data;
}

struct metadata { }

// Adds 1 to v and returns 10.
bit<8> bump(inout bit<8> v) {
    v = v + 1;
    return 10;
}

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.data);
        transition accept;
    }
}

control MyVerifyChecksum(inout headers hdr, inout metadata meta) {
    apply { }
}

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t sm) {
    apply {
        sm.egress_spec = 1;
        bit<8> x = hdr.data.x;
        hdr.data.sum = x + bump(x);                  // old x + 10; x is now one more
        hdr.data.picked = hdr.data.c == 1 ? bump(hdr.data.first) : bump(hdr.data.second);
        bit<8> n = 0;
        bool both = hdr.data.c == 1 && bump(n) == 10; // bump runs only when c == 1
        bool either = hdr.data.c == 1 || bump(n) == 10; // bump runs only when c != 1
        hdr.data.both = both ? 8w1 : 8w0;
        hdr.data.calls = either ? n : 8w0xff;
        hdr.data.x = x;
    }
}

control MyEgress(inout headers hdr, inout metadata meta,
                 inout standard_metadata_t sm) {
    apply { }
}

control MyComputeChecksum(inout headers hdr, inout metadata meta) {
    apply { }
}

control MyDeparser(packet_out packet, in headers hdr) {
    apply {
        packet.emit(hdr.data);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
