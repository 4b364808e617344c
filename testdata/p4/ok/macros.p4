// The preprocessor: object- and function-like macros, conditionals, and
// a macro that expands to a declaration.
#include <core.p4>
#include <v1model.p4>

#define WIDTH 16
#define DOUBLE(x) ((x) + (x))
#define FIELD(name) bit<WIDTH> name;

#if WIDTH > 8 && defined(DOUBLE)
#define LIMIT 1000
#else
#define LIMIT 10
#endif

#ifdef NOT_DEFINED
#error this group is skipped
#elif WIDTH == 16
#define MODE 2
#endif

header app_t {
    FIELD(a)
    FIELD(b)
    bit<8> mode;
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    apply {
        hdr.app.a = DOUBLE(hdr.app.b);
        if (hdr.app.a > LIMIT) {
            hdr.app.a = LIMIT;
        }
        hdr.app.mode = MODE;
    }
}

BENCH_MAIN
