// What a program does with varbit fields: extract them at the size a
// header before gives, compare two of them (equal when their sizes and
// bits are), copy one over another (size and all), and emit them; and the
// parser errors a size causes.
#include <core.p4>
#include <v1model.p4>

header size_t {
    bit<8> bits; // the size of the varbit after it
}

header value_t {
    varbit<32> v;
}

header verdict_t {
    bit<8> code;
}

struct headers {
    verdict_t verdict;
    size_t    a_size;
    value_t   a;
    size_t    b_size;
    value_t   b;
}

struct metadata { }

parser MyParser(packet_in packet, out headers hdr, inout metadata meta,
                inout standard_metadata_t sm) {
    state start {
        packet.extract(hdr.a_size);
        packet.extract(hdr.a, (bit<32>)hdr.a_size.bits);
        packet.extract(hdr.b_size);
        packet.extract(hdr.b, (bit<32>)hdr.b_size.bits);
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
        hdr.verdict.setValid();
        if (sm.parser_error == error.ParserInvalidArgument) {
            hdr.verdict.code = 6;
        } else if (sm.parser_error == error.HeaderTooShort) {
            hdr.verdict.code = 4;
        } else if (sm.parser_error == error.PacketTooShort) {
            hdr.verdict.code = 3;
        } else if (hdr.a == hdr.b) {
            hdr.verdict.code = 1;
        } else {
            hdr.verdict.code = 2;
        }
        hdr.b = hdr.a;
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
        packet.emit(hdr.verdict);
        packet.emit(hdr.a_size);
        packet.emit(hdr.a);
        packet.emit(hdr.b_size);
        packet.emit(hdr.b);
    }
}

V1Switch(MyParser(), MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
