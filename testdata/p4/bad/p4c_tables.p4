// The rules p4c enforces on tables' keys, entries and default actions.
#include <core.p4>

match_kind { optional }

action top() {}

control C(inout bit<8> x, inout bit<8> y) {
    action a() {}
    action top() {}
    action set(inout bit<8> r, bit<8> v) { r = v; }
    table dup {
        key = { x: exact; }
        actions = { a; }
        const entries = {
            1: a();
            1: a(); // ERROR "table dup has two entries with the same keys"
        }
    }
    table prio {
        key = { x: exact; }
        actions = { a; }
        entries = {
            priority = 10: 1: a(); // ERROR "do not need priorities"
        }
    }
    table some_prio {
        key = { x: ternary; }
        actions = { a; }
        entries = {
            1: a(); // ERROR "this entry must have a priority"
            priority = 5: 2: a();
        }
    }
    table const_prio {
        key = { x: ternary; }
        actions = { a; }
        const entries = {
            priority = 5: 2: a(); // ERROR "the const entries of table const_prio cannot have priorities"
        }
    }
    table masks {
        key = { x: lpm; y: optional; }
        actions = { a; }
        const entries = {
            (8w0x11 &&& 8w0xe1, 1): a(); // ERROR "is not a prefix mask for an lpm key"
            (8w0x10 &&& 8w0xf0, 8w1 &&& 8w1): a(); // ERROR "an optional key matches a value or _"
        }
    }
    table bound {
        key = { x: exact; }
        actions = { set(x); }
        default_action = set(y, 1); // ERROR "the argument does not match the one in the actions list, x"
    }
    table global {
        actions = { a; top; }
        default_action = .top(); // ERROR "default action top is not in the actions of table global"
    }
    table complex {
        key = { x + y: exact; } // ERROR "a key that is not a field or slice of one needs a @name annotation"
        actions = { a; }
    }
    apply {
        dup.apply(); prio.apply(); some_prio.apply(); const_prio.apply(); masks.apply();
        bound.apply(); global.apply(); complex.apply();
    }
}
