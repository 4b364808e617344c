// An #if that is never closed.
#include <core.p4>
#ifdef DEBUG // ERROR "#if without #endif"
const bit<8> X = 1;
