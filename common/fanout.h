/* fanout.h — one scheduled run, one or several consumers: the scheduler's
 * events (fetches, fetch runs, memory accesses, calls, thread stops and
 * resumes) go to every consumer in the same order, as if each had the
 * scheduler to itself. cdat simulates several machines in one pass over the
 * traces this way, and ciat and cdat run their one analysis beside the
 * reading and scheduling of the traces (docs/scheduler.md §14).
 *
 * The events are recorded into batches, several in flight at once. On a
 * machine with more than one processor, helper threads replay them while the
 * scheduler fills the next batch. With a helper for every consumer, each
 * replays its own consumer's batches and the scheduler's thread only
 * records; with fewer, the scheduler's thread replays too when all batches
 * are in flight, and any thread takes any consumer's next batch, so the work
 * spreads evenly however unequal the consumers are. A consumer sees its
 * events in order and from one thread at a time; consumers share nothing, so
 * their results are the same as separate runs'. A consumer's ahead hook
 * sees the access ahead_distance events on in the batch being replayed (the
 * scheduler's own look-ahead is off), in the batches where it pays
 * (ahead_tuner.h).
 * At a phase's begin and end every batch is first replayed (the scheduler's
 * counts are those of that moment), then each consumer's phase hook runs on
 * the calling thread. A call is an event like the others when the
 * consumers' call hooks never make a thread wait (call_never_waits); a call
 * hook that may (cdat -handle_io) is allowed for one consumer only, and runs
 * on the scheduler's thread after every earlier event is replayed, as its
 * wait changes the schedule. Branch hooks must be NULL. A consumer may give
 * its own copy of the replay loop (sched_hints.replay, consumer_loops.h). */
#ifndef DSM_COMMON_FANOUT_H
#define DSM_COMMON_FANOUT_H

#include "scheduler.h"

/* Events a batch holds (a call takes three, an access one). 2^12 events
 * (128 KiB): big enough that handing a batch over (a few microseconds) is
 * lost in its replay, small enough that the four in flight stay in the
 * second-level caches of both threads (2^14, the size compared, was slower
 * on every set tried, most on the FFT-like set of 64 threads:
 * bench/README.md E6). The fuzzing build's are
 * small, so that its inputs of a few records cross batch ends. */
#ifdef DSM_FUZZING
enum { FANOUT_BATCH = 1 << 4 };
#else
enum { FANOUT_BATCH = 1 << 12 };
#endif

typedef struct fanout fanout;

/* n consumers (their ctx and hooks are copied); workers = threads in all,
 * the calling thread included: 0 = one per processor the process may run on
 * (fanout_processors), at most n + 1; 1 = everything on the calling thread,
 * as always under a diag trap (fuzzing: a fatal error unwinds only the
 * calling thread).
 * With one consumer and two threads, the calling thread reads and schedules
 * while the other analyses. */
fanout *fanout_create(const sched_hooks *consumers, int n, int workers);
/* The hooks to give the scheduler (ctx is f). */
sched_hooks fanout_hooks(fanout *f);
/* Replay what is still recorded (call after sched_run), stop the workers, free. */
void fanout_finish(fanout *f);
/* Workers in use (for tests and benchmarks). */
int fanout_workers(const fanout *f);
/* Processors the process may run on (its CPU affinity), at least 1. */
int fanout_processors(void);

/* One consumer h beside the scheduler of a set of `traces` traces when
 * workers is more than 1, or when it is 0 (the default) and the set has
 * several traces and the process several processors (with one trace the
 * scheduling costs too little for a thread of its own to pay, handing the
 * records over costs more: bench/README.md E7); returns the fanout and sets
 * *run to its hooks, to give the scheduler (fanout_finish it after
 * sched_run); else NULL and *run = *h. Under a diag trap the fanout has one
 * thread, which records the events and replays them itself batch by batch
 * (so a fuzzing harness can compare the replay with the direct hooks). */
fanout *fanout_pipeline(const sched_hooks *h, int workers, int traces, sched_hooks *run);

#endif
