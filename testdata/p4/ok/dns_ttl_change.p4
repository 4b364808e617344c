// DNS TTL change: for each domain, count how often the TTL in its answers
// changes; a domain whose TTL changes often is suspicious (Bilge et al.,
// Exposure; CaT Table 4).
#include <core.p4>
#include <v1model.p4>

#ifndef NUM_DOMAINS  // -D NUM_DOMAINS=1 gives the one-cell variant Menshen runs
#define NUM_DOMAINS 1024
#endif

header app_t {
    bit<32> domain;
    bit<32> ttl;
    bit<32> changes;  // out: TTL changes seen for the domain
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_DOMAINS) seen;
    register<bit<32>>(NUM_DOMAINS) last_ttl;
    register<bit<32>>(NUM_DOMAINS) ttl_change;

    action ttl_changes() {
        bit<32> idx = hdr.app.domain & (NUM_DOMAINS - 1);
        @atomic {
            bit<32> s;
            bit<32> last;
            bit<32> changes;
            seen.read(s, idx);
            last_ttl.read(last, idx);
            ttl_change.read(changes, idx);
            if (s == 0) {
                s = 1;
                last = hdr.app.ttl;
                changes = 0;
            } else if (last != hdr.app.ttl) {
                last = hdr.app.ttl;
                changes = changes + 1;
            }
            seen.write(idx, s);
            last_ttl.write(idx, last);
            ttl_change.write(idx, changes);
            hdr.app.changes = changes;
        }
    }

    table dns {
        actions = { ttl_changes; }
        default_action = ttl_changes();
    }

    apply {
        if (hdr.app.isValid()) {
            dns.apply();
        }
    }
}

BENCH_MAIN
