/* sched_loop.h — the loop that runs one thread's records to a consumer's
 * hooks (docs/scheduler.md §2), and the part of a thread it changes (a
 * lane): its reader, instruction stream, clock and processor.
 *
 * The scheduler runs this loop; a consumer may also make its own copy of it
 * with constant hooks (sched_hints.records, consumer_loops.h), so that the
 * hooks are called directly. Both are this source, so they cannot deliver
 * differently. This header is all of the scheduler's state a consumer's
 * copy sees: the rest is the scheduler's own (scheduler_internal.h). */
#ifndef DSM_COMMON_SCHED_LOOP_H
#define DSM_COMMON_SCHED_LOOP_H

#include <stdnoreturn.h>

#include "istream.h"
#include "sched_hooks.h"
#include "trace_reader.h"

/* What running a thread's records changes. The scheduler owns it; a
 * consumer's copy of the loop gets it for the duration of one call. */
typedef struct sched_lane {
    trace_reader *r;
    istream is;
    uint64_t clock;             /* slice mode: its processor's clock while it runs */
    int cpu;                    /* the processor that runs it (thread mode: itself) */
    int t;                      /* the thread */
    uint32_t gap_limit;         /* sched_options.gap_limit */
    scheduler *s;               /* for errors */
} sched_lane;

static inline bool sched_is_call(const smait_raw *rec) { return (rec->f1 >> 12) == 1; }

/* Stops the run: the lane's clock would pass SCHED_CLOCK_LIMIT by `what` of
 * `step` `unit` (a data error naming its current record; hint: what helps). */
noreturn void sched_clock_past_limit(const sched_lane *x, uint64_t step, const char *what, const char *unit,
                                     const char *hint) __attribute__((cold));

/* Execute one memory, branch or procedure-start record of the lane's
 * thread (docs/scheduler.md §2). */
static inline __attribute__((always_inline)) void
exec_record_with(const sched_hooks *h, sched_lane *x, const smait_raw *rec)
{
    uint32_t f1 = rec->f1;
    const int t = x->t;
    switch (f1 >> 28) {
    case 0x0:                       /* memory access: one instruction */
        x->clock++;
        x->is.n.executed++;
        if (x->is.valid) {
            x->is.n.fetched++;
            uint32_t pc = x->is.pc;
            x->is.pc += ISTREAM_INSN_BYTES;
            if (h->hint.fetch_mem) {
                h->hint.fetch_mem(h->ctx, t, x->cpu, x->clock, pc, rec);
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
        if (x->is.valid && pc <= src && src - pc <= x->gap_limit) {
            /* docs/scheduler.md §2: "while pc < src" — a gap that is not a multiple of
             * 4 bytes (pc from an unaligned target) still fetches at pc. */
            uint32_t k = (uint32_t)(((uint64_t)(src - pc) + ISTREAM_INSN_BYTES - 1) /
                                    ISTREAM_INSN_BYTES);
            if (__builtin_expect(x->clock + k > SCHED_CLOCK_LIMIT, 0))
                sched_clock_past_limit(x, k, "a gap fill", "instructions", "a smaller --gap-limit fills less");
            if (k && h->hint.fetch_run)
                h->hint.fetch_run(h->ctx, t, x->cpu, x->clock + 1, pc, k);
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

/* The ahead hint (on) for the record the lane's reader handed out last. */
static inline __attribute__((always_inline)) void sched_look_ahead(const sched_hooks *h, sched_lane *x)
{
    /* The reader's cursor is already one past that record. */
    const smait_raw *a = trace_reader_ahead(x->r, h->hint.ahead_distance - 1);
    if (a && (a->f1 >> 12) == 0) h->hint.ahead(h->ctx, x->t, x->cpu, a);
}

/* Run the lane's records, delivering them to h, while its clock stays below
 * limit (at least one record); stop before a call record or at the end of
 * the trace. Returns the records executed; *last is the call record met,
 * NULL at the end of the trace, or else the last record executed
 * (sched_is_call false). look: feed the ahead hint (a constant in the hot
 * loops, so that without the hint they stay as they were; h must have the
 * hint then). */
static inline __attribute__((always_inline)) uint64_t
run_records_with(const sched_hooks *h, sched_lane *x, uint64_t limit, const smait_raw **last, const bool look)
{
    uint64_t n = 0;
    const smait_raw *rec;
    for (;;) {
        rec = trace_reader_next(x->r);
        if (!rec || sched_is_call(rec)) break;
        n++;
        if (look) sched_look_ahead(h, x);
        exec_record_with(h, x, rec);
        if (x->clock >= limit) break;
    }
    *last = rec;
    return n;
}

#endif
