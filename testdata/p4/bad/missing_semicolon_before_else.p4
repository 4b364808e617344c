// A statement without its semicolon before else, and before an if.
#include <core.p4>
header h_t { bit<8> a; }
struct headers { h_t h; }
control C(inout headers hdr) {
    action a() {}
    action b() {}
    apply {
        if (hdr.h.a == 1) a() else b(); // ERROR "^expected ';' after 'a\(\)'$"
        hdr.h.a = 2 if (hdr.h.a == 2) { b(); } // ERROR "^expected ';' after 'hdr.h.a = 2'$"
    }
}
