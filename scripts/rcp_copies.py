#!/usr/bin/env python3
"""rcp_copies.py N OUT [two]: a v1model program of N copies of RCP's
transaction, each with its own registers, action and table, for
scripts/bench-compare.sh (p4hls's own `bench copies` writes its programs
itself). With "two", registers are declared register<T, I>, as builds of
p4hls before the one-argument form read them; else register<T>."""
import sys

n, out = int(sys.argv[1]), sys.argv[2]
reg = "register<bit<32>, bit<32>>" if len(sys.argv) > 3 else "register<bit<32>>"
body = []
for i in range(n):
    body.append(f"""
    {reg}(1) traffic_{i};
    {reg}(1) rtt_sum_{i};
    {reg}(1) pkts_{i};
    action rcp_{i}() {{
        @atomic {{
            bit<32> t; bit<32> s; bit<32> p;
            traffic_{i}.read(t, 0); rtt_sum_{i}.read(s, 0); pkts_{i}.read(p, 0);
            t = t + hdr.app.size_bytes;
            if (hdr.app.rtt < 30) {{ s = s + hdr.app.rtt; p = p + 1; }}
            traffic_{i}.write(0, t); rtt_sum_{i}.write(0, s); pkts_{i}.write(0, p);
        }}
    }}
    table rcp_stats_{i} {{ actions = {{ rcp_{i}; }} default_action = rcp_{i}(); }}""")
applies = "\n".join(f"            rcp_stats_{i}.apply();" for i in range(n))
with open(out, "w") as f:
    f.write(f"""#include <core.p4>
#include <v1model.p4>
header app_t {{ bit<32> size_bytes; bit<32> rtt; }}
#include "../include/bench.p4"
control MyIngress(inout headers hdr, inout metadata meta, inout standard_metadata_t standard_metadata) {{
{''.join(body)}
    apply {{
        if (hdr.app.isValid()) {{
{applies}
        }}
    }}
}}
BENCH_MAIN
""")
