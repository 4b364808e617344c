// Sampling written for Tofino by hand, as p4hls's Tofino backend will
// write it: the count lives in a Register, updated by one RegisterAction
// (one stateful ALU) in stage 0; a table in stage 1 sets the sample flag
// from the count's old value.
#include <core.p4>
#include <tna.p4>

header ethernet_t {
    bit<48> dstAddr;
    bit<48> srcAddr;
    bit<16> etherType;
}

header app_t {
    bit<32> sample;
}

struct headers {
    ethernet_t ethernet;
    app_t      app;
}

struct metadata {
    bit<32> count;
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
    Register<bit<32>, bit<32>>(1) count;

    // s = (s == 29) ? 0 : s + 1, output the old value.
    RegisterAction<bit<32>, bit<32>, bit<32>>(count) count_step = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            if (value == 29) {
                value = 0;
            } else {
                value = value + 1;
            }
        }
    };

    action step() {
        meta.count = count_step.execute(0);
    }

    @stage(0)
    table t_step {
        actions = { step; }
        const default_action = step();
    }

    action mark(bit<32> v) {
        hdr.app.sample = v;
    }

    @stage(1)
    table t_mark {
        key = { meta.count: exact; }
        actions = { mark; }
        const entries = { 29 : mark(1); }
        const default_action = mark(0);
    }

    apply {
        t_step.apply();
        t_mark.apply();
        ig_tm_md.ucast_egress_port = ig_intr_md.ingress_port;
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
        transition accept;
    }
}

control Eg(inout headers hdr, inout metadata meta,
           in egress_intrinsic_metadata_t eg_intr_md,
           in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
           inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
           inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply { }
}

control EgDeparser(packet_out pkt, inout headers hdr, in metadata meta,
                   in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply {
        pkt.emit(hdr);
    }
}

Pipeline(IgParser(), Ig(), IgDeparser(), EgParser(), Eg(), EgDeparser()) pipe;
Switch(pipe) main;
