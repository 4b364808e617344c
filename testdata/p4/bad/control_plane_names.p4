// Two actions, or tables, a controller would name alike. A name with a
// leading dot is absolute; any other is under the path of the control
// declaring it: the control's name, or, for a control another applies,
// that control's path and the instance's name (C.apply() makes one named
// C). A table is one per instance of its control.
#include <core.p4>
#include <v1model.p4>

header app_t {
    bit<8>  a;
    bit<16> b;
    bit<32> c;
}

#include "../include/bench.p4"

action top_unused() { }          // no control-plane object: unused, no @name
action set_a() { }
@name("set_b") action set_b_top() { }

control Inner(inout bit<8> x) {
    @name("mark") action mark() { x = 1; }
    table t { key = { x: exact; } actions = { mark; } }
    apply { t.apply(); }
}

control Twice(inout bit<8> x) {
    action on() { x = 1; }
    @name(".shared") table shared { key = { x: exact; } actions = { on; } }  // ERROR "table shared: its control-plane name .shared, with a leading dot, is the name of its copy in MyIngress.first and in MyIngress.second"
    table own { key = { x: exact; } actions = { on; } }
    apply { shared.apply(); own.apply(); }
}

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    @name(".top_unused") action local_ok() { }
    @name(".set_a") action clash_a() { }     // ERROR "action clash_a: its control-plane name .set_a is action set_a's too"
    @name(".set_b") action clash_b() { }     // ERROR "action clash_b: its control-plane name .set_b is action set_b_top's too"
    @name("Inner.mark") action clash_inner() { }  // ERROR "action clash_inner: its control-plane name .MyIngress.Inner.mark is action mark's too"
    @name("other") action fine() { }
    Twice() first;
    Twice() second;
    @name(".MyIngress.first.own") table clash_own { key = { hdr.app.b: exact; } actions = { fine; } }  // ERROR "table clash_own: its control-plane name .MyIngress.first.own is table own's too"
    table t {
        key = { hdr.app.a: exact; }
        actions = { set_a; set_b_top; local_ok; clash_a; clash_b; clash_inner; fine; }
    }
    apply {
        t.apply();
        Inner.apply(hdr.app.a);
        first.apply(hdr.app.a);
        second.apply(hdr.app.a);
        clash_own.apply();
    }
}

BENCH_MAIN
