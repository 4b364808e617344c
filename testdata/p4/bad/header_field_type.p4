// A header field of a struct type.
#include <core.p4>
struct pair_t { bit<8> x; bit<8> y; }
header h_t {
    pair_t p; // ERROR "header field h_t.p has type pair_t; header fields must be bit<W>, int<W>, varbit<W>, bool or a serializable enum"
}
