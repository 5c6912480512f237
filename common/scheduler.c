/* scheduler.c — thread-mode interleaving, phases and synchronisation (docs/scheduler.md §3–§10). */
#include "scheduler_internal.h"
#include "../base/diag.h"
#include "fast_paths.h"
#include "progress.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *sched_phase_kind_name(sched_phase_kind k)
{
    return k == PHASE_SERIAL ? "serial" : "parallel";
}

const char *sched_phase_cause_name(sched_phase_cause c)
{
    static const char *const names[] = { "start", "spawn", "join", "marker" };
    return names[c];
}

const char *sched_wait_name(sched_wait w)
{
    static const char *const names[] = { "none", "join", "barrier", "critical", "ordered", "io", "slice_end",
                                         "swapped", "acquire" };
    return names[w];
}


/* ---- thread state changes ---- */

static void stop(scheduler *s, int t, tstate st, sched_wait why)
{
    thread *x = &s->th[t];
    x->state = st;
    x->wait = why;
    cq_remove(&s->q, t);
    if (s->h.thread_stop) s->h.thread_stop(s->h.ctx, t, t, x->lane.clock, why);
}

/* Make t runnable at clock `to` (>= its clock); the gap is sync idle time. */
static void resume(scheduler *s, int t, uint64_t to)
{
    thread *x = &s->th[t];
    uint64_t idle = to - x->lane.clock;
    x->sync_idle += idle;
    x->lane.clock = to;
    x->state = T_RUNNABLE;
    x->wait = WAIT_NONE;
    cq_insert(&s->q, t, to);
    if (s->h.thread_resume) s->h.thread_resume(s->h.ctx, t, t, to, idle);
}

static bool in_phase(const scheduler *s, int t) { return t < s->phase.active; }

/* ---- phases ---- */

static uint64_t max_clock(const scheduler *s, int upto)
{
    uint64_t m = 0;
    for (int t = 0; t < upto; t++)
        if (s->th[t].lane.clock > m) m = s->th[t].lane.clock;
    return m;
}

void sched_snapshot(scheduler *s, int t)
{
    thread *x = &s->th[t];
    x->at_phase_start = (sched_counts){ x->lane.is.n, x->records, x->sync_idle, x->phase_end_idle, x->io_idle, x->stall };
}

static void begin_phase(scheduler *s, sched_phase_kind kind, sched_phase_cause by, int active)
{
    s->phase.number++;
    s->phase.last = false;
    s->phase.kind = kind;
    s->phase.by = by;
    s->phase.active = active;
    s->phase.start_clock = max_clock(s, active);
    s->phase.end_clock = s->phase.start_clock;
    for (int t = 0; t < s->n; t++) sched_snapshot(s, t);
    if (s->h.phase_begin) s->h.phase_begin(s->h.ctx, &s->phase);
    for (int t = 0; t < active; t++) {
        thread *x = &s->th[t];
        if (x->state != T_INACTIVE) continue;
        x->state = T_RUNNABLE;
        cq_insert(&s->q, t, x->lane.clock);
        if (s->h.thread_resume) s->h.thread_resume(s->h.ctx, t, t, x->lane.clock, 0);
    }
}

/* End the current phase; sync = set every clock to the largest (not at markers). */
static void end_phase(scheduler *s, bool sync)
{
    if (sync) {
        uint64_t m = max_clock(s, s->n);
        for (int t = 0; t < s->n; t++) {
            thread *x = &s->th[t];
            if (in_phase(s, t)) x->phase_end_idle += m - x->lane.clock;
            x->lane.clock = m;
            if (cq_contains(&s->q, t)) cq_update(&s->q, t, m);
        }
    }
    s->phase.end_clock = max_clock(s, s->phase.active);
    if (s->h.phase_end) s->h.phase_end(s->h.ctx, &s->phase);
}

/* Leave a parallel phase for a serial one (or finish when thread 0 is done). */
static void parallel_phase_over(scheduler *s)
{
    /* docs/scheduler.md §4: the analysis ends when a parallel phase ends with thread 0's
     * trace exhausted, also when its join was its last record. */
    s->phase.last = s->o.parallel_start || s->th[0].state == T_FINISHED ||
                    trace_reader_at_end(s->th[0].lane.r);
    end_phase(s, true);
    for (int t = 0; t < s->n; t++)
        if (s->th[t].state == T_JOINED) {
            s->th[t].state = T_INACTIVE;
            s->th[t].wait = WAIT_NONE;
        }
    if (s->phase.last) {
        s->done = true;
        return;
    }
    begin_phase(s, PHASE_SERIAL, PHASE_BY_JOIN, 1);
}

/* ---- synchronisation ---- */

static noreturn void data_error_at(scheduler *s, int t, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static noreturn void data_error_at(scheduler *s, int t, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    uint64_t idx = trace_reader_index(s->th[t].lane.r);
    diag_data_error(trace_reader_path(s->th[t].lane.r), idx * 8, "record %" PRIu64 ": %s", idx, msg);
}

/* Threads of the phase that have not reached their join or end of trace. */
static int live_threads(const scheduler *s)
{
    int live = 0;
    for (int t = 0; t < s->phase.active; t++)
        live += s->th[t].state != T_JOINED && s->th[t].state != T_FINISHED;
    return live;
}

static void barrier(scheduler *s, int t, uint32_t addr, uint32_t want)
{
    thread *x = &s->th[t];
    int live = live_threads(s);
    int need = want == 0 || want > (uint32_t)live ? live : (int)want;
    x->wait_key = addr;
    x->wait_index = trace_reader_index(x->lane.r);
    stop(s, t, T_BLOCKED, WAIT_BARRIER);
    int waiting = 0;
    uint64_t m = 0;
    for (int u = 0; u < s->n; u++) {
        thread *y = &s->th[u];
        if (y->state == T_BLOCKED && y->wait == WAIT_BARRIER && y->wait_key == addr) {
            waiting++;
            if (y->lane.clock > m) m = y->lane.clock;
        }
    }
    if (waiting < need) return;
    for (int u = 0; u < s->n; u++) {
        thread *y = &s->th[u];
        if (y->state == T_BLOCKED && y->wait == WAIT_BARRIER && y->wait_key == addr)
            resume(s, u, m);
    }
}

/* A section's key in the sync table: its holder and its releases
 * (critical and ordered sections are separate key spaces). */
static uint64_t lock_key(sched_wait space, uint32_t addr)
{
    return sync_key_of(space == WAIT_ORDERED ? SYNC_SPACE_ORDERED : SYNC_SPACE_CRITICAL, addr);
}

/* Begin of a section. Recorded synchronisation: seq > 0 also waits until
 * releases 1..seq of the lock are replayed (0 in simulated mode). */
static void lock_begin(scheduler *s, int t, sched_wait space, uint32_t addr, uint32_t seq, uint32_t kind,
                       bool wake)
{
    sync_key *l = sync_find(&s->sync, lock_key(space, addr), true);
    bool ready = !seq || sync_ready(l, seq);
    if (l->holder < 0 && ready) {
        l->holder = t;
        return;
    }
    thread *x = &s->th[t];
    x->wait_key = addr;
    x->wait_seq = seq;
    x->wait_kind = kind;
    x->wait_wake = wake;
    x->wait_index = trace_reader_index(x->lane.r);
    stop(s, t, T_BLOCKED, space);
}

static void sync_mark_release(scheduler *s, int t, sched_wait space, uint32_t addr, uint32_t seq,
                              uint32_t kind);

/* End of a section; seq > 0 or kind > 0 (recorded synchronisation): it is
 * release seq of the lock. */
static void lock_end(scheduler *s, int t, sched_wait space, uint32_t addr, uint32_t seq, uint32_t kind)
{
    sync_key *l = sync_find(&s->sync, lock_key(space, addr), false);
    if (!l || l->holder != t) {
        const char *what = space == WAIT_ORDERED ? "an ordered section" : "a critical section";
        char held[64];
        if (l && l->holder >= 0) snprintf(held, sizeof held, "held by thread %d", l->holder);
        else snprintf(held, sizeof held, "not held");
        if (!s->o.lenient)
            data_error_at(s, t, "thread %d ends %s on lock 0x%08x that it does not hold (%s)",
                          t, what, addr, held);
        uint64_t idx = trace_reader_index(s->th[t].lane.r);
        diag_lenient(DIAG_LENIENT_BAD_UNLOCK, trace_reader_path(s->th[t].lane.r), idx * 8, "record %" PRIu64
                     ": thread %d ends %s on lock 0x%08x that it does not hold (%s); ignored", idx, t, what,
                     addr, held);
        s->problems.bad_unlocks++;
        return;
    }
    bool numbered = seq || kind;
    if (numbered) {
        sync_mark_release(s, t, space, addr, seq, kind);
        l = sync_find(&s->sync, lock_key(space, addr), false);    /* the mark may grow the table */
    }
    /* Hand over to the waiter with the smallest clock (ties: lowest id);
     * recorded: among those whose releases are all replayed. */
    int next = -1;
    for (int u = 0; u < s->n; u++) {
        thread *y = &s->th[u];
        if (y->state == T_BLOCKED && y->wait == space && y->wait_key == addr &&
            (next < 0 || y->lane.clock < s->th[next].lane.clock) && (!y->wait_seq || sync_ready(numbered ? l : NULL, y->wait_seq)))
            next = u;
    }
    l->holder = next;
    if (next >= 0) {
        /* A section taken again after a condition wait keeps its clock: the
         * wake-up's acquire set it; the unlocks in between only order it. */
        uint64_t to = s->th[next].lane.clock > s->th[t].lane.clock || s->th[next].wait_wake ? s->th[next].lane.clock
                                                                                  : s->th[t].lane.clock;
        s->th[next].wait_wake = false;
        resume(s, next, to);
    }
}

noreturn void sched_record_error(scheduler *s, int t, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    data_error_at(s, t, "%s", msg);
}

noreturn void sched_clock_past_limit(const sched_lane *x, uint64_t step, const char *what, const char *unit,
                                     const char *hint)
{
    data_error_at(x->s, x->t, "%s of %" PRIu64 " %s at clock %" PRIu64 " would take the pseudo clock past its"
                  " limit of 2^51 = %" PRIu64 " (%s)", what, step, unit, x->clock, SCHED_CLOCK_LIMIT, hint);
}

/* ---- recorded synchronisation (docs/scheduler.md §6.1) ---- */

/* "0x00007000 (semaphore; releases 1..3 replayed)", "critical lock
 * 0x00009000 (mutex; release 1 replayed)": a key, its kind and its releases. */
static void key_text(char *buf, size_t n, sched_wait space, uint32_t addr, uint32_t kind, const sync_key *k)
{
    char done[80], kname[32];
    sync_done_text(k, done, sizeof done);
    const char *name = smait_sync_kind_name(kind);
    if (!name) snprintf(kname, sizeof kname, "kind %u; ", kind);
    else if (kind) snprintf(kname, sizeof kname, "%s; ", name);
    else kname[0] = '\0';
    snprintf(buf, n, "%s0x%08x (%s%s)", space == WAIT_CRITICAL ? "critical lock " : space == WAIT_ORDERED ?
             "ordered lock " : "", addr, kname, done);
}

typedef struct dup_ctx {
    scheduler *s;
    sched_wait space;
    uint32_t addr, kind;
    const sync_key *k;
} dup_ctx;

/* A release number replayed a second time: inconsistent traces (--lenient:
 * a warning, counted with the bad unlocks, and the release is ignored). */
static void on_dup_release(void *ctx, const sync_release *again)
{
    dup_ctx *d = ctx;
    char what[192];
    key_text(what, sizeof what, d->space, d->addr, d->kind, d->k);
    const char *path = trace_reader_path(d->s->th[again->thread].lane.r);
    if (!d->s->o.lenient)
        diag_data_error(path, again->index * 8, "record %" PRIu64 ": thread %d replays release %u of %s,"
                        " which is replayed already", again->index, again->thread, again->seq, what);
    diag_lenient(DIAG_LENIENT_DUP_RELEASE, path, again->index * 8, "record %" PRIu64 ": thread %d replays"
                 " release %u of %s, which is replayed already; ignored", again->index, again->thread,
                 again->seq, what);
    d->s->problems.bad_unlocks++;
}

/* Release seq of a key (a section's end, or a release record) is replayed by t. */
static void sync_mark_release(scheduler *s, int t, sched_wait space, uint32_t addr, uint32_t seq, uint32_t kind)
{
    uint64_t key = space == WAIT_ACQUIRE ? sync_key_of(SYNC_SPACE_OBJECT, addr) : lock_key(space, addr);
    sync_key *k = sync_find(&s->sync, key, true);
    dup_ctx d = { s, space, addr, kind, k };
    sync_mark(k, seq, t, trace_reader_index(s->th[t].lane.r), on_dup_release, &d);
}

/* acquire: t goes on when releases 1..seq of obj are replayed, else it waits. */
static void recorded_acquire(scheduler *s, int t, uint32_t obj, uint32_t seq, uint32_t kind)
{
    uint64_t key = sync_key_of(SYNC_SPACE_OBJECT, obj);
    if (sync_ready(sync_find(&s->sync, key, false), seq)) return;
    sync_find(&s->sync, key, true)->waiting++;
    thread *x = &s->th[t];
    x->wait_key = obj;
    x->wait_seq = seq;
    x->wait_kind = kind;
    x->wait_index = trace_reader_index(x->lane.r);
    stop(s, t, T_BLOCKED, WAIT_ACQUIRE);
}

/* release: mark it, and wake every thread whose acquire it completes (lowest
 * id first), at the releaser's clock if that is later (sync idle). */
static void recorded_release(scheduler *s, int t, uint32_t obj, uint32_t seq, uint32_t kind)
{
    if (!seq && !kind) return;                  /* no release number */
    sync_mark_release(s, t, WAIT_ACQUIRE, obj, seq, kind);
    sync_key *k = sync_find(&s->sync, sync_key_of(SYNC_SPACE_OBJECT, obj), false);
    uint64_t c = s->th[t].lane.clock;
    for (int u = 0; u < s->n && k->waiting; u++) {
        thread *y = &s->th[u];
        if (y->state == T_BLOCKED && y->wait == WAIT_ACQUIRE && y->wait_key == obj &&
            sync_ready(k, y->wait_seq)) {
            k->waiting--;
            resume(s, u, y->lane.clock > c ? y->lane.clock : c);
        }
    }
}

/* The recorded edge a blocked thread waits for ("release 5 of 0x00007000
 * (semaphore; releases 1..3 replayed)"); false when it waits for something
 * else (a barrier, a lock held by a thread, a join). */
static bool sync_wait_text(scheduler *s, const thread *x, char *buf, size_t n)
{
    if (x->state != T_BLOCKED || !x->wait_seq) return false;
    uint64_t key;
    if (x->wait == WAIT_ACQUIRE) key = sync_key_of(SYNC_SPACE_OBJECT, x->wait_key);
    else if (x->wait == WAIT_CRITICAL || x->wait == WAIT_ORDERED) key = lock_key(x->wait, x->wait_key);
    else return false;
    const sync_key *k = sync_find(&s->sync, key, false);
    if (sync_ready(k, x->wait_seq)) return false;
    char what[192];
    key_text(what, sizeof what, x->wait, x->wait_key, x->wait_kind, k);
    snprintf(buf, n, "release %u of %s", x->wait_seq, what);
    return true;
}

/* --lenient, deadlock: t stops waiting for recorded releases; they count as
 * replayed, and a section's begin takes its lock if it is free (else it goes
 * on without it, as a lock waiter does). */
static void sync_give_up(scheduler *s, int t)
{
    thread *x = &s->th[t];
    if (!x->wait_seq) return;
    if (x->wait == WAIT_ACQUIRE) {
        sync_key *k = sync_find(&s->sync, sync_key_of(SYNC_SPACE_OBJECT, x->wait_key), true);
        k->waiting--;
        sync_force(k, x->wait_seq);
    } else if (x->wait == WAIT_CRITICAL || x->wait == WAIT_ORDERED) {
        sync_key *l = sync_find(&s->sync, lock_key(x->wait, x->wait_key), true);
        sync_force(l, x->wait_seq);
        if (l->holder < 0) l->holder = t;
    }
    x->wait_seq = 0;
}

/* Unmodelled records: counted per cause and thread (in both modes). */
static void count_unmodelled(scheduler *s, int t, const smait_raw *rec)
{
    uint32_t what = rec[SMAIT_CALL_ARG1].f2, count = rec[SMAIT_CALL_ARG1 + 1].f2;
    if (!s->unmodelled) s->unmodelled = xcalloc((size_t)SMAIT_UM_COUNT * (size_t)s->n, sizeof *s->unmodelled);
    unsigned cause = what < SMAIT_UM_COUNT ? what : 0;
    s->unmodelled[(size_t)cause * (size_t)s->n + (size_t)t] += count;
}

uint64_t sched_call_hook(scheduler *s, int t, const smait_raw *rec)
{
    thread *x = &s->th[t];
    if (smait_call_type(rec->f1) == SMAIT_CT_UNMODELLED) count_unmodelled(s, t, rec);
    if (smait_call_type(rec->f1) == SMAIT_CT_TRACING) tc_note(&s->cond, t, rec);
    uint64_t delay = s->h.call ? s->h.call(s->h.ctx, t, x->lane.cpu, x->lane.clock, rec) : 0;
    /* Both modes wait from x->clock (slice mode: the processor's clock). */
    if (delay > SCHED_CLOCK_LIMIT || x->lane.clock > SCHED_CLOCK_LIMIT - delay)
        sched_clock_past_limit(&x->lane, delay, "the disk wait", "cycles",
                               "a smaller -disk_latency, -mhz or -ipc or a larger -dma_bw shortens the waits");
    x->io_idle += delay;
    return delay;
}

void sched_stall(scheduler *s, int t, uint64_t cycles)
{
    thread *x = &s->th[t];
    if (cycles > SCHED_CLOCK_LIMIT || x->lane.clock > SCHED_CLOCK_LIMIT - cycles)
        sched_clock_past_limit(&x->lane, cycles, "a stall", "cycles",
                               "smaller [timing] latencies or a shorter trace keep it below");
    x->lane.clock += cycles;
    x->stall += cycles;
}

/* A synchronous disk read: t waits `delay` cycles while the others go on. */
static void wait_io(scheduler *s, int t, uint64_t delay)
{
    thread *x = &s->th[t];
    if (s->h.thread_stop) s->h.thread_stop(s->h.ctx, t, t, x->lane.clock, WAIT_IO);
    x->lane.clock += delay;
    cq_update(&s->q, t, x->lane.clock);
    if (s->h.thread_resume) s->h.thread_resume(s->h.ctx, t, t, x->lane.clock, delay);
}

static void handle_call(scheduler *s, int t, const smait_raw *rec)
{
    thread *x = &s->th[t];
    uint64_t delay = sched_call_hook(s, t, rec);
    if (delay) wait_io(s, t, delay);
    uint32_t arg1 = rec[SMAIT_CALL_ARG1].f2, arg2 = rec[SMAIT_CALL_ARG1 + 1].f2;
    /* Recorded synchronisation: seq and kind; 0 in simulated mode, and for a
     * plain lock's sections with --sync=handovers (§6.2: §6 alone applies). */
    unsigned type = smait_call_type(rec->f1);
    bool section = type == SMAIT_CT_BEGIN_CRITICAL || type == SMAIT_CT_END_CRITICAL;
    bool numbered = s->recorded && !(s->handovers && section && lock_classes_plain(&s->locks, arg1));
    uint32_t seq = numbered ? arg2 : 0, kind = numbered ? rec[SMAIT_CALL_ARG1 + 2].f2 : 0;
    bool wake = numbered && (rec[SMAIT_CALL_ARG1 + 3].f2 & SMAIT_SECTION_WAKE);
    switch (type) {
    case SMAIT_CT_SPAWN:
        /* Only thread 0 in a serial phase starts a region; a worker's spawn
         * (its first record in the region) and nested spawns have no effect. */
        if (t == 0 && s->phase.kind == PHASE_SERIAL && !s->o.parallel_start) {
            int n = arg2 == 0 || arg2 > (uint32_t)s->n ? s->n : (int)arg2;
            end_phase(s, true);
            begin_phase(s, PHASE_PARALLEL, PHASE_BY_SPAWN, n);
        }
        break;
    case SMAIT_CT_JOIN:
        if (s->phase.kind == PHASE_PARALLEL && !s->o.parallel_start) {
            x->wait_index = trace_reader_index(x->lane.r);
            stop(s, t, T_JOINED, WAIT_JOIN);
        }
        break;
    case SMAIT_CT_BARRIER: barrier(s, t, arg1, arg2); break;
    case SMAIT_CT_BEGIN_CRITICAL:
        if (numbered) tc_lock(&s->cond);            /* a lock taken in the order the tracing machine gave */
        lock_begin(s, t, WAIT_CRITICAL, arg1, seq, kind, wake);
        break;
    case SMAIT_CT_END_CRITICAL: lock_end(s, t, WAIT_CRITICAL, arg1, seq, kind); break;
    case SMAIT_CT_BEGIN_ORDER: lock_begin(s, t, WAIT_ORDERED, arg1, seq, kind, wake); break;
    case SMAIT_CT_END_ORDER: lock_end(s, t, WAIT_ORDERED, arg1, seq, kind); break;
    case SMAIT_CT_ACQUIRE: if (s->recorded) recorded_acquire(s, t, arg1, seq, kind); break;
    case SMAIT_CT_RELEASE: if (s->recorded) recorded_release(s, t, arg1, seq, kind); break;
    case SMAIT_CT_MARKER:
        if (t == 0) {
            end_phase(s, false);
            begin_phase(s, s->phase.kind, PHASE_BY_MARKER, s->phase.active);
        }
        break;
    default:
        break;
    }
}

/* The end of thread t's trace: a join in a parallel phase; the end of the
 * analysis for thread 0 in a serial phase. */
static void end_of_trace(scheduler *s, int t)
{
    s->th[t].wait_index = trace_reader_index(s->th[t].lane.r);
    stop(s, t, T_FINISHED, WAIT_NONE);
}

/* Run thread t's records while its clock is below limit (at least one); a
 * call record ends the run: it may block, release or re-phase threads.
 * Returns the records processed. */
static inline uint64_t run_thread_until(scheduler *s, int t, uint64_t limit)
{
    thread *x = &s->th[t];
    const uint64_t start = x->lane.clock;
    const smait_raw *rec;
    uint64_t done = sched_looks_ahead(s) ? run_records(s, x, limit, &rec, true)
                                         : run_records(s, x, limit, &rec, false);
    bool stop = !rec || sched_is_call(rec);
    done += rec && stop;            /* the call record counts as one */
    x->records += done;
    if (x->lane.clock != start) cq_update(&s->q, t, x->lane.clock);
    if (rec && stop) handle_call(s, t, rec);
    else if (stop) end_of_trace(s, t);
    return done;
}

/* Run thread t, picked by the scheduling rule. It stays the pick while its
 * clock is below every other runnable thread's (on a tie the cyclic rule puts
 * it last), so it runs records up to that limit without queue work. */
static uint64_t run_thread(scheduler *s, int t) { return run_thread_until(s, t, cq_min_other(&s->q, t)); }

/* The loops' run of thread t stopped at call record rec or, with rec NULL,
 * at the end of its trace, the queue exact again: the call is processed (it
 * counts as one record: returns the records to add). */
static uint64_t run_stopped(scheduler *s, thread *x, int t, const smait_raw *rec)
{
    s->prev = t;
    if (!rec) {
        end_of_trace(s, t);
        return 0;
    }
    x->records++;
    handle_call(s, t, rec);
    return 1;
}

/* The queue when rounds end: the set's n threads sorted[] are in the level
 * at base (cq_level_jump left their queued clocks as they were), then
 * mv[0..nmv) of them went on to their clocks, in that order. */
static void round_flush(scheduler *s, const int *sorted, int n, const int *mv, int nmv)
{
    cq_level_clocks(&s->q, sorted, n);
    for (int i = 0; i < nmv; i++) cq_update(&s->q, mv[i], s->th[mv[i]].lane.clock);
}

/* Lockstep rounds, when every queued thread is tied at base (the usual state
 * of code that runs the same loop in every thread). The rule then goes
 * through the tied threads in cyclic order after prev, one record each: a
 * thread whose record leaves its clock at base stays tied and comes again
 * after the others (it is then the previous thread), one whose clock moved
 * leaves the level, and the last one left, alone at base, runs up to the
 * smallest clock of the others. Taking the threads in cyclic order (a window
 * of the set listed twice) and then those that stayed, first in first out,
 * does exactly that. When all end the round at one clock, that clock's level
 * is the same set, in cyclic order after the thread that ran last: the next
 * round, without the queue. So the queue is written once per round (the set
 * moves to the new clock; the threads' queued clocks when the rounds end),
 * not once per record. Clocks that differ after a round write the moves made
 * (in the order made) into the queue, which is then exact, and hand back to
 * run_levels' loop with prev the thread run last. Returns false when a call
 * record or the end of a trace stopped a thread, handled here as run_levels
 * handles it (the caller returns). */
static inline __attribute__((always_inline)) bool
run_rounds(scheduler *s, const int words, uint64_t *done, int *prev, const bool look)
{
    clock_queue *q = &s->q;
    int *twice = s->round_sorted, *stayed = s->round_stayed, *mv = s->round_moved;
    uint64_t *set = s->round_set;
    const uint64_t *level = cq_bucket(q, q->base);
    int n = 0, start = 0;       /* the set in thread order; where the cyclic order starts */
    for (int w = 0; w < words; w++) {
        set[w] = level[w];
        for (uint64_t m = set[w]; m; m &= m - 1) {
            int t = (w << 6) + __builtin_ctzll(m);
            if (t <= *prev) start = n + 1;
            twice[n++] = t;
        }
    }
    for (int i = 0; i < n; i++) twice[n + i] = twice[i];
    if (start == n) start = 0;
    const smait_raw *rec;
    int t, nmv;
    thread *x;
    for (;;) {
        const uint64_t base = q->base;
        uint64_t lo = UINT64_MAX, hi = 0;
        /* Next: twice[start + next] while next < n, then stayed[] from head. */
        int next = 0, head = 0, nstayed = 0, left = n, at;
        nmv = 0;
        while (left > 1) {
            if (next < n) {
                at = start + next++;
            } else {
                at = stayed[head];
                head = head + 1 == n ? 0 : head + 1;
                nstayed--;
            }
            left--;
            t = twice[at];
            x = &s->th[t];
            *prev = t;
            rec = trace_reader_next(x->lane.r);
            if (!rec || sched_is_call(rec)) goto stopped;
            if (look) sched_look_ahead(&s->h, &x->lane);
            exec_record_with(&s->h, &x->lane, rec);
            if (words > 1) trace_reader_prefetch(x->lane.r, 128);
            x->records++;
            (*done)++;
            if (x->lane.clock == base) {     /* still tied: after the others */
                int tail = head + nstayed;
                stayed[tail >= n ? tail - n : tail] = at;
                nstayed++;
                left++;
                continue;
            }
            mv[nmv++] = t;
            lo = x->lane.clock < lo ? x->lane.clock : lo;
            hi = x->lane.clock > hi ? x->lane.clock : hi;
        }
        /* The last one, alone at base: up to the others' smallest clock. */
        at = next < n ? start + next : stayed[head];
        t = twice[at];
        x = &s->th[t];
        *prev = t;
        uint64_t k = run_records(s, x, lo, &rec, look);
        if (words > 1) trace_reader_prefetch(x->lane.r, 128);
        x->records += k;
        *done += k;
        if (x->lane.clock != base) mv[nmv++] = t;
        if (!rec || sched_is_call(rec)) goto stopped;
        if (x->lane.clock != lo || hi != lo) {   /* apart: the queue takes over */
            round_flush(s, twice, n, mv, nmv);
            return true;
        }
        /* All at clock lo: its level is the same set, next after t. */
        cq_level_jump(q, set, words, lo);
        start = at + 1 >= n ? at + 1 - n : at + 1;
    }
stopped:
    /* A call record or the end of thread t's trace: as run_levels. */
    round_flush(s, twice, n, mv, nmv);
    *done += run_stopped(s, x, t, rec);
    return false;
}

/* Scheduling loop with the queue's hot state in registers; the same rule as
 * cq_pick + run_thread: while threads tie at the smallest clock, each pick
 * runs exactly one record; a thread alone at the smallest clock runs until it
 * reaches the next one. The level's word holding the threads being gone
 * through is in a register (the whole level for at most 64 threads: words is
 * then the constant 1), with a count of the tied threads. Returns after a call
 * record or the end of a trace (either may change any thread's state), or
 * when the general path is needed (heap traffic). */
static inline __attribute__((always_inline)) uint64_t run_levels(scheduler *s, const int words, const bool look)
{
    clock_queue *q = &s->q;
    uint64_t done = 0;
    int prev = s->prev;
    while (q->in_buckets > 0) {
        const uint64_t base = q->base;
        uint64_t *level = cq_bucket(q, base);
        uint64_t tied = level[0];
        int w = 0, ntied = 0;       /* ntied: several words only (one word: tied says it) */
        if (words > 1)
            for (int i = 0; i < words; i++) ntied += __builtin_popcountll(level[i]);
        if (words == 1 ? !tied : !ntied) {      /* this clock is done: on to the next */
            if (!cq_level_next(q)) break;
            continue;
        }
        if (!q->heap_len && (words == 1 ? (tied & (tied - 1)) && __builtin_popcountll(tied) == q->in_buckets
                                        : ntied > 1 && ntied == q->in_buckets)) {
            if (!run_rounds(s, words, &done, &prev, look)) return done;
            continue;                   /* the queue is exact: from the top */
        }
        /* The threads at this clock, in registers until the level is done. */
        while (words == 1 ? tied != 0 : ntied != 0) {
            int t;
            if (words == 1) {
                t = cq_first_after(tied, prev);
            } else {
                t = cq_level_first(q, level, w, tied, prev);
                if (t >> 6 != w) {  /* on to the word holding t */
                    level[w] = tied;
                    w = t >> 6;
                    tied = level[w];
                }
            }
            thread *x = &s->th[t];
            /* Tied: exactly one record. Alone: up to the next thread's clock. */
            uint64_t limit = base;
            if (words == 1 ? tied == 1ull << t : ntied == 1) {
                level[w] = tied;
                limit = cq_level_alone_limit(q);
            }
            prev = t;
            const smait_raw *rec;
            uint64_t n = run_records(s, x, limit, &rec, look);
            /* Its records two lines on: in lockstep a thread's turn comes
             * back after every other tied thread has had one, and beyond 64
             * streams the hardware prefetchers lose track (below that the
             * hint costs more than it saves: bench/README.md E2). */
            if (words > 1) trace_reader_prefetch(x->lane.r, 128);
            x->records += n;
            done += n;
            if (x->lane.clock != base) {
                cq_level_move(q, &level[w], &tied, t, x->lane.clock);
                ntied--;
            }
            if (!rec || sched_is_call(rec)) {
                /* The queue must be exact for what follows: it may change any thread. */
                if (words == 1) cq_level_close(q, level, tied);
                else cq_level_close_words(q, level, w, tied);
                return done + run_stopped(s, x, t, rec);
            }
        }
        if (words == 1) cq_level_close(q, level, 0);
        else cq_level_close_words(q, level, w, 0);
    }
    s->prev = prev;
    return done;
}

static uint64_t run_fast(scheduler *s)
{
    if (sched_looks_ahead(s)) return s->q.words == 1 ? run_levels(s, 1, true) : run_levels(s, s->q.words, true);
    return s->q.words == 1 ? run_levels(s, 1, false) : run_levels(s, s->q.words, false);
}

/* A message that grows as it is written: one line per blocked thread, each
 * with a trace path of any length. */
typedef struct strbuf {
    char *text;
    size_t len, cap;
} strbuf;

static void sb_printf(strbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "internal error: cannot format a message");
    size_t need = b->len + (size_t)n + 1;
    if (need > b->cap) b->cap = xgrow((void **)&b->text, b->cap, need, 1);
    va_start(ap, fmt);
    vsnprintf(b->text + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

/* No thread can run: the phase is over, the analysis is over, or the traces
 * are inconsistent. */
static void nothing_runnable(scheduler *s)
{
    bool blocked = false;
    for (int t = 0; t < s->n; t++)
        blocked |= s->th[t].state == T_BLOCKED;
    if (!blocked) {
        if (s->phase.kind == PHASE_PARALLEL) parallel_phase_over(s);
        else {
            s->phase.last = true;
            end_phase(s, true);
            s->done = true;
        }
        return;
    }
    if (!s->o.lenient) {
        strbuf msg = { 0 };
        sb_printf(&msg, "inconsistent traces: no thread can run (deadlock) in phase %d; blocked threads:",
                  s->phase.number);
        for (int t = 0; t < s->n; t++) {
            thread *x = &s->th[t];
            if (x->state != T_BLOCKED && x->state != T_JOINED) continue;
            const char *what = sched_wait_name(x->wait);
            char edge[256];
            if (sync_wait_text(s, x, edge, sizeof edge)) what = edge;   /* a recorded release */
            sb_printf(&msg, "\n  thread %d (%s) waits for %s", t, trace_reader_path(x->lane.r), what);
            if (x->wait == WAIT_BARRIER) sb_printf(&msg, " 0x%08x", x->wait_key);
            if ((x->wait == WAIT_CRITICAL || x->wait == WAIT_ORDERED) && what != edge) {
                const sync_key *l = sync_find(&s->sync, lock_key(x->wait, x->wait_key), false);
                sb_printf(&msg, " lock 0x%08x held by thread %d", x->wait_key, l ? l->holder : -1);
            }
            sb_printf(&msg, " at record %" PRIu64 ", clock %" PRIu64, x->wait_index, x->lane.clock);
        }
        diag_data_error(NULL, DIAG_NO_OFFSET, "%s", msg.text);
    }
    /* --lenient: release every blocked thread (barrier waiters at the largest
     * clock of their barrier; lock waiters without the lock) and go on. */
    if (!s->o.quiet)
        diag_lenient(DIAG_LENIENT_DEADLOCK, NULL, DIAG_NO_OFFSET, "inconsistent traces: deadlock in phase %d;"
                     " blocked threads released", s->phase.number);
    s->problems.deadlocks++;
    /* Every target first: resuming a thread takes it out of its barrier's
     * group, so the group's largest clock must be known before anyone goes. */
    uint64_t *to = xmalloc((size_t)s->n * sizeof *to);
    for (int t = 0; t < s->n; t++) {
        thread *x = &s->th[t];
        to[t] = x->lane.clock;
        if (x->state != T_BLOCKED || x->wait != WAIT_BARRIER) continue;
        for (int u = 0; u < s->n; u++)
            if (s->th[u].state == T_BLOCKED && s->th[u].wait == WAIT_BARRIER &&
                s->th[u].wait_key == x->wait_key && s->th[u].lane.clock > to[t])
                to[t] = s->th[u].lane.clock;
    }
    for (int t = 0; t < s->n; t++)
        if (s->th[t].state == T_BLOCKED) {
            sync_give_up(s, t);
            resume(s, t, to[t]);
        }
    free(to);
}

/* ---- public ---- */

/* --sync: recorded when asked, or by default when trace 0 begins with
 * start_trace sync=1; never in slice mode (its time stamps order the slices). */
static void decide_sync(scheduler *s)
{
    const smait_raw *first = s->n > 0 ? trace_reader_peek(s->th[0].lane.r) : NULL;
    s->traces_sync = first && sched_is_call(first) && smait_call_type(first->f1) == SMAIT_CT_START_TRACE &&
                     (first[SMAIT_CALL_ARG1].f2 & SMAIT_START_SYNC);
    bool asked = s->o.sync == SCHED_SYNC_RECORDED || s->o.sync == SCHED_SYNC_HANDOVERS;
    if (asked && !s->traces_sync)
        diag_data_error(trace_reader_path(s->th[0].lane.r), DIAG_NO_OFFSET, "--sync=%s, but the traces do"
                        " not record their synchronisation (trace 0 does not begin with start_trace sync=1)",
                        s->o.sync == SCHED_SYNC_RECORDED ? "recorded" : "handovers");
    s->recorded = s->o.slice_cpus <= 0 && (asked || (s->o.sync == SCHED_SYNC_AUTO && s->traces_sync));
    s->handovers = s->recorded && s->o.sync == SCHED_SYNC_HANDOVERS;
    if (s->handovers) {
        trace_reader_opts ro = { .order = s->o.order, .lenient = s->o.lenient };
        lock_classes_scan(&s->locks, s->set, &ro);
        snprintf(s->handovers_text, sizeof s->handovers_text, "handovers (plain locks by the pseudo clock: %"
                 PRIu64 " of %" PRIu64 ")", s->locks.plain_locks, s->locks.locks);
    }
}

scheduler *sched_create(const trace_set *set, trace_reader **readers,
                        const sched_options *opts, const sched_hooks *hooks)
{
    scheduler *s = xcalloc_lines(1, sizeof *s);
    s->set = set;
    s->n = set->count;
    s->th = xcalloc_lines((size_t)s->n, sizeof *s->th);
    for (int t = 0; t < s->n; t++) {
        s->th[t].lane = (sched_lane){ .r = readers[t], .cpu = t, .t = t, .s = s };
        istream_init(&s->th[t].lane.is);
    }
    cq_init(&s->q, s->n);
    s->round_sorted = xcalloc_lines(4 * (size_t)s->n, sizeof *s->round_sorted);
    s->round_stayed = s->round_sorted + 2 * (size_t)s->n;
    s->round_moved = s->round_stayed + s->n;
    s->round_set = xcalloc_lines((size_t)s->q.words, sizeof *s->round_set);
    if (opts) s->o = *opts;
    else s->o.gap_limit = ISTREAM_DEFAULT_GAP_LIMIT;
    for (int t = 0; t < s->n; t++) s->th[t].lane.gap_limit = s->o.gap_limit;
    if (hooks) s->h = *hooks;
    if (!FAST_PATHS) s->h.hint = (sched_hints){ 0 };    /* a build taking the general paths: no hints */
    s->prev = -1;
    s->readers = readers;
    decide_sync(s);
    tc_init(&s->cond, s->n);
    if (s->o.slice_cpus > 0) slice_create(s);
    return s;
}

void sched_free(scheduler *s)
{
    if (!s) return;
    slice_free(s);
    cq_free(&s->q);
    free(s->th);
    sync_table_free(&s->sync);
    free(s->unmodelled);
    tc_free(&s->cond);
    lock_classes_free(&s->locks);
    free(s->round_sorted);
    free(s->round_set);
    progress_free(s->progress);
    free(s);
}

/* Count what the analysis left unread, and warn about it. */
static void count_unprocessed(scheduler *s)
{
    uint64_t total = 0;
    for (int t = 0; t < s->n; t++) {
        uint64_t n = 0;
        const smait_raw *p, *end;
        while ((p = trace_reader_next_run(s->th[t].lane.r, &end)) != NULL)
            for (; p < end; p += smait_record_span(p->f1)) n++;
        if (n)
            diag_warn(trace_reader_path(s->th[t].lane.r), DIAG_NO_OFFSET, "%" PRIu64 " records never"
                      " processed (the analysis ended before thread %d's trace did)", n, t);
        total += n;
    }
    s->problems.unprocessed = total;
}

/* One warning per cause of unmodelled synchronisation, and the tracing
 * machine's time-slicing (tracing_conditions.h). */
static void warn_unmodelled(scheduler *s)
{
    char text[1024];
    for (unsigned c = 1; c <= SMAIT_UM_COUNT; c++)     /* the unnamed causes (0) last */
        if (sched_unmodelled_warning(s, c % SMAIT_UM_COUNT, text, sizeof text))
            diag_warn(NULL, DIAG_NO_OFFSET, "%s", text);
    if (sched_tracing_warning(s, text, sizeof text)) diag_warn(NULL, DIAG_NO_OFFSET, "%s", text);
}

static void run_threads(scheduler *s);

/* The run, then what it left unread, the unmodelled synchronisation and the
 * --lenient summary (diag.h): the last words on standard error. */
void sched_run(scheduler *s)
{
    if (s->o.progress) s->progress = progress_start(s->readers, s->n);
    if (s->slice) slice_run(s);
    else run_threads(s);
    if (s->progress) progress_done(s->progress);
    if (s->o.quiet) return;
    count_unprocessed(s);
    warn_unmodelled(s);
    diag_lenient_summary();
}

/* The runnable thread whose turn comes after t's (t < 0: from thread 0), in
 * thread order, cyclically; t itself last. -1 when none is runnable. */
static int next_turn(const scheduler *s, int t)
{
    for (int k = 1; k <= s->n; k++) {
        int u = t < 0 ? k - 1 : (t + k) % s->n;
        if (s->th[u].state == T_RUNNABLE) return u;
    }
    return -1;
}

/* --turns (docs/scheduler.md §14): one processor, whose clock is cpu. The
 * thread whose turn it is runs until its clock has gone on by the turn's
 * length, or a call stops it (blocked, joined, finished); then the next
 * runnable thread in thread order takes a turn, its clock raised to the
 * processor's (the wait is sync idle). A call that does not stop it (a
 * spawn, a marker, a release, the last arrival at a barrier) leaves its
 * turn running. Every clock stays at or below the processor's, so the
 * usual rules (a hand-over to the waiter with the smallest clock, a barrier
 * released at the largest) go by the one processor's time. */
static void run_turns(scheduler *s)
{
    const uint64_t len = s->o.turn_length;
    uint64_t steps = 0, end = 0, cpu = 0;
    int t = -1;
    while (!s->done) {
        if (t < 0 || s->th[t].state != T_RUNNABLE || s->th[t].lane.clock >= end) {
            int u = next_turn(s, t);
            if (u < 0) {
                nothing_runnable(s);
                continue;
            }
            t = u;
            thread *y = &s->th[t];
            if (y->lane.clock < cpu) {          /* it waited for the processor */
                y->sync_idle += cpu - y->lane.clock;
                y->lane.clock = cpu;
                cq_update(&s->q, t, cpu);
            }
            end = cpu > UINT64_MAX - len ? UINT64_MAX : cpu + len;
        }
        const uint64_t before = steps;
        steps += run_thread_until(s, t, end);
        if (s->th[t].lane.clock > cpu) cpu = s->th[t].lane.clock;
        if (s->progress && (steps >> 20) != (before >> 20)) progress_tick(s->progress, steps);
    }
}

static void run_threads(scheduler *s)
{
    if (s->o.parallel_start) begin_phase(s, PHASE_PARALLEL, PHASE_BY_START, s->n);
    else begin_phase(s, PHASE_SERIAL, PHASE_BY_START, 1);
    if (s->o.turn_length) {
        run_turns(s);
        return;
    }
    uint64_t steps = 0;
    while (!s->done) {
        uint64_t before = steps;
        if (s->q.in_buckets > 0) {
            steps += run_fast(s);
            if (s->progress && (steps >> 20) != (before >> 20)) progress_tick(s->progress, steps);
            if (s->q.in_buckets > 0) continue;
        }
        int t = cq_pick(&s->q, s->prev);
        if (t < 0) {
            nothing_runnable(s);
            continue;
        }
        steps += run_thread(s, t);
        s->prev = t;
        if (s->progress && (steps >> 20) != (before >> 20)) progress_tick(s->progress, steps);
    }
}

/* Sums over any number of threads: saturated at 2^64 - 1 rather than wrapped
 * (each term is below 2^52, SCHED_CLOCK_LIMIT, so only sums over more than
 * 4096 threads can get there). */
static void add_sat(uint64_t *into, uint64_t v) { *into = v > UINT64_MAX - *into ? UINT64_MAX : *into + v; }

void sched_counts_add(sched_counts *into, const sched_counts *from)
{
    add_sat(&into->is.executed, from->is.executed);
    add_sat(&into->is.fetched, from->is.fetched);
    add_sat(&into->is.branches, from->is.branches);
    add_sat(&into->is.calls, from->is.calls);
    add_sat(&into->is.instrumented, from->is.instrumented);
    add_sat(&into->is.discontinuities, from->is.discontinuities);
    add_sat(&into->records, from->records);
    add_sat(&into->sync_idle, from->sync_idle);
    add_sat(&into->phase_end_idle, from->phase_end_idle);
    add_sat(&into->io_idle, from->io_idle);
    add_sat(&into->stall, from->stall);
}

int sched_threads(const scheduler *s) { return s->n; }
int sched_cpus(const scheduler *s) { return s->slice ? s->o.slice_cpus : 0; }
sched_cpu_counts sched_cpu_counts_of(const scheduler *s, int cpu) { return slice_cpu_counts(s, cpu); }
uint64_t sched_clock(const scheduler *s, int thread) { return s->th[thread].lane.clock; }
sched_problems sched_problem_counts(const scheduler *s) { return s->problems; }
int sched_phase_count(const scheduler *s) { return s->phase.number; }
bool sched_traces_record_sync(const scheduler *s) { return s->traces_sync; }

const char *sched_tracing_summary(const scheduler *s, char *buf, size_t n) { return tc_summary(&s->cond, buf, n); }

const char *sched_tracing_warning(const scheduler *s, char *buf, size_t n)
{
    return tc_warning(&s->cond, s->recorded, buf, n);
}

const char *sched_sync_mode(const scheduler *s)
{
    if (s->handovers) return s->handovers_text;
    if (s->recorded) return "recorded";
    if (s->o.sync == SCHED_SYNC_SIMULATED) return "simulated (--sync=simulated)";
    if (s->traces_sync) return "simulated (slice mode: recorded synchronisation is not replayed)";
    return "simulated (the traces do not record their synchronisation)";
}

uint64_t sched_unmodelled(const scheduler *s, unsigned cause, int thread)
{
    if (!s->unmodelled || cause >= SMAIT_UM_COUNT) return 0;
    const uint64_t *row = s->unmodelled + (size_t)cause * (size_t)s->n;
    if (thread >= 0) return row[thread];
    uint64_t sum = 0;
    for (int t = 0; t < s->n; t++) sum += row[t];
    return sum;
}

const char *sched_unmodelled_warning(const scheduler *s, unsigned cause, char *buf, size_t n)
{
    static const char *const what[SMAIT_UM_COUNT] = {
        [0] = "unmodelled records of causes the format does not name",
        [SMAIT_UM_FUTEX] = "raw futex system calls",
        [SMAIT_UM_TIMEOUT] = "timed waits that timed out",
        [SMAIT_UM_FENCE] = "acquire fences after relaxed reads the collector could not note",
        [SMAIT_UM_ORDERING] = "atomic operations with an ordering that is not recorded",
        [SMAIT_UM_UNTRACED] = "synchronisation with threads that have no trace",
        [SMAIT_UM_OMP] = "OpenMP constructs that are not recorded",
        [SMAIT_UM_OTHER] = "other synchronisation that is not recorded",
    };
    uint64_t total = sched_unmodelled(s, cause, -1);
    if (!total) return NULL;
    const char *name = cause ? smait_unmodelled_name(cause) : "unknown";
    int traces = 0;
    for (int t = 0; t < s->n; t++) traces += sched_unmodelled(s, cause, t) != 0;
    size_t len = (size_t)snprintf(buf, n, "unmodelled %s: %" PRIu64 " in trace%s ", name, total,
                                  traces == 1 ? "" : "s");
    /* The traces, runs of three or more as ranges: "0,2-5". */
    const char *sep = "";
    for (int t = 0; t < s->n && len < n; t++) {
        if (!sched_unmodelled(s, cause, t)) continue;
        int u = t;
        while (u + 1 < s->n && sched_unmodelled(s, cause, u + 1)) u++;
        if (u > t + 1) len += (size_t)snprintf(buf + len, n - len, "%s%d-%d", sep, t, u);
        else if (u > t) len += (size_t)snprintf(buf + len, n - len, "%s%d,%d", sep, t, u);
        else len += (size_t)snprintf(buf + len, n - len, "%s%d", sep, t);
        sep = ",";
        t = u;
    }
    if (len < n)
        snprintf(buf + len, n - len, " (%s): not replayed, so the interleaving may differ from the real run"
                 " there", what[cause]);
    return buf;
}

const sched_counts *sched_total_counts(const scheduler *s, int t)
{
    thread *x = &s->th[t];
    x->view = (sched_counts){ x->lane.is.n, x->records, x->sync_idle, x->phase_end_idle, x->io_idle, x->stall };
    return &x->view;
}

const sched_counts *sched_phase_counts(const scheduler *s, int t)
{
    thread *x = &s->th[t];
    const sched_counts *a = &x->at_phase_start;
    x->view = (sched_counts){
        .is = {
            .executed = x->lane.is.n.executed - a->is.executed,
            .fetched = x->lane.is.n.fetched - a->is.fetched,
            .branches = x->lane.is.n.branches - a->is.branches,
            .calls = x->lane.is.n.calls - a->is.calls,
            .instrumented = x->lane.is.n.instrumented - a->is.instrumented,
            .discontinuities = x->lane.is.n.discontinuities - a->is.discontinuities,
        },
        .records = x->records - a->records,
        .sync_idle = x->sync_idle - a->sync_idle,
        .phase_end_idle = x->phase_end_idle - a->phase_end_idle,
        .io_idle = x->io_idle - a->io_idle,
        .stall = x->stall - a->stall,
    };
    return &x->view;
}
