// A control passed where V1Switch needs a parser.
#include <core.p4>
#include <v1model.p4>

header app_t { bit<8> a; }
#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply { }
}

V1Switch(MyIngress(), // ERROR "V1Switch: parameter p needs a Parser<H, M>, got MyIngress"
         MyVerifyChecksum(), MyIngress(), MyEgress(), MyComputeChecksum(), MyDeparser()) main;
