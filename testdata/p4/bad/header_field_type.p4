// A header field of a struct type whose fields are not all bits: a header
// may hold structs only of bit<W>, int<W>, bool and serializable enums.
#include <core.p4>
struct pair_t { bit<8> x; error e; }
header h_t {
    pair_t p; // ERROR "header field h_t.p has type pair_t; header fields must be bit<W>, int<W>, varbit<W>, bool, a serializable enum, or a struct or array of those"
}
