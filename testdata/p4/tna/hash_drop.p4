// TNA's Hash, drop and output port: the ingress hashes the application
// word with CRC16 into h, drops packets whose word is 0, and sends the
// others to port 5; the egress adds 1 to the word.
#include <core.p4>
#include <tna.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header app_t {
    bit<32> x;
    bit<16> h;
}

struct headers {
    ethernet_t ethernet;
    app_t      app;
}

struct metadata {
}

parser IgParser(packet_in pkt, out headers hdr, out metadata meta,
                out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.app);
        transition accept;
    }
}

control Ig(inout headers hdr, inout metadata meta,
           in ingress_intrinsic_metadata_t ig_intr_md,
           in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
           inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
           inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Hash<bit<16>>(HashAlgorithm_t.CRC16) h16;

    apply {
        hdr.app.h = h16.get({hdr.app.x});
        if (hdr.app.x == 0) {
            ig_dprsr_md.drop_ctl = 1;
        }
        ig_tm_md.ucast_egress_port = 5;
    }
}

control IgDeparser(packet_out pkt, inout headers hdr, in metadata meta,
                   in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

parser EgParser(packet_in pkt, out headers hdr, out metadata meta,
                out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        pkt.extract(hdr.ethernet);
        pkt.extract(hdr.app);
        transition accept;
    }
}

control Eg(inout headers hdr, inout metadata meta,
           in egress_intrinsic_metadata_t eg_intr_md,
           in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
           inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
           inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply {
        hdr.app.x = hdr.app.x + 1;
    }
}

control EgDeparser(packet_out pkt, inout headers hdr, in metadata meta,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(IgParser(), Ig(), IgDeparser(), EgParser(), Eg(), EgDeparser()) pipe;
Switch(pipe) main;
