/* barriers.h — where the time goes at barriers (ciat --barriers[=N];
 * docs/ciat-report.md, L57–L58).
 *
 * The analysis sees the run through ciat's call hook and the scheduler's
 * thread_stop and thread_resume hooks (common/sched_hooks.h), in the order
 * the scheduler delivers them (also through the fanout), and keeps per
 * barrier (a barrier call's var address) its episodes — one each time the
 * threads waiting on it are released together — with their arrival spread
 * in pseudo cycles and recorded µs, the threads' waits and who arrived
 * last; and per thread its barrier waits and how often it arrived last.
 * The tables grow with the barriers, never with the records. */
#ifndef DSM_CIAT_BARRIERS_H
#define DSM_CIAT_BARRIERS_H

#include <stdint.h>

#include "locks.h"

typedef struct barriers barriers;

/* nthreads traces; top: the barriers L57 lists (≥ 1). */
barriers *barriers_new(int nthreads, uint32_t top);
void barriers_free(barriers *b);

/* The hooks' events, as the scheduler delivers them. */
void barriers_call(barriers *b, int t, uint64_t clock, const smait_raw *rec);
void barriers_stop(barriers *b, int t, sched_wait why);
void barriers_resume(barriers *b, int t, uint64_t idle);

/* Lines RxTxL57 and RxTxL58 given to emit (locks.h); barrier addresses
 * named through m (NULL: by address). Sorts the table: call it once. */
void barriers_lines(barriers *b, const addr_map *m, locks_emit emit, void *ctx);

#endif
