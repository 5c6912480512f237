/* smait.c — SMAIT record helpers: call grouping, decoding, names, byte order. */
#include "smait.h"

#include <ctype.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

int smait_size_code_of(unsigned bytes)
{
    if (bytes <= 8) return (int)bytes;
    if (bytes == 16) return 9;
    if (bytes == 32) return 10;
    if (bytes == 64) return 11;
    return -1;
}

bool smait_call_group_ok(const smait_raw *p)
{
    unsigned type = smait_call_type(p[0].f1);
    for (unsigned i = 0; i < SMAIT_CALL_PARTS; i++)
        if (p[i].f1 != smait_call_f1(type, i))
            return false;
    return true;
}

void smait_decode(const smait_raw *p, smait_record *out)
{
    memset(out, 0, sizeof *out);
    out->f1 = p[0].f1;
    out->f2 = p[0].f2;
    out->kind = smait_classify(p[0].f1);
    switch (out->kind) {
    case SMAIT_MEM:
        out->access = (uint8_t)smait_mem_access(p[0].f1);
        out->size_code = (uint8_t)smait_mem_size_code(p[0].f1);
        out->regtype = (uint8_t)smait_mem_regtype(p[0].f1);
        break;
    case SMAIT_CALL_PART:
        out->call_type = (uint8_t)smait_call_type(p[0].f1);
        for (unsigned i = 0; i < SMAIT_CALL_PARTS; i++)
            out->call[i] = p[i].f2;
        break;
    default:
        break;
    }
}

static const char *const call_names[] = {
    [SMAIT_CT_SPAWN] = "spawn", [SMAIT_CT_JOIN] = "join", [SMAIT_CT_BARRIER] = "barrier",
    [SMAIT_CT_BEGIN_ORDER] = "begin_order", [SMAIT_CT_END_ORDER] = "end_order",
    [SMAIT_CT_BEGIN_CRITICAL] = "begin_critical", [SMAIT_CT_END_CRITICAL] = "end_critical",
    [SMAIT_CT_MARKER] = "marker", [SMAIT_CT_READ] = "read", [SMAIT_CT_WRITE] = "write",
    [SMAIT_CT_LDCW] = "ldcw", [SMAIT_CT_SEMOP] = "semop", [SMAIT_CT_SEMCTL] = "semctl",
    [SMAIT_CT_SYSCALL] = "syscall", [SMAIT_CT_START_TRACE] = "start_trace",
    [SMAIT_CT_END_TRACE] = "end_trace",
    [SMAIT_CT_ACQUIRE] = "acquire", [SMAIT_CT_RELEASE] = "release",
    [SMAIT_CT_UNMODELLED] = "unmodelled", [SMAIT_CT_TRACING] = "tracing",
};

const char *smait_sync_kind_name(unsigned kind)
{
    static const char *const names[SMAIT_SK_COUNT] = {
        [SMAIT_SK_NONE] = "none", [SMAIT_SK_MUTEX] = "mutex", [SMAIT_SK_SPIN] = "spin",
        [SMAIT_SK_RWLOCK] = "rwlock", [SMAIT_SK_COND] = "cond", [SMAIT_SK_SEM] = "semaphore",
        [SMAIT_SK_ATOMIC] = "atomic", [SMAIT_SK_OMP_LOCK] = "omp_lock",
        [SMAIT_SK_OMP_CRITICAL] = "omp_critical", [SMAIT_SK_OMP_ORDERED] = "omp_ordered",
        [SMAIT_SK_OMP_TASK] = "omp_task", [SMAIT_SK_ONCE] = "once", [SMAIT_SK_BARRIER] = "barrier",
    };
    return kind < SMAIT_SK_COUNT ? names[kind] : NULL;
}

const char *smait_unmodelled_name(unsigned what)
{
    static const char *const names[SMAIT_UM_COUNT] = {
        [SMAIT_UM_FUTEX] = "futex", [SMAIT_UM_TIMEOUT] = "timeout", [SMAIT_UM_FENCE] = "fence",
        [SMAIT_UM_ORDERING] = "ordering", [SMAIT_UM_UNTRACED] = "untraced",
        [SMAIT_UM_OMP] = "omp", [SMAIT_UM_OTHER] = "other",
    };
    return what < SMAIT_UM_COUNT ? names[what] : NULL;
}

const char *smait_call_name(unsigned call_type)
{
    if (call_type < sizeof call_names / sizeof call_names[0])
        return call_names[call_type];
    return NULL;
}

int smait_call_type_of(const char *name)
{
    for (unsigned t = 0; t < sizeof call_names / sizeof call_names[0]; t++)
        if (call_names[t] && strcmp(call_names[t], name) == 0)
            return (int)t;
    if (strncmp(name, "type_0x", 7) == 0 && strlen(name) == 9 &&
        isxdigit((unsigned char)name[7]) && isxdigit((unsigned char)name[8])) {
        char *end;
        unsigned long v = strtoul(name + 7, &end, 16);
        if (*end == '\0' && v <= 0xFF)
            return (int)v;
    }
    return -1;
}

const char *smait_kind_name(smait_kind k)
{
    static const char *const names[SMAIT_KIND_COUNT] = {
        "invalid", "memory", "call", "proc_start", "branch", "proc_call",
    };
    return (unsigned)k < SMAIT_KIND_COUNT ? names[k] : "invalid";
}

const char *smait_access_name(unsigned access)
{
    static const char *const names[] = { "load", "store", "atomic" };
    return access < 3 ? names[access] : "invalid";
}

const char *smait_order_name(smait_order o)
{
    return o == SMAIT_ORDER_LITTLE ? "little" : o == SMAIT_ORDER_BIG ? "big" : "auto";
}

int smait_order_parse(const char *s, smait_order *out)
{
    if (strcmp(s, "little") == 0) *out = SMAIT_ORDER_LITTLE;
    else if (strcmp(s, "big") == 0) *out = SMAIT_ORDER_BIG;
    else if (strcmp(s, "auto") == 0) *out = SMAIT_ORDER_AUTO;
    else return -1;
    return 0;
}

static uint32_t load32(const unsigned char *b, smait_order o)
{
    if (o == SMAIT_ORDER_BIG)
        return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
    return (uint32_t)b[3] << 24 | (uint32_t)b[2] << 16 | (uint32_t)b[1] << 8 | b[0];
}

static void store32(unsigned char *b, uint32_t v, smait_order o)
{
    for (int i = 0; i < 4; i++) {
        int shift = o == SMAIT_ORDER_BIG ? 24 - 8 * i : 8 * i;
        b[i] = (unsigned char)(v >> shift);
    }
}

smait_raw smait_load_raw(const unsigned char *bytes, smait_order o)
{
    smait_raw r = { load32(bytes, o), load32(bytes + 4, o) };
    return r;
}

void smait_store_raw(unsigned char *bytes, smait_raw r, smait_order o)
{
    store32(bytes, r.f1, o);
    store32(bytes + 4, r.f2, o);
}

static bool host_is_little(void)
{
    const uint16_t one = 1;
    return *(const unsigned char *)&one == 1;
}

void smait_to_host(smait_raw *recs, size_t n, smait_order o)
{
    bool file_little = o != SMAIT_ORDER_BIG;
    if (file_little == host_is_little())
        return;
    uint32_t *w = (uint32_t *)recs;
    size_t i = 0, words = 2 * n;
#ifdef __SSE2__
    /* Four words at a time: swap the halves, then the bytes within them. */
    for (; i + 4 <= words; i += 4) {
        __m128i x = _mm_loadu_si128((const __m128i *)(const void *)(w + i));
        x = _mm_or_si128(_mm_slli_epi32(x, 16), _mm_srli_epi32(x, 16));
        const __m128i m = _mm_set1_epi32(0x00FF00FF);
        x = _mm_or_si128(_mm_slli_epi32(_mm_and_si128(x, m), 8),
                         _mm_and_si128(_mm_srli_epi32(x, 8), m));
        _mm_storeu_si128((__m128i *)(void *)(w + i), x);
    }
#endif
    for (; i < words; i++)
        w[i] = __builtin_bswap32(w[i]);
}

size_t smait_valid_prefix(const unsigned char *bytes, size_t nrecs, smait_order o)
{
    size_t i = 0;
    while (i < nrecs) {
        smait_raw r = smait_load_raw(bytes + 8 * i, o);
        smait_kind k = smait_classify(r.f1);
        if (k == SMAIT_INVALID)
            break;
        if (k == SMAIT_CALL_PART) {
            if (smait_call_index(r.f1) != 0)
                break;
            size_t have = nrecs - i < SMAIT_CALL_PARTS ? nrecs - i : SMAIT_CALL_PARTS;
            smait_raw g[SMAIT_CALL_PARTS];
            for (size_t j = 0; j < have; j++)
                g[j] = smait_load_raw(bytes + 8 * (i + j), o);
            for (size_t j = have; j < SMAIT_CALL_PARTS; j++)
                g[j].f1 = smait_call_f1(smait_call_type(r.f1), (unsigned)j);
            if (!smait_call_group_ok(g))
                break;
            i += have;
            continue;
        }
        i++;
    }
    return i;
}

smait_order smait_detect_order(const unsigned char *bytes, size_t nbytes)
{
    size_t n = nbytes / 8;
    if (n > 16)
        n = 16;
    bool little = smait_valid_prefix(bytes, n, SMAIT_ORDER_LITTLE) == n;
    bool big = smait_valid_prefix(bytes, n, SMAIT_ORDER_BIG) == n;
    /* formats/SMAIT.md §2: both or neither valid -> little-endian. */
    return big && !little ? SMAIT_ORDER_BIG : SMAIT_ORDER_LITTLE;
}
