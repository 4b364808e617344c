// A parser with no start state.
#include <core.p4>
header h_t { bit<8> x; }
parser P(packet_in pkt, out h_t h) { // ERROR "parser P has no start state"
    state begin {
        pkt.extract(h);
        transition accept;
    }
}
