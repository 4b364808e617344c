// A bit<0> type.
#include <core.p4>
header h_t {
    bit<0> f; // ERROR "bit<0> has no values; p4hls needs a width of at least 1"
}
