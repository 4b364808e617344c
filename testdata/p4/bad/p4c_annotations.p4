// The rules p4c enforces on annotations.
#include <core.p4>

@name(4) // ERROR "@name should contain a string"
action a() {}

@dup[] @dup[] // ERROR "@dup: a structured annotation may appear once"
action b() {}

@bad[v = {1, 2}] // ERROR "@bad: .* is not a constant int, string or bool"
action c() {}

@pkginfo // ERROR "syntax error: @pkginfo takes key=value pairs"
action d() {}

header h_t {
    @length(later) varbit<32> data; // ERROR "@length: later is not a field declared before data"
    bit<32> later;
}
