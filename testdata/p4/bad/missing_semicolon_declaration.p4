// Top-level declarations and a header field without their semicolons.
#include <core.p4>
const bit<8> X = 1 // ERROR "^expected ';' after 'const bit<8> X = 1'$"
const bit<8> Y = 2;
typedef bit<8> byte_t // ERROR "^expected ';' after 'typedef bit<8> byte_t'$"
header h_t {
    byte_t a // ERROR "^expected ';' after 'byte_t a'$"
    bit<8> b;
}
