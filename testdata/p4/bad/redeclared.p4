// One name declared twice in one scope.
#include <core.p4>
const bit<8> A = 1;
const bit<8> A = 2; // ERROR "A is already declared in this scope"
