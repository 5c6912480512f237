/* scheduler_internal.h — the scheduler's state, shared by its two modes:
 * thread mode (scheduler.c, docs/scheduler.md §3–§10) and slice mode
 * (slice_mode.c, docs/scheduler.md §13).
 * Not for the tools: they use scheduler.h, and sched_loop.h for their own
 * copy of the record loop (consumer_loops.h); tests/cli/structure.sh checks. */
#ifndef DSM_COMMON_SCHEDULER_INTERNAL_H
#define DSM_COMMON_SCHEDULER_INTERNAL_H

#include "clock_queue.h"
#include "progress.h"
#include "sched_loop.h"
#include "scheduler.h"
#include "lock_classes.h"
#include "scheduler_sync.h"
#include "tracing_conditions.h"

#include <stdnoreturn.h>

typedef struct slice_state slice_state;

typedef enum tstate { T_INACTIVE, T_RUNNABLE, T_BLOCKED, T_JOINED, T_FINISHED } tstate;

typedef struct thread {
    sched_lane lane;            /* reader, instruction stream, clock, processor */
    tstate state;
    sched_wait wait;            /* while T_BLOCKED */
    uint32_t wait_key;          /* barrier address or lock key */
    uint64_t wait_index;        /* record index of the blocking record */
    uint32_t wait_seq;          /* recorded sync: releases 1..wait_seq of the key must be replayed */
    uint32_t wait_kind;         /* … and the object's kind (SMAIT_SK_*), for messages */
    bool wait_wake;             /* … a section taken again after a condition wait (wake=1):
                                 * replayed after those releases, its clock not raised to theirs */
    uint64_t records;
    uint64_t sync_idle, phase_end_idle, io_idle, stall;
    sched_counts at_phase_start;    /* totals when the current phase began */
    sched_counts view;              /* scratch for the count getters */
} thread;

struct scheduler {
    const trace_set *set;
    int n;
    thread *th;
    clock_queue q;
    sched_options o;
    sched_hooks h;
    sched_phase phase;
    bool done;
    int prev;                   /* thread processed last */
    sched_problems problems;
    trace_reader **readers;
    progress_meter *progress;
    slice_state *slice;         /* slice mode (-i), else NULL */
    /* Recorded synchronisation (docs/scheduler.md §6.1). */
    bool recorded;              /* replay it (thread mode, --sync) */
    bool traces_sync;           /* trace 0 begins with start_trace sync=1 */
    sync_table sync;            /* releases replayed, per (key space, key) */
    uint64_t *unmodelled;       /* [cause * n + thread], allocated at the first one */
    tracing_conditions cond;    /* the traces' tracing records */
    bool handovers;             /* --sync=handovers: plain locks by the pseudo clock */
    lock_classes locks;         /* with handovers: which locks are plain */
    char handovers_text[128];   /* the # sync: line's words for it */
    /* Lockstep rounds (run_rounds): the tied threads in thread order, listed
     * twice; those that stayed at base in a round (a ring of indices into
     * round_sorted); those that moved on, in the order they did; their set. */
    int *round_sorted, *round_stayed, *round_moved;
    uint64_t *round_set;
};

/* The ahead hint is on. */
static inline bool sched_looks_ahead(const scheduler *s) { return s->h.hint.ahead && s->h.hint.ahead_distance; }

/* run_records_with the scheduler's hooks: through the consumer's own copy
 * of the loop when it gave one (sched_hints.records), else through the
 * hooks' pointers. The caller adds the count to x->records. */
static inline __attribute__((always_inline)) uint64_t
run_records(scheduler *s, thread *x, uint64_t limit, const smait_raw **last, const bool look)
{
    if (s->h.hint.records) return s->h.hint.records(s->h.ctx, &x->lane, limit, last, look);
    return run_records_with(&s->h, &x->lane, limit, last, look);
}

/* Shared between the modes (scheduler.c). */
void sched_snapshot(scheduler *s, int t);

/* The call hook; a wait it returns is the thread's io_idle (the caller decides
 * what waiting means in its mode). */
uint64_t sched_call_hook(scheduler *s, int t, const smait_raw *rec);

/* Slice mode (slice_mode.c). */
void slice_create(scheduler *s);
void slice_run(scheduler *s);
void slice_free(scheduler *s);
sched_cpu_counts slice_cpu_counts(const scheduler *s, int cpu);

#endif
