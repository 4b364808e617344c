// A parser statement without its semicolon, before the transition: the
// error is the missing ';', not the keyword after it.
#include <core.p4>
header eth_t { bit<48> dst; }
struct headers { eth_t eth; }
parser P(packet_in pkt, out headers hdr) {
    state start { pkt.extract(hdr.eth) transition accept; } // ERROR "^expected ';' after 'pkt.extract\(hdr.eth\)'$"
}
