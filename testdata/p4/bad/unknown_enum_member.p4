// An enum member that does not exist.
#include <core.p4>
enum bit<8> Op { ADD = 1, SUB = 2 }
const Op X = Op.MUL; // ERROR "enum Op has no member MUL"
