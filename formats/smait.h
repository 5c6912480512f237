/* smait.h — the SMAIT trace record format (field by field in formats/SMAIT.md).
 *
 * A trace is a sequence of 8-byte simple records (f1, f2). This header classifies
 * and builds them; it knows nothing about files (common/trace_reader does). All
 * values here are in host byte order. */
#ifndef DSM_FORMATS_SMAIT_H
#define DSM_FORMATS_SMAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct smait_raw {
    uint32_t f1, f2;
} smait_raw;

enum { SMAIT_CALL_PARTS = 6 };      /* simple records in one call record */
enum { SMAIT_BRANCH_ADDR_MASK = 0x0FFFFFFFu };

typedef enum smait_kind {
    SMAIT_INVALID = 0,
    SMAIT_MEM,          /* f1 >> 12 == 0 */
    SMAIT_CALL_PART,    /* f1 >> 12 == 1: one of the 6 parts of a call record */
    SMAIT_PROC_START,   /* f1 >> 28 == 4 */
    SMAIT_BRANCH,       /* f1 >> 28 == 8 */
    SMAIT_PROC_CALL,    /* f1 >> 28 == C */
    SMAIT_KIND_COUNT
} smait_kind;

typedef enum smait_access { SMAIT_LOAD = 0, SMAIT_STORE = 1, SMAIT_ATOMIC = 2 } smait_access;
typedef enum smait_regtype { SMAIT_REG_FIXED = 0, SMAIT_REG_FLOAT = 1, SMAIT_REG_VECTOR = 2 } smait_regtype;

/* Call types of the report's Table 4. */
enum {
    SMAIT_CT_SPAWN = 0x01, SMAIT_CT_JOIN = 0x02, SMAIT_CT_BARRIER = 0x03,
    SMAIT_CT_BEGIN_ORDER = 0x04, SMAIT_CT_END_ORDER = 0x05,
    SMAIT_CT_BEGIN_CRITICAL = 0x06, SMAIT_CT_END_CRITICAL = 0x07,
    SMAIT_CT_MARKER = 0x10, SMAIT_CT_READ = 0x11, SMAIT_CT_WRITE = 0x12,
    SMAIT_CT_LDCW = 0x13, SMAIT_CT_SEMOP = 0x14, SMAIT_CT_SEMCTL = 0x15,
    SMAIT_CT_SYSCALL = 0x16, SMAIT_CT_START_TRACE = 0x17, SMAIT_CT_END_TRACE = 0x18,
    /* This project's extension (formats/SMAIT.md §5.1): recorded synchronisation. */
    SMAIT_CT_ACQUIRE = 0x20, SMAIT_CT_RELEASE = 0x21, SMAIT_CT_UNMODELLED = 0x22,
    /* The conditions the trace was taken under (formats/SMAIT.md §5.2). */
    SMAIT_CT_TRACING = 0x23
};
/* A tracing record's ran_us or waited_us that the tracing machine did not tell. */
enum { SMAIT_TRACING_UNKNOWN = 0xFFFFFFFFu };

/* start_trace arg1 bit: the trace records its synchronisation (§5.1): the
 * sections 04-07 carry seq (arg2) and kind (arg3), and acquire/release
 * records may follow. */
enum { SMAIT_START_SYNC = 1 };
/* arg4 bit of begin_critical/begin_order in such a trace (wake=1): the
 * section is a mutex taken again after a condition wait. */
enum { SMAIT_SECTION_WAKE = 1 };

/* Kind of a synchronisation object (arg3 of 04-07, 0x20, 0x21): only for
 * diagnostics and statistics; the replay rule is the same for all. */
enum {
    SMAIT_SK_NONE = 0, SMAIT_SK_MUTEX = 1, SMAIT_SK_SPIN = 2, SMAIT_SK_RWLOCK = 3,
    SMAIT_SK_COND = 4, SMAIT_SK_SEM = 5, SMAIT_SK_ATOMIC = 6, SMAIT_SK_OMP_LOCK = 7,
    SMAIT_SK_OMP_CRITICAL = 8, SMAIT_SK_OMP_ORDERED = 9, SMAIT_SK_OMP_TASK = 10,
    SMAIT_SK_ONCE = 11, SMAIT_SK_BARRIER = 12,
    SMAIT_SK_COUNT
};
/* What an unmodelled record (0x22, arg1) counts. */
enum {
    SMAIT_UM_FUTEX = 1, SMAIT_UM_TIMEOUT = 2, SMAIT_UM_FENCE = 3, SMAIT_UM_ORDERING = 4,
    SMAIT_UM_UNTRACED = 5, SMAIT_UM_OMP = 6, SMAIT_UM_OTHER = 7,
    SMAIT_UM_COUNT
};
/* Names of the kinds and unmodelled codes ("mutex", "futex", ...), or NULL. */
const char *smait_sync_kind_name(unsigned kind);
const char *smait_unmodelled_name(unsigned what);

/* Indices into a decoded call record's six values. */
enum { SMAIT_CALL_START = 0, SMAIT_CALL_END = 1, SMAIT_CALL_ARG1 = 2 };

/* A whole logical record, decoded. */
typedef struct smait_record {
    smait_kind kind;
    uint32_t f1, f2;            /* the first (or only) simple record */
    /* SMAIT_MEM */
    uint8_t access, size_code, regtype;
    /* SMAIT_CALL_PART means a whole call record here */
    uint8_t call_type;
    uint32_t call[SMAIT_CALL_PARTS];    /* start, end, arg1..arg4 */
} smait_record;

/* Classify one simple record. Memory records with an access, size or register
 * nibble outside the defined values are invalid. */
static inline smait_kind smait_classify(uint32_t f1)
{
    switch (f1 >> 28) {
    case 0x4: return SMAIT_PROC_START;
    case 0x8: return SMAIT_BRANCH;
    case 0xC: return SMAIT_PROC_CALL;
    case 0x0:
        if ((f1 >> 12) == 0) {
            if ((f1 & 0xF) <= 2 && ((f1 >> 4) & 0xF) <= 11 && ((f1 >> 8) & 0xF) <= 2)
                return SMAIT_MEM;
            return SMAIT_INVALID;
        }
        if ((f1 >> 12) == 1 && (f1 & 0xF) < SMAIT_CALL_PARTS)
            return SMAIT_CALL_PART;
        return SMAIT_INVALID;
    default: return SMAIT_INVALID;
    }
}

static inline unsigned smait_mem_access(uint32_t f1) { return f1 & 0xF; }
static inline unsigned smait_mem_size_code(uint32_t f1) { return (f1 >> 4) & 0xF; }
static inline unsigned smait_mem_regtype(uint32_t f1) { return (f1 >> 8) & 0xF; }
static inline unsigned smait_call_type(uint32_t f1) { return (f1 >> 4) & 0xFF; }
static inline unsigned smait_call_index(uint32_t f1) { return f1 & 0xF; }
static inline uint32_t smait_branch_src(uint32_t f1) { return f1 & SMAIT_BRANCH_ADDR_MASK; }

/* Size in bytes of a size code (0..8 plain, 9/10/11 = 16/32/64); 0 for bad codes. */
static inline unsigned smait_size_bytes(unsigned size_code)
{
    return size_code <= 8 ? size_code : size_code <= 11 ? 16u << (size_code - 9) : 0;
}
/* Inverse: size code of a byte count, or -1 when no code exists. */
int smait_size_code_of(unsigned bytes);

/* The offset of an access's last byte from its first: smait_size_bytes - 1,
 * and 0 for 0 bytes and the unused codes (a table: on the replay's hot path). */
static inline unsigned smait_size_last_byte(unsigned size_code)
{
    static const uint8_t last[16] = { 0, 0, 1, 2, 3, 4, 5, 6, 7, 15, 31, 63 };
    return last[size_code & 0xF];
}

static inline uint32_t smait_mem_f1(unsigned access, unsigned size_code, unsigned regtype)
{
    return (regtype & 0xF) << 8 | (size_code & 0xF) << 4 | (access & 0xF);
}
static inline uint32_t smait_call_f1(unsigned call_type, unsigned index)
{
    return 0x1000u | (call_type & 0xFF) << 4 | (index & 0xF);
}

/* Check that the SMAIT_CALL_PARTS simple records at p form one call record
 * (indices 0..5 in order, one call type). */
bool smait_call_group_ok(const smait_raw *p);

/* Decode a logical record starting at p (n simple records available). For a call
 * record the caller must have checked smait_call_group_ok. */
void smait_decode(const smait_raw *p, smait_record *out);

/* Number of simple records a logical record starting with f1 occupies. */
static inline unsigned smait_record_span(uint32_t f1)
{
    return smait_classify(f1) == SMAIT_CALL_PART ? SMAIT_CALL_PARTS : 1;
}

/* Lowercase name of a call type (docs/ciat-report.md, L07), or NULL for types without a name. */
const char *smait_call_name(unsigned call_type);
/* Call type of a name, or -1. Accepts the names above and "type_0xNN". */
int smait_call_type_of(const char *name);

/* Names of the kinds and of memory accesses, for dumps and statistics. */
const char *smait_kind_name(smait_kind k);
const char *smait_access_name(unsigned access);

/* Byte order of a trace file (formats/SMAIT.md §2). */
typedef enum smait_order { SMAIT_ORDER_AUTO = 0, SMAIT_ORDER_LITTLE, SMAIT_ORDER_BIG } smait_order;

const char *smait_order_name(smait_order o);        /* "auto", "little", "big" */
int smait_order_parse(const char *s, smait_order *out);  /* 0 ok, -1 bad */

/* Read simple record i of a byte buffer in the given (little/big) order. */
smait_raw smait_load_raw(const unsigned char *bytes, smait_order o);
void smait_store_raw(unsigned char *bytes, smait_raw r, smait_order o);

/* Convert n simple records in place from file order o to host order. */
void smait_to_host(smait_raw *recs, size_t n, smait_order o);

/* Decide the byte order of a file from its first bytes (formats/SMAIT.md §2): decode up to
 * the first 16 simple records both ways; the order in which they are valid wins;
 * when both or neither are, little-endian. (A big-endian word load 00000040 is
 * also a valid little-endian procedure start 40000000: a big-endian trace that
 * begins with 16 such loads needs --byte-order=big.) */
smait_order smait_detect_order(const unsigned char *bytes, size_t nbytes);

/* Number of leading simple records (at most max) that are valid in order o,
 * call records checked for grouping where all six parts are present. */
size_t smait_valid_prefix(const unsigned char *bytes, size_t nrecs, smait_order o);

#endif
