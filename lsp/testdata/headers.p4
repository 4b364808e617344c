// The headers of prog.p4, in a file of their own so that the editor
// server's tests follow a name into an included file.
header ethernet_t {
    bit<48> dst;
    bit<48> src;
    bit<16> type;
}

header ipv4_t {
    bit<8>  ttl;
    bit<8>  protocol;
    bit<32> src;
    bit<32> dst;
}

struct headers {
    ethernet_t ethernet;
    ipv4_t     ipv4;
}

struct metadata {
    bit<8> hops;
}
