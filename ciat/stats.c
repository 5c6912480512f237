/* stats.c — ciat counters: classes, strings, calls, degrees; lines L01–L15. */
#include "stats.h"
#include "../base/diag.h"
#include "../formats/smait.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ciat_stats_free(thread_stats *s)
{
    free(s->calls);
    free(s->sharing.n);
    free(s->invalidation.n);
    memset(s, 0, sizeof *s);
}

void ciat_stats_clear(thread_stats *s)
{
    call_counts *calls = s->calls;
    degree_vec sh = s->sharing, inv = s->invalidation;
    memset(s, 0, sizeof *s);
    if (calls) memset(calls, 0, 256 * sizeof *calls);
    if (sh.n) memset(sh.n, 0, sh.len * sizeof *sh.n);
    if (inv.n) memset(inv.n, 0, inv.len * sizeof *inv.n);
    s->calls = calls;
    s->sharing = sh;
    s->invalidation = inv;
}

void degree_grow(degree_vec *v, uint32_t k)
{
    uint32_t len = v->len ? v->len : 8;
    while (len <= k) len *= 2;
    v->n = xrealloc(v->n, len * sizeof *v->n);
    memset(v->n + v->len, 0, (len - v->len) * sizeof *v->n);
    v->len = len;
}

static void degree_merge(degree_vec *into, const degree_vec *from)
{
    for (uint32_t k = 0; k < from->len; k++)
        if (from->n[k]) degree_add(into, k, from->n[k]);
}

static void strings_merge(string_counts *into, const string_counts *from)
{
    into->strings += from->strings;
    for (int i = 0; i <= STRING_EXACT; i++) into->exact[i] += from->exact[i];
    for (int i = 0; i < STRING_BUCKETS; i++) into->bucket[i] += from->bucket[i];
}

void ciat_stats_add(thread_stats *into, const thread_stats *from)
{
    into->atomics += from->atomics;
    for (int i = 0; i < LOAD_CLASSES; i++) into->load_class[i] += from->load_class[i];
    for (int i = 0; i < STORE_CLASSES; i++) into->store_class[i] += from->store_class[i];
    strings_merge(&into->load_strings, &from->load_strings);
    strings_merge(&into->store_strings, &from->store_strings);
    if (from->calls) {
        if (!into->calls) into->calls = xcalloc(256, sizeof *into->calls);
        for (int t = 0; t < 256; t++) {
            into->calls[t].count += from->calls[t].count;
            into->calls[t].time_us += from->calls[t].time_us;
            into->calls[t].bytes += from->calls[t].bytes;
        }
    }
    into->raw += from->raw;
    into->war += from->war;
    into->waw += from->waw;
    into->rar += from->rar;
    degree_merge(&into->sharing, &from->sharing);
    degree_merge(&into->invalidation, &from->invalidation);
}

static bool degree_any(const degree_vec *v)
{
    for (uint32_t k = 0; k < v->len; k++)
        if (v->n[k]) return true;
    return false;
}

bool ciat_stats_any(const thread_stats *s)
{
    if (stats_mem(s) || s->raw || s->war || s->waw || s->rar || s->load_strings.strings ||
        s->store_strings.strings || degree_any(&s->sharing) || degree_any(&s->invalidation))
        return true;
    if (s->calls)
        for (int t = 0; t < 256; t++)
            if (s->calls[t].count) return true;
    return false;
}

/* load: byte half word long float double other; store: zero byte half three
 * word long float double other. long: 8-byte fixed-point (pointers and
 * 64-bit integers, everywhere in x86-64 programs). */
int ciat_stats_load_class(unsigned size_code, unsigned regtype)
{
    if (regtype == SMAIT_REG_FIXED) {
        if (size_code == 1) return 0;
        if (size_code == 2) return 1;
        if (size_code == 4) return 2;
        if (size_code == 8) return 3;
    } else if (regtype == SMAIT_REG_FLOAT) {
        if (size_code == 4) return 4;
        if (size_code == 8) return 5;
    }
    return 6;
}

int ciat_stats_store_class(unsigned size_code, unsigned regtype)
{
    if (size_code == 0) return 0;       /* zero and three: by size alone (L03) */
    if (size_code == 3) return 3;
    if (regtype == SMAIT_REG_FIXED) {
        if (size_code == 1) return 1;
        if (size_code == 2) return 2;
        if (size_code == 4) return 4;
        if (size_code == 8) return 5;
    } else if (regtype == SMAIT_REG_FLOAT) {
        if (size_code == 4) return 6;
        if (size_code == 8) return 7;
    }
    return 8;
}

void string_add(string_counts *c, uint64_t len)
{
    if (!len) return;
    c->strings++;
    if (len <= STRING_EXACT) {
        c->exact[len]++;
        return;
    }
    int b = 64 - __builtin_clzll(len - 1);      /* smallest b with len <= 2^b */
    if (b >= STRING_BUCKETS) b = STRING_BUCKETS - 1;
    c->bucket[b]++;
}

void ciat_stats_call(thread_stats *s, unsigned type, uint32_t start, uint32_t end, uint32_t bytes)
{
    if (!s->calls) s->calls = xcalloc(256, sizeof *s->calls);
    call_counts *c = &s->calls[type & 0xFF];
    c->count++;
    c->time_us += (uint32_t)(end - start);      /* modulo 2^32: a wrapped timer counts right */
    c->bytes += bytes;
}

/* ---- report lines ---- */

/* A growing line buffer for the variable-length lines. */
typedef struct linebuf {
    char *s;
    size_t len, cap;
} linebuf;

static void lb_printf(linebuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void lb_printf(linebuf *b, const char *fmt, ...)
{
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(b->s ? b->s + b->len : NULL, b->s ? b->cap - b->len : 0, fmt, ap);
        va_end(ap);
        if (n >= 0 && b->s && b->len + (size_t)n < b->cap) {
            b->len += (size_t)n;
            return;
        }
        b->cap = (b->cap + (size_t)n + 1) * 2;
        b->s = xrealloc(b->s, b->cap);
        if (b->len == 0) b->s[0] = '\0';
    }
}

static void strings_line(report *r, int phase, int thread, int ll, const char *name, const string_counts *c)
{
    linebuf b = { 0 };
    lb_printf(&b, "strings %" PRIu64, c->strings);
    for (int l = 1; l <= STRING_EXACT; l++)
        if (c->exact[l]) lb_printf(&b, " %d:%" PRIu64, l, c->exact[l]);
    for (int k = 7; k < STRING_BUCKETS; k++)
        if (c->bucket[k])
            lb_printf(&b, " %" PRIu64 "-%" PRIu64 ":%" PRIu64, ((uint64_t)1 << (k - 1)) + 1, (uint64_t)1 << k, c->bucket[k]);
    report_line(r, phase, thread, ll, name, "%s", b.s);
    free(b.s);
}

static void degree_line(report *r, int phase, int thread, int ll, const char *name, const degree_vec *v)
{
    linebuf b = { 0 };
    lb_printf(&b, "%s", "");
    for (uint32_t k = 0; k < v->len; k++)
        if (v->n[k]) lb_printf(&b, "%s%" PRIu32 ":%" PRIu64, b.len ? " " : "", k, v->n[k]);
    report_line(r, phase, thread, ll, name, "%s", b.s);
    free(b.s);
}

void ciat_stats_report(report *r, int phase, int thread, const thread_stats *s, const sched_counts *sc)
{
    char p1[REPORT_NUM], p2[REPORT_NUM], p3[REPORT_NUM], p4[REPORT_NUM], p5[REPORT_NUM],
         p6[REPORT_NUM], p7[REPORT_NUM], p8[REPORT_NUM], p9[REPORT_NUM];
    uint64_t loads = stats_loads(s), stores = stats_stores(s), mem = stats_mem(s);
    report_line(r, phase, thread, 1, "mem", "total %" PRIu64 " loads %" PRIu64 " %s stores %" PRIu64
                " %s atomics %" PRIu64 " %s", mem, loads, report_pct(p1, loads, mem),
                stores, report_pct(p2, stores, mem), s->atomics, report_pct(p3, s->atomics, mem));
    const uint64_t *lc = s->load_class, *sc8 = s->store_class;
    report_line(r, phase, thread, 2, "loads", "byte %" PRIu64 " %s half %" PRIu64 " %s word %" PRIu64
                " %s long %" PRIu64 " %s float %" PRIu64 " %s double %" PRIu64 " %s other %" PRIu64 " %s",
                lc[0], report_pct(p1, lc[0], loads), lc[1], report_pct(p2, lc[1], loads),
                lc[2], report_pct(p3, lc[2], loads), lc[3], report_pct(p4, lc[3], loads),
                lc[4], report_pct(p5, lc[4], loads), lc[5], report_pct(p6, lc[5], loads),
                lc[6], report_pct(p7, lc[6], loads));
    report_line(r, phase, thread, 3, "stores", "zero %" PRIu64 " %s byte %" PRIu64 " %s half %" PRIu64
                " %s three %" PRIu64 " %s word %" PRIu64 " %s long %" PRIu64 " %s float %" PRIu64
                " %s double %" PRIu64 " %s other %" PRIu64 " %s",
                sc8[0], report_pct(p1, sc8[0], stores), sc8[1], report_pct(p2, sc8[1], stores),
                sc8[2], report_pct(p3, sc8[2], stores), sc8[3], report_pct(p4, sc8[3], stores),
                sc8[4], report_pct(p5, sc8[4], stores), sc8[5], report_pct(p6, sc8[5], stores),
                sc8[6], report_pct(p7, sc8[6], stores), sc8[7], report_pct(p8, sc8[7], stores),
                sc8[8], report_pct(p9, sc8[8], stores));
    strings_line(r, phase, thread, 4, "load_strings", &s->load_strings);
    strings_line(r, phase, thread, 5, "store_strings", &s->store_strings);
    const istream_counts *is = &sc->is;
    report_line(r, phase, thread, 6, "instr", "executed %" PRIu64 " fetched %" PRIu64 " branches %"
                PRIu64 " calls %" PRIu64 " instrumented_calls %" PRIu64 " discontinuities %" PRIu64,
                is->executed, is->fetched, is->branches, is->calls, is->instrumented, is->discontinuities);
    if (s->calls)
        for (unsigned t = 0; t < 256; t++) {
            const call_counts *c = &s->calls[t];
            if (!c->count) continue;
            const char *name = smait_call_name(t);
            char other[16];
            if (!name) {
                snprintf(other, sizeof other, "type_0x%02x", t);
                name = other;
            }
            report_line(r, phase, thread, 7, "call", "%s count %" PRIu64 " time_us %" PRIu64
                        " bytes %" PRIu64, name, c->count, c->time_us, c->bytes);
        }
    report_line(r, phase, thread, 8, "idle", "sync_cycles %" PRIu64 " phase_end_cycles %" PRIu64,
                sc->sync_idle, sc->phase_end_idle);
    report_line(r, phase, thread, 10, "raw", "%" PRIu64, s->raw);
    degree_line(r, phase, thread, 11, "raw_degree", &s->sharing);
    report_line(r, phase, thread, 12, "war", "%" PRIu64, s->war);
    degree_line(r, phase, thread, 13, "war_degree", &s->invalidation);
    report_line(r, phase, thread, 14, "waw", "%" PRIu64, s->waw);
    report_line(r, phase, thread, 15, "rar", "%" PRIu64, s->rar);
}
