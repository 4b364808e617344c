// The rules p4c enforces on parameters: unique names, no default for out,
// @optional only in externs, block types and packages, no direction for
// strings, ints and externs, no ints or externs in actions, and parsers or
// controls only where blocks are passed.
#include <core.p4>

extern Ext { Ext(); }
control Ct();

extern void twice(in bit<8> a, in bit<8> a); // ERROR "parameter a is declared twice"
extern void out_default(out bit<8> x = 1); // ERROR "x: out parameters cannot have default values"
bit<8> optional_in_function(@optional in bit<8> a) { return 1; } // ERROR "an optional parameter is not allowed here"
extern void string_in(in string s); // ERROR "a parameter with type string cannot have a direction"
control int_in(in int v) { apply {} } // ERROR "parameters with type int must be directionless"
control ext_in(in Ext e) { apply {} } // ERROR "a parameter with type Ext cannot have a direction"
control actions() {
    action int_data(int v) {} // ERROR "actions cannot have parameters with type int"
    action ext_data(Ext e) {} // ERROR "action parameters cannot have extern types"
    apply {}
}
extern Wrap { Wrap(Ct c); } // ERROR "a parameter here cannot have type control Ct"
