/* shard.h — one part of ciat's analysis (--shard I/N) and the partial result
 * it writes, read back by --merge (docs/sharding.md).
 *
 * The analysis splits exactly: what ciat keeps per location, per line and
 * per page belongs to the part that owns the page (page number mod N), and
 * what it keeps per thread of the accesses themselves (classes, strings,
 * calls) to the part that owns the thread (thread number mod N). Every part
 * runs the whole interleaving and sees every event; it does the work of what
 * it owns. Every figure of the report is then a sum over the parts, and the
 * merge sums them and writes the report the whole run writes.
 *
 * A partial result is text, one record a line (its framing, first records
 * and checks: common/partial.h). The merge reads the parts side by side, record by record: the records
 * every part must have alike (the interleaving's counts, the header lines)
 * are compared, so a part of another run, trace set, option set or build is
 * refused, naming it; the others are summed. */
#ifndef DSM_CIAT_SHARD_H
#define DSM_CIAT_SHARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "../common/out_file.h"
#include "../common/partial.h"
#include "../common/scheduler.h"

enum { CIAT_PART_MAX = PARTIAL_PART_MAX };

/* The part analysed: part i of n (n = 0: the whole, no sharding). */
typedef struct ciat_part {
    uint32_t i, n;
    uint32_t page_shift;        /* log2 of --page-size */
} ciat_part;

static inline bool part_all(const ciat_part *p) { return p->n <= 1; }
static inline bool part_thread(const ciat_part *p, int t) { return p->n <= 1 || (uint32_t)t % p->n == p->i; }
static inline bool part_page(const ciat_part *p, uint32_t addr)
{
    return p->n <= 1 || (addr >> p->page_shift) % p->n == p->i;
}

/* --shard I/N (an OPT_CALL handler and its "# options:" value). */
const char *ciat_part_parse(void *target, const char *value);

/* The partial result's file name: <prefix>.ciat_partial.I-of-N. Caller frees. */
char *shard_partial_path(const char *prefix_path, const ciat_part *p);

/* ---- ciat's records (the framing: common/partial.h) ---- */

void partial_counts(out_file *f, const char *tag, int t, const sched_counts *sc);
void partial_stats(out_file *f, int t, const thread_stats *s);

void partial_parse_counts(const partial_in *in, int k, char *text, int *t, sched_counts *sc);
/* Adds the stats record's counters to s[t] (t < nthreads). */
void partial_add_stats(const partial_in *in, int k, char *text, thread_stats *s, int nthreads);

#endif
