/* partial.c — cdat's records of a partial result: writing a part's, and
 * reading the parts side by side for --merge (partial.h). */
#include "partial.h"
#include "../base/diag.h"
#include "../formats/cdat_trace.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

_Static_assert(sizeof(cpu_stats) % sizeof(uint64_t) == 0, "cpu_stats holds uint64_t counters only");

/* ---- writing ---- */

void cdat_partial_begin(out_file *f, uint32_t i, uint32_t n, const char *command, bool json,
                        const char *const *paths, int ntraces, unsigned slots, unsigned levels,
                        unsigned l3_nodes, const cdat_timing *tm, const cdat_trace_outputs *to,
                        const char *const *config_lines, size_t nconfig)
{
    partial_begin(f, "cdat", i, n, command, json, paths, ntraces);
    uint64_t w = CDAT_STATS_WORDS, s = slots, l = levels, n3 = l3_nodes;
    partial_u64s(f, "words", -1, &w, 1);
    partial_u64s(f, "slots", -1, &s, 1);
    partial_u64s(f, "levels", -1, &l, 1);
    partial_u64s(f, "l3", -1, &n3, 1);
    uint64_t t[1 + TIMING_KEYS] = { tm->on };
    for (int k = 0; k < TIMING_KEYS; k++) t[1 + k] = tm->on ? tm->cycles[k] : 0;
    partial_u64s(f, "timing", -1, t, 1 + TIMING_KEYS);
    uint64_t o[3] = { to->general, to->detailed, (uint64_t)to->format };
    partial_u64s(f, "traces-out", -1, o, 3);
    for (size_t k = 0; k < nconfig; k++) partial_text(f, "config", config_lines[k]);
}

/* "stats P WORDS" and an "INDEX:VALUE" token per word that is not zero. */
static void stats_record(out_file *f, unsigned p, const cpu_stats *st)
{
    uint64_t w[CDAT_STATS_WORDS];
    memcpy(w, st, sizeof w);
    FILE *s = out_file_stream(f);
    fprintf(s, "stats %u %d", p, (int)CDAT_STATS_WORDS);
    for (int k = 0; k < (int)CDAT_STATS_WORDS; k++)
        if (w[k]) fprintf(s, " %d:%" PRIu64, k, w[k]);
    fputc('\n', s);
}

void cdat_partial_phase(out_file *f, const sched_phase *ph, const cpu_stats *st, unsigned slots,
                        const uint64_t *active, const uint64_t *idle)
{
    uint64_t v[7] = { (uint64_t)ph->number, (uint64_t)ph->kind, (uint64_t)ph->by, (uint64_t)ph->active,
                      ph->start_clock, ph->end_clock, ph->last };
    partial_u64s(f, "phase", -1, v, 7);
    for (unsigned p = 0; p < slots; p++) stats_record(f, p, &st[p]);
    FILE *s = out_file_stream(f);
    fputs("time", s);
    for (unsigned p = 0; p < slots; p++) fprintf(s, " %" PRIu64 " %" PRIu64, active[p], idle[p]);
    fputc('\n', s);
    partial_text(f, "end-phase", NULL);
}

void cdat_partial_traces(out_file *f, FILE *keyed)
{
    partial_text(f, "traces-begin", NULL);
    partial_lines(f, keyed, "rec", "the traces");
    partial_text(f, "traces-end", NULL);
}

void cdat_partial_end(out_file *f, uint64_t directory_lines, const char *const *placement, size_t nplacement,
                      const char *const *header, size_t nheader)
{
    partial_u64s(f, "directory", -1, &directory_lines, 1);
    for (size_t k = 0; k < nplacement; k++) partial_text(f, "placement", placement[k]);
    for (size_t k = 0; k < nheader; k++) partial_text(f, "header", header[k]);
    partial_text(f, "end", NULL);
}

/* ---- reading ---- */

struct cdat_merge {
    partial_in *in;
    unsigned slots;
    unsigned levels;            /* 1, or 2: the processors have an L2 (L22, L02/L04's l2 field) */
    unsigned l3_nodes;          /* the nodes' L3s (L23; L02/L04's l3 fields), 0: none */
    cdat_timing tm;
    cdat_trace_outputs to;
    partial_rec pending;        /* part 0's record after the last phase */
    uint64_t *time;             /* 2 × slots */
    char **placement, **header;
    size_t nplacement, nheader;
};

const partial_in *cdat_merge_in(const cdat_merge *m) { return m->in; }
unsigned cdat_merge_slots(const cdat_merge *m) { return m->slots; }
const cdat_timing *cdat_merge_timing(const cdat_merge *m) { return &m->tm; }
unsigned cdat_merge_levels(const cdat_merge *m) { return m->levels; }
const cdat_trace_outputs *cdat_merge_trace_outputs(const cdat_merge *m) { return &m->to; }
unsigned cdat_merge_l3_nodes(const cdat_merge *m) { return m->l3_nodes; }

/* Part 0's next record, which must have the tag and be alike in every part. */
static char *alike_record(cdat_merge *m, const char *tag)
{
    partial_rec r = partial_next(m->in, 0);
    if (strcmp(r.tag, tag) != 0) partial_fail(m->in, 0, "'%s' where a '%s' record belongs", r.tag, tag);
    partial_expect_alike(m->in, &r);
    return r.rest;
}

cdat_merge *cdat_merge_open(char **paths, int n)
{
    cdat_merge *m = xcalloc(1, sizeof *m);
    m->in = partial_open("cdat", paths, n);
    partial_in *in = m->in;
    uint64_t v[1 + TIMING_KEYS];
    for (int k = 0; k < partial_parts(in); k++) {    /* this build's counters, in every part */
        partial_parse_u64s(in, k, partial_expect(in, k, "words"), v, 1);
        if (v[0] != CDAT_STATS_WORDS)
            partial_fail(in, k, "a partial result with %" PRIu64 " counters a processor, this cdat has %d: merge"
                         " with the build that wrote it", v[0], (int)CDAT_STATS_WORDS);
    }
    partial_parse_u64s(in, 0, alike_record(m, "slots"), v, 1);
    if (v[0] < 1 || v[0] > CFG_MAX_PROCS) partial_fail(in, 0, "no such number of processors");
    m->slots = (unsigned)v[0];
    partial_parse_u64s(in, 0, alike_record(m, "levels"), v, 1);
    if (v[0] < 1 || v[0] > 2) partial_fail(in, 0, "levels 1 or 2 expected");
    m->levels = (unsigned)v[0];
    partial_parse_u64s(in, 0, alike_record(m, "l3"), v, 1);
    if (v[0] > CFG_MAX_NODES) partial_fail(in, 0, "no such number of nodes with an L3");
    m->l3_nodes = (unsigned)v[0];
    partial_parse_u64s(in, 0, alike_record(m, "timing"), v, 1 + TIMING_KEYS);
    if (v[0] > 1) partial_fail(in, 0, "timing 0 or 1 expected");
    m->tm.on = v[0] == 1;
    for (int k = 0; k < TIMING_KEYS; k++) {
        if (v[1 + k] > TIMING_MAX) partial_fail(in, 0, "no such [timing] cycles");
        m->tm.cycles[k] = (unsigned)v[1 + k];
    }
    partial_parse_u64s(in, 0, alike_record(m, "traces-out"), v, 3);
    if (v[0] > 1 || v[1] > 1 || v[2] > OUT_ZSTD) partial_fail(in, 0, "traces-out GENERAL DETAILED FORMAT: no such traces");
    m->to = (cdat_trace_outputs){ .general = v[0] == 1, .detailed = v[1] == 1, .format = (out_format)v[2] };
    /* The resolved configuration and options: refused here, before any phase, when they differ. */
    for (;;) {
        partial_rec r = partial_next(in, 0);
        if (strcmp(r.tag, "config") != 0) {
            m->pending = r;
            break;
        }
        for (int k = 1; k < partial_parts(in); k++) {
            partial_rec rk = partial_next(in, k);
            if (strcmp(rk.tag, "config") != 0 || strcmp(rk.rest, r.rest) != 0)
                partial_fail(in, k, "a part of another configuration or option set: '%s %s' where %s has"
                             " '%s %s'", rk.tag, rk.rest, partial_path(in, 0), r.tag, r.rest);
        }
    }
    m->time = xcalloc(2 * (size_t)m->slots, sizeof *m->time);
    return m;
}

/* Part k's "stats P WORDS INDEX:VALUE …" record (text after the tag), added to st. */
static void add_stats(const partial_in *in, int k, const char *text, unsigned p, cpu_stats *st)
{
    uint64_t head[2];
    const char *s = partial_lead_u64s(in, k, text, head, 1, "stats P WORDS expected");
    s++;
    if (!partial_u64(&s, &head[1]) || (*s && *s != ' ')) partial_fail(in, k, "stats P WORDS expected");
    if (head[0] != p) partial_fail(in, k, "the stats of processor %" PRIu64 " where processor %u's belong", head[0], p);
    if (head[1] != CDAT_STATS_WORDS)
        partial_fail(in, k, "%" PRIu64 " counters a processor, this cdat has %d: merge with the build that wrote it",
                     head[1], (int)CDAT_STATS_WORDS);
    uint64_t w[CDAT_STATS_WORDS] = { 0 };
    long last = -1;
    while (*s) {
        uint64_t i, x;
        if (*s++ != ' ' || !partial_u64(&s, &i) || *s++ != ':' || !partial_u64(&s, &x) || (*s && *s != ' '))
            partial_fail(in, k, "a counter INDEX:VALUE expected");
        if (i >= CDAT_STATS_WORDS || (long)i <= last)
            partial_fail(in, k, "counter %" PRIu64 ": out of range or order", i);
        last = (long)i;
        w[i] = x;
    }
    cpu_stats one;
    memcpy(&one, w, sizeof one);
    stats_add(st, &one);
}

bool cdat_merge_phase(cdat_merge *m, sched_phase *ph, cpu_stats *st)
{
    partial_in *in = m->in;
    partial_rec r = m->pending;
    if (!r.tag) r = partial_next(in, 0);
    m->pending = (partial_rec){ 0 };
    if (strcmp(r.tag, "phase") != 0) {
        m->pending = r;
        return false;
    }
    uint64_t v[7];
    partial_parse_u64s(in, 0, r.rest, v, 7);
    if (v[0] < 1 || v[0] > INT32_MAX || v[1] > PHASE_PARALLEL || v[2] > PHASE_BY_MARKER ||
        v[3] > (uint64_t)partial_traces(in) || v[4] > v[5] || v[6] > 1)
        partial_fail(in, 0, "no such phase");
    partial_expect_alike(in, &r);
    *ph = (sched_phase){ .number = (int)v[0], .kind = (sched_phase_kind)v[1], .by = (sched_phase_cause)v[2],
                         .active = (int)v[3], .start_clock = v[4], .end_clock = v[5], .last = v[6] };
    memset(st, 0, m->slots * sizeof *st);
    for (unsigned p = 0; p < m->slots; p++) {
        partial_rec r0 = partial_next(in, 0);
        if (strcmp(r0.tag, "stats") != 0) partial_fail(in, 0, "'%s' where processor %u's stats belong", r0.tag, p);
        for (int k = 0; k < partial_parts(in); k++) {
            partial_rec rk = partial_beside(in, k, &r0);
            add_stats(in, k, rk.rest, p, &st[p]);
        }
    }
    partial_parse_u64s(in, 0, alike_record(m, "time"), m->time, 2 * (size_t)m->slots);
    for (unsigned p = 0; p < m->slots; p++) {
        st[p].active += m->time[2 * p];
        st[p].idle += m->time[2 * p + 1];
    }
    if (*alike_record(m, "end-phase")) partial_fail(in, 0, "'end-phase' has no fields");
    return true;
}

typedef struct put_ctx {
    partial_in *in;
    bool (*put)(void *ctx, const char *file, const char *record, size_t len);
    void *ctx;
} put_ctx;

/* "FILE RECORD": the record to its file. */
static void put_trace(void *ctx, int part, const char *text)
{
    put_ctx *p = ctx;
    const char *blank = strchr(text, ' ');
    char file[16];
    size_t n = blank ? (size_t)(blank - text) : 0;
    if (!blank || n == 0 || n >= sizeof file || !blank[1])
        partial_fail(p->in, part, "a trace record without its file: '%.40s'", text);
    memcpy(file, text, n);
    file[n] = 0;
    const char *rec = blank + 1;
    cdat_txn tx;
    char why[128];
    bool ok = strspn(rec, "0123456789 -") == strlen(rec) &&
              (strcmp(file, "d") != 0 || cdat_parse_detailed(rec, &tx, why, sizeof why));
    if (!ok) partial_fail(p->in, part, "a damaged trace record: '%.60s'", rec);
    if (!p->put(p->ctx, file, rec, strlen(rec)))
        partial_fail(p->in, part, "a trace record for no file of the run: '%s' (d, or a processor's number),"
                     " or too long", file);
}

void cdat_merge_traces(cdat_merge *m, bool (*put)(void *ctx, const char *file, const char *record, size_t len),
                       void *ctx)
{
    partial_in *in = m->in;
    partial_rec r = m->pending;
    if (!r.tag) r = partial_next(in, 0);
    m->pending = (partial_rec){ 0 };
    if (strcmp(r.tag, "traces-begin") != 0 || *r.rest)
        partial_fail(in, 0, "'%s' where a 'traces-begin' record belongs", r.tag);
    partial_expect_alike(in, &r);
    static const partial_sorted sr = { "rec", "traces-end", 2, false, "a trace record expected",
                                       "a trace record expected: REFERENCE LINE FILE RECORD", NULL,
                                       "a trace record out of order" };
    put_ctx p = { in, put, ctx };
    partial_merge_sorted(in, &sr, put_trace, &p);
}

void cdat_merge_end(cdat_merge *m, uint64_t *directory_lines, char ***placement, size_t *nplacement,
                    char ***header, size_t *nheader)
{
    partial_in *in = m->in;
    partial_rec r = m->pending;
    if (!r.tag) r = partial_next(in, 0);
    m->pending = (partial_rec){ 0 };
    if (strcmp(r.tag, "directory") != 0) partial_fail(in, 0, "'%s' where a 'directory' record belongs", r.tag);
    *directory_lines = 0;
    for (int k = 0; k < partial_parts(in); k++) {
        partial_rec rk = partial_beside(in, k, &r);
        uint64_t x;
        partial_parse_u64s(in, k, rk.rest, &x, 1);
        if (x > UINT32_MAX) partial_fail(in, k, "more directory lines than lines");
        *directory_lines += x;
    }
    size_t pcap = 0, hcap = 0;
    for (;;) {
        r = partial_next(in, 0);
        partial_expect_alike(in, &r);
        if (strcmp(r.tag, "end") == 0 && !*r.rest) break;
        if (strcmp(r.tag, "placement") == 0) {
            if (m->nheader) partial_fail(in, 0, "a placement record among the header records");
            pcap = xgrow((void **)&m->placement, pcap, m->nplacement + 1, sizeof *m->placement);
            m->placement[m->nplacement++] = xstrdup(r.rest);
        } else if (strcmp(r.tag, "header") == 0) {
            hcap = xgrow((void **)&m->header, hcap, m->nheader + 1, sizeof *m->header);
            m->header[m->nheader++] = xstrdup(r.rest);
        } else {
            partial_fail(in, 0, "no such record here: '%s'", r.tag);
        }
    }
    *placement = m->placement;
    *nplacement = m->nplacement;
    *header = m->header;
    *nheader = m->nheader;
}

void cdat_merge_close(cdat_merge *m)
{
    if (!m) return;
    partial_close(m->in);
    for (size_t k = 0; k < m->nplacement; k++) free(m->placement[k]);
    for (size_t k = 0; k < m->nheader; k++) free(m->header[k]);
    free(m->placement);
    free(m->header);
    free(m->time);
    free(m);
}
