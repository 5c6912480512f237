/* scheduler.h — the pseudo-clock scheduler shared by ciat and cdat (docs/scheduler.md).
 *
 * The scheduler interleaves the traces of a set, reconstructs each thread's
 * instruction stream, tracks phases and synchronisation, and drives a tool
 * through its hooks (sched_hooks.h). ciat and cdat see exactly the same
 * sequence of events. */
#ifndef DSM_COMMON_SCHEDULER_H
#define DSM_COMMON_SCHEDULER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "istream.h"
#include "sched_hooks.h"
#include "trace_set.h"

/* --sync (docs/scheduler.md §6.1, §6.2): replay the synchronisation the
 * traces record (recorded), or order locks by the pseudo clock (simulated),
 * or replay the recorded hand-overs and order the plain locks by the pseudo
 * clock (handovers); auto = recorded when trace 0 begins with start_trace
 * sync=1. */
typedef enum sched_sync {
    SCHED_SYNC_AUTO, SCHED_SYNC_RECORDED, SCHED_SYNC_SIMULATED, SCHED_SYNC_HANDOVERS
} sched_sync;

/* Per-thread counts kept by the scheduler: the instruction stream plus idle time. */
typedef struct sched_counts {
    istream_counts is;
    uint64_t records;           /* logical records processed */
    uint64_t sync_idle;         /* cycles lost waiting at barriers and locks */
    uint64_t phase_end_idle;    /* cycles lost waiting for the end of a phase */
    uint64_t io_idle;           /* cycles lost waiting for the disk (call hook delays) */
    uint64_t stall;             /* cycles the consumer added with sched_stall */
} sched_counts;

typedef struct sched_options {
    bool parallel_start;        /* -p: no spawn/join; one parallel phase of all threads */
    bool lenient;               /* release deadlocked threads, ignore bad unlocks */
    uint32_t gap_limit;         /* default ISTREAM_DEFAULT_GAP_LIMIT */
    bool progress;              /* progress meter on stderr */
    /* Slice mode (docs/scheduler.md §13): the traces are processes run on slice_cpus
     * processors; 0 = thread mode. */
    int slice_cpus;             /* -i p */
    bool affinity;              /* -a: a process stays on its first processor */
    bool keep_slices;           /* -k: never swap a slice out */
    bool rr_interleaving;       /* -rr_interleaving: process i on processor i mod p, round robin */
    uint64_t slice_length;      /* -s v: instructions before a swap-out (0: default 20000) */
    smait_order order;          /* byte order, for slice mode's look-ahead readers */
    sched_sync sync;            /* thread mode: recorded or simulated synchronisation */
    /* --turns V (docs/scheduler.md §14): thread mode on one processor, which
     * runs one thread at a time, round robin, for at most V instructions a
     * turn (a call that blocks or ends the thread ends it sooner); 0 = the
     * pseudo-clock rule of §3. Only the order changes: clocks, phases and
     * synchronisation follow the usual rules. */
    uint64_t turn_length;
    /* A second pass over traces a run has read already (cdat --speedup):
     * none of the warnings sched_run gives at its end, and deadlocks
     * released under --lenient only counted (the first pass said it all). */
    bool quiet;
} sched_options;

enum { SCHED_DEFAULT_SLICE_LENGTH = 20000 };

/* The -s length in force: slice_length, or the default when it is 0. */
static inline uint64_t sched_slice_length(const sched_options *o)
{
    return o->slice_length ? o->slice_length : SCHED_DEFAULT_SLICE_LENGTH;
}

/* Slice mode: what one processor did (thread mode: not kept). */
typedef struct sched_cpu_counts {
    uint64_t active;            /* cycles running a process */
    uint64_t idle;              /* cycles with nothing eligible to run */
    uint64_t dispatches;        /* slices (or round-robin turns) it ran */
} sched_cpu_counts;

/* Problems tolerated under --lenient, and records left unprocessed. */
typedef struct sched_problems {
    uint64_t deadlocks;         /* times blocked threads were released */
    uint64_t bad_unlocks;       /* end of a section whose lock the thread did not hold,
                                 * or a recorded release replayed a second time */
    uint64_t unprocessed;       /* logical records never processed */
} sched_problems;

/* readers: one per trace (thread order); the scheduler does not own them.
 * It reads trace 0's first record ahead to decide the synchronisation mode;
 * --sync=recorded on traces that do not record it stops with exit status 2. */
scheduler *sched_create(const trace_set *set, trace_reader **readers,
                        const sched_options *opts, const sched_hooks *hooks);
void sched_free(scheduler *s);

/* Runs the whole analysis. Inconsistent traces stop with exit status 2 (a
 * message lists every blocked thread) unless lenient. Ends with the
 * --lenient summary of the process's warnings (diag_lenient_summary), so a
 * process runs it once. */
void sched_run(scheduler *s);

int sched_threads(const scheduler *s);
/* Slice mode: the number of processors (0 in thread mode) and their counts
 * over the whole run (slice mode has one phase). */
int sched_cpus(const scheduler *s);
sched_cpu_counts sched_cpu_counts_of(const scheduler *s, int cpu);
uint64_t sched_clock(const scheduler *s, int thread);
/* Counts of the current phase (reset at each phase begin) and of the run. */
const sched_counts *sched_phase_counts(const scheduler *s, int thread);
const sched_counts *sched_total_counts(const scheduler *s, int thread);
sched_problems sched_problem_counts(const scheduler *s);
/* For a hook: stop the run with a data error about thread t's record being
 * processed ("FILE: OFFSET: record N: reason", exit status 2). */
_Noreturn void sched_record_error(scheduler *s, int thread, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int sched_phase_count(const scheduler *s);

/* For a fetch, fetch_run or mem hook, thread mode only: thread t's reference
 * took `cycles` more than its instruction (a simulated machine's stall), so
 * t's clock moves on by them now (docs/scheduler.md §1, "Stalls"): the hook's
 * later fetches of a fetch_run, t's next records, and which thread runs next
 * see the later clock. Counted as the thread's `stall`. A clock that would
 * pass SCHED_CLOCK_LIMIT stops the run (a data error naming the record).
 * The fetch_mem hint delivers an access at its fetch's clock: a consumer
 * that stalls fetches does not give it (cdat does not). */
void sched_stall(scheduler *s, int t, uint64_t cycles);

/* The synchronisation rule in force: "recorded", or "simulated (REASON)". */
const char *sched_sync_mode(const scheduler *s);
/* Trace 0 begins with start_trace sync=1 (formats/SMAIT.md §5.1). */
bool sched_traces_record_sync(const scheduler *s);

/* Unmodelled synchronisation (unmodelled records, formats/SMAIT.md §5.1)
 * processed so far, per cause: 1 … SMAIT_UM_COUNT-1, and 0 for causes the
 * format does not name. thread < 0: all threads. */
uint64_t sched_unmodelled(const scheduler *s, unsigned cause, int thread);
/* The warning for a cause ("unmodelled futex: 12 in traces 0,2 (raw futex
 * system calls): …"), written to buf; NULL when the cause did not occur.
 * sched_run prints each one on standard error; reports repeat them. */
const char *sched_unmodelled_warning(const scheduler *s, unsigned cause, char *buf, size_t n);
/* The conditions the traces were taken under (common/tracing_conditions.h):
 * the header's figures, or NULL when no trace has a tracing record; the
 * warning that the recorded lock order is partly the tracing machine's
 * time-slicing, or NULL (given only when the replay follows that order). */
const char *sched_tracing_summary(const scheduler *s, char *buf, size_t n);
const char *sched_tracing_warning(const scheduler *s, char *buf, size_t n);

/* into += from, field by field. */
void sched_counts_add(sched_counts *into, const sched_counts *from);

/* Names for reports: "serial"/"parallel", "start"/"spawn"/"join"/"marker",
 * "join"/"barrier"/"critical"/"ordered"/"io"/"slice_end"/"swapped"/"acquire". */
const char *sched_phase_kind_name(sched_phase_kind k);
const char *sched_phase_cause_name(sched_phase_cause c);
const char *sched_wait_name(sched_wait w);

#endif
