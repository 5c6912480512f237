/* scheduler.h — the pseudo-clock scheduler shared by ciat and cdat (docs/scheduler.md).
 *
 * The scheduler interleaves the traces of a set, reconstructs each thread's
 * instruction stream, tracks phases and synchronisation, and drives a tool
 * through the hooks below. A tool implements only what it analyses; every
 * hook may be NULL. ciat and cdat see exactly the same sequence of events.
 *
 * Every event names the trace (`thread`) and the processor that runs it
 * (`cpu`): equal in thread mode; different in slice mode (docs/scheduler.md §13), where
 * clocks belong to processors. `clock` is the pseudo clock after the
 * instruction that caused the event was counted (docs/cdat-protocol.md §8). */
#ifndef DSM_COMMON_SCHEDULER_H
#define DSM_COMMON_SCHEDULER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "istream.h"
#include "trace_set.h"

struct fanout_event;

typedef enum sched_phase_kind { PHASE_SERIAL, PHASE_PARALLEL } sched_phase_kind;
typedef enum sched_phase_cause {
    PHASE_BY_START, PHASE_BY_SPAWN, PHASE_BY_JOIN, PHASE_BY_MARKER
} sched_phase_cause;

typedef struct sched_phase {
    int number;                 /* from 1 */
    sched_phase_kind kind;
    sched_phase_cause by;
    int active;                 /* threads 0 … active-1 take part */
    uint64_t start_clock;       /* largest clock of the active threads at its start */
    uint64_t end_clock;         /* … at its end (valid in phase_end) */
    bool last;                  /* phase_end: this is the last phase of the run */
} sched_phase;

/* What a blocked thread waits for. */
typedef enum sched_wait {
    WAIT_NONE, WAIT_JOIN, WAIT_BARRIER, WAIT_CRITICAL, WAIT_ORDERED,
    WAIT_IO,                    /* a synchronous disk read (cdat -handle_io) */
    WAIT_SLICE_END,             /* slice mode: the slice ended at a synchronising call */
    WAIT_SWAPPED,               /* slice mode: swapped out after -s instructions */
    WAIT_ACQUIRE                /* recorded synchronisation: a release not replayed yet */
} sched_wait;

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
} sched_counts;

struct scheduler;
typedef struct sched_hooks {
    void *ctx;
    /* One instruction fetched at addr (4 bytes). */
    void (*fetch)(void *ctx, int thread, int cpu, uint64_t clock, uint32_t addr);
    /* Optional: the n instructions a branch's gap fill fetches, at addr,
     * addr+4, … with clocks first_clock, first_clock+1, … (one call instead of
     * n calls of fetch). */
    void (*fetch_run)(void *ctx, int thread, int cpu, uint64_t first_clock, uint32_t addr, uint32_t n);
    /* A memory-access record (host order). */
    void (*mem)(void *ctx, int thread, int cpu, uint64_t clock, const smait_raw *rec);
    /* Optional: an access and the fetch of its instruction at pc, both at
     * clock, in one call instead of fetch then mem (common/fanout.c records
     * them as one event). */
    void (*fetch_mem)(void *ctx, int thread, int cpu, uint64_t clock, uint32_t pc, const smait_raw *rec);
    /* Optional look-ahead, a hint for a tool that wants to start loading what
     * a future access will need: just before the scheduler delivers a
     * record of thread t, it shows this hook the memory record
     * ahead_distance simple records further on in t's trace (rec: host
     * order), when that record is a memory access already in the reader's
     * buffer (near a buffer refill, or for other kinds of records, the hook
     * is not called). It must change nothing the analysis sees: by the time
     * the record is delivered, the state (caches, even the processor running
     * t in slice mode) may have changed. NULL or ahead_distance 0: off. */
    void (*ahead)(void *ctx, int thread, int cpu, const smait_raw *rec);
    unsigned ahead_distance;
    /* Optional, honoured by the replay only (common/fanout.h; the
     * scheduler's own look-ahead ignores it): a second, earlier hint, the
     * access ahead_far_distance (> ahead_distance) events on, for the first
     * link of a chain of loads the nearer hint follows (ciat: the header of
     * a location's block, whose data pointer ahead then reads). Same rules
     * as ahead. NULL or ahead_far_distance 0: off. */
    void (*ahead_far)(void *ctx, int thread, int cpu, const smait_raw *rec);
    unsigned ahead_far_distance;
    /* Optional, honoured by the replay only: the consumer's own copy of the
     * replay loop, calling the hooks of this value directly rather than
     * through their pointers (common/consumer_loops.h makes it, so that it
     * does exactly what replaying to these hooks does). */
    void (*replay)(void *ctx, const struct fanout_event *events, size_t n, bool ahead, bool far);
    /* Optional, honoured by the scheduler's own loops: the consumer's own
     * copy of the loop that runs a thread's records to these hooks (up to a
     * call record, the end of its trace, or its clock reaching limit),
     * calling them directly. common/consumer_loops.h makes it, with .replay,
     * from the function that makes the hooks, so that it does exactly what
     * the scheduler's own loop does with them. The scheduler calls it with
     * its own state; nothing else may. */
    uint64_t (*records)(struct scheduler *s, int t, uint64_t limit, const smait_raw **last, bool look);
    /* A call record: the 6 simple records (host order, times already paired).
     * Returns the cycles the thread must wait before it goes on (a synchronous
     * disk read under cdat -handle_io; 0 for everything else). Thread mode:
     * the thread stops (WAIT_IO) and resumes that many cycles later. Slice
     * mode: the process also gives its processor up meanwhile (docs/scheduler.md §13). */
    uint64_t (*call)(void *ctx, int thread, int cpu, uint64_t clock, const smait_raw *rec);
    /* The call hook always returns 0: it may then be called later, on another
     * thread, in the same order with the other hooks (common/fanout.h). */
    bool call_never_waits;
    /* A taken branch, procedure call or procedure start record, after its fetches. */
    void (*branch)(void *ctx, int thread, int cpu, uint64_t clock, const smait_raw *rec);
    /* Phases: begin before the first record, end after the last (and after the
     * phase-end clock synchronisation). */
    void (*phase_begin)(void *ctx, const sched_phase *phase);
    void (*phase_end)(void *ctx, const sched_phase *phase);
    /* A thread stops (blocked, joined, finished) or resumes at clock; on
     * resuming, idle = cycles its clock was moved forward. */
    void (*thread_stop)(void *ctx, int thread, int cpu, uint64_t clock, sched_wait why);
    void (*thread_resume)(void *ctx, int thread, int cpu, uint64_t clock, uint64_t idle);
} sched_hooks;

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
} sched_options;

enum { SCHED_DEFAULT_SLICE_LENGTH = 20000 };

/* The most a pseudo clock may reach by a jump: a disk wait or a gap fill that
 * would take it further stops the run (a data error naming the record). One
 * instruction at a time it would take 2^51 records to get there, so clocks
 * stay below 2^52, and sums of clocks or idle times over up to 4096
 * processors or threads fit 64 bits. */
#define SCHED_CLOCK_LIMIT ((uint64_t)1 << 51)

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

typedef struct scheduler scheduler;

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
