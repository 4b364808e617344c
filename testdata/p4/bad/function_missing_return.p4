// A function that can end without returning.
#include <core.p4>
bit<8> f(in bit<8> x) { // ERROR "function f can end without returning a value"
    if (x > 1) {
        return x;
    }
}
