// The rules p4c enforces on instances and types.
#include <core.p4>

extern Gen<T> { Gen(); }
extern Abs { Abs(); abstract void f(in bit<8> v); }
extern Two<A, B> { Two(A a); }
control Ct();
control Inner() { apply {} }
package Pkg(Ct c);

type tuple<bit<8>> Narrow; // ERROR "`type' can only be applied to base types"
typedef tuple<string> Strings; // ERROR "string is not supported as a tuple or list element"

Inner() top_level; // ERROR "a control cannot be instantiated at the top level"

control C() {
    Gen<Gen<bit<8>>>() nested; // ERROR "Gen contains itself as a type argument"
    Two(8w1) unknown; // ERROR "could not infer a type for Two's type parameter B"
    Abs() missing; // ERROR "abstract method f of Abs is not implemented"
    Abs() wrong = { void f(out bit<8> v) {} }; // ERROR "parameter v does not match the abstract method's \(in bit<8>\)"
    Inner() init = {}; // ERROR "only extern instances take an initializer"
    apply {
        int i = 1; // ERROR "a variable cannot have type int"
    }
}
Pkg(C()) main;
