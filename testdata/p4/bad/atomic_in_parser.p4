// @atomic on a block in a parser state.
#include <core.p4>
header h_t { bit<8> x; }
parser P(packet_in pkt, out h_t h) {
    state start {
        @atomic { // ERROR "@atomic blocks are not allowed in a parser; put the block in an action"
            pkt.extract(h);
        }
        transition accept;
    }
}
