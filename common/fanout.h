/* fanout.h — one scheduled run, several consumers: the scheduler's events
 * (fetches, fetch runs, memory accesses, thread stops and resumes) go to
 * every consumer in the same order, as if each had the scheduler to itself.
 * cdat simulates several machines in one pass over the traces this way.
 *
 * The events are recorded into batches, several in flight at once. On a
 * machine with more than one processor, helper threads replay them while the
 * scheduler fills the next batch, and the scheduler's thread replays too
 * when all batches are in flight: any thread takes any consumer's next
 * batch, so the work spreads evenly however unequal the consumers are. A
 * consumer sees its events in order and from one thread at a time;
 * consumers share nothing, so their results are the same as separate runs'.
 * At a phase's begin and end every batch is first replayed (the scheduler's
 * counts are those of that moment), then each consumer's phase hook runs on
 * the calling thread. Consumers' call and branch hooks must be NULL (a call
 * that makes the thread wait, cdat -handle_io, changes the schedule, which
 * then differs from consumer to consumer). */
#ifndef DSM_COMMON_FANOUT_H
#define DSM_COMMON_FANOUT_H

#include "scheduler.h"

typedef struct fanout fanout;

/* n consumers (their ctx and hooks are copied); workers = threads that
 * replay, the calling thread included: 0 = one per processor online, at most
 * n; 1 = everything on the calling thread. */
fanout *fanout_create(const sched_hooks *consumers, int n, int workers);
/* The hooks to give the scheduler (ctx is f). */
sched_hooks fanout_hooks(fanout *f);
/* Replay what is still recorded (call after sched_run), stop the workers, free. */
void fanout_finish(fanout *f);
/* Workers in use (for tests and benchmarks). */
int fanout_workers(const fanout *f);

#endif
