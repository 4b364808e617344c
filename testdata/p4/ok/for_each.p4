// for-in loops over lists and over a header stack: a list's elements
// are evaluated once, before the first iteration (changing a variable an
// element reads does not change the element); the stack's elements are
// visited from 0 to its size, and continue and break work as in any loop.
#include <core.p4>
#include <v1model.p4>

header out_t {
    bit<8>  sum;   // of the lists' elements
    bit<8>  count; // of the stack's nonzero elements up to the first over 10
    bit<8>  big;   // the first over 10, or 0
    bit<8>  a;     // what the list's first element read, after the loop
    bit<64> pad;   // an Ethernet header's worth of bytes in all
}

header num_t {
    bit<8> v;
}

struct headers {
    out_t    result;
    num_t[3] nums;
}

struct metadata { }

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.result);
        packet.extract(hdr.nums.next);
        packet.extract(hdr.nums.next);
        packet.extract(hdr.nums.next);
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
        bit<8> a = hdr.nums[0].v;
        bit<8> sum = 0;
        for (bit<8> i in (list<bit<8>>) {a, 2, 4}) {
            sum = sum + i;
            a = 100;
        }
        for (bit<8> j in {1, 2}) { // a list of int constants, as bit<8>
            sum = sum + j;
        }
        bit<8> count = 0;
        bit<8> big = 0;
        for (num_t n in hdr.nums) {
            if (n.v == 0) {
                continue;
            }
            count = count + 1;
            if (n.v > 10) {
                big = n.v;
                break;
            }
        }
        hdr.result.sum = sum;
        hdr.result.count = count;
        hdr.result.big = big;
        hdr.result.a = a;
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
        packet.emit(hdr.result);
        packet.emit(hdr.nums);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
