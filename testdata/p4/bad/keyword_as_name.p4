// A reserved word used as a field name.
#include <core.p4>
header h_t {
    bit<8> out; // ERROR "syntax error: unexpected 'out' \('out' is a keyword; it cannot be used as a name\)"
}
