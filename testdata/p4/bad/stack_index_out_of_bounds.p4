// A constant index past the end of a header stack.
#include <core.p4>
header h_t { bit<8> x; }
struct s_t { h_t[4] stack; }
control C(inout s_t s) {
    apply {
        s.stack[5].x = 1; // ERROR "index 5 is out of bounds for a stack of 4 elements"
    }
}
