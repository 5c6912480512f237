/* sched_hooks.h — what the scheduler delivers to a consumer (ciat, cdat, the
 * fanout, smait schedule): the hooks, which are what the analysis sees, and
 * the hints, which only make it faster (docs/scheduler.md §1).
 *
 * Every event names the trace (`thread`) and the processor that runs it
 * (`cpu`): equal in thread mode; different in slice mode (docs/scheduler.md
 * §13), where clocks belong to processors. `clock` is the pseudo clock after
 * the instruction that caused the event was counted (docs/cdat-protocol.md
 * §8). A consumer implements only what it analyses; every hook and hint may
 * be NULL. */
#ifndef DSM_COMMON_SCHED_HOOKS_H
#define DSM_COMMON_SCHED_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../formats/smait.h"

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

typedef struct scheduler scheduler;
struct sched_lane;

/* Speed-only hints. Each one is a faster way to deliver what the hooks
 * below already receive (fetch_run, fetch_mem, and the consumer's own
 * copies of the loops, records and replay), or a look at what is coming
 * that must change nothing the analysis sees (ahead, ahead_far). A consumer
 * gives any of them or none, and sees the same events either way: a build
 * made with -DDSM_SLOW_PATHS ignores every hint (common/fast_paths.h), and
 * its outputs must equal the normal build's byte for byte. */
typedef struct sched_hints {
    /* The n instructions a branch's gap fill fetches, at addr, addr+4, …
     * with clocks first_clock, first_clock+1, … (one call instead of n calls
     * of fetch). */
    void (*fetch_run)(void *ctx, int thread, int cpu, uint64_t first_clock, uint32_t addr, uint32_t n);
    /* An access and the fetch of its instruction at pc, both at clock, in
     * one call instead of fetch then mem (common/fanout.c records them as
     * one event). */
    void (*fetch_mem)(void *ctx, int thread, int cpu, uint64_t clock, uint32_t pc, const smait_raw *rec);
    /* Look-ahead, for a tool that wants to start loading what a future
     * access will need: just before the scheduler delivers a record of
     * thread t, it shows this hook the memory record ahead_distance simple
     * records further on in t's trace (rec: host order), when that record is
     * a memory access already in the reader's buffer (near a buffer refill,
     * or for other kinds of records, the hook is not called). By the time
     * the record is delivered, the state (caches, even the processor running
     * t in slice mode) may have changed. NULL or ahead_distance 0: off. */
    void (*ahead)(void *ctx, int thread, int cpu, const smait_raw *rec);
    unsigned ahead_distance;
    /* Honoured by the replay only (common/fanout.h; the scheduler's own
     * look-ahead ignores it): a second, earlier look, the access
     * ahead_far_distance (> ahead_distance) events on, for the first link of
     * a chain of loads the nearer hint follows (ciat: the header of a
     * location's block, whose data pointer ahead then reads). Same rules as
     * ahead. NULL or ahead_far_distance 0: off. */
    void (*ahead_far)(void *ctx, int thread, int cpu, const smait_raw *rec);
    unsigned ahead_far_distance;
    /* Honoured by the replay only: the consumer's own copy of the replay
     * loop, calling the hooks of this value directly rather than through
     * their pointers (common/consumer_loops.h makes it, so that it does
     * exactly what replaying to these hooks does). */
    void (*replay)(void *ctx, const struct fanout_event *events, size_t n, bool ahead, bool far);
    /* Honoured by the scheduler: the consumer's own copy of the loop that
     * runs a thread's records to these hooks (up to a call record, the end
     * of its trace, or its clock reaching limit; common/sched_loop.h),
     * calling them directly. common/consumer_loops.h makes it, with .replay,
     * from the function that makes the hooks. */
    uint64_t (*records)(void *ctx, struct sched_lane *lane, uint64_t limit, const smait_raw **last, bool look);
} sched_hints;

/* What the analysis sees. */
typedef struct sched_hooks {
    void *ctx;
    /* One instruction fetched at addr (4 bytes). */
    void (*fetch)(void *ctx, int thread, int cpu, uint64_t clock, uint32_t addr);
    /* A memory-access record (host order). */
    void (*mem)(void *ctx, int thread, int cpu, uint64_t clock, const smait_raw *rec);
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
    sched_hints hint;           /* for speed only */
} sched_hooks;

/* The most a pseudo clock may reach by a jump: a disk wait or a gap fill that
 * would take it further stops the run (a data error naming the record). One
 * instruction at a time it would take 2^51 records to get there, so clocks
 * stay below 2^52, and sums of clocks or idle times over up to 4096
 * processors or threads fit 64 bits. */
#define SCHED_CLOCK_LIMIT ((uint64_t)1 << 51)

#endif
