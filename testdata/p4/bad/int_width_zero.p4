// int<W> needs a sign bit: its width is at least 1 (bit<0> is valid).
#include <core.p4>
header h_t {
    bit<0>  empty;
    int<0>  f; // ERROR "width 0 is out of range \(1 to 2048\)"
}
