// The last statement of a block without its semicolon, in an action, a
// table property, an if block (where `{ a(1) }` alone would parse as a list
// expression) and an exit.
#include <core.p4>
header h_t { bit<8> a; }
struct headers { h_t h; }
control C(inout headers hdr) {
    action a(bit<8> v) { hdr.h.a = v } // ERROR "^expected ';' after 'hdr.h.a = v'$"
    table t {
        key = { hdr.h.a : exact; }
        actions = { a; }
        size = 16 // ERROR "^expected ';' after 'size = 16'$"
    }
    apply {
        if (hdr.h.isValid()) { a(1) } // ERROR "^expected ';' after 'a\(1\)'$"
        t.apply();
        exit } // ERROR "^expected ';' after 'exit'$"
}
