/* critpath.h — the critical path of the replay (ciat --critical-path[=N];
 * docs/ciat-report.md, L59–L60, L63).
 *
 * The happens-before graph of the replay is each thread's program order
 * plus every hand-over the scheduler makes: a lock's release → its next
 * acquisition (critical sections 06/07, ordered sections 04/05, and in
 * recorded mode the objects of acquire/release, 20/21), a barrier episode's
 * arrivals → every thread's departure, thread 0's spawn → each thread of the
 * region, the region's threads' ends → thread 0 after the join. Online, each
 * thread carries the length, in executed instructions, of the longest chain
 * ending at its current point; an incoming edge raises it to the edge
 * source's when that is longer. A log of chain segments, one node per
 * synchronisation event that a later edge may start from (previous node,
 * thread, instructions since, the object that handed over), lets the end
 * walk back along the longest chain and sum its instructions per object, per
 * thread, and per site of the call that began a segment (its pc, named
 * through the address map as a source line). Memory grows with
 * synchronisation events, never with records.
 *
 * Events come from ciat's call, thread_stop, thread_resume and phase hooks,
 * in the order the scheduler delivers them (also through the fanout). */
#ifndef DSM_CIAT_CRITPATH_H
#define DSM_CIAT_CRITPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "locks.h"

typedef struct critpath critpath;

/* nthreads traces; top: the contributors L60 lists (≥ 1). */
critpath *critpath_new(int nthreads, uint32_t top);
void critpath_free(critpath *p);
/* objects: acquire/release (20/21) hand over (the replay is in recorded or
 * handovers mode, docs/scheduler.md §6.1); default false. */
void critpath_objects(critpath *p, bool objects);

void critpath_call(critpath *p, int t, uint64_t clock, const smait_raw *rec);
void critpath_stop(critpath *p, int t, uint64_t clock, sched_wait why);
void critpath_resume(critpath *p, int t, uint64_t clock, uint64_t idle);
void critpath_phase_begin(critpath *p, const sched_phase *ph);
/* Thread t fetches its first instruction (at pc) since its last call. */
void critpath_site(critpath *p, int t, uint32_t pc);

/* Lines RxTxL59 and RxTxL60 given to emit (locks.h); objects named through
 * m (NULL: by address). Call it once, after the run. */
void critpath_lines(critpath *p, const addr_map *m, locks_emit emit, void *ctx);
/* Lines RxTxL63: the chain per site (named through m), after critpath_lines
 * (the report puts L61-L62 between). */
void critpath_site_lines(critpath *p, const addr_map *m, locks_emit emit, void *ctx);

#endif
