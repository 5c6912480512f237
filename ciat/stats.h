/* stats.h — ciat's per-thread counters of one phase (or of the whole run) and
 * the report lines they print (docs/ciat-report.md, lines L01–L15). */
#ifndef DSM_CIAT_STATS_H
#define DSM_CIAT_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/report.h"
#include "../common/scheduler.h"

enum { LOAD_CLASSES = 7, STORE_CLASSES = 9 };
enum { STRING_EXACT = 64, STRING_BUCKETS = 33 };    /* 65-128, 129-256, … */

/* Counts of load (or store) strings by length. */
typedef struct string_counts {
    uint64_t strings;
    uint64_t exact[STRING_EXACT + 1];       /* [1..64] */
    uint64_t bucket[STRING_BUCKETS];        /* [b]: lengths (2^(b-1), 2^b], b >= 7 */
} string_counts;

/* A growable k -> count vector (sharing and invalidation degrees). */
typedef struct degree_vec {
    uint64_t *n;
    uint32_t len;
} degree_vec;

typedef struct call_counts {
    uint64_t count, time_us, bytes;
} call_counts;

/* Every load counts in one load class and every store in one store class (an
 * atomic access in one of each), so an access bumps one counter (two for an
 * atomic) and the totals of L01 are sums (stats_loads, stats_stores,
 * stats_mem). */
typedef struct thread_stats {
    uint64_t atomics;
    uint64_t load_class[LOAD_CLASSES];      /* byte half word long float double other */
    uint64_t store_class[STORE_CLASSES];    /* zero byte half three word long float double other */
    string_counts load_strings, store_strings;
    call_counts *calls;                     /* [256], allocated on the first call record */
    uint64_t raw, war, waw, rar;
    degree_vec sharing;                     /* S[k] */
    degree_vec invalidation;                /* I[k] */
} thread_stats;

static inline uint64_t stats_loads(const thread_stats *s)
{
    uint64_t n = 0;
    for (int i = 0; i < LOAD_CLASSES; i++) n += s->load_class[i];
    return n;
}

static inline uint64_t stats_stores(const thread_stats *s)
{
    uint64_t n = 0;
    for (int i = 0; i < STORE_CLASSES; i++) n += s->store_class[i];
    return n;
}

/* Data accesses: an atomic access is one access, a load and a store. */
static inline uint64_t stats_mem(const thread_stats *s) { return stats_loads(s) + stats_stores(s) - s->atomics; }

void ciat_stats_free(thread_stats *s);
void ciat_stats_clear(thread_stats *s);
/* into += from */
void ciat_stats_add(thread_stats *into, const thread_stats *from);
bool ciat_stats_any(const thread_stats *s);

/* The classes of L02 and L03 (docs/ciat-report.md) for a memory-access
 * record's size code and register type. */
int ciat_stats_load_class(unsigned size_code, unsigned regtype);
int ciat_stats_store_class(unsigned size_code, unsigned regtype);

void string_add(string_counts *c, uint64_t len);
static inline void degree_add(degree_vec *v, uint32_t k, uint64_t n);
void degree_grow(degree_vec *v, uint32_t k);
static inline void degree_add(degree_vec *v, uint32_t k, uint64_t n)
{
    if (k >= v->len) degree_grow(v, k);
    v->n[k] += n;
}

void ciat_stats_call(thread_stats *s, unsigned type, uint32_t start, uint32_t end, uint32_t bytes);

/* Print L01–L15 for one thread (or Tx): counts from s, instruction and idle
 * counts from sc. */
void ciat_stats_report(report *r, int phase, int thread, const thread_stats *s, const sched_counts *sc);

#endif
