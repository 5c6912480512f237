/* test_scheduler.c — the shared scheduler (common/scheduler) against a
 * reference written straight from SPEC §4 and §5.1.
 *
 * Random trace sets (fixed seeds: every run is the same) are written to the
 * scratch directory and run through the real scheduler (sched_create /
 * sched_run with every hook; fetches through fetch, fetch_run, both or
 * neither); the same records go through the reference
 * below, which is deliberately simple: one record per step, the runnable
 * thread with the smallest clock found by a linear scan (ties: the first
 * after the previous thread, cyclic), the instruction stream by the SPEC's
 * "while pc < src" loop. Both write one event log — every processed record
 * (thread, clock, record index), every fetch (clock, address), every stop and
 * resume (clock, reason, idle), every phase begin and end with each thread's
 * phase counts — and the logs must be identical, as must the final clocks,
 * totals and problem counts. As in the scheduler, the end of a trace is
 * noticed when the thread's turn comes (like an implicit join record).
 *
 * The real scheduler runs batches of one thread's records without queue work
 * and keeps tied levels in registers (run_fast for <= 64 threads, run_thread
 * and the calendar queue's heap beyond); this test is the guard for those
 * fast paths, so the generated traces make clocks tie often (zero-instruction
 * records: procedure starts and call records), jump far (branches that fill
 * gaps of up to 1024 instructions, beyond the queue's 256-clock window), and
 * mix barriers, critical and ordered sections, markers and spawn/join regions.
 * Three kinds of sets:
 *   consistent -p   one parallel phase; barriers that every thread reaches
 *                   equally often; balanced, deadlock-free sections;
 *   regions         spawn/join regions of random size (arg2 0, > P, < P),
 *                   workers with and without their spawn record, ending
 *                   without join, records left unprocessed;
 *   chaos           anything (random barrier counts, unbalanced sections,
 *                   stray joins and spawns) under --lenient: deadlocks
 *                   released, bad unlocks ignored and counted.
 * SCHED_TEST_COVERAGE=1 prints what each test's runs covered; each test also
 * asserts that its runs reached the paths it is there for. */
#include "suites.h"
#include "../../common/scheduler.h"
#include "../../common/trace_set.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* ---- PRNG (splitmix64) --------------------------------------------------------- */

typedef struct rng { uint64_t s; } rng;

static uint64_t rnext(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Check's ck_assert marks its place through the runner's pipe on every call,
 * even when it passes: too slow for every event. REQUIRE costs nothing until
 * it fails. */
#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

static uint32_t rbelow(rng *r, uint32_t n) { return n ? (uint32_t)(rnext(r) % n) : 0; }
static bool rchance(rng *r, unsigned percent) { return rbelow(r, 100) < percent; }

/* ---- event logs ------------------------------------------------------------------ */

enum {
    EV_REC, EV_FETCH, EV_STOP, EV_RESUME, EV_PHASE_BEGIN, EV_PHASE_END,
    EV_COUNTS_A, EV_COUNTS_B, EV_COUNTS_C
};
static const char *const ev_names[] = {
    "record", "fetch", "stop", "resume", "phase_begin", "phase_end",
    "counts(records,executed,fetched,branches)", "counts(calls,instrumented,discont,sync_idle)",
    "counts(phase_end_idle)"
};

typedef struct ev {
    int kind;
    int thread;                 /* phases: the phase number */
    uint64_t v[4];
} ev;

typedef struct evlog {
    ev *e;
    size_t n, cap;
} evlog;

static void push(evlog *l, int kind, int thread, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 4096;
        l->e = realloc(l->e, l->cap * sizeof *l->e);
        REQUIRE(l->e != NULL, "out of memory");
    }
    l->e[l->n++] = (ev){ kind, thread, { a, b, c, d } };
}

static void push_counts(evlog *l, int t, const sched_counts *c)
{
    push(l, EV_COUNTS_A, t, c->records, c->is.executed, c->is.fetched, c->is.branches);
    push(l, EV_COUNTS_B, t, c->is.calls, c->is.instrumented, c->is.discontinuities, c->sync_idle);
    push(l, EV_COUNTS_C, t, c->phase_end_idle, 0, 0, 0);
}

static void ev_text(const ev *e, char *buf, size_t n)
{
    snprintf(buf, n, "%s T%d %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, ev_names[e->kind],
             e->thread, e->v[0], e->v[1], e->v[2], e->v[3]);
}

/* The logs must be equal; on a difference, show where with some context. */
static void compare_logs(const evlog *want, const evlog *got, const char *what)
{
    size_t n = want->n < got->n ? want->n : got->n, i = 0;
    while (i < n && memcmp(&want->e[i], &got->e[i], sizeof(ev)) == 0) i++;
    if (i == want->n && i == got->n) return;
    char msg[4096], a[160], b[160];
    size_t len = (size_t)snprintf(msg, sizeof msg, "%s: event logs differ at event %zu of %zu/%zu"
                                  " (reference / scheduler):", what, i, want->n, got->n);
    size_t from = i > 6 ? i - 6 : 0;
    for (size_t k = from; k <= i + 2 && len < sizeof msg - 400; k++) {
        if (k < want->n) ev_text(&want->e[k], a, sizeof a); else snprintf(a, sizeof a, "(end)");
        if (k < got->n) ev_text(&got->e[k], b, sizeof b); else snprintf(b, sizeof b, "(end)");
        len += (size_t)snprintf(msg + len, sizeof msg - len, "\n  %s%zu: %-52s | %s",
                                k == i ? ">" : " ", k, a, b);
    }
    ck_abort_msg("%s", msg);
}

/* ---- the real scheduler, logged ------------------------------------------------------ */

typedef struct real_ctx {
    evlog *log;
    scheduler *s;
    trace_reader **rd;
} real_ctx;

static void h_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    push(c->log, EV_FETCH, t, clock, addr, 0, 0);
}

/* The optional one-call form of a gap fill: logged as the n fetches it stands for. */
static void h_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    REQUIRE(n > 0, "fetch_run with n = 0");
    for (uint32_t i = 0; i < n; i++) push(c->log, EV_FETCH, t, clock + i, addr + 4 * i, 0, 0);
}

static void h_record(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    push(c->log, EV_REC, t, clock, trace_reader_index(c->rd[t]), rec->f1, rec->f2);
}

static uint64_t h_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    /* f2 of the record's arg1 as the last field: the six parts came together */
    push(c->log, EV_REC, t, clock, trace_reader_index(c->rd[t]), rec->f1, rec[SMAIT_CALL_ARG1].f2);
    return 0;
}

static void h_phase_begin(void *ctx, const sched_phase *p)
{
    real_ctx *c = ctx;
    push(c->log, EV_PHASE_BEGIN, p->number, p->start_clock, p->kind, p->by, (uint64_t)p->active);
}

static void h_phase_end(void *ctx, const sched_phase *p)
{
    real_ctx *c = ctx;
    push(c->log, EV_PHASE_END, p->number, p->end_clock, p->kind, p->by | (uint64_t)p->last << 8,
         (uint64_t)p->active);
    for (int t = 0; t < sched_threads(c->s); t++) push_counts(c->log, t, sched_phase_counts(c->s, t));
}

static void h_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    push(c->log, EV_STOP, t, clock, why, 0, 0);
}

static void h_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    push(c->log, EV_RESUME, t, clock, idle, 0, 0);
}

/* ---- the reference scheduler (SPEC §4, §5.1) ---------------------------------------- */

enum { R_INACTIVE, R_RUNNABLE, R_BLOCKED, R_JOINED, R_FINISHED };

typedef struct rthread {
    const smait_raw *rec;       /* the whole trace, simple records */
    size_t n, pos;              /* pos: index of the next simple record */
    uint64_t clock;
    uint32_t pc;
    bool valid;
    int state;
    sched_wait wait;
    uint32_t key;
    sched_counts c, at;         /* totals, and totals when the phase began */
} rthread;

typedef struct rlock {
    sched_wait space;
    uint32_t addr;
    int holder;                 /* -1 free */
} rlock;

typedef struct ref {
    int n;
    rthread *th;
    bool parallel_start, lenient;
    uint32_t gap;
    int prev;
    sched_phase ph;
    bool done;
    rlock *locks;
    size_t nlocks;
    sched_problems pr;
    evlog *log;
} ref;

static void r_resume(ref *s, int t, uint64_t to)
{
    rthread *x = &s->th[t];
    REQUIRE(to >= x->clock, "reference: thread %d resumed backwards", t);
    uint64_t idle = to - x->clock;
    x->c.sync_idle += idle;
    x->clock = to;
    x->state = R_RUNNABLE;
    x->wait = WAIT_NONE;
    push(s->log, EV_RESUME, t, to, idle, 0, 0);
}

static void r_stop(ref *s, int t, int state, sched_wait why)
{
    s->th[t].state = state;
    s->th[t].wait = why;
    push(s->log, EV_STOP, t, s->th[t].clock, why, 0, 0);
}

static void r_begin_phase(ref *s, sched_phase_kind kind, sched_phase_cause by, int active)
{
    s->ph.number++;
    s->ph.kind = kind;
    s->ph.by = by;
    s->ph.active = active;
    uint64_t m = 0;
    for (int t = 0; t < active; t++)
        if (s->th[t].clock > m) m = s->th[t].clock;
    s->ph.start_clock = m;
    for (int t = 0; t < s->n; t++) s->th[t].at = s->th[t].c;
    push(s->log, EV_PHASE_BEGIN, s->ph.number, m, kind, by, (uint64_t)active);
    for (int t = 0; t < active; t++)
        if (s->th[t].state == R_INACTIVE) {
            s->th[t].state = R_RUNNABLE;
            push(s->log, EV_RESUME, t, s->th[t].clock, 0, 0, 0);
        }
}

/* last: the run ends with this phase (sched_phase.last). */
static void r_end_phase(ref *s, bool sync, bool last)
{
    if (sync) {
        uint64_t m = 0;
        for (int t = 0; t < s->n; t++)
            if (s->th[t].clock > m) m = s->th[t].clock;
        for (int t = 0; t < s->n; t++) {
            if (t < s->ph.active) s->th[t].c.phase_end_idle += m - s->th[t].clock;
            s->th[t].clock = m;
        }
    }
    uint64_t m = 0;
    for (int t = 0; t < s->ph.active; t++)
        if (s->th[t].clock > m) m = s->th[t].clock;
    s->ph.end_clock = m;
    push(s->log, EV_PHASE_END, s->ph.number, m, s->ph.kind, s->ph.by | (uint64_t)last << 8,
         (uint64_t)s->ph.active);
    for (int t = 0; t < s->n; t++) {
        const sched_counts *c = &s->th[t].c, *a = &s->th[t].at;
        sched_counts d = {
            .is = { c->is.executed - a->is.executed, c->is.fetched - a->is.fetched,
                    c->is.branches - a->is.branches, c->is.calls - a->is.calls,
                    c->is.instrumented - a->is.instrumented,
                    c->is.discontinuities - a->is.discontinuities },
            .records = c->records - a->records,
            .sync_idle = c->sync_idle - a->sync_idle,
            .phase_end_idle = c->phase_end_idle - a->phase_end_idle,
        };
        push_counts(s->log, t, &d);
    }
}

static rlock *r_lock(ref *s, sched_wait space, uint32_t addr, bool create)
{
    for (size_t i = 0; i < s->nlocks; i++)
        if (s->locks[i].space == space && s->locks[i].addr == addr) return &s->locks[i];
    if (!create) return NULL;
    s->locks = realloc(s->locks, (s->nlocks + 1) * sizeof *s->locks);
    s->locks[s->nlocks] = (rlock){ space, addr, -1 };
    return &s->locks[s->nlocks++];
}

static void r_call(ref *s, int t, const smait_raw *rec)
{
    rthread *x = &s->th[t];
    uint32_t arg1 = rec[2].f2, arg2 = rec[3].f2;
    switch (smait_call_type(rec->f1)) {
    case SMAIT_CT_SPAWN:
        if (t == 0 && s->ph.kind == PHASE_SERIAL && !s->parallel_start) {
            int n = arg2 == 0 || arg2 > (uint32_t)s->n ? s->n : (int)arg2;
            r_end_phase(s, true, false);
            r_begin_phase(s, PHASE_PARALLEL, PHASE_BY_SPAWN, n);
        }
        break;
    case SMAIT_CT_JOIN:
        if (s->ph.kind == PHASE_PARALLEL && !s->parallel_start) r_stop(s, t, R_JOINED, WAIT_JOIN);
        break;
    case SMAIT_CT_BARRIER: {
        int live = 0;
        for (int u = 0; u < s->ph.active; u++)
            live += s->th[u].state != R_JOINED && s->th[u].state != R_FINISHED;
        int need = arg2 == 0 || arg2 > (uint32_t)live ? live : (int)arg2;
        x->key = arg1;
        r_stop(s, t, R_BLOCKED, WAIT_BARRIER);
        int waiting = 0;
        uint64_t m = 0;
        for (int u = 0; u < s->n; u++) {
            rthread *y = &s->th[u];
            if (y->state == R_BLOCKED && y->wait == WAIT_BARRIER && y->key == arg1) {
                waiting++;
                if (y->clock > m) m = y->clock;
            }
        }
        if (waiting >= need)
            for (int u = 0; u < s->n; u++) {
                rthread *y = &s->th[u];
                if (y->state == R_BLOCKED && y->wait == WAIT_BARRIER && y->key == arg1)
                    r_resume(s, u, m);
            }
        break;
    }
    case SMAIT_CT_BEGIN_CRITICAL:
    case SMAIT_CT_BEGIN_ORDER: {
        sched_wait space = smait_call_type(rec->f1) == SMAIT_CT_BEGIN_ORDER ? WAIT_ORDERED
                                                                            : WAIT_CRITICAL;
        rlock *l = r_lock(s, space, arg1, true);
        if (l->holder < 0) {
            l->holder = t;
        } else {
            x->key = arg1;
            r_stop(s, t, R_BLOCKED, space);
        }
        break;
    }
    case SMAIT_CT_END_CRITICAL:
    case SMAIT_CT_END_ORDER: {
        sched_wait space = smait_call_type(rec->f1) == SMAIT_CT_END_ORDER ? WAIT_ORDERED
                                                                          : WAIT_CRITICAL;
        rlock *l = r_lock(s, space, arg1, false);
        if (!l || l->holder != t) {
            REQUIRE(s->lenient, "reference: bad unlock in a consistent trace (thread %d)", t);
            s->pr.bad_unlocks++;
            break;
        }
        int next = -1;                          /* smallest clock, ties lowest id */
        for (int u = 0; u < s->n; u++) {
            rthread *y = &s->th[u];
            if (y->state == R_BLOCKED && y->wait == space && y->key == arg1 &&
                (next < 0 || y->clock < s->th[next].clock))
                next = u;
        }
        l->holder = next;
        if (next >= 0)
            r_resume(s, next, s->th[next].clock > x->clock ? s->th[next].clock : x->clock);
        break;
    }
    case SMAIT_CT_MARKER:
        if (t == 0) {
            r_end_phase(s, false, false);
            r_begin_phase(s, s->ph.kind, PHASE_BY_MARKER, s->ph.active);
        }
        break;
    default:
        break;
    }
}

static void r_fetch(ref *s, int t)
{
    rthread *x = &s->th[t];
    push(s->log, EV_FETCH, t, x->clock, x->pc, 0, 0);
    x->c.is.fetched++;
    x->pc += 4;
}

/* Process one record of thread t, or notice the end of its trace. */
static void r_step(ref *s, int t)
{
    rthread *x = &s->th[t];
    if (x->pos >= x->n) {                       /* the end of the trace: a join */
        r_stop(s, t, R_FINISHED, WAIT_NONE);
        return;
    }
    const smait_raw *rec = &x->rec[x->pos];
    uint64_t index = x->pos;
    x->c.records++;
    uint32_t f1 = rec->f1;
    if ((f1 >> 12) == 1) {                      /* call record: no instruction */
        x->pos += SMAIT_CALL_PARTS;
        push(s->log, EV_REC, t, x->clock, index, f1, rec[SMAIT_CALL_ARG1].f2);
        r_call(s, t, rec);
        return;
    }
    x->pos++;
    switch (f1 >> 28) {
    case 0x0:                                   /* memory access: one instruction */
        x->clock++;
        x->c.is.executed++;
        if (x->valid) r_fetch(s, t);
        break;
    case 0x4:                                   /* procedure start */
        x->pc = rec->f2;
        x->valid = true;
        x->c.is.instrumented++;
        break;
    default: {                                  /* taken branch, procedure call */
        uint32_t src = f1 & 0x0FFFFFFF, tgt = rec->f2;
        if (x->valid && x->pc <= src && src - x->pc <= s->gap) {
            while (x->pc < src) {
                x->clock++;
                x->c.is.executed++;
                r_fetch(s, t);
            }
        } else {
            x->c.is.discontinuities++;
        }
        if ((f1 >> 28) == 0x8) x->c.is.branches++;
        else x->c.is.calls++;
        x->pc = tgt;
        x->valid = true;
        break;
    }
    }
    push(s->log, EV_REC, t, x->clock, index, f1, rec->f2);
}

static int r_pick(const ref *s)
{
    uint64_t m = UINT64_MAX;
    for (int t = 0; t < s->n; t++)
        if (s->th[t].state == R_RUNNABLE && s->th[t].clock < m) m = s->th[t].clock;
    if (m == UINT64_MAX) return -1;
    for (int k = 1; k <= s->n; k++) {
        int t = ((s->prev < 0 ? -1 : s->prev) + k) % s->n;
        if (s->th[t].state == R_RUNNABLE && s->th[t].clock == m) return t;
    }
    return -1;
}

static void r_nothing_runnable(ref *s)
{
    bool blocked = false;
    for (int t = 0; t < s->n; t++) blocked |= s->th[t].state == R_BLOCKED;
    if (!blocked) {
        /* The end of a phase; of the run after a serial phase (thread 0's
         * trace has ended), or after a parallel one with -p or when thread 0's
         * trace is exhausted (ended in it, or its join was its last record). */
        s->done = s->ph.kind == PHASE_SERIAL || s->parallel_start || s->th[0].state == R_FINISHED ||
                  s->th[0].pos >= s->th[0].n;
        r_end_phase(s, true, s->done);
        if (s->ph.kind == PHASE_PARALLEL) {
            for (int t = 0; t < s->n; t++)
                if (s->th[t].state == R_JOINED) s->th[t].state = R_INACTIVE;
            if (!s->done) r_begin_phase(s, PHASE_SERIAL, PHASE_BY_JOIN, 1);
        }
        return;
    }
    REQUIRE(s->lenient, "reference: deadlock in a consistent trace set");
    /* --lenient: every blocked thread goes on; a barrier's waiters at their
     * group's largest clock, a lock's waiters at their own, without the lock. */
    s->pr.deadlocks++;
    uint64_t *to = calloc((size_t)s->n, sizeof *to);
    for (int t = 0; t < s->n; t++) {
        rthread *x = &s->th[t];
        to[t] = x->clock;
        if (x->state != R_BLOCKED || x->wait != WAIT_BARRIER) continue;
        for (int u = 0; u < s->n; u++) {
            rthread *y = &s->th[u];
            if (y->state == R_BLOCKED && y->wait == WAIT_BARRIER && y->key == x->key &&
                y->clock > to[t])
                to[t] = y->clock;
        }
    }
    for (int t = 0; t < s->n; t++)
        if (s->th[t].state == R_BLOCKED) r_resume(s, t, to[t]);
    free(to);
}

static void r_run(ref *s)
{
    if (s->parallel_start) r_begin_phase(s, PHASE_PARALLEL, PHASE_BY_START, s->n);
    else r_begin_phase(s, PHASE_SERIAL, PHASE_BY_START, 1);
    while (!s->done) {
        int t = r_pick(s);
        if (t < 0) {
            r_nothing_runnable(s);
            continue;
        }
        r_step(s, t);
        s->prev = t;
    }
    for (int t = 0; t < s->n; t++)
        for (size_t i = s->th[t].pos; i < s->th[t].n; i += smait_record_span(s->th[t].rec[i].f1))
            s->pr.unprocessed++;
}

/* ---- trace generation ------------------------------------------------------------------ */

/* How a set is built. */
typedef enum gen_kind { GEN_PARALLEL, GEN_REGIONS, GEN_CHAOS } gen_kind;

typedef struct gen {
    rng *r;
    tu_recs *t;
    uint32_t pc;                /* the generator's idea of the program counter */
    uint32_t gap;
    int style;                  /* 0 mixed, 1 many ties, 2 long jumps, 3 long straight runs */
    int threads;
    unsigned scale;             /* this thread's body length scale */
    bool flagged;               /* a start_trace may say sync=1 (recorded synchronisation) */
} gen;

static uint32_t code_addr(rng *r)
{
    uint32_t a = 0x10000 + 4 * rbelow(r, 0x4000);
    if (rchance(r, 4)) a += 1 + rbelow(r, 3);   /* now and then unaligned */
    return a;
}

static void g_mem(gen *g)
{
    /* size codes of 0, 1, 2, 4, 8, 16, 32, 64 bytes (not tu_add_mem: its
     * ck_assert per record is a system call) */
    static const unsigned codes[] = { 0, 1, 2, 4, 8, 9, 10, 11 };
    tu_add(g->t, smait_mem_f1(rbelow(g->r, 3), codes[rbelow(g->r, 8)], rbelow(g->r, 3)),
           0x20000000 + 8 * rbelow(g->r, 4096));
    g->pc += 4;
}

static void g_proc(gen *g)
{
    g->pc = code_addr(g->r);
    tu_add(g->t, 0x40000000 | (rchance(g->r, 10) ? rbelow(g->r, 0x0FFFFFFF) : 0), g->pc);
}

static void g_branch(gen *g)
{
    uint32_t src, c = rbelow(g->r, 100);
    uint32_t far = g->style == 2 ? 40 : 12;
    if (c < 55) src = g->pc + 4 * rbelow(g->r, 9);                  /* a short gap */
    else if (c < 55 + far) src = g->pc + 4 * rbelow(g->r, g->gap / 4 + 40);  /* up to the limit */
    else if (c < 90) src = g->pc - 4 * (1 + rbelow(g->r, 20));      /* backwards */
    else if (c < 95) src = g->pc + 1 + rbelow(g->r, 7);             /* unaligned */
    else src = rbelow(g->r, 0x10000000);                            /* anywhere */
    src &= 0x0FFFFFFF;
    uint32_t tgt = rchance(g->r, 30) ? src - 4 * (1 + rbelow(g->r, 30)) : code_addr(g->r);
    tu_add(g->t, (rchance(g->r, 80) ? 0x80000000u : 0xC0000000u) | src, tgt);
    g->pc = tgt;
}

static void g_call(gen *g, unsigned type, uint32_t a1, uint32_t a2)
{
    uint32_t t0 = rbelow(g->r, 100000);
    tu_add_call(g->t, type, t0, t0 + rbelow(g->r, 50), a1, a2, rbelow(g->r, 4), 0);
}

/* A call record that never blocks: I/O, ldcw, semaphores, syscalls, markers,
 * trace start/end, an unnamed type. */
static void g_harmless_call(gen *g)
{
    static const unsigned types[] = {
        SMAIT_CT_READ, SMAIT_CT_WRITE, SMAIT_CT_LDCW, SMAIT_CT_SEMOP, SMAIT_CT_SEMCTL,
        SMAIT_CT_SYSCALL, SMAIT_CT_START_TRACE, SMAIT_CT_END_TRACE, 0x42, SMAIT_CT_MARKER,
        SMAIT_CT_MARKER,
    };
    unsigned type = types[rbelow(g->r, sizeof types / sizeof types[0])];
    uint32_t a1 = rbelow(g->r, type == SMAIT_CT_MARKER ? 5 : 1000);
    if (type == SMAIT_CT_START_TRACE && !g->flagged) a1 &= ~(uint32_t)SMAIT_START_SYNC;
    g_call(g, type, a1, rbelow(g->r, 9));
}

/* One straight-line item: memory accesses mostly, branches, procedure starts,
 * harmless calls. */
static void g_item(gen *g)
{
    unsigned c = rbelow(g->r, 100);
    if (g->style == 1) {                        /* many zero-instruction records */
        if (c < 35) g_mem(g);
        else if (c < 65) g_proc(g);
        else if (c < 85) g_harmless_call(g);
        else g_branch(g);
    } else if (g->style == 3) {                 /* long runs of one thread */
        if (c < 92) g_mem(g);
        else if (c < 97) g_branch(g);
        else g_proc(g);
    } else {
        if (c < 55) g_mem(g);
        else if (c < 75) g_branch(g);
        else if (c < 88) g_proc(g);
        else g_harmless_call(g);
    }
}

static void g_straight(gen *g, unsigned n)
{
    for (unsigned i = 0; i < n; i++) g_item(g);
}

static const uint32_t lock_addrs[] = { 0, 0x100, 0x140 };

/* Balanced, deadlock-free sections: critical sections nest only in
 * increasing lock address; an ordered section nests only innermost (its
 * holder never waits), so no cycle of waits can form. Ordered sections use
 * the same addresses as critical ones: a separate key space. */
static void g_section(gen *g, int min_lock)
{
    if (min_lock >= 3 || rchance(g->r, 35)) {
        uint32_t a = lock_addrs[rbelow(g->r, 2)];
        g_call(g, SMAIT_CT_BEGIN_ORDER, a, 0);
        g_straight(g, rbelow(g->r, 6));
        g_call(g, SMAIT_CT_END_ORDER, a, 0);
        return;
    }
    int k = min_lock + (int)rbelow(g->r, (uint32_t)(3 - min_lock));
    g_call(g, SMAIT_CT_BEGIN_CRITICAL, lock_addrs[k], 0);
    g_straight(g, rbelow(g->r, 5));
    if (rchance(g->r, 30)) g_section(g, k + 1);
    g_straight(g, rbelow(g->r, 5));
    g_call(g, SMAIT_CT_END_CRITICAL, lock_addrs[k], 0);
}

/* A body of about n items with sections among them (consistent sets). */
static void g_body(gen *g, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        if (rchance(g->r, 6)) g_section(g, 0);
        else g_item(g);
    }
}

/* Chaos: any call record at all, unbalanced sections, random barriers. */
static void g_chaos(gen *g, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        unsigned c = rbelow(g->r, 100);
        if (c < 70) { g_item(g); continue; }
        uint32_t lock = lock_addrs[rbelow(g->r, 3)];
        uint32_t bar = 0x8000 + 0x40 * rbelow(g->r, 3);
        switch (c % 10) {
        case 0: g_call(g, SMAIT_CT_BARRIER, bar, rbelow(g->r, (uint32_t)g->threads + 2)); break;
        case 1: g_call(g, SMAIT_CT_BARRIER, bar, 0); break;
        case 2: case 3: g_call(g, SMAIT_CT_BEGIN_CRITICAL, lock, 0); break;
        case 4: case 5: g_call(g, SMAIT_CT_END_CRITICAL, lock, 0); break;
        case 6: g_call(g, rchance(g->r, 50) ? SMAIT_CT_BEGIN_ORDER : SMAIT_CT_END_ORDER, lock, 0);
                break;
        case 7: g_call(g, SMAIT_CT_JOIN, 0, 0); break;
        case 8: g_call(g, SMAIT_CT_SPAWN, 1, rbelow(g->r, (uint32_t)g->threads + 2)); break;
        default: g_call(g, SMAIT_CT_MARKER, rbelow(g->r, 5), 0); break;
        }
    }
}

/* A thread's length scale: in a skewed set a few busy threads run far
 * ahead of (or behind) many short ones, which leaves one or two runnable
 * threads with clocks far apart (the queue's heap, and for > 64 threads the
 * general path's cq_min_other). */
static unsigned thread_scale(rng *r, unsigned scale, bool skewed)
{
    if (!skewed) return scale;
    return rchance(r, 12) ? 4 * scale : scale / 12;
}

/* Body length for a thread: some threads much longer than others. */
static unsigned body_len(rng *r, unsigned scale)
{
    unsigned c = rbelow(r, 100);
    if (c < 10) return 0;
    if (c < 60) return rbelow(r, scale / 4 + 1);
    return rbelow(r, scale + 1);
}

/* A consistent -p set: every thread reaches the same barriers (arg2 0, P or
 * more than P: all threads) the same number of times. */
static void gen_parallel(rng *r, tu_recs *t, int P, uint32_t gap, int style, unsigned scale,
                         bool skewed)
{
    unsigned nb = rbelow(r, 5);
    uint32_t bar_addr[8], bar_n[8];
    for (unsigned k = 0; k < nb; k++) {
        bar_addr[k] = 0x8000 + 0x40 * rbelow(r, 3);
        uint32_t c = rbelow(r, 3);
        bar_n[k] = c == 0 ? 0 : c == 1 ? (uint32_t)P : (uint32_t)P + 1 + rbelow(r, 5);
    }
    for (int i = 0; i < P; i++) {
        gen g = { r, &t[i], code_addr(r), gap, style, P, thread_scale(r, scale, skewed), false };
        if (rchance(r, 50)) g_call(&g, SMAIT_CT_START_TRACE, 0, 0);
        for (unsigned k = 0; k < nb; k++) {
            g_body(&g, body_len(r, g.scale));
            g_call(&g, SMAIT_CT_BARRIER, bar_addr[k], bar_n[k]);
        }
        g_body(&g, body_len(r, g.scale));
        if (rchance(r, 10)) g_call(&g, SMAIT_CT_JOIN, 0, 0);    /* no effect with -p */
        if (rchance(r, 50)) g_call(&g, SMAIT_CT_END_TRACE, 0, 0);
    }
}

/* A consistent set of spawn/join regions. */
static void gen_regions(rng *r, tu_recs *t, int P, uint32_t gap, int style, unsigned scale,
                        bool skewed)
{
    gen g[128];
    bool finished[128] = { false };
    for (int i = 0; i < P; i++)
        g[i] = (gen){ r, &t[i], code_addr(r), gap, style, P, thread_scale(r, scale, skewed), false };
    if (rchance(r, 50)) g_call(&g[0], SMAIT_CT_START_TRACE, 0, 0);
    g_body(&g[0], body_len(r, g[0].scale));
    unsigned regions = 1 + rbelow(r, 4);
    bool t0_done = false;
    for (unsigned reg = 0; reg < regions && !t0_done; reg++) {
        uint32_t c = rbelow(r, 5), n;
        n = c == 0 ? 0 : c == 1 ? (uint32_t)P + rbelow(r, 3) : c == 2 ? 1 + rbelow(r, 4)
                                                                 : 1 + rbelow(r, (uint32_t)P);
        int active = n == 0 || n > (uint32_t)P ? P : (int)n;
        g_call(&g[0], SMAIT_CT_SPAWN, reg + 1, n);
        bool in[128];
        for (int i = 0; i < P; i++) in[i] = i < active && !finished[i];
        for (int i = 1; i < P; i++)
            if (in[i] && rchance(r, 70)) g_call(&g[i], SMAIT_CT_SPAWN, reg + 1, n);
        unsigned nb = rbelow(r, 4);
        for (unsigned k = 0; k < nb; k++) {
            uint32_t addr = 0x8000 + 0x40 * rbelow(r, 3);
            uint32_t want = rchance(r, 50) ? 0 : (uint32_t)P + rbelow(r, 3);
            for (int i = 0; i < P; i++)
                if (in[i]) {
                    g_body(&g[i], body_len(r, g[i].scale));
                    g_call(&g[i], SMAIT_CT_BARRIER, addr, want);
                }
        }
        bool last = reg + 1 == regions;
        for (int i = 0; i < P; i++) {
            if (!in[i]) continue;
            g_body(&g[i], body_len(r, g[i].scale));
            if (i == 0 && last && rchance(r, 30)) {
                t0_done = true;                 /* thread 0 ends inside the region */
            } else if (i > 0 && rchance(r, 10)) {
                finished[i] = true;             /* end of trace counts as join */
            } else {
                g_call(&g[i], SMAIT_CT_JOIN, 0, 0);
            }
        }
        if (!t0_done) g_body(&g[0], body_len(r, g[0].scale));  /* the serial part after it */
    }
    /* Records no phase will reach: after a worker's last region. */
    for (int i = 1; i < P; i++)
        if (!finished[i] && rchance(r, 10)) g_straight(&g[i], 1 + rbelow(r, 5));
}

static void gen_chaos(rng *r, tu_recs *t, int P, uint32_t gap, int style, unsigned scale,
                      bool skewed)
{
    for (int i = 0; i < P; i++) {
        gen g = { r, &t[i], code_addr(r), gap, style, P, thread_scale(r, scale, skewed), false };
        g_chaos(&g, body_len(r, g.scale));
    }
}

/* ---- one run ------------------------------------------------------------------------ */

typedef struct run_spec {
    gen_kind kind;
    int threads;
    uint64_t seed;
} run_spec;

/* What the runs of one test covered, summed (the generator must reach the
 * paths it is meant to). */
typedef struct coverage {
    uint64_t records, fetches, phases, deadlocks, bad_unlocks, unprocessed, barrier_waits,
             lock_waits, joins, far_jumps, ties;
} coverage;

static void one_run(const run_spec *rs, coverage *cov)
{
    rng r = { rs->seed * 0x100000001b3ull + (uint64_t)rs->threads * 31 + rs->kind };
    int P = rs->threads;
    static const uint32_t gaps[] = { ISTREAM_DEFAULT_GAP_LIMIT, ISTREAM_DEFAULT_GAP_LIMIT, 64, 0, 13 };
    uint32_t gap = gaps[rbelow(&r, 5)];
    int style = (int)rbelow(&r, 4);
    unsigned scale = P >= 64 ? 100 : P >= 16 ? 150 : 400;
    tu_recs *t = calloc((size_t)P, sizeof *t);
    bool skewed = rchance(&r, 35);
    if (rs->kind == GEN_PARALLEL) gen_parallel(&r, t, P, gap, style, scale, skewed);
    else if (rs->kind == GEN_REGIONS) gen_regions(&r, t, P, gap, style, scale, skewed);
    else gen_chaos(&r, t, P, gap, style, scale, skewed);
    bool parallel_start = rs->kind == GEN_PARALLEL || (rs->kind == GEN_CHAOS && rchance(&r, 50));
    bool lenient = rs->kind == GEN_CHAOS;

    /* Write the set: plain or gzip, either byte order (given to the reader:
     * short random traces can be valid in both orders, and auto-detection
     * then rightly takes little-endian). */
    smait_order order = rchance(&r, 20) ? SMAIT_ORDER_BIG : SMAIT_ORDER_LITTLE;
    char dir[4096], prefix[4200], what[256];
    snprintf(dir, sizeof dir, "%s/sched-%d-%d-%" PRIu64, tu_dir, rs->kind, P, rs->seed);
    snprintf(prefix, sizeof prefix, "%s/t.%d", dir, P);
    snprintf(what, sizeof what, "kind %d, %d threads, seed %" PRIu64 ", gap %u, style %d%s%s%s",
             rs->kind, P, rs->seed, gap, style, skewed ? ", skewed" : "", parallel_start ? ", -p" : "",
             lenient ? ", --lenient" : "");
    tu_rmtree(dir);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    for (int i = 0; i < P; i++) {
        char p[4300];
        snprintf(p, sizeof p, "%s.%d", prefix, i);
        if (rchance(&r, 10)) tu_write_trace_gz(p, &t[i], order);
        else tu_write_trace(p, &t[i], order);
    }

    /* The real scheduler. */
    static const size_t buffers[] = { 0, 12, 13, 31, 200 };
    trace_set ts;
    trace_set_from_prefix(&ts, prefix);
    trace_reader_opts ro = { .order = order, .lenient = lenient,
                             .buffer_records = buffers[rbelow(&r, 5)] };
    trace_reader **rd = trace_set_open(&ts, &ro);
    evlog got = { 0 };
    real_ctx ctx = { &got, NULL, rd };
    sched_hooks h = {
        .ctx = &ctx, .fetch = h_fetch, .mem = h_record, .call = h_call, .branch = h_record,
        .phase_begin = h_phase_begin, .phase_end = h_phase_end,
        .thread_stop = h_stop, .thread_resume = h_resume,
    };
    uint32_t fetch_hooks = rbelow(&r, 4);               /* 0: none (a tool without them) */
    if (fetch_hooks == 0) h.fetch = NULL;
    if (fetch_hooks == 2) h.fetch_run = h_fetch_run;    /* gap fills in one call */
    if (fetch_hooks == 3) {
        h.fetch = NULL;
        h.fetch_run = h_fetch_run;
    }
    sched_options so = { .parallel_start = parallel_start, .lenient = lenient, .gap_limit = gap };
    ctx.s = sched_create(&ts, rd, &so, &h);
    tu_capture_begin();
    sched_run(ctx.s);
    char *warnings = tu_capture_end();

    /* The reference. */
    evlog want = { 0 };
    ref s = { .n = P, .parallel_start = parallel_start, .lenient = lenient, .gap = gap,
              .prev = -1, .log = &want };
    s.th = calloc((size_t)P, sizeof *s.th);
    for (int i = 0; i < P; i++) s.th[i] = (rthread){ .rec = t[i].r, .n = t[i].n };
    r_run(&s);

    /* Without fetch hooks the scheduler reports no fetches (and nothing else
     * changes); with fetch_run only, gap fills come that way and single
     * fetches are not reported. Drop what the hooks could not see. */
    evlog seen = { 0 };
    for (size_t i = 0; i < want.n; i++) {
        const ev *e = &want.e[i];
        if (e->kind == EV_FETCH && fetch_hooks != 1 && fetch_hooks != 2) {
            if (fetch_hooks == 0) continue;
            /* fetch_run only: keep the fetches of a record's gap fill (a run
             * of fetches followed by a branch record), drop a memory
             * access's single fetch (followed by its memory record) */
            size_t k = i;
            while (k < want.n && want.e[k].kind == EV_FETCH) k++;
            uint32_t f1 = k < want.n ? (uint32_t)want.e[k].v[2] : 0;
            if (k < want.n && want.e[k].kind == EV_REC && (f1 >> 28) == 0) continue;
        }
        push(&seen, e->kind, e->thread, e->v[0], e->v[1], e->v[2], e->v[3]);
    }
    compare_logs(&seen, &got, what);
    free(seen.e);
    uint64_t last_clock[128] = { 0 };
    int last_t = -1;
    for (size_t i = 0; i < want.n; i++) {
        const ev *e = &want.e[i];
        if (e->kind == EV_REC) {
            cov->records++;
            if (e->v[0] > last_clock[e->thread] + 256) cov->far_jumps++;
            if (last_t >= 0 && last_t != e->thread && e->v[0] == last_clock[last_t]) cov->ties++;
            last_clock[e->thread] = e->v[0];
            last_t = e->thread;
        }
        cov->fetches += e->kind == EV_FETCH;
        cov->phases += e->kind == EV_PHASE_BEGIN;
        cov->barrier_waits += e->kind == EV_STOP && e->v[1] == WAIT_BARRIER;
        cov->lock_waits += e->kind == EV_STOP && (e->v[1] == WAIT_CRITICAL || e->v[1] == WAIT_ORDERED);
        cov->joins += e->kind == EV_STOP && e->v[1] == WAIT_JOIN;
    }
    cov->deadlocks += s.pr.deadlocks;
    cov->bad_unlocks += s.pr.bad_unlocks;
    cov->unprocessed += s.pr.unprocessed;
    for (int i = 0; i < P; i++) {
        ck_assert_msg(sched_clock(ctx.s, i) == s.th[i].clock, "%s: thread %d final clock", what, i);
        const sched_counts *c = sched_total_counts(ctx.s, i);
        ck_assert_msg(memcmp(c, &s.th[i].c, sizeof *c) == 0, "%s: thread %d totals", what, i);
    }
    sched_problems pr = sched_problem_counts(ctx.s);
    ck_assert_msg(pr.deadlocks == s.pr.deadlocks && pr.bad_unlocks == s.pr.bad_unlocks &&
                  pr.unprocessed == s.pr.unprocessed,
                  "%s: problems deadlocks %" PRIu64 "/%" PRIu64 " bad_unlocks %" PRIu64 "/%" PRIu64
                  " unprocessed %" PRIu64 "/%" PRIu64, what, pr.deadlocks, s.pr.deadlocks,
                  pr.bad_unlocks, s.pr.bad_unlocks, pr.unprocessed, s.pr.unprocessed);
    ck_assert_int_eq(sched_phase_count(ctx.s), s.ph.number);
    /* One warning per released deadlock, per ignored unlock, per thread with
     * records left over; none in a consistent set without leftovers. */
    uint64_t lines = 0, leftover = 0;
    for (const char *p = warnings; *p; p++) lines += *p == '\n';
    for (int i = 0; i < P; i++) leftover += s.th[i].pos < s.th[i].n;
    ck_assert_msg(lines == s.pr.deadlocks + s.pr.bad_unlocks + leftover,
                  "%s: %" PRIu64 " warning lines:\n%s", what, lines, warnings);
    free(warnings);

    sched_free(ctx.s);
    trace_set_close_readers(&ts, rd);
    trace_set_free(&ts);
    for (int i = 0; i < P; i++) tu_recs_free(&t[i]);
    free(t);
    free(s.th);
    free(s.locks);
    free(got.e);
    free(want.e);
    tu_rmtree(dir);
}

static const int thread_counts[] = { 2, 4, 16, 64, 128 };

static coverage runs(gen_kind kind, int threads, int seeds)
{
    coverage cov = { 0 };
    for (int k = 0; k < seeds; k++) {
        run_spec rs = { kind, threads, (uint64_t)k + 1 };
        one_run(&rs, &cov);
    }
    if (getenv("SCHED_TEST_COVERAGE"))
        fprintf(stderr, "kind %d threads %d: records %" PRIu64 " fetches %" PRIu64 " phases %"
                PRIu64 " deadlocks %" PRIu64 " bad_unlocks %" PRIu64 " unprocessed %" PRIu64
                " barrier_waits %" PRIu64 " lock_waits %" PRIu64 " joins %" PRIu64
                " far_jumps %" PRIu64 " ties %" PRIu64 "\n", kind, threads, cov.records,
                cov.fetches, cov.phases, cov.deadlocks, cov.bad_unlocks, cov.unprocessed,
                cov.barrier_waits, cov.lock_waits, cov.joins, cov.far_jumps, cov.ties);
    return cov;
}

static int seeds_for(int threads) { return threads <= 4 ? 100 : threads <= 16 ? 40 : 16; }

START_TEST(random_parallel)
{
    coverage c = runs(GEN_PARALLEL, thread_counts[_i], seeds_for(thread_counts[_i]));
    ck_assert_uint_gt(c.records, 10000);
    ck_assert_uint_gt(c.ties, 1000);
    ck_assert_uint_gt(c.far_jumps, 100);
    ck_assert_uint_gt(c.barrier_waits, 100);
    ck_assert_uint_gt(c.lock_waits, 20);
    ck_assert_uint_gt(c.phases, 5);         /* markers of thread 0 */
}
END_TEST

START_TEST(random_regions)
{
    coverage c = runs(GEN_REGIONS, thread_counts[_i], seeds_for(thread_counts[_i]));
    ck_assert_uint_gt(c.records, 10000);
    ck_assert_uint_gt(c.ties, 1000);
    ck_assert_uint_gt(c.far_jumps, 100);
    ck_assert_uint_gt(c.barrier_waits, 100);
    ck_assert_uint_gt(c.lock_waits, 20);
    ck_assert_uint_gt(c.joins, 100);
    ck_assert_uint_gt(c.unprocessed, 0);
}
END_TEST

START_TEST(random_chaos)
{
    coverage c = runs(GEN_CHAOS, thread_counts[_i], seeds_for(thread_counts[_i]));
    ck_assert_uint_gt(c.records, 5000);
    ck_assert_uint_gt(c.deadlocks, 20);
    ck_assert_uint_gt(c.bad_unlocks, 20);
    ck_assert_uint_gt(c.barrier_waits, 50);
    ck_assert_uint_gt(c.lock_waits, 50);
}
END_TEST

Suite *scheduler_suite(void)
{
    Suite *s = suite_create("scheduler");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 120);     /* a few seconds normally; a hang fails */
    int n = (int)(sizeof thread_counts / sizeof thread_counts[0]);
    tcase_add_loop_test(tc, random_parallel, 0, n);
    tcase_add_loop_test(tc, random_regions, 0, n);
    tcase_add_loop_test(tc, random_chaos, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
