// Spam detection: count the mails each source sends and flag it as a
// spammer once the count passes THRESHOLD (SNAP's spam detection, CaT
// Table 4, the pair ALU).
#include <core.p4>
#include <v1model.p4>

#define THRESHOLD 100
#define NUM_SOURCES 1024

header app_t {
    bit<32> src;
    bit<32> is_mail;  // 1 when the packet opens an SMTP session
    bit<32> spammer;  // out
}

#include "../include/bench.p4"

control MyIngress(inout headers hdr, inout metadata meta,
                  inout standard_metadata_t standard_metadata) {
    register<bit<32>>(NUM_SOURCES) mail_counter;
    register<bit<32>>(NUM_SOURCES) spammer;

    action spam() {
        bit<32> idx = hdr.app.src & (NUM_SOURCES - 1);
        @atomic {
            bit<32> cnt;
            bit<32> spam;
            mail_counter.read(cnt, idx);
            spammer.read(spam, idx);
            if (hdr.app.is_mail == 1) {
                cnt = cnt + 1;
            }
            if (cnt > THRESHOLD) {
                spam = 1;
            }
            mail_counter.write(idx, cnt);
            spammer.write(idx, spam);
            hdr.app.spammer = spam;
        }
    }

    table smtp {
        actions = { spam; }
        default_action = spam();
    }

    apply {
        if (hdr.app.isValid()) {
            smtp.apply();
        }
    }
}

BENCH_MAIN
