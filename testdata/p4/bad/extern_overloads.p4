// Overloads of an extern's methods that no call could tell apart: a call
// chooses by its number of arguments, or by the names of named ones.
#include <core.p4>

extern Meter2 {
    Meter2(bit<32> size);
    Meter2(bit<32> size);                          // ERROR "Meter2 of extern Meter2 is declared twice with the same parameter names"
    Meter2(bit<32> size, bit<8> rate);             // another count: fine
    void read(out bit<8> v, in bit<32> index);
    void read(in bit<32> index, out bit<8> v);     // ERROR "read of extern Meter2 is declared twice with the same parameter names"
    void read(out bit<8> v, in bit<32> cell);      // other names: fine
}

control C() { apply { } }
control Proto();
package Top(Proto p);
Top(C()) main;
