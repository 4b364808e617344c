// A directive the preprocessor does not know.
#include <core.p4>
#pragmaa once // ERROR "unknown preprocessor directive #pragmaa"
const bit<8> X = 1;
