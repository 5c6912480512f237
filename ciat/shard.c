/* shard.c — ciat's partial results: the part analysed, and ciat's own
 * records (a thread's counts and counters), written and read back for
 * --merge (the framing: common/partial.c; docs/sharding.md). */
#include "shard.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- the part ---- */

const char *ciat_part_parse(void *target, const char *value)
{
    ciat_part *p = target;
    return partial_part_parse(value, &p->i, &p->n);
}

char *shard_partial_path(const char *prefix_path, const ciat_part *p)
{
    return partial_file_path(prefix_path, "ciat", p->i, p->n);
}

/* ---- writing ---- */

enum { COUNT_FIELDS = 10 };

static void counts_put(const sched_counts *sc, uint64_t *v)
{
    const uint64_t w[COUNT_FIELDS] = { sc->is.executed, sc->is.fetched, sc->is.branches, sc->is.calls,
                                       sc->is.instrumented, sc->is.discontinuities, sc->records, sc->sync_idle,
                                       sc->phase_end_idle, sc->io_idle };
    memcpy(v, w, sizeof w);
}

void partial_counts(out_file *f, const char *tag, int t, const sched_counts *sc)
{
    uint64_t v[COUNT_FIELDS];
    counts_put(sc, v);
    partial_u64s(f, tag, t, v, COUNT_FIELDS);
}

/* A thread's counters: the 21 fixed ones (atomics, the load and store
 * classes, raw war waw rar), then only what is not zero as tagged tokens:
 * ln/sn strings, le/se:LEN exact lengths, lb/sb:K buckets, c:TYPE calls
 * (count:time_us:bytes), s:K sharing and i:K invalidation degrees. */
enum { STATS_FIXED = 1 + LOAD_CLASSES + STORE_CLASSES + 4 };

static void strings_put(FILE *s, char k, const string_counts *c)
{
    if (c->strings) fprintf(s, " %cn:%" PRIu64, k, c->strings);
    for (int l = 0; l <= STRING_EXACT; l++)
        if (c->exact[l]) fprintf(s, " %ce:%d:%" PRIu64, k, l, c->exact[l]);
    for (int b = 0; b < STRING_BUCKETS; b++)
        if (c->bucket[b]) fprintf(s, " %cb:%d:%" PRIu64, k, b, c->bucket[b]);
}

static void degrees_put(FILE *s, char k, const degree_vec *v)
{
    for (uint32_t i = 0; i < v->len; i++)
        if (v->n[i]) fprintf(s, " %c:%" PRIu32 ":%" PRIu64, k, i, v->n[i]);
}

void partial_stats(out_file *f, int t, const thread_stats *st)
{
    uint64_t v[STATS_FIXED], *p = v;
    *p++ = st->atomics;
    for (int i = 0; i < LOAD_CLASSES; i++) *p++ = st->load_class[i];
    for (int i = 0; i < STORE_CLASSES; i++) *p++ = st->store_class[i];
    *p++ = st->raw;
    *p++ = st->war;
    *p++ = st->waw;
    *p++ = st->rar;
    FILE *s = out_file_stream(f);
    fprintf(s, "stats %d", t);
    for (int i = 0; i < STATS_FIXED; i++) fprintf(s, " %" PRIu64, v[i]);
    strings_put(s, 'l', &st->load_strings);
    strings_put(s, 's', &st->store_strings);
    if (st->calls)
        for (int c = 0; c < 256; c++)
            if (st->calls[c].count || st->calls[c].time_us || st->calls[c].bytes)
                fprintf(s, " c:%d:%" PRIu64 ":%" PRIu64 ":%" PRIu64, c, st->calls[c].count,
                        st->calls[c].time_us, st->calls[c].bytes);
    degrees_put(s, 's', &st->sharing);
    degrees_put(s, 'i', &st->invalidation);
    fputc('\n', s);
}

/* ---- reading ---- */

void partial_parse_counts(const partial_in *in, int k, char *text, int *t, sched_counts *sc)
{
    uint64_t v[1 + COUNT_FIELDS];
    partial_parse_u64s(in, k, text, v, 1 + COUNT_FIELDS);
    if (v[0] >= (uint64_t)partial_traces(in)) partial_fail(in, k, "thread %" PRIu64 " of %d", v[0], partial_traces(in));
    *t = (int)v[0];
    *sc = (sched_counts){ .is = { .executed = v[1], .fetched = v[2], .branches = v[3], .calls = v[4],
                                  .instrumented = v[5], .discontinuities = v[6] },
                          .records = v[7], .sync_idle = v[8], .phase_end_idle = v[9], .io_idle = v[10] };
}

/* "KEY:A[:B…]" tokens of a stats record: the numbers after the key. */
static bool token_numbers(const char **s, uint64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (*(*s)++ != ':' || !partial_u64(s, &v[i])) return false;
    return true;
}

void partial_add_stats(const partial_in *in, int k, char *text, thread_stats *all, int nthreads)
{
    const char *s = text;
    uint64_t t;
    if (!partial_u64(&s, &t) || t >= (uint64_t)nthreads) partial_fail(in, k, "a stats record of no thread");
    thread_stats *st = &all[t];
    uint64_t v[STATS_FIXED];
    for (int i = 0; i < STATS_FIXED; i++)
        if (*s++ != ' ' || !partial_u64(&s, &v[i])) partial_fail(in, k, "%d counters expected", STATS_FIXED);
    const uint64_t *p = v;
    st->atomics += *p++;
    for (int i = 0; i < LOAD_CLASSES; i++) st->load_class[i] += *p++;
    for (int i = 0; i < STORE_CLASSES; i++) st->store_class[i] += *p++;
    st->raw += *p++;
    st->war += *p++;
    st->waw += *p++;
    st->rar += *p++;
    while (*s) {
        if (*s++ != ' ') partial_fail(in, k, "a blank between fields expected");
        char key[3] = { s[0], s[0] && s[1] != ':' ? s[1] : '\0', '\0' };
        s += strlen(key);
        uint64_t a[4];
        string_counts *sc = key[0] == 'l' ? &st->load_strings : key[0] == 's' ? &st->store_strings : NULL;
        if (sc && key[1] == 'n' && token_numbers(&s, a, 1)) {
            sc->strings += a[0];
        } else if (sc && key[1] == 'e' && token_numbers(&s, a, 2) && a[0] <= STRING_EXACT) {
            sc->exact[a[0]] += a[1];
        } else if (sc && key[1] == 'b' && token_numbers(&s, a, 2) && a[0] < STRING_BUCKETS) {
            sc->bucket[a[0]] += a[1];
        } else if (strcmp(key, "c") == 0 && token_numbers(&s, a, 4) && a[0] < 256) {
            if (!st->calls) st->calls = xcalloc(256, sizeof *st->calls);
            st->calls[a[0]].count += a[1];
            st->calls[a[0]].time_us += a[2];
            st->calls[a[0]].bytes += a[3];
        } else if ((strcmp(key, "s") == 0 || strcmp(key, "i") == 0) && token_numbers(&s, a, 2) &&
                   a[0] < UINT32_MAX) {
            degree_add(key[0] == 's' ? &st->sharing : &st->invalidation, (uint32_t)a[0], a[1]);
        } else {
            partial_fail(in, k, "a counter that is not one of a thread's ('%s')", key);
        }
    }
}
