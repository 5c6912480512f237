/* locks.h — where the time goes around locks and between markers (ciat
 * --locks[=N], --intervals; docs/ciat-report.md, L52–L56).
 *
 * The analysis sees the run through ciat's call hook and the scheduler's
 * thread_stop and thread_resume hooks (common/sched_hooks.h), in the order
 * the scheduler delivers them (also through the fanout), and keeps:
 *
 * - per lock (a critical section key, 06/07; an object of acquire/release,
 *   20/21, whose kind is a lock: mutex, spin lock, reader-writer lock,
 *   OpenMP lock or critical section) its acquisitions, contended ones (in the
 *   replay, and by the recorded times), owner hand-offs, wait and hold times
 *   in pseudo cycles (count, sum, max, log2 histogram) and the hold time in
 *   µs from the recorded times;
 * - per lock and acquisition site (the pc of the acquiring call: the first
 *   instruction its thread fetches after it, locks_site) the acquisitions,
 *   contended ones and wait cycles;
 * - per pair of locks (A, B): how often B was taken while A was held, and
 *   how often a thread's next acquisition after letting A go was of B;
 * - per pair of marker numbers (a, b): the intervals between consecutive
 *   markers a and b of one thread, in pseudo cycles and µs.
 *
 * The rules are in docs/ciat-report.md (L52–L56, L61–L62). Nothing is kept per
 * record beyond a few words per thread; the tables grow with the locks,
 * pairs and marker numbers. */
#ifndef DSM_CIAT_LOCKS_H
#define DSM_CIAT_LOCKS_H

#include <stdbool.h>
#include <stdint.h>

#include "../common/report.h"
#include "../common/sched_hooks.h"
#include "../formats/addr_map.h"

typedef struct locks locks;

/* nthreads traces; top: the locks and pairs L52–L55 list (0: no lock
 * analysis); intervals: the marker intervals of L56. */
locks *locks_new(int nthreads, uint32_t top, bool intervals);
void locks_free(locks *l);

/* The hooks' events, as the scheduler delivers them. */
void locks_call(locks *l, int t, uint64_t clock, const smait_raw *rec);
void locks_stop(locks *l, int t, sched_wait why);
void locks_resume(locks *l, int t, uint64_t clock, uint64_t idle);
/* Thread t fetches its first instruction (at pc) since its last call. */
void locks_site(locks *l, int t, uint32_t pc);

/* Lines RxTxL52–L55 (with a lock analysis) and RxTxL56 (with intervals);
 * lock addresses named through m (NULL: by address). Sorts the tables:
 * call it once. */
void locks_report(locks *l, report *r, const addr_map *m);
/* The same lines given to emit: level ll, name, the text after the name
 * (ciat --shard: part 0 writes them into its partial result). */
typedef void (*locks_emit)(void *ctx, int ll, const char *name, const char *text);
void locks_lines(locks *l, const addr_map *m, locks_emit emit, void *ctx);
/* Lines RxTxL61 (each ranked lock's top sites, named through m) and RxTxL62
 * (which lock follows which), with a lock analysis: after locks_lines (the
 * report's order puts L57-L60 between). locks_report writes both. */
void locks_more_lines(locks *l, const addr_map *m, locks_emit emit, void *ctx);
/* One line given to emit, its text made by printf from fmt (also for the
 * other emitters of L57-L60: barriers.h, critpath.h). */
void locks_emitf(locks_emit emit, void *ctx, int ll, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Whether an object kind of formats/SMAIT.md §5.1 is a lock (mutex, spin lock,
 * reader-writer lock, OpenMP lock or critical section). */
bool locks_lock_kind(uint32_t kind);

/* The same log2 buckets as L53/L54 write them, for tests: the bucket of v
 * (0 for 0, k for 2^(k-1) … 2^k − 1). */
unsigned locks_bucket(uint64_t v);

#endif
