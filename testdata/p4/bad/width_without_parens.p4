// A width that is a name must be parenthesized: bit<(W)>.
#include <core.p4>
const bit<32> W = 8;
header h_t {
    bit<W> f; // ERROR "syntax error: unexpected 'W' expecting '\(' or INTEGER"
}
