/* slice_mode.c — slice mode (docs/scheduler.md §13): the T traces are processes, run on
 * p processors with one pseudo clock each.
 *
 * A trace is cut into slices at synchronising call records (01–07, 13, 14,
 * 15, 17, 18): a slice is the records after one such call up to and including
 * the next (its tail); other calls belong to the body. A slice starts at its
 * head's end time and ends at its tail's start time (µs, after call-trace
 * pairing). A second "scout" reader per trace runs one slice ahead of the
 * main reader to learn a slice's end time and length before it runs, so
 * memory stays one buffer per reader whatever the slice length.
 *
 * The queue holds at most one slice per process (its next one), ordered by
 * (start time, trace). A free processor takes the first queued slice that is
 * eligible: (b) no running slice ended, in the real run, at or before its
 * start — once that fails it fails for every later slice too, so the scan
 * stops there; with -a it must be the process's own processor; a process
 * waiting for the disk is skipped until its clock comes. (Rule (a), one
 * running slice per process, holds by construction.) Running processors
 * interleave as threads do in thread mode: smallest clock first, ties round
 * robin over processor numbers. Processors waiting for a disk read to end sit
 * in the same clock queue as timers. Idle processors look for work again only
 * when a slice completes; a swap-out or a disk wait lets only the processor
 * given up look (release()).
 *
 * -rr_interleaving ignores time stamps: process i runs on processor i mod p,
 * which round-robins its processes -s instructions at a time. */
#include "scheduler_internal.h"
#include "../base/diag.h"
#include "trace_set.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

typedef enum pstate { P_QUEUED, P_RUNNING, P_DONE } pstate;

typedef struct proc {
    pstate state;
    uint64_t start, end;        /* µs of its current slice; end UINT64_MAX: unknown (no tail) */
    uint64_t first;             /* the slice's start before any swap-out moved it */
    uint64_t next_start;        /* start of the slice after it (the tail's end time) */
    uint64_t body;              /* logical records of the slice before its tail */
    uint64_t rec0;              /* the thread's record count when the slice began */
    uint64_t ready;             /* a disk read: it may not run before this clock */
    uint64_t time;              /* last time stamp seen by the scout, unwrapped to 64 bits */
    bool timed;                 /* time is set */
    int bound;                  /* processor it first ran on (-a), -1 before */
} proc;

typedef struct cpu {
    uint64_t clock;
    int proc;                   /* running process, -1 when free */
    bool timer;                 /* free and queued to wake when a disk read ends */
    uint64_t since;             /* clock when it took its process */
    uint64_t swap_at;           /* clock at which the running slice is swapped out */
    int rr_pos;                 /* -rr_interleaving: next turn in its cycle */
    sched_cpu_counts n;
} cpu;

struct slice_state {
    int p;
    bool rr;
    uint64_t len;               /* -s */
    cpu *cpu;
    proc *pr;
    trace_reader **scout;
    int *queue, qlen;           /* queued processes by (start, trace) */
    int left;                   /* processes not done */
    uint64_t steps;             /* records processed, for the progress meter */
};

/* Recorded synchronisation (acquire, release, unmodelled; docs/scheduler.md
 * §6.1) cuts no slice and is not replayed: those records are body calls,
 * counted only, and sections' seq and kind are ignored. */
static bool is_sync_call(unsigned type)
{
    return (type >= SMAIT_CT_SPAWN && type <= SMAIT_CT_END_CRITICAL) || type == SMAIT_CT_LDCW ||
           type == SMAIT_CT_SEMOP || type == SMAIT_CT_SEMCTL || type == SMAIT_CT_START_TRACE ||
           type == SMAIT_CT_END_TRACE;
}

/* ---- the scout: slice boundaries and times ---- */

/* A 32-bit time stamp as a 64-bit time that never goes back. Only the step
 * from the last stamp mod 2^32, d, is known: d <= 2^31 is read as a step
 * forward (across a wrap of the timer when the stamp is smaller: a step back
 * of 2^31 µs or more), d > 2^31 as a step back of less than 2^31 µs
 * (unordered stamps), clamped to the last time. So a real step forward of
 * more than 2^31 µs (about 36 minutes) between two stamps of one trace reads
 * as a small step back. */
static uint64_t unwrap(proc *p, uint32_t t)
{
    if (!p->timed) {
        p->timed = true;
        p->time = t;
        return t;
    }
    uint32_t d = t - (uint32_t)p->time;
    /* Saturated below UINT64_MAX, the "no end" mark (after 2^33 stamps). */
    if (d <= 0x80000000u) p->time = p->time >= UINT64_MAX - 1 - d ? UINT64_MAX - 1 : p->time + d;
    return p->time;
}

/* Read the body of process t's next slice and its tail: sets body, end and
 * next_start. Returns false when the trace has nothing left. */
static bool scout_slice(slice_state *sl, int t)
{
    proc *p = &sl->pr[t];
    trace_reader *r = sl->scout[t];
    uint64_t n = 0;
    const smait_raw *rec;
    while ((rec = trace_reader_next(r)) != NULL) {
        if (sched_is_call(rec) && is_sync_call(smait_call_type(rec->f1))) {
            p->body = n;
            p->end = unwrap(p, rec[SMAIT_CALL_START].f2);
            p->next_start = unwrap(p, rec[SMAIT_CALL_END].f2);
            return true;
        }
        n++;
    }
    p->body = n;
    p->end = UINT64_MAX;
    return n > 0;
}

/* ---- the queue ---- */

static bool before(const slice_state *sl, int a, int b)
{
    return sl->pr[a].start != sl->pr[b].start ? sl->pr[a].start < sl->pr[b].start : a < b;
}

static void enqueue(slice_state *sl, int t)
{
    int lo = 0, hi = sl->qlen;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (before(sl, sl->queue[mid], t)) lo = mid + 1;
        else hi = mid;
    }
    memmove(sl->queue + lo + 1, sl->queue + lo, (size_t)(sl->qlen - lo) * sizeof *sl->queue);
    sl->queue[lo] = t;
    sl->qlen++;
    sl->pr[t].state = P_QUEUED;
}

static void dequeue_at(slice_state *sl, int i)
{
    memmove(sl->queue + i, sl->queue + i + 1, (size_t)(sl->qlen - i - 1) * sizeof *sl->queue);
    sl->qlen--;
}

/* The process processor c should run next at its clock, or -1; *wake = the
 * earliest clock at which a process now waiting for the disk could go. */
static int pick_slice(slice_state *sl, int c, uint64_t *wake)
{
    uint64_t clock = sl->cpu[c].clock, min_end = UINT64_MAX;
    for (int i = 0; i < sl->p; i++)
        if (sl->cpu[i].proc >= 0 && sl->pr[sl->cpu[i].proc].end < min_end)
            min_end = sl->pr[sl->cpu[i].proc].end;
    for (int i = 0; i < sl->qlen; i++) {
        int t = sl->queue[i];
        proc *p = &sl->pr[t];
        if (min_end <= p->start) break;                 /* rule (b), for this and every later slice */
        if (p->bound >= 0 && p->bound != c) continue;   /* -a */
        if (p->ready > clock) {
            if (p->ready < *wake) *wake = p->ready;
            continue;
        }
        dequeue_at(sl, i);
        return t;
    }
    return -1;
}

/* -rr_interleaving: the next process in processor c's cycle (c, c+p, …). */
static int pick_rr(slice_state *sl, int n, int c, uint64_t *wake)
{
    cpu *k = &sl->cpu[c];
    int cycle = (n - c + sl->p - 1) / sl->p;
    for (int j = 0; j < cycle; j++) {
        int pos = (k->rr_pos + j) % cycle, t = c + pos * sl->p;
        proc *p = &sl->pr[t];
        if (p->state != P_QUEUED) continue;
        if (p->ready > k->clock) {
            if (p->ready < *wake) *wake = p->ready;
            continue;
        }
        k->rr_pos = (pos + 1) % cycle;
        return t;
    }
    return -1;
}

/* ---- processors ---- */

static void dispatch(scheduler *s, int c, int t)
{
    slice_state *sl = s->slice;
    cpu *k = &sl->cpu[c];
    proc *p = &sl->pr[t];
    thread *x = &s->th[t];
    p->state = P_RUNNING;
    if (p->bound < 0 && s->o.affinity) p->bound = c;
    k->proc = t;
    k->since = k->clock;
    /* Saturated: -s may be as large as 2^64 - 1 (then no swap-out at all). */
    k->swap_at = (s->o.keep_slices && !sl->rr) || sl->len > UINT64_MAX - k->clock ? UINT64_MAX
                                                                                 : k->clock + sl->len;
    k->n.dispatches++;
    x->lane.cpu = c;
    x->lane.clock = k->clock;
    cq_insert(&s->q, c, k->clock);
    if (s->h.thread_resume) s->h.thread_resume(s->h.ctx, t, c, k->clock, 0);
}

/* Processor c is free at its clock: take a process, or wait as a timer for
 * the earliest disk read that ends, or stay idle until a slice completes. */
static void try_dispatch(scheduler *s, int c)
{
    slice_state *sl = s->slice;
    uint64_t wake = UINT64_MAX;
    int t = sl->rr ? pick_rr(sl, s->n, c, &wake) : pick_slice(sl, c, &wake);
    if (t >= 0) {
        dispatch(s, c, t);
    } else if (wake != UINT64_MAX) {
        sl->cpu[c].timer = true;
        cq_insert(&s->q, c, wake);
    }
}

/* Move a free processor's clock to `to`: the gap is idle time. */
static void idle_until(cpu *k, uint64_t to)
{
    if (to <= k->clock) return;
    k->n.idle += to - k->clock;
    k->clock = to;
}

/* The process on processor c stops (why: its slice ended, it was swapped
 * out, waits for the disk, or its trace ended). A slice that completes (its
 * tail processed, or its trace ended) is what idle processors wait for: every
 * free processor, lowest number first, catches up with c's clock and looks
 * for work. A swap-out or a disk wait completes nothing: only c looks, and
 * idle processors stay where they are. Under -rr_interleaving processes
 * never change processor, so only c looks. */
static void release(scheduler *s, int c, sched_wait why)
{
    slice_state *sl = s->slice;
    cpu *k = &sl->cpu[c];
    int t = k->proc;
    k->n.active += k->clock - k->since;
    k->proc = -1;
    cq_remove(&s->q, c);
    if (s->h.thread_stop) s->h.thread_stop(s->h.ctx, t, c, k->clock, why);
    if (sl->rr || why == WAIT_SWAPPED || why == WAIT_IO) {
        try_dispatch(s, c);
        return;
    }
    uint64_t now = k->clock;
    for (int i = 0; i < sl->p; i++) {
        cpu *f = &sl->cpu[i];
        if (f->proc >= 0) continue;
        if (f->timer) {
            f->timer = false;
            cq_remove(&s->q, i);
        }
        idle_until(f, now);
        try_dispatch(s, i);
    }
}

/* Put process t back in the queue for the rest of its slice: its start time
 * is start + (end - start) × done / total of the whole slice (docs/scheduler.md §13),
 * rounded down; with no known end it keeps its start. */
static void requeue_rest(slice_state *sl, int t, uint64_t records)
{
    proc *p = &sl->pr[t];
    uint64_t done = records - p->rec0;
    if (p->end != UINT64_MAX && p->end > p->first && p->body > 0) {
        unsigned __int128 span = (unsigned __int128)(p->end - p->first) * (done < p->body ? done : p->body);
        p->start = p->first + (uint64_t)(span / p->body);
    }
    enqueue(sl, t);
}

static void process_done(scheduler *s, int c)
{
    slice_state *sl = s->slice;
    sl->pr[sl->cpu[c].proc].state = P_DONE;
    sl->left--;
    release(s, c, WAIT_NONE);
}

/* Process t's slice reached its tail (already processed): queue its next
 * slice, or finish it. */
static void slice_end(scheduler *s, int c, int t, uint64_t delay)
{
    slice_state *sl = s->slice;
    proc *p = &sl->pr[t];
    p->start = p->first = p->next_start;
    p->rec0 = s->th[t].records;
    if (!scout_slice(sl, t)) {
        process_done(s, c);
        return;
    }
    p->ready = delay ? sl->cpu[c].clock + delay : 0;
    enqueue(sl, t);
    release(s, c, WAIT_SLICE_END);
}

/* The process on processor c stops in the middle of its slice (why: a disk
 * read or a swap-out): it waits for its turn again — round robin: in its
 * processor's cycle; slices: with the rest of its slice back in the queue. */
static void give_up(scheduler *s, int c, sched_wait why)
{
    slice_state *sl = s->slice;
    int t = sl->cpu[c].proc;
    if (sl->rr) sl->pr[t].state = P_QUEUED;
    else requeue_rest(sl, t, s->th[t].records);
    release(s, c, why);
}

/* Processor c's process met a call record (its records and clock counted up
 * to it): process it. Returns true when the processor was released (the
 * slice ended, or a disk read made the process give it up). */
static bool at_call(scheduler *s, int c, const smait_raw *rec)
{
    slice_state *sl = s->slice;
    cpu *k = &sl->cpu[c];
    int t = k->proc;
    thread *x = &s->th[t];
    proc *p = &sl->pr[t];
    x->records++;
    sl->steps++;
    uint64_t delay = sched_call_hook(s, t, rec);
    if (!sl->rr && is_sync_call(smait_call_type(rec->f1))) {
        slice_end(s, c, t, delay);
        return true;
    }
    if (delay) {                        /* a synchronous disk read: give the processor up */
        p->ready = k->clock + delay;
        give_up(s, c, WAIT_IO);
        return true;
    }
    return false;
}

/* After a turn that reached the swap-out clock: swap the slice out unless
 * only its tail is left. Returns true when the processor was released. */
static bool at_swap_clock(scheduler *s, int c)
{
    slice_state *sl = s->slice;
    cpu *k = &sl->cpu[c];
    int t = k->proc;
    proc *p = &sl->pr[t];
    uint64_t records = s->th[t].records;
    if (k->clock < k->swap_at || !(sl->rr || records - p->rec0 < p->body)) return false;
    give_up(s, c, WAIT_SWAPPED);
    return true;
}

/* Run the process on processor c (picked by the clock rule) until another
 * processor's turn, the end of its slice, a swap-out or a disk read. */
static void run_cpu(scheduler *s, int c)
{
    slice_state *sl = s->slice;
    cpu *k = &sl->cpu[c];
    int t = k->proc;
    thread *x = &s->th[t];
    uint64_t limit = cq_min_other(&s->q, c);
    if (limit > k->swap_at) limit = k->swap_at;
    uint64_t n = 0;
    for (;;) {
        const smait_raw *rec = trace_reader_next(x->lane.r);
        if (!rec || sched_is_call(rec)) {
            x->records += n;
            sl->steps += n;
            n = 0;
            k->clock = x->lane.clock;
            if (!rec) {
                process_done(s, c);
                return;
            }
            if (at_call(s, c, rec)) return;
        } else {
            n++;
            if (sched_looks_ahead(s)) sched_look_ahead(&s->h, &x->lane);
            exec_record_with(&s->h, &x->lane, rec);
        }
        if (x->lane.clock >= limit) break;
    }
    x->records += n;
    sl->steps += n;
    k->clock = x->lane.clock;
    if (!at_swap_clock(s, c)) cq_update(&s->q, c, k->clock);
}

/* The lockstep loop of scheduler.c's run_fast for at most 64 processors:
 * while processors tie at the smallest clock each runs one record, with the
 * queue's level in registers; a processor alone at the smallest clock runs up
 * to the next one. Returns a processor that needs the path above (a timer, a
 * call record *rec, the end of its trace: *rec NULL, or its swap-out clock:
 * *swap), with the queue exact; -1 when the queue needs the general pick. */
static int run_fast_cpus(scheduler *s, const smait_raw **rec_out, bool *swap)
{
    slice_state *sl = s->slice;
    clock_queue *q = &s->q;
    int prev = s->prev;
    while (q->in_buckets > 0) {
        const uint64_t base = q->base;
        uint64_t *level = cq_bucket(q, base);
        uint64_t tied = *level;
        if (!tied) {
            if (!cq_level_next(q)) break;
            continue;
        }
        while (tied) {
            int c = cq_first_after(tied, prev);
            cpu *k = &sl->cpu[c];
            if (k->timer) {
                *level = tied;
                s->prev = prev;
                return -2 - c;
            }
            int t = k->proc;
            thread *x = &s->th[t];
            uint64_t limit = base;
            if (tied == 1ull << c) {
                *level = tied;
                limit = cq_level_alone_limit(q);
            }
            if (limit > k->swap_at) limit = k->swap_at;
            prev = c;
            const smait_raw *rec;
            uint64_t n = run_records(s, x, limit, &rec, sched_looks_ahead(s));
            x->records += n;
            sl->steps += n;
            k->clock = x->lane.clock;
            if (k->clock != base) cq_level_move(q, level, &tied, c, k->clock);
            bool stop = !rec || sched_is_call(rec);
            if (stop || k->clock >= k->swap_at) {
                cq_level_close(q, level, tied);
                s->prev = c;
                *rec_out = stop ? rec : NULL;
                *swap = !stop;
                return c;
            }
        }
        cq_level_close(q, level, 0);
    }
    s->prev = prev;
    return -1;
}

/* Processor c's timer: a disk read it waited for has ended. */
static void at_timer(scheduler *s, int c)
{
    cpu *k = &s->slice->cpu[c];
    k->timer = false;
    uint64_t wake = s->q.clock[c];
    cq_remove(&s->q, c);
    idle_until(k, wake);
    try_dispatch(s, c);
}

/* ---- public (through scheduler.c) ---- */

void slice_create(scheduler *s)
{
    slice_state *sl = xcalloc(1, sizeof *sl);
    sl->p = s->o.slice_cpus;
    sl->rr = s->o.rr_interleaving;
    sl->len = sched_slice_length(&s->o);
    sl->cpu = xcalloc((size_t)sl->p, sizeof *sl->cpu);
    sl->pr = xcalloc((size_t)s->n, sizeof *sl->pr);
    sl->queue = xcalloc((size_t)s->n, sizeof *sl->queue);
    for (int c = 0; c < sl->p; c++) sl->cpu[c].proc = -1;
    for (int t = 0; t < s->n; t++) sl->pr[t].bound = -1;
    if (!sl->rr) {
        /* Look-ahead readers: small buffers (8192 records, less when there
         * are many traces: 4 MiB in all, at least 1024 each), no repeated
         * --lenient warnings. */
        size_t share = ((size_t)4 << 20) / sizeof(smait_raw) / (size_t)s->n;
        trace_reader_opts o = { .order = s->o.order, .lenient = s->o.lenient, .quiet = true,
                                .buffer_records = share < 1024 ? 1024 : share > 8192 ? 8192 : share };
        sl->scout = trace_set_open(s->set, &o);
    }
    /* The clock queue orders processors, not traces. */
    cq_free(&s->q);
    cq_init(&s->q, sl->p);
    s->slice = sl;
}

void slice_free(scheduler *s)
{
    slice_state *sl = s->slice;
    if (!sl) return;
    if (sl->scout) trace_set_close_readers(s->set, sl->scout);
    free(sl->cpu);
    free(sl->pr);
    free(sl->queue);
    free(sl);
    s->slice = NULL;
}

sched_cpu_counts slice_cpu_counts(const scheduler *s, int c)
{
    if (!s->slice || c < 0 || c >= s->slice->p) return (sched_cpu_counts){ 0 };
    return s->slice->cpu[c].n;
}

/* One phase: all processes, from clock 0 until every trace has ended; then
 * every processor's clock moves to the largest (the difference is idle). */
void slice_run(scheduler *s)
{
    slice_state *sl = s->slice;
    s->phase = (sched_phase){ .number = 1, .kind = PHASE_PARALLEL, .by = PHASE_BY_START, .active = s->n };
    for (int t = 0; t < s->n; t++) sched_snapshot(s, t);
    if (s->h.phase_begin) s->h.phase_begin(s->h.ctx, &s->phase);
    for (int t = 0; t < s->n; t++) {
        proc *p = &sl->pr[t];
        if (sl->rr) {
            p->state = P_QUEUED;
        } else if (scout_slice(sl, t)) {
            /* The first slice has no head: the process is there from the start. */
            p->start = p->first = 0;
            enqueue(sl, t);
            continue;
        } else {
            p->state = P_DONE;
            continue;
        }
        if (trace_reader_at_end(s->th[t].lane.r)) p->state = P_DONE;
    }
    for (int t = 0; t < s->n; t++) sl->left += sl->pr[t].state != P_DONE;
    for (int c = 0; c < sl->p; c++) try_dispatch(s, c);
    uint64_t ticked = 0;
    while (sl->left > 0) {
        if (s->progress && (sl->steps >> 20) != (ticked >> 20)) {
            ticked = sl->steps;
            progress_tick(s->progress, sl->steps);
        }
        if (s->q.words == 1 && s->q.in_buckets > 0) {
            const smait_raw *rec = NULL;
            bool swap = false;
            int c = run_fast_cpus(s, &rec, &swap);
            if (c <= -2) at_timer(s, -2 - c);
            else if (c >= 0 && swap) {
                if (!at_swap_clock(s, c)) cq_update(&s->q, c, sl->cpu[c].clock);
            } else if (c >= 0 && rec) at_call(s, c, rec);
            else if (c >= 0) process_done(s, c);
            if (c != -1 || s->q.in_buckets > 0) continue;
        }
        int c = cq_pick(&s->q, s->prev);
        if (c < 0)
            diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "internal error: slice mode stalled with %d"
                       " processes left", sl->left);
        s->prev = c;
        if (sl->cpu[c].timer) at_timer(s, c);
        else run_cpu(s, c);
    }
    uint64_t m = 0;
    for (int c = 0; c < sl->p; c++)
        if (sl->cpu[c].clock > m) m = sl->cpu[c].clock;
    for (int c = 0; c < sl->p; c++) idle_until(&sl->cpu[c], m);
    s->phase.end_clock = m;
    s->phase.last = true;
    if (s->h.phase_end) s->h.phase_end(s->h.ctx, &s->phase);
    s->done = true;
}
