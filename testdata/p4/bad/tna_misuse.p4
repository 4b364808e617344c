// TNA's API misused: a RegisterAction executed without its index, a
// 32-bit value as a 9-bit port, an egress control where the ingress
// control goes.
#include <core.p4>
#include <tna.p4>

header h_t { bit<32> a; }
struct headers { h_t h; }
struct metadata { bit<32> m; }

parser IgParser(packet_in pkt, out headers hdr, out metadata meta, out ingress_intrinsic_metadata_t ig_intr_md) {
    state start {
        pkt.extract(ig_intr_md);
        pkt.advance(PORT_METADATA_SIZE);
        pkt.extract(hdr.h);
        transition accept;
    }
}

control Ig(inout headers hdr, inout metadata meta, in ingress_intrinsic_metadata_t ig_intr_md,
           in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
           inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
           inout ingress_intrinsic_metadata_for_tm_t ig_tm_md) {
    Register<bit<32>, bit<32>>(1) r;
    RegisterAction<bit<32>, bit<32>, bit<32>>(r) ra = {
        void apply(inout bit<32> value, out bit<32> rv) {
            rv = value;
            value = value + 1;
        }
    };
    apply {
        meta.m = ra.execute(); // ERROR "execute takes 1 argument, got 0"
        ig_tm_md.ucast_egress_port = meta.m; // ERROR "cannot use a value of type bit<32> as bit<9>"
    }
}

control IgDeparser(packet_out pkt, inout headers hdr, in metadata meta, in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md) {
    apply { pkt.emit(hdr); }
}

parser EgParser(packet_in pkt, out headers hdr, out metadata meta, out egress_intrinsic_metadata_t eg_intr_md) {
    state start {
        pkt.extract(eg_intr_md);
        transition accept;
    }
}

control Eg(inout headers hdr, inout metadata meta, in egress_intrinsic_metadata_t eg_intr_md,
           in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
           inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
           inout egress_intrinsic_metadata_for_output_port_t eg_oport_md) {
    apply { }
}

control EgDeparser(packet_out pkt, inout headers hdr, in metadata meta, in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md) {
    apply { pkt.emit(hdr); }
}

Pipeline(IgParser(), Eg(), IgDeparser(), EgParser(), Eg(), EgDeparser()) pipe; // ERROR "Eg does not fit IngressT \(parameter ingress\): its parameter 3 has type egress_intrinsic_metadata_t, but IngressT needs ingress_intrinsic_metadata_t"
Switch(pipe) main;
