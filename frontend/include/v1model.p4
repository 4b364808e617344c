/* v1model.p4: the architecture of the BMv2 simple_switch target, written for
 * p4hls from the public description of its API (the V1Switch package, its
 * standard_metadata and its externs). */
#ifndef _V1MODEL_P4_
#define _V1MODEL_P4_

#include <core.p4>

#define V1MODEL_VERSION 20180101
const bit<32> __v1model_version = V1MODEL_VERSION;

match_kind {
    range,
    optional,
    selector
}

typedef bit<9> PortId_t;

@metadata @name("standard_metadata")
struct standard_metadata_t {
    PortId_t ingress_port;
    PortId_t egress_spec;
    PortId_t egress_port;
    bit<32>  instance_type;
    bit<32>  packet_length;
    bit<32>  enq_timestamp;
    bit<19>  enq_qdepth;
    bit<32>  deq_timedelta;
    bit<19>  deq_qdepth;
    bit<48>  ingress_global_timestamp;
    bit<48>  egress_global_timestamp;
    bit<16>  mcast_grp;
    bit<16>  egress_rid;
    bit<1>   checksum_error;
    error    parser_error;
    bit<3>   priority;
}

enum CounterType {
    packets,
    bytes,
    packets_and_bytes
}

enum MeterType {
    packets,
    bytes
}

/* Indexed packet and/or byte counters. */
extern counter<I> {
    counter(bit<32> size, CounterType type);
    void count(in I index);
}

/* A counter attached to a table: one per entry. */
extern direct_counter {
    direct_counter(CounterType type);
    void count();
}

#define V1MODEL_METER_COLOR_GREEN  0
#define V1MODEL_METER_COLOR_YELLOW 1
#define V1MODEL_METER_COLOR_RED    2

/* Indexed two-rate three-colour meters. */
extern meter<I> {
    meter(bit<32> size, MeterType type);
    void execute_meter<T>(in I index, out T result);
}

/* A meter attached to a table. */
extern direct_meter<T> {
    direct_meter(MeterType type);
    void read(out T result);
}

/* An array of size cells of type T that keeps its values across packets. */
extern register<T, I> {
    register(bit<32> size);
    @noSideEffects
    T read(in I index);
    void read(out T result, in I index);
    void write(in I index, in T value);
}

extern action_profile {
    action_profile(bit<32> size);
}

/* A uniformly distributed value in [lo, hi]. */
extern void random<T>(out T result, in T lo, in T hi);

extern void digest<T>(in bit<32> receiver, in T data);

enum HashAlgorithm {
    crc32,
    crc32_custom,
    crc16,
    crc16_custom,
    random,
    identity,
    csum16,
    xor16
}

/* Drop the packet at the end of ingress or egress. */
extern void mark_to_drop(inout standard_metadata_t standard_metadata);

/* result = base + (hash of data) mod max, computed with algo. */
extern void hash<O, T, D, M>(out O result, in HashAlgorithm algo, in T base, in D data, in M max);

extern action_selector {
    action_selector(HashAlgorithm algorithm, bit<32> size, bit<32> outputWidth);
}

enum CloneType {
    I2E,
    E2E
}

extern Checksum16 {
    Checksum16();
    bit<16> get<D>(in D data);
}

extern void verify_checksum<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);
extern void update_checksum<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);
extern void verify_checksum_with_payload<T, O>(in bool condition, in T data, in O checksum, HashAlgorithm algo);
extern void update_checksum_with_payload<T, O>(in bool condition, in T data, inout O checksum, HashAlgorithm algo);

extern void resubmit_preserving_field_list(bit<8> index);
extern void recirculate_preserving_field_list(bit<8> index);
extern void clone(in CloneType type, in bit<32> session);
extern void clone_preserving_field_list(in CloneType type, in bit<32> session, bit<8> index);
extern void truncate(in bit<32> length);
extern void assert(in bool check);
extern void assume(in bool check);
extern void log_msg(string msg);
extern void log_msg<T>(string msg, in T data);

/* The blocks of the V1Switch pipeline, in the order packets go through them. */
parser Parser<H, M>(packet_in b,
                    out H parsedHdr,
                    inout M meta,
                    inout standard_metadata_t standard_metadata);

control VerifyChecksum<H, M>(inout H hdr, inout M meta);

@pipeline
control Ingress<H, M>(inout H hdr,
                      inout M meta,
                      inout standard_metadata_t standard_metadata);

@pipeline
control Egress<H, M>(inout H hdr,
                     inout M meta,
                     inout standard_metadata_t standard_metadata);

control ComputeChecksum<H, M>(inout H hdr, inout M meta);

@deparser
control Deparser<H>(packet_out b, in H hdr);

package V1Switch<H, M>(Parser<H, M> p,
                       VerifyChecksum<H, M> vr,
                       Ingress<H, M> ig,
                       Egress<H, M> eg,
                       ComputeChecksum<H, M> ck,
                       Deparser<H> dep);

#endif /* _V1MODEL_P4_ */
