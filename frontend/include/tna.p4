/* tna.p4: the Tofino Native Architecture, written for p4hls from the public
 * description of its API: the Switch and Pipeline packages, the ingress and
 * egress parser, control and deparser signatures, the intrinsic metadata,
 * and the externs a compiled program uses (Register and RegisterAction,
 * Hash, Random, counters, meters, Digest, Checksum). It declares the interface
 * only; p4hls's Tofino backend emits programs against it, and `p4hls check`
 * checks them.
 * Fields of intrinsic metadata the hardware has but p4hls never reads are
 * kept as padding, so the headers have the hardware's sizes. */
#ifndef _TNA_P4_
#define _TNA_P4_

#include <core.p4>

match_kind {
    range,
    selector,
    atcam_partition_index
}

typedef bit<9>  PortId_t;
typedef bit<16> MulticastGroupId_t;
typedef bit<5>  QueueId_t;
typedef bit<3>  MirrorType_t;
typedef bit<10> MirrorId_t;
typedef bit<3>  ResubmitType_t;
typedef bit<3>  DigestType_t;
typedef bit<16> ReplicationId_t;
typedef bit<16> L1ExclusionId_t;
typedef bit<9>  L2ExclusionId_t;

// The port metadata a Tofino parser skips after the ingress intrinsic
// metadata, in bits.
const bit<32> PORT_METADATA_SIZE = 32w64;

// The flags of a parser's errors (ig_prsr_md.parser_err): no select case
// matched; the packet ended inside a header; and the hardware's others.
// The names are Intel's (NO_MATCH was NO_TCAM before TNA 1.0.2).
const bit<16> PARSER_ERROR_OK           = 16w0x0000;
const bit<16> PARSER_ERROR_NO_MATCH     = 16w0x0001;
const bit<16> PARSER_ERROR_PARTIAL_HDR  = 16w0x0002;
const bit<16> PARSER_ERROR_CTR_RANGE    = 16w0x0004;
const bit<16> PARSER_ERROR_TIMEOUT_USER = 16w0x0008;
const bit<16> PARSER_ERROR_TIMEOUT_HW   = 16w0x0010;
const bit<16> PARSER_ERROR_SRC_EXT      = 16w0x0020;
const bit<16> PARSER_ERROR_DST_CONT     = 16w0x0040;
const bit<16> PARSER_ERROR_PHV_OWNER    = 16w0x0080;
const bit<16> PARSER_ERROR_MULTIWRITE   = 16w0x0100;
const bit<16> PARSER_ERROR_ARAM_MBE     = 16w0x0400;
const bit<16> PARSER_ERROR_FCS          = 16w0x0800;

/* ------------------------------------------------------------ ingress */

// Prepended to every packet by the hardware; the ingress parser extracts it
// first.
@__intrinsic_metadata
header ingress_intrinsic_metadata_t {
    bit<1>   resubmit_flag;
    @padding bit<1> _pad1;
    bit<2>   packet_version;
    @padding bit<3> _pad2;
    PortId_t ingress_port;
    bit<48>  ingress_mac_tstamp;
}

// What the ingress control tells the traffic manager.
@__intrinsic_metadata
struct ingress_intrinsic_metadata_for_tm_t {
    PortId_t           ucast_egress_port;
    bit<1>             bypass_egress;
    bit<1>             deflect_on_drop;
    bit<3>             ingress_cos;
    QueueId_t          qid;
    bit<3>             icos_for_copy_to_cpu;
    bit<1>             copy_to_cpu;
    bit<2>             packet_color;
    bit<1>             disable_ucast_cutthru;
    bit<1>             enable_mcast_cutthru;
    MulticastGroupId_t mcast_grp_a;
    MulticastGroupId_t mcast_grp_b;
    bit<13>            level1_mcast_hash;
    bit<13>            level2_mcast_hash;
    L1ExclusionId_t    level1_exclusion_id;
    L2ExclusionId_t    level2_exclusion_id;
    ReplicationId_t    rid;
}

// What the ingress parser found.
@__intrinsic_metadata
struct ingress_intrinsic_metadata_from_parser_t {
    bit<48> global_tstamp;
    bit<32> global_ver;
    bit<16> parser_err;
}

// What the ingress control tells the ingress deparser: drop_ctl bit 0
// drops the packet.
@__intrinsic_metadata
struct ingress_intrinsic_metadata_for_deparser_t {
    bit<3>         drop_ctl;
    DigestType_t   digest_type;
    ResubmitType_t resubmit_type;
    MirrorType_t   mirror_type;
}

/* ------------------------------------------------------------- egress */

@__intrinsic_metadata
header egress_intrinsic_metadata_t {
    bit<7>    _pad0;
    PortId_t  egress_port;
    bit<5>    _pad1;
    bit<19>   enq_qdepth;
    bit<6>    _pad2;
    bit<2>    enq_congest_stat;
    bit<14>   _pad3;
    bit<18>   enq_tstamp;
    bit<5>    _pad4;
    bit<19>   deq_qdepth;
    bit<6>    _pad5;
    bit<2>    deq_congest_stat;
    bit<8>    app_pool_congest_stat;
    bit<14>   _pad6;
    bit<18>   deq_timedelta;
    bit<16>   egress_rid;
    bit<7>    _pad7;
    bit<1>    egress_rid_first;
    bit<3>    _pad8;
    QueueId_t egress_qid;
    bit<5>    _pad9;
    bit<3>    egress_cos;
    bit<7>    _pad10;
    bit<1>    deflection_flag;
    bit<16>   pkt_length;
}

@__intrinsic_metadata
struct egress_intrinsic_metadata_from_parser_t {
    bit<48> global_tstamp;
    bit<32> global_ver;
    bit<16> parser_err;
}

@__intrinsic_metadata
struct egress_intrinsic_metadata_for_deparser_t {
    bit<3> drop_ctl;
    MirrorType_t mirror_type;
    bit<1> coalesce_flush;
    bit<7> coalesce_length;
}

@__intrinsic_metadata
struct egress_intrinsic_metadata_for_output_port_t {
    bit<1> capture_tstamp_on_tx;
    bit<1> update_delay_on_tx;
}

/* ------------------------------------------------------------ externs */

enum HashAlgorithm_t {
    IDENTITY,
    RANDOM,
    XOR8,
    XOR16,
    XOR32,
    CRC8,
    CRC16,
    CRC32,
    CRC64,
    CUSTOM
}

// A hash unit: get hashes a list of fields to W bits.
extern Hash<W> {
    Hash(HashAlgorithm_t algo);
    W get<D>(in D data);
}

// A random number generator.
extern Random<W> {
    Random();
    W get();
}

// A register array of size cells of type T, indexed by I. The data plane
// reads and updates it through a RegisterAction, in one stateful ALU.
extern Register<T, I> {
    Register(bit<32> size);
    Register(bit<32> size, T initial_value);
    T read(in I index);
    T write(in I index, in T value);
}

// What one stateful ALU does to a register cell: execute runs apply on
// the cell at index (value is the cell, updated in place) and returns rv;
// execute_log runs it on a cell an index that increments each time picks.
// @synchronous tells p4c's mid end that apply runs where execute is
// called, so it keeps the control's locals apply reads.
extern RegisterAction<T, I, U> {
    RegisterAction(Register<T, I> reg);
    U execute(in I index);
    U execute_log();
    @synchronous(execute, execute_log)
    abstract void apply(inout T value, @optional out U rv);
}

enum CounterType_t {
    PACKETS,
    BYTES,
    PACKETS_AND_BYTES
}

extern Counter<W, I> {
    Counter(bit<32> size, CounterType_t type);
    void count(in I index);
}

// A counter attached to a table (its counters property): count counts
// the entry that matched.
extern DirectCounter<W> {
    DirectCounter(CounterType_t type);
    void count();
}

enum MeterType_t {
    PACKETS,
    BYTES
}

// The colours a meter returns. Not v1model's: red is 3, where v1model's is 2.
enum bit<8> MeterColor_t {
    GREEN = 8w0,
    YELLOW = 8w1,
    RED = 8w3
}

// Two-rate three-colour meters; execute returns the colour of the cell at
// index.
extern Meter<I> {
    Meter(bit<32> size, MeterType_t type);
    bit<8> execute(in I index);
}

// A meter attached to a table (its meters property): execute returns the
// colour of the entry that matched.
extern DirectMeter {
    DirectMeter(MeterType_t type);
    bit<8> execute();
}

// A message to the control plane: the ingress deparser packs data when
// the ingress control set digest_type to the digest's number.
extern Digest<T> {
    Digest();
    Digest(DigestType_t digest_type);
    void pack(in T data);
}

// The ones'-complement checksum of the deparser (and the parser).
extern Checksum {
    Checksum();
    void add<T>(in T data);
    void subtract<T>(in T data);
    bool verify();
    bit<16> get();
    bit<16> update<T>(in T data);
}

/* ------------------------------------------------- the pipeline blocks */

parser IngressParserT<H, M>(
    packet_in pkt,
    out H hdr,
    out M ig_md,
    out ingress_intrinsic_metadata_t ig_intr_md);

control IngressT<H, M>(
    inout H hdr,
    inout M ig_md,
    in ingress_intrinsic_metadata_t ig_intr_md,
    in ingress_intrinsic_metadata_from_parser_t ig_prsr_md,
    inout ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md,
    inout ingress_intrinsic_metadata_for_tm_t ig_tm_md);

control IngressDeparserT<H, M>(
    packet_out pkt,
    inout H hdr,
    in M metadata,
    in ingress_intrinsic_metadata_for_deparser_t ig_dprsr_md);

parser EgressParserT<H, M>(
    packet_in pkt,
    out H hdr,
    out M eg_md,
    out egress_intrinsic_metadata_t eg_intr_md);

control EgressT<H, M>(
    inout H hdr,
    inout M eg_md,
    in egress_intrinsic_metadata_t eg_intr_md,
    in egress_intrinsic_metadata_from_parser_t eg_prsr_md,
    inout egress_intrinsic_metadata_for_deparser_t eg_dprsr_md,
    inout egress_intrinsic_metadata_for_output_port_t eg_oport_md);

control EgressDeparserT<H, M>(
    packet_out pkt,
    inout H hdr,
    in M metadata,
    in egress_intrinsic_metadata_for_deparser_t eg_dprsr_md);

package Pipeline<IH, IM, EH, EM>(
    IngressParserT<IH, IM> ingress_parser,
    IngressT<IH, IM> ingress,
    IngressDeparserT<IH, IM> ingress_deparser,
    EgressParserT<EH, EM> egress_parser,
    EgressT<EH, EM> egress,
    EgressDeparserT<EH, EM> egress_deparser);

package Switch<IH0, IM0, EH0, EM0>(Pipeline<IH0, IM0, EH0, EM0> pipe0);

#endif
