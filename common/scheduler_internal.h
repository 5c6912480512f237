/* scheduler_internal.h — the scheduler's state, shared by its two modes:
 * thread mode (scheduler.c, docs/scheduler.md §3–§10) and slice mode
 * (slice_mode.c, docs/scheduler.md §13).
 * Not for the tools: they use scheduler.h (consumer_loops.h instantiates
 * run_records_with for a tool's own hooks, so it includes this header). */
#ifndef DSM_COMMON_SCHEDULER_INTERNAL_H
#define DSM_COMMON_SCHEDULER_INTERNAL_H

#include "clock_queue.h"
#include "progress.h"
#include "scheduler.h"
#include "lock_classes.h"
#include "scheduler_sync.h"
#include "tracing_conditions.h"

#include <stdnoreturn.h>

typedef struct slice_state slice_state;

typedef enum tstate { T_INACTIVE, T_RUNNABLE, T_BLOCKED, T_JOINED, T_FINISHED } tstate;

typedef struct thread {
    trace_reader *r;
    istream is;
    uint64_t clock;             /* slice mode: its processor's clock while it runs */
    int cpu;                    /* the processor that runs it (thread mode: itself) */
    tstate state;
    sched_wait wait;            /* while T_BLOCKED */
    uint32_t wait_key;          /* barrier address or lock key */
    uint64_t wait_index;        /* record index of the blocking record */
    uint32_t wait_seq;          /* recorded sync: releases 1..wait_seq of the key must be replayed */
    uint32_t wait_kind;         /* … and the object's kind (SMAIT_SK_*), for messages */
    bool wait_wake;             /* … a section taken again after a condition wait (wake=1):
                                 * replayed after those releases, its clock not raised to theirs */
    uint64_t records;
    uint64_t sync_idle, phase_end_idle, io_idle;
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

static inline bool is_call(const smait_raw *rec) { return (rec->f1 >> 12) == 1; }

/* The ahead hook is on. */
static inline bool sched_looks_ahead(const scheduler *s) { return s->h.ahead && s->h.ahead_distance; }

/* Stops the run: thread t's clock would pass SCHED_CLOCK_LIMIT by `what` of
 * `step` `unit` (a data error naming its current record; hint: what helps). */
noreturn void sched_clock_past_limit(scheduler *s, int t, uint64_t step, const char *what, const char *unit,
                                     const char *hint) __attribute__((cold));

/* Execute one memory, branch or procedure-start record of thread t (docs/scheduler.md §2). */
static inline __attribute__((always_inline)) void
exec_record_with(scheduler *s, const sched_hooks *h, thread *x, int t, const smait_raw *rec)
{
    uint32_t f1 = rec->f1;
    switch (f1 >> 28) {
    case 0x0:                       /* memory access: one instruction */
        x->clock++;
        x->is.n.executed++;
        if (x->is.valid) {
            x->is.n.fetched++;
            uint32_t pc = x->is.pc;
            x->is.pc += ISTREAM_INSN_BYTES;
            if (h->fetch_mem) {
                h->fetch_mem(h->ctx, t, x->cpu, x->clock, pc, rec);
                return;
            }
            if (h->fetch) h->fetch(h->ctx, t, x->cpu, x->clock, pc);
        }
        if (h->mem) h->mem(h->ctx, t, x->cpu, x->clock, rec);
        return;
    case 0x4:                       /* procedure start */
        x->is.pc = rec->f2;
        x->is.valid = true;
        x->is.n.instrumented++;
        break;
    default: {                      /* 0x8 taken branch, 0xC procedure call */
        uint32_t src = smait_branch_src(f1), pc = x->is.pc;
        if (x->is.valid && pc <= src && src - pc <= s->o.gap_limit) {
            /* docs/scheduler.md §2: "while pc < src" — a gap that is not a multiple of
             * 4 bytes (pc from an unaligned target) still fetches at pc. */
            uint32_t k = (uint32_t)(((uint64_t)(src - pc) + ISTREAM_INSN_BYTES - 1) /
                                    ISTREAM_INSN_BYTES);
            if (__builtin_expect(x->clock + k > SCHED_CLOCK_LIMIT, 0))
                sched_clock_past_limit(s, t, k, "a gap fill", "instructions", "a smaller --gap-limit fills less");
            if (k && h->fetch_run)
                h->fetch_run(h->ctx, t, x->cpu, x->clock + 1, pc, k);
            else if (h->fetch)
                for (uint32_t i = 0; i < k; i++)
                    h->fetch(h->ctx, t, x->cpu, x->clock + i + 1, pc + i * ISTREAM_INSN_BYTES);
            x->clock += k;
            x->is.n.executed += k;
            x->is.n.fetched += k;
        } else {
            x->is.n.discontinuities++;
        }
        x->is.n.branches += (f1 >> 28) == 0x8;
        x->is.n.calls += (f1 >> 28) == 0xC;
        x->is.pc = rec->f2;
        x->is.valid = true;
        break;
    }
    }
    if (h->branch) h->branch(h->ctx, t, x->cpu, x->clock, rec);
}

static inline __attribute__((always_inline)) void
exec_record(scheduler *s, thread *x, int t, const smait_raw *rec)
{
    exec_record_with(s, &s->h, x, t, rec);
}

/* The ahead hook (on) for the record thread t's reader handed out last. */
static inline __attribute__((always_inline)) void look_ahead(const sched_hooks *h, thread *x, int t)
{
    /* The reader's cursor is already one past that record. */
    const smait_raw *a = trace_reader_ahead(x->r, h->ahead_distance - 1);
    if (a && (a->f1 >> 12) == 0) h->ahead(h->ctx, t, x->cpu, a);
}

/* Run thread t's records, delivering them to h, while its clock stays below
 * limit (at least one record); stop before a call record or at the end of
 * the trace. Returns the records executed; *last is the call record met,
 * NULL at the end of the trace, or else the last record executed (is_call
 * false). The caller adds the count to x->records. look: feed the ahead hook
 * (a constant in the hot loops, so that without the hook they stay as they
 * were; h must have the hook then). */
static inline __attribute__((always_inline)) uint64_t
run_records_with(scheduler *s, const sched_hooks *h, thread *x, int t, uint64_t limit, const smait_raw **last,
                 const bool look)
{
    uint64_t n = 0;
    const smait_raw *rec;
    for (;;) {
        rec = trace_reader_next(x->r);
        if (!rec || is_call(rec)) break;
        n++;
        if (look) look_ahead(h, x, t);
        exec_record_with(s, h, x, t, rec);
        if (x->clock >= limit) break;
    }
    *last = rec;
    return n;
}

/* run_records_with the scheduler's hooks: through the consumer's own copy
 * of the loop when it gave one (sched_hooks.records), else through the
 * hooks' pointers. */
static inline __attribute__((always_inline)) uint64_t
run_records(scheduler *s, thread *x, int t, uint64_t limit, const smait_raw **last, const bool look)
{
    if (s->h.records) return s->h.records(s, t, limit, last, look);
    return run_records_with(s, &s->h, x, t, limit, last, look);
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
