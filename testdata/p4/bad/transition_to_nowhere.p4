// A transition to a state that does not exist.
#include <core.p4>
header h_t { bit<8> x; }
parser P(packet_in pkt, out h_t h) {
    state start {
        pkt.extract(h);
        transition nowhere; // ERROR "transition to undeclared state nowhere"
    }
}
