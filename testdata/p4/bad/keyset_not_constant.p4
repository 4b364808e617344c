// A select case that is not a constant.
#include <core.p4>
header h_t { bit<8> x; bit<8> y; }
parser P(packet_in pkt, out h_t h) {
    state start {
        pkt.extract(h);
        transition select(h.x) {
            h.y: accept; // ERROR "a keyset value must be a compile-time constant"
            default: reject;
        }
    }
}
