/* core.p4: the P4-16 core library, written for p4hls from the P4-16
 * language specification (v1.2.5, sections on the core library). */
#ifndef _CORE_P4_
#define _CORE_P4_

/* Errors the core library's externs signal in parsers. */
error {
    NoError,            /* no error */
    PacketTooShort,     /* not enough bits in the packet for extract */
    NoMatch,            /* select expression had no match */
    StackOutOfBounds,   /* reference to an invalid element of a header stack */
    HeaderTooShort,     /* extracting too many bits into a varbit field */
    ParserTimeout,      /* parser execution time limit exceeded */
    ParserInvalidArgument /* parser operation called with an unsupported value */
}

/* The packet being parsed. */
extern packet_in {
    /* Read a header from the packet into a fixed-size header and advance. */
    void extract<T>(out T hdr);
    /* Read a header with one varbit field of the given size in bits. */
    void extract<T>(out T variableSizeHeader, in bit<32> variableFieldSizeInBits);
    /* Read bits without advancing. */
    T lookahead<T>();
    /* Skip bits. */
    void advance(in bit<32> sizeInBits);
    /* Packet length in bytes (may be unsupported by a target). */
    bit<32> length();
}

/* The packet being built by a deparser. */
extern packet_out {
    /* Append a header (only when it is valid) or every element of a struct. */
    void emit<T>(in T hdr);
}

/* Reject the packet with error toSignal when check is false. */
extern void verify(in bool check, in error toSignal);

/* A check made when the program is compiled: an error when check is false
 * (with message, when given); its value is true. */
extern bool static_assert(bool check, string message);
extern bool static_assert(bool check);

/* The built-in action that does nothing. */
@noWarn("unused")
action NoAction() {}

/* Standard match kinds of tables. */
match_kind {
    exact,
    ternary,
    lpm
}

#endif /* _CORE_P4_ */
