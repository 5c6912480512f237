/* cdat_trace.c — names, formatting and parsing of cdat's trace records.
 * Numbers are written by hand (not printf): a detailed trace can hold a
 * record per simulated transaction, and formatting is most of its cost. */
#include "cdat_trace.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const names[CDAT_CODE_LIMIT] = {
    [TX_READ_SHAR] = "read_shar", [TX_READ_SHAR_OR_PRIV] = "read_shar_or_priv",
    [TX_READ_PRIV_OWN] = "read_priv_own", [TX_REQ_INV] = "req_inv",
    [TX_READ_CURRENT] = "read_current", [TX_WRITE_PURGE] = "write_purge",
    [TX_DATA_SHAR] = "data_shar", [TX_DATA_PRIV] = "data_priv", [TX_ALLOC_DONE] = "alloc_done",
    [TX_WRITE_PURGE_DONE] = "write_purge_done",
    [TX_WRITE_BACK] = "write_back", [TX_UPDATE_DATA] = "update_data", [TX_UPDATE_TAG] = "update_tag",
    [TX_FLUSH] = "flush",
    [TX_RECALL_SHAR] = "recall_shar", [TX_RECALL_SHAR_OR_PRIV] = "recall_shar_or_priv",
    [TX_RECALL_PRIV_OWN] = "recall_priv_own", [TX_INV] = "inv",
    [TX_C2C_DATA_SHAR] = "c2c_data_shar", [TX_C2C_DATA_PRIV] = "c2c_data_priv",
    [TX_C2C_DATA_PRIV_OWN] = "c2c_data_priv_own",
    [TX_RECALL_C2C_DATA] = "recall_c2c_data", [TX_RECALL_C2C_DONE] = "recall_c2c_done",
    [TX_INV_DONE] = "inv_done", [TX_RECALL_NACK_SHAR] = "recall_nack_shar",
    [TX_RECALL_NACK_INV] = "recall_nack_inv", [TX_RECALL_DATA] = "recall_data",
    [TX_START_ACTIVE] = "start_active", [TX_START_IDLE] = "start_idle",
};

const char *cdat_code_name(unsigned code) { return code < CDAT_CODE_LIMIT ? names[code] : NULL; }

bool cdat_code_valid(unsigned code) { return code < TX_START_ACTIVE && names[code] != NULL; }

/* ---- formatting ---- */

static const char digit_pairs[201] =
    "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
    "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
    "8081828384858687888990919293949596979899";

/* Decimal digits of v at p, two at a time from the right. */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[20];
    char *e = tmp + sizeof tmp, *q = e;
    while (v >= 100) {
        unsigned d = (unsigned)(v % 100);
        v /= 100;
        q -= 2;
        memcpy(q, digit_pairs + 2 * d, 2);
    }
    if (v >= 10) {
        q -= 2;
        memcpy(q, digit_pairs + 2 * v, 2);
    } else {
        *--q = (char)('0' + v);
    }
    size_t n = (size_t)(e - q);
    memcpy(p, q, n);
    return p + n;
}

static char *put_int(char *p, int v)
{
    *p++ = ' ';
    if (v < 0) {
        *p++ = '-';
        return put_u64(p, (uint64_t)-(int64_t)v);
    }
    return put_u64(p, (uint64_t)v);
}

static char *put_head(char *p, uint64_t clock, uint32_t addr, unsigned code)
{
    p = put_u64(p, clock);
    *p++ = ' ';
    p = put_u64(p, addr);
    *p++ = ' ';
    if (code < 10) *p++ = '0';
    return put_u64(p, code);
}

size_t cdat_format_detailed(char *buf, const cdat_txn *t)
{
    char *p = put_head(buf, t->clock, t->addr, t->code);
    switch (cdat_code_class(t->code)) {
    case 1: case 3:
        p = put_int(p, t->bank);
        p = put_int(p, t->hnode);
        p = put_int(p, t->proc);
        p = put_int(p, t->node);
        break;
    case 4:
        p = put_int(p, t->proc);
        p = put_int(p, t->node);
        p = put_int(p, t->proc2);
        p = put_int(p, t->node2);
        break;
    default:
        p = put_int(p, t->proc);
        p = put_int(p, t->node);
        p = put_int(p, t->bank);
        p = put_int(p, t->hnode);
        break;
    }
    *p++ = '\n';
    return (size_t)(p - buf);
}

size_t cdat_format_general(char *buf, const cdat_txn *t, unsigned status, const uint8_t *sharing, unsigned n)
{
    char *p = put_head(buf, t->clock, t->addr, t->code);
    p = put_int(p, t->proc);
    p = put_int(p, t->node);
    p = put_int(p, t->bank);
    p = put_int(p, t->hnode);
    p = put_int(p, (int)status);
    for (unsigned i = 0; i < n; i++) {
        *p++ = ' ';
        *p++ = sharing[i] ? '1' : '0';
    }
    memcpy(p, " -1\n", 4);
    return (size_t)(p + 4 - buf);
}

size_t cdat_format_status(char *buf, uint64_t clock, unsigned code, int proc, int node)
{
    char *p = put_head(buf, clock, 0, code);
    p = put_int(p, proc);
    p = put_int(p, node);
    memcpy(p, " 0 0 0 -1\n", 10);
    return (size_t)(p + 10 - buf);
}

/* ---- parsing ---- */

static bool field(const char **s, long long *v, long long lo, long long hi)
{
    while (**s == ' ' || **s == '\t') (*s)++;
    if (!**s || **s == '\n') return false;
    char *end;
    errno = 0;
    long long x = strtoll(*s, &end, 10);
    if (end == *s || errno || x < lo || x > hi || (*end && *end != ' ' && *end != '\t' && *end != '\n'))
        return false;
    *v = x;
    *s = end;
    return true;
}

bool cdat_parse_detailed(const char *line, cdat_txn *t, char *why, size_t whycap)
{
    static const char *const what[7] = { "clock", "addr", "code", "field 4", "field 5", "field 6", "field 7" };
    long long v[7];
    const char *s = line;
    for (int i = 0; i < 7; i++) {
        long long lo = i <= 2 ? 0 : -1000, hi = i == 0 ? INT64_MAX : i == 1 ? UINT32_MAX : i == 2 ? 99 : 1000;
        if (!field(&s, &v[i], lo, hi)) {
            snprintf(why, whycap, "bad or missing %s", what[i]);
            return false;
        }
    }
    while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r') s++;
    if (*s) {
        snprintf(why, whycap, "more than 7 fields");
        return false;
    }
    if (!cdat_code_valid((unsigned)v[2])) {
        snprintf(why, whycap, "unknown transaction code %lld", v[2]);
        return false;
    }
    memset(t, 0, sizeof *t);
    t->clock = (uint64_t)v[0];
    t->addr = (uint32_t)v[1];
    t->code = (uint8_t)v[2];
    switch (cdat_code_class(t->code)) {
    case 1: case 3:
        t->bank = (int)v[3]; t->hnode = (int)v[4]; t->proc = (int)v[5]; t->node = (int)v[6];
        break;
    case 4:
        t->proc = (int)v[3]; t->node = (int)v[4]; t->proc2 = (int)v[5]; t->node2 = (int)v[6];
        break;
    default:
        t->proc = (int)v[3]; t->node = (int)v[4]; t->bank = (int)v[5]; t->hnode = (int)v[6];
        break;
    }
    return true;
}
