// The rules p4c enforces on expressions and calls.
#include <core.p4>

T id<T>(in T x) { return x; }
bit<8> rec(in bit<8> x) { return rec(x); } // ERROR "undeclared name rec"

header h_t { varbit<8> v; bit<8> f; }
header plain_t { bit<8> f; }

parser P(packet_in p, out h_t h, out plain_t q) {
    state start {
        p.extract(h); // ERROR "extract: header h_t has a varbit field; give its size"
        p.extract(q, 8); // ERROR "extract: header plain_t has no varbit field to give a size to"
        transition accept;
    }
}

control C(inout bit<8> a) {
    apply {
        a = a / 0; // ERROR "division by zero"
        a = a % -1; // ERROR "% is not defined on negative numbers"
        a = id(255); // ERROR "could not infer a width for the type T"
        verify(a == 1, error.NoError); // ERROR "verify may be called only in a parser"
    }
}

parser Loop() { // ERROR "parser Loop never reaches accept or reject"
    state start { transition next; }
    state next { transition start; }
}
