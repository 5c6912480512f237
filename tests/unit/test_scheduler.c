/* test_scheduler.c — the shared scheduler (common/scheduler) against a
 * reference written straight from docs/scheduler.md §2–§10.
 *
 * Random trace sets (fixed seeds: every run is the same) are written to the
 * scratch directory and run through the real scheduler (sched_create /
 * sched_run with every hook; fetches through fetch alone, with the
 * fetch_run hint, with the fetch_mem hint, or not at all); the same records
 * go through the reference
 * below, which is deliberately simple: one record per step, the runnable
 * thread with the smallest clock found by a linear scan (ties: the first
 * after the previous thread, cyclic), the instruction stream by the
 * "while pc < src" loop of docs/scheduler.md §2. Both write one event log — every processed record
 * (thread, clock, record index), every fetch (clock, address), every stop and
 * resume (clock, reason, idle), every phase begin and end with each thread's
 * phase counts — and the logs must be identical, as must the final clocks,
 * totals and problem counts. As in the scheduler, the end of a trace is
 * noticed when the thread's turn comes (like an implicit join record).
 *
 * The real scheduler runs batches of one thread's records without queue work
 * and keeps tied levels in registers (run_fast, one word of the level at a
 * time; run_thread and the calendar queue's heap beyond); this test is the
 * guard for those fast paths, so the generated traces make clocks tie often (zero-instruction
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
 *                   released, bad unlocks ignored and counted;
 *   recorded        traces that record their synchronisation (docs/scheduler.md
 *                   §6.1), written from a random real-time order of the
 *                   threads' steps, so every edge points back and no replay
 *                   deadlocks: releases and acquires of objects, numbered
 *                   critical and ordered sections, barriers, unmodelled
 *                   records; replayed recorded (the reference has the rules
 *                   of §6.1 too) or simulated. Recorded runs are also checked
 *                   on their own: a thread goes on after an acquire or begin
 *                   only after the releases it waits for, no clock goes back.
 * The "sync" cases test common/scheduler_sync.c (watermark, releases out of
 * order, repeats, numbers modulo 2^32) directly.
 * SCHED_TEST_COVERAGE=1 prints what each test's runs covered; each test also
 * asserts that its runs reached the paths it is there for. */
#include "suites.h"
#include "../../common/consumer_loops.h"
#include "../../common/fast_paths.h"
#include "../../base/diag.h"
#include "../../common/scheduler.h"
#include "../../common/scheduler_sync.h"
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

/* The most threads a random set has (the generators' and checks' arrays). */
enum { MAX_THREADS = 256 };

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

/* The synchronisation records the real scheduler processed, in order (for
 * the property checks of recorded runs). */
typedef struct sync_rec {
    int space, thread;
    uint32_t addr, seq;
    bool release;
    size_t at;                  /* its place in the event log */
} sync_rec;

typedef struct real_ctx {
    evlog *log;
    scheduler *s;
    trace_reader **rd;
    sync_rec *sync;
    size_t nsync, capsync;
    /* The ahead hook: its distance (0: off), the generated records, whether
     * every record is in the readers' buffers (the default buffer), what it
     * showed for the delivery to come, and the thread it showed it for (-1:
     * none pending): that delivery must be the next event. */
    unsigned ahead;
    const tu_recs *recs;
    bool whole_buffer;
    int ahead_open;
    smait_raw ahead_rec;
    uint64_t ahead_shown;
    /* The hooks the consumer's own loop (sched_hints.records) delivers to,
     * and the batches it ran. */
    sched_hooks own_hooks;
    uint64_t own_batches;
    /* Stalls (sched_stall): the run's seed (0: none), whether fetches stall
     * too (not with the fetch_mem hint, whose access comes at its fetch's
     * clock), and each thread's fetches so far (a fetch's key). */
    uint64_t stall_seed;
    bool stall_fetches;
    uint64_t *nfetch;
    uint64_t stalled;
} real_ctx;

/* The stall of a thread's reference: the access of record `index` (key
 * index * 2) or its fetch number k (key k * 2 + 1); most are 0, a few far
 * (past the clock queue's window). The same rule for the real run's hooks
 * and the reference. */
static uint64_t stall_of(uint64_t seed, int t, uint64_t key)
{
    if (!seed) return 0;
    uint64_t h = (seed ^ ((uint64_t)t << 40) ^ key) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    unsigned r = (unsigned)(h % 100);
    return r < 70 ? 0 : r < 97 ? 1 + (h >> 8) % 40 : 300 + (h >> 8) % 3000;
}

/* A fetch of thread t in the real run: its stall, sent to the scheduler. */
static uint64_t real_fetch_stall(real_ctx *c, int t)
{
    if (!c->stall_fetches) return 0;
    uint64_t s = stall_of(c->stall_seed, t, c->nfetch[t]++ * 2 + 1);
    if (s) sched_stall(c->s, t, s);
    c->stalled += s;
    return s;
}

/* No ahead call may wait for thread t's delivery (t < 0: for anyone's) when
 * another event comes. */
static void ahead_quiet(const real_ctx *c, int t)
{
    REQUIRE(c->ahead_open < 0 || c->ahead_open == t, "ahead hook for thread %d, then an event of %d",
            c->ahead_open, t);
}

static void h_ahead(void *ctx, int t, int cpu, const smait_raw *rec)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "ahead hook: cpu %d for thread %d in thread mode", cpu, t);
    REQUIRE(c->ahead, "ahead hook called while the scheduler's hooks have none");
    REQUIRE(c->ahead_open < 0, "ahead hook twice before a delivery (threads %d, %d)", c->ahead_open, t);
    c->ahead_open = t;
    c->ahead_rec = *rec;
    c->ahead_shown++;
}

/* Thread t's record is being delivered: the ahead hook must have shown the
 * record `ahead` simple records further on, when it is a memory record
 * (always, when the whole trace is in the buffer; never anything else). */
static void ahead_check(real_ctx *c, int t)
{
    if (!c->ahead) return;
    uint64_t j = trace_reader_index(c->rd[t]) + c->ahead;
    const tu_recs *tr = &c->recs[t];
    bool showable = j < tr->n && (tr->r[j].f1 >> 12) == 0;
    if (c->ahead_open == t) {
        REQUIRE(showable && tr->r[j].f1 == c->ahead_rec.f1 && tr->r[j].f2 == c->ahead_rec.f2,
                "ahead hook showed %08x %08x for record %" PRIu64 " of thread %d, distance %u",
                c->ahead_rec.f1, c->ahead_rec.f2, j - c->ahead, t, c->ahead);
    } else {
        REQUIRE(c->ahead_open < 0, "ahead hook for thread %d, then a record of %d", c->ahead_open, t);
        REQUIRE(!showable || !c->whole_buffer, "ahead hook did not show record %" PRIu64 " of thread %d",
                j, t);
    }
    c->ahead_open = -1;
}

static void h_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    ahead_quiet(c, t);
    push(c->log, EV_FETCH, t, clock, addr, 0, 0);
    real_fetch_stall(c, t);
}

/* The optional one-call form of a gap fill: logged as the n fetches it stands for. */
static void h_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    REQUIRE(n > 0, "fetch_run with n = 0");
    ahead_quiet(c, t);
    uint64_t later = 0;         /* the run's stalls so far delay its later fetches */
    for (uint32_t i = 0; i < n; i++) {
        push(c->log, EV_FETCH, t, clock + i + later, addr + 4 * i, 0, 0);
        later += real_fetch_stall(c, t);
    }
}

static void h_record(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    ahead_check(c, t);
    uint64_t index = trace_reader_index(c->rd[t]);
    push(c->log, EV_REC, t, clock, index, rec->f1, rec->f2);
    if ((rec->f1 >> 28) == 0 && c->stall_seed) {        /* an access (this is the branch hook too) */
        uint64_t s = stall_of(c->stall_seed, t, index * 2);
        if (s) sched_stall(c->s, t, s);
        c->stalled += s;
    }
}

/* The optional one-call form of an access and its instruction's fetch:
 * logged as the fetch then the access. */
static void h_fetch_mem(void *ctx, int t, int cpu, uint64_t clock, uint32_t pc, const smait_raw *rec)
{
    h_fetch(ctx, t, cpu, clock, pc);
    h_record(ctx, t, cpu, clock, rec);
}

static uint64_t h_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    real_ctx *c = ctx;
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    ahead_quiet(c, -1);
    /* f2 of the record's arg1 as the last field: the six parts came together */
    push(c->log, EV_REC, t, clock, trace_reader_index(c->rd[t]), rec->f1, rec[SMAIT_CALL_ARG1].f2);
    unsigned type = smait_call_type(rec->f1);
    int space = type == SMAIT_CT_ACQUIRE || type == SMAIT_CT_RELEASE ? 2 :
                type == SMAIT_CT_BEGIN_ORDER || type == SMAIT_CT_END_ORDER ? 1 :
                type == SMAIT_CT_BEGIN_CRITICAL || type == SMAIT_CT_END_CRITICAL ? 0 : -1;
    if (space >= 0) {
        if (c->nsync == c->capsync) {
            c->capsync = c->capsync ? 2 * c->capsync : 1024;
            c->sync = realloc(c->sync, c->capsync * sizeof *c->sync);
            REQUIRE(c->sync != NULL, "out of memory");
        }
        bool release = type == SMAIT_CT_RELEASE || type == SMAIT_CT_END_ORDER || type == SMAIT_CT_END_CRITICAL;
        c->sync[c->nsync++] = (sync_rec){ space, t, rec[SMAIT_CALL_ARG1].f2, rec[SMAIT_CALL_ARG1 + 1].f2,
                                          release, c->log->n - 1 };
    }
    return 0;
}

static void h_phase_begin(void *ctx, const sched_phase *p)
{
    real_ctx *c = ctx;
    ahead_quiet(c, -1);
    push(c->log, EV_PHASE_BEGIN, p->number, p->start_clock, p->kind, p->by, (uint64_t)p->active);
}

static void h_phase_end(void *ctx, const sched_phase *p)
{
    real_ctx *c = ctx;
    ahead_quiet(c, -1);
    push(c->log, EV_PHASE_END, p->number, p->end_clock, p->kind, p->by | (uint64_t)p->last << 8,
         (uint64_t)p->active);
    for (int t = 0; t < sched_threads(c->s); t++) push_counts(c->log, t, sched_phase_counts(c->s, t));
}

static void h_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    real_ctx *c = ctx;
    ahead_quiet(c, -1);
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    push(c->log, EV_STOP, t, clock, why, 0, 0);
}

static void h_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    real_ctx *c = ctx;
    ahead_quiet(c, -1);
    REQUIRE(cpu == t, "hook: cpu %d for thread %d in thread mode", cpu, t);
    push(c->log, EV_RESUME, t, clock, idle, 0, 0);
}

/* The consumer's own copy of the scheduler's loop (consumer_loops.h), made
 * from the run's hooks; they are chosen at run time, so the copy calls them
 * through pointers, but it is the copy's loop that runs. Its hooks always
 * have the ahead hook: a scheduler without one must keep it quiet. */
static inline __attribute__((always_inline)) sched_hooks own_hooks(void *ctx)
{
    return ((real_ctx *)ctx)->own_hooks;
}
CONSUMER_LOOPS_DEFINE(direct_own_hooks, own_hooks)

static uint64_t counted_records(void *ctx, sched_lane *lane, uint64_t limit, const smait_raw **last, bool look)
{
    ((real_ctx *)ctx)->own_batches++;
    return direct_own_hooks_records(ctx, lane, limit, last, look);
}

/* ---- the reference scheduler (docs/scheduler.md §2–§10) ----------------------------- */

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
    uint32_t seq;               /* recorded: releases 1..seq of the key it waits for */
    sched_counts c, at;         /* totals, and totals when the phase began */
} rthread;

typedef struct rlock {
    sched_wait space;
    uint32_t addr;
    int holder;                 /* -1 free */
} rlock;

/* Recorded synchronisation: which releases of a key were replayed (numbers
 * stay small in these sets: no modulo). */
typedef struct rkey {
    int space;                  /* 0 critical, 1 ordered, 2 object */
    uint32_t addr;
    bool *done;                 /* done[r]: release r replayed */
    size_t cap;
} rkey;

typedef struct ref {
    int n;
    rthread *th;
    bool parallel_start, lenient;
    bool recorded;              /* --sync: replay acquire/release and section seq */
    rkey *keys;
    size_t nkeys;
    uint64_t *um;               /* unmodelled counts [cause * n + thread]; cause 0: unnamed */
    uint32_t gap;
    int prev;
    sched_phase ph;
    bool done;
    rlock *locks;
    size_t nlocks;
    sched_problems pr;
    evlog *log;
    uint64_t stall_seed;        /* as real_ctx's */
    bool stall_fetches;
    uint64_t turn;              /* --turns (§14): one processor, turns of this length; 0 = §3 */
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

static rkey *r_key(ref *s, int space, uint32_t addr)
{
    for (size_t i = 0; i < s->nkeys; i++)
        if (s->keys[i].space == space && s->keys[i].addr == addr) return &s->keys[i];
    s->keys = realloc(s->keys, (s->nkeys + 1) * sizeof *s->keys);
    s->keys[s->nkeys] = (rkey){ space, addr, NULL, 0 };
    return &s->keys[s->nkeys++];
}

/* Releases 1..seq of the key are all replayed (seq 0: none needed). */
static bool r_ready(ref *s, int space, uint32_t addr, uint32_t seq)
{
    rkey *k = r_key(s, space, addr);
    for (uint32_t r = 1; r <= seq; r++)
        if (r >= k->cap || !k->done[r]) return false;
    return true;
}

static void r_replay(ref *s, int space, uint32_t addr, uint32_t r)
{
    rkey *k = r_key(s, space, addr);
    if (r >= k->cap) {
        size_t cap = 2 * (size_t)r + 16;
        k->done = realloc(k->done, cap * sizeof *k->done);
        memset(k->done + k->cap, 0, (cap - k->cap) * sizeof *k->done);
        k->cap = cap;
    }
    REQUIRE(!k->done[r], "reference: release %u of key %d:0x%x replayed twice", r, space, addr);
    k->done[r] = true;
}

static void r_call(ref *s, int t, const smait_raw *rec)
{
    rthread *x = &s->th[t];
    uint32_t arg1 = rec[2].f2, arg2 = rec[3].f2;
    /* Recorded synchronisation: seq and kind (formats/SMAIT.md §5.1). */
    uint32_t seq = s->recorded ? arg2 : 0, kind = s->recorded ? rec[4].f2 : 0;
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
        if (l->holder < 0 && r_ready(s, space == WAIT_ORDERED, arg1, seq)) {
            l->holder = t;
        } else {
            x->key = arg1;
            x->seq = seq;
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
        if (seq || kind) r_replay(s, space == WAIT_ORDERED, arg1, seq);
        int next = -1;                          /* smallest clock, ties lowest id, */
        for (int u = 0; u < s->n; u++) {        /* among those whose releases are replayed */
            rthread *y = &s->th[u];
            if (y->state == R_BLOCKED && y->wait == space && y->key == arg1 &&
                (next < 0 || y->clock < s->th[next].clock) && r_ready(s, space == WAIT_ORDERED, arg1, y->seq))
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
    case SMAIT_CT_ACQUIRE:
        if (s->recorded && !r_ready(s, 2, arg1, seq)) {
            x->key = arg1;
            x->seq = seq;
            r_stop(s, t, R_BLOCKED, WAIT_ACQUIRE);
        }
        break;
    case SMAIT_CT_RELEASE:
        if (!s->recorded || (!seq && !kind)) break;
        r_replay(s, 2, arg1, seq);
        for (int u = 0; u < s->n; u++) {        /* every completed wait, lowest id first */
            rthread *y = &s->th[u];
            if (y->state == R_BLOCKED && y->wait == WAIT_ACQUIRE && y->key == arg1 &&
                r_ready(s, 2, arg1, y->seq))
                r_resume(s, u, y->clock > x->clock ? y->clock : x->clock);
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
    uint64_t st = s->stall_fetches ? stall_of(s->stall_seed, t, x->c.is.fetched * 2 + 1) : 0;
    x->clock += st;
    x->c.stall += st;
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
        if (smait_call_type(f1) == SMAIT_CT_UNMODELLED) {
            uint32_t what = rec[2].f2;
            s->um[(what < SMAIT_UM_COUNT ? what : 0) * (size_t)s->n + (size_t)t] += rec[3].f2;
        }
        push(s->log, EV_REC, t, x->clock, index, f1, rec[SMAIT_CALL_ARG1].f2);
        r_call(s, t, rec);
        return;
    }
    x->pos++;
    uint64_t stall = 0;
    switch (f1 >> 28) {
    case 0x0:                                   /* memory access: one instruction */
        x->clock++;
        x->c.is.executed++;
        if (x->valid) r_fetch(s, t);
        stall = stall_of(s->stall_seed, t, index * 2);
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
    x->clock += stall;                          /* the access's stall, after it */
    x->c.stall += stall;
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

/* --turns (docs/scheduler.md §14), record by record: the running thread goes
 * on while it is runnable and its clock is below its turn's end; else the
 * next runnable thread after it in thread order (itself last) takes a turn
 * at the processor's clock, the largest clock a running thread has had. */
static void r_run_turns(ref *s)
{
    int cur = -1;
    uint64_t end = 0, cpu = 0;
    while (!s->done) {
        if (cur < 0 || s->th[cur].state != R_RUNNABLE || s->th[cur].clock >= end) {
            int next = -1;
            for (int k = 1; k <= s->n && next < 0; k++) {
                int t = cur < 0 ? k - 1 : (cur + k) % s->n;
                if (s->th[t].state == R_RUNNABLE) next = t;
            }
            if (next < 0) {
                r_nothing_runnable(s);
                continue;
            }
            cur = next;
            rthread *x = &s->th[cur];
            if (x->clock < cpu) {
                x->c.sync_idle += cpu - x->clock;
                x->clock = cpu;
            }
            end = cpu + s->turn;
        }
        r_step(s, cur);
        if (s->th[cur].clock > cpu) cpu = s->th[cur].clock;
    }
}

static void r_run(ref *s)
{
    if (s->parallel_start) r_begin_phase(s, PHASE_PARALLEL, PHASE_BY_START, s->n);
    else r_begin_phase(s, PHASE_SERIAL, PHASE_BY_START, 1);
    if (s->turn) r_run_turns(s);
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
typedef enum gen_kind { GEN_PARALLEL, GEN_REGIONS, GEN_CHAOS, GEN_RECORDED } gen_kind;

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
    gen g[MAX_THREADS];
    bool finished[MAX_THREADS] = { false };
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
        bool in[MAX_THREADS];
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

/* A set that records its synchronisation (start_trace sync=1), written as a
 * real run would: one random global (real-time) order of the threads' steps,
 * in which a thread begins a section only on a free lock and every thread
 * meets at each barrier. Release numbers are given in that order, and an
 * acquire or a begin records the releases that had happened, so every edge
 * points back in real time and the replay can never deadlock. Sections nest
 * as in g_section (critical ones by increasing address, ordered ones
 * innermost); releases of the same object by several threads, acquires of
 * older releases and acquires before any release occur. -p; barriers of all
 * threads. */
enum { REC_OBJECTS = 3 };
static const uint32_t obj_addrs[REC_OBJECTS] = { 0x7000, 0x7040, 0x100 };  /* 0x100: also a lock */

typedef struct rec_thread {
    gen g;
    unsigned left;              /* steps left in the current segment */
    unsigned seg;               /* barriers passed */
    int held[4];                /* section stack: 0..2 critical (lock_addrs), 3+k ordered k */
    int nheld;
    bool at_barrier, done;
} rec_thread;

static void g_call3(gen *g, unsigned type, uint32_t a1, uint32_t a2, uint32_t a3)
{
    uint32_t t0 = rbelow(g->r, 100000);
    tu_add_call(g->t, type, t0, t0 + rbelow(g->r, 50), a1, a2, a3, 0);
}

static void gen_recorded(rng *r, tu_recs *t, int P, uint32_t gap, int style, unsigned scale, bool skewed)
{
    rec_thread *x = calloc((size_t)P, sizeof *x);
    unsigned nb = rbelow(r, 4);
    int holder[5];                  /* critical 0..2, ordered 0..1 (index 3, 4) */
    uint32_t lock_rel[5] = { 0 }, obj_rel[REC_OBJECTS] = { 0 };
    for (int k = 0; k < 5; k++) holder[k] = -1;
    for (int i = 0; i < P; i++) {
        x[i].g = (gen){ r, &t[i], code_addr(r), gap, style, P, thread_scale(r, scale, skewed), true };
        x[i].left = body_len(r, x[i].g.scale);
        g_call3(&x[i].g, SMAIT_CT_START_TRACE, i == 0 || rchance(r, 70) ? SMAIT_START_SYNC : 0, 0, 0);
    }
    int *ready = calloc((size_t)P, sizeof *ready);
    for (;;) {
        int n = 0, waiting = 0;
        for (int i = 0; i < P; i++) {
            if (x[i].done) continue;
            if (x[i].at_barrier) waiting++;
            else ready[n++] = i;
        }
        if (!n) {
            if (!waiting) break;
            for (int i = 0; i < P; i++) {   /* everyone is at the barrier: it opens */
                if (x[i].done) continue;
                x[i].at_barrier = false;
                x[i].seg++;
                x[i].left = body_len(r, x[i].g.scale);
            }
            continue;
        }
        rec_thread *y = &x[ready[rbelow(r, (uint32_t)n)]];
        gen *g = &y->g;
        if (y->left == 0) {             /* the segment's end: close the sections first */
            if (y->nheld) {
                int k = y->held[--y->nheld];
                holder[k] = -1;
                lock_rel[k]++;
                bool ord = k >= 3;
                g_call3(g, ord ? SMAIT_CT_END_ORDER : SMAIT_CT_END_CRITICAL, lock_addrs[ord ? k - 3 : k],
                        lock_rel[k], ord ? SMAIT_SK_OMP_ORDERED : SMAIT_SK_MUTEX);
            } else if (y->seg < nb) {
                g_call3(g, SMAIT_CT_BARRIER, 0x8000, 0, 0);
                y->at_barrier = true;
            } else {
                if (rchance(r, 30)) g_call3(g, SMAIT_CT_UNMODELLED, 1 + rbelow(r, 9), rbelow(r, 5), 0);
                if (rchance(r, 50)) g_call3(g, SMAIT_CT_END_TRACE, 0, 0, 0);
                y->done = true;
            }
            continue;
        }
        y->left--;
        unsigned c = rbelow(r, 100);
        int top = y->nheld ? y->held[y->nheld - 1] : -1;
        uint32_t o = rbelow(r, REC_OBJECTS);
        if (c < 55) {
            g_item(g);
        } else if (c < 65) {                /* a release: the next number of the object */
            g_call3(g, SMAIT_CT_RELEASE, obj_addrs[o], ++obj_rel[o], 1 + rbelow(r, SMAIT_SK_COUNT - 1));
        } else if (c < 75) {                /* an acquire: of the last release, or an older one */
            uint32_t seq = rchance(r, 75) ? obj_rel[o] : rbelow(r, obj_rel[o] + 1);
            g_call3(g, SMAIT_CT_ACQUIRE, obj_addrs[o], seq, 1 + rbelow(r, SMAIT_SK_COUNT - 1));
        } else if (c < 88 && top < 3) {     /* begin a section on a free lock, nested as allowed */
            int k = rchance(r, 30) ? 3 + (int)rbelow(r, 2) : top + 1 + (int)rbelow(r, (uint32_t)(2 - top));
            if (k < 5 && holder[k] < 0) {
                bool ord = k >= 3;
                holder[k] = (int)(y - x);
                y->held[y->nheld++] = k;
                /* seq: the releases of the lock so far */
                g_call3(g, ord ? SMAIT_CT_BEGIN_ORDER : SMAIT_CT_BEGIN_CRITICAL, lock_addrs[ord ? k - 3 : k],
                        lock_rel[k], ord ? SMAIT_SK_OMP_ORDERED : SMAIT_SK_MUTEX);
            } else {
                g_item(g);
            }
        } else if (y->nheld) {              /* end the innermost section */
            int k = y->held[--y->nheld];
            holder[k] = -1;
            lock_rel[k]++;
            bool ord = k >= 3;
            g_call3(g, ord ? SMAIT_CT_END_ORDER : SMAIT_CT_END_CRITICAL, lock_addrs[ord ? k - 3 : k],
                    lock_rel[k], ord ? SMAIT_SK_OMP_ORDERED : SMAIT_SK_MUTEX);
        } else {
            g_item(g);
        }
    }
    free(ready);
    free(x);
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
             lock_waits, joins, far_jumps, ties, acquire_waits, unmodelled;
    uint64_t ahead_shown;       /* records the ahead hook showed */
    uint64_t stalled;           /* cycles of sched_stall */
    uint64_t own_batches;       /* batches run by the consumer's own loop */
    uint64_t turn_runs;         /* runs in turns (--turns) */
} coverage;

/* Properties of a recorded run, checked on the real scheduler alone: after
 * an acquire or the begin of a section with seq s, the thread's next record
 * comes after releases 1..s of its key; and no thread's clock ever goes back. */
static void check_recorded(const real_ctx *c, const evlog *got, int P, const char *what)
{
    /* next[i]: the log position of the next record of event i's thread. */
    size_t *next = malloc((got->n + 1) * sizeof *next), last[MAX_THREADS];
    for (int t = 0; t < P; t++) last[t] = SIZE_MAX;
    for (size_t i = got->n; i-- > 0;) {
        next[i] = last[got->e[i].thread < P ? got->e[i].thread : 0];
        if (got->e[i].kind == EV_REC) last[got->e[i].thread] = i;
    }
    typedef struct key { int space; uint32_t addr; uint32_t n; size_t *at; } key;   /* at[r]: release r */
    key *keys = NULL;
    size_t nkeys = 0;
    for (int pass = 0; pass < 2; pass++)      /* the releases first, then the waits */
        for (size_t i = 0; i < c->nsync; i++) {
            const sync_rec *e = &c->sync[i];
            if (e->release != (pass == 0)) continue;
            key *k = NULL;
            for (size_t j = 0; j < nkeys && !k; j++)
                if (keys[j].space == e->space && keys[j].addr == e->addr) k = &keys[j];
            if (!k) {
                keys = realloc(keys, (nkeys + 1) * sizeof *keys);
                k = &keys[nkeys++];
                *k = (key){ e->space, e->addr, 0, NULL };
            }
            if (e->seq >= k->n) {
                uint32_t n = 2 * e->seq + 16;
                k->at = realloc(k->at, n * sizeof *k->at);
                for (uint32_t r = k->n; r < n; r++) k->at[r] = SIZE_MAX;
                k->n = n;
            }
            if (e->release) {
                k->at[e->seq] = e->at;
                continue;
            }
            size_t q = next[e->at];
            if (q == SIZE_MAX) continue;        /* its trace ends there */
            for (uint32_t r = 1; r <= e->seq; r++)
                REQUIRE(k->at[r] < q, "%s: thread %d goes on (event %zu) after waiting for release %u of"
                        " key %d:0x%x (seq %u), which comes at event %zu", what, e->thread, q, r, e->space,
                        e->addr, e->seq, k->at[r]);
        }
    for (size_t j = 0; j < nkeys; j++) free(keys[j].at);
    free(keys);
    free(next);
    uint64_t clock[MAX_THREADS] = { 0 };
    for (size_t i = 0; i < got->n; i++) {
        const ev *e = &got->e[i];
        if (e->kind != EV_REC && e->kind != EV_STOP && e->kind != EV_RESUME) continue;
        REQUIRE(e->thread < P && e->v[0] >= clock[e->thread], "%s: thread %d's clock goes back at event %zu",
                what, e->thread, i);
        clock[e->thread] = e->v[0];
    }
}

/* A trace that begins with start_trace must end with end_trace, or it is cut
 * (formats/SMAIT.md §12). The generators put start_trace and end_trace
 * anywhere (harmless calls, half of the frames): a trace that begins with
 * one gets an end_trace at its end when its last six records are not one. */
static void end_started_trace(tu_recs *t)
{
    const smait_raw *p = t->r;
    if (t->n < SMAIT_CALL_PARTS || smait_classify(p[0].f1) != SMAIT_CALL_PART || smait_call_index(p[0].f1) != 0 ||
        smait_call_type(p[0].f1) != SMAIT_CT_START_TRACE || !smait_call_group_ok(p))
        return;
    const smait_raw *last = p + t->n - SMAIT_CALL_PARTS;
    if (smait_call_index(last->f1) == 0 && smait_call_type(last->f1) == SMAIT_CT_END_TRACE &&
        smait_classify(last->f1) == SMAIT_CALL_PART && smait_call_group_ok(last))
        return;
    tu_add_call(t, SMAIT_CT_END_TRACE, 0, 0, 0, 0, 0, 0);
}

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
    else if (rs->kind == GEN_CHAOS) gen_chaos(&r, t, P, gap, style, scale, skewed);
    else gen_recorded(&r, t, P, gap, style, scale, skewed);
    bool parallel_start = rs->kind == GEN_PARALLEL || rs->kind == GEN_RECORDED ||
                          (rs->kind == GEN_CHAOS && rchance(&r, 50));
    bool lenient = rs->kind == GEN_CHAOS;
    /* Recorded sets: the recorded order (by default or asked for), or now and
     * then the simulated one (the same sets are deadlock-free either way). */
    sched_sync sync = SCHED_SYNC_AUTO;
    if (rs->kind == GEN_RECORDED) {
        uint32_t c = rbelow(&r, 4);
        sync = c == 0 ? SCHED_SYNC_SIMULATED : c == 1 ? SCHED_SYNC_RECORDED : SCHED_SYNC_AUTO;
    }
    bool recorded = rs->kind == GEN_RECORDED && sync != SCHED_SYNC_SIMULATED;
    /* Every third seed on one processor in turns (§14), short or long; drawn
     * from a generator of their own, so that the sets stay as they were. */
    rng rt = { rs->seed * 31 + (uint64_t)rs->threads * 7 + rs->kind };
    uint64_t turn = rs->seed % 3 == 0 ? 1 + rbelow(&rt, rchance(&rt, 50) ? 8 : 400) : 0;
    cov->turn_runs += turn != 0;

    /* Write the set: plain or gzip, either byte order (given to the reader:
     * short random traces can be valid in both orders, and auto-detection
     * then rightly takes little-endian). */
    smait_order order = rchance(&r, 20) ? SMAIT_ORDER_BIG : SMAIT_ORDER_LITTLE;
    char dir[4096], prefix[4200], what[256];
    snprintf(dir, sizeof dir, "%s/sched-%d-%d-%" PRIu64, tu_dir, rs->kind, P, rs->seed);
    snprintf(prefix, sizeof prefix, "%s/t.%d", dir, P);
    snprintf(what, sizeof what, "kind %d, %d threads, seed %" PRIu64 ", gap %u, style %d%s%s%s%s, turns %" PRIu64,
             rs->kind, P, rs->seed, gap, style, skewed ? ", skewed" : "", parallel_start ? ", -p" : "",
             lenient ? ", --lenient" : "", rs->kind != GEN_RECORDED ? "" : recorded ? ", recorded" : ", simulated",
             turn);
    tu_rmtree(dir);
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    for (int i = 0; i < P; i++) end_started_trace(&t[i]);
    for (int i = 0; i < P; i++) {
        char p[4300];
        snprintf(p, sizeof p, "%s.%d", prefix, i);
        if (rchance(&r, 10)) tu_write_trace_gz(p, &t[i], order);
        else tu_write_trace(p, &t[i], order);
    }

    /* The real scheduler. */
    /* 1 << 16 holds any generated trace whole (the ahead hook must then show
     * every record); the others make refills fall anywhere. */
    enum { WHOLE = 1 << 16 };
    static const size_t buffers[] = { WHOLE, 12, 13, 31, 200 };
    trace_set ts;
    trace_set_from_prefix(&ts, prefix);
    /* quiet: random sets have idle threads, whose empty traces would each
     * be warned of (thousands of lines); the warnings are not under test. */
    trace_reader_opts ro = { .order = order, .lenient = lenient,
                             .buffer_records = buffers[rbelow(&r, 5)], .quiet = true };
    for (int i = 0; i < P; i++) ck_assert_uint_lt(t[i].n, WHOLE);
    trace_reader **rd = trace_set_open(&ts, &ro);
    evlog got = { 0 };
    /* The ahead hook, half of the time, at a distance of 1 to 64 records
     * (its own generator: the other choices stay as they were). */
    rng ra = { r.s ^ 0xa5a5a5a5a5a5a5a5ull };
    static const unsigned distances[] = { 1, 2, 3, 7, 16, 64 };
    real_ctx ctx = { .log = &got, .rd = rd, .recs = t, .whole_buffer = ro.buffer_records == WHOLE, .ahead_open = -1,
                     .ahead = rchance(&ra, 50) ? distances[rbelow(&ra, 6)] : 0 };
    unsigned ahead_asked = ctx.ahead;
    if (!FAST_PATHS) ctx.ahead = 0;     /* a build taking the general paths ignores the hints */
    sched_hooks h = {
        .ctx = &ctx, .fetch = h_fetch, .mem = h_record, .call = h_call, .branch = h_record,
        .phase_begin = h_phase_begin, .phase_end = h_phase_end,
        .thread_stop = h_stop, .thread_resume = h_resume,
    };
    if (ahead_asked) {
        h.hint.ahead = h_ahead;
        h.hint.ahead_distance = ahead_asked;
    }
    uint32_t fetch_hooks = rbelow(&r, 4);               /* 0: none (a tool without them) */
    if (fetch_hooks == 0) h.fetch = NULL;
    if (fetch_hooks == 2) h.hint.fetch_run = h_fetch_run;       /* gap fills in one call */
    if (fetch_hooks == 3) h.hint.fetch_mem = h_fetch_mem;       /* an access with its fetch */
    /* Stalls in a third of the runs (their own generator): the accesses', and
     * the fetches' unless the fetch_mem hint delivers them. */
    rng rs_ = { r.s ^ 0x5bd1e9955bd1e995ull };
    if (rchance(&rs_, 33)) ctx.stall_seed = rnext(&rs_) | 1;
    ctx.stall_fetches = ctx.stall_seed && fetch_hooks != 3 && (fetch_hooks != 0);
    ctx.nfetch = calloc((size_t)P, sizeof *ctx.nfetch);
    /* Half of the runs through the consumer's own loop (its own generator). */
    bool own = rchance(&ra, 50);
    if (own) {
        ctx.own_hooks = h;
        if (!ctx.own_hooks.hint.ahead) {
            ctx.own_hooks.hint.ahead = h_ahead;
            ctx.own_hooks.hint.ahead_distance = 5;
        }
        h.hint.records = counted_records;
    }
    sched_options so = { .parallel_start = parallel_start, .lenient = lenient, .gap_limit = gap, .sync = sync,
                         .turn_length = turn };
    ctx.s = sched_create(&ts, rd, &so, &h);
    diag_lenient_reset();
    tu_capture_begin();
    sched_run(ctx.s);
    char *warnings = tu_capture_end();
    ahead_quiet(&ctx, -1);
    cov->ahead_shown += ctx.ahead_shown;
    cov->own_batches += ctx.own_batches;
    cov->stalled += ctx.stalled;
    if (!own) ck_assert_uint_eq(ctx.own_batches, 0);

    /* The reference. */
    evlog want = { 0 };
    ref s = { .n = P, .parallel_start = parallel_start, .lenient = lenient, .gap = gap,
              .prev = -1, .log = &want, .recorded = recorded, .stall_seed = ctx.stall_seed,
              .stall_fetches = ctx.stall_fetches, .turn = turn };
    s.um = calloc((size_t)SMAIT_UM_COUNT * (size_t)P, sizeof *s.um);
    s.th = calloc((size_t)P, sizeof *s.th);
    for (int i = 0; i < P; i++) s.th[i] = (rthread){ .rec = t[i].r, .n = t[i].n };
    r_run(&s);

    /* Without fetch hooks the scheduler reports no fetches (and nothing else
     * changes); the hints deliver exactly what fetch alone sees. Drop what
     * the hooks could not see. */
    evlog seen = { 0 };
    for (size_t i = 0; i < want.n; i++) {
        const ev *e = &want.e[i];
        if (e->kind == EV_FETCH && fetch_hooks == 0) continue;
        push(&seen, e->kind, e->thread, e->v[0], e->v[1], e->v[2], e->v[3]);
    }
    compare_logs(&seen, &got, what);
    free(seen.e);
    if (recorded) check_recorded(&ctx, &got, P, what);
    uint64_t last_clock[MAX_THREADS] = { 0 };
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
        cov->acquire_waits += e->kind == EV_STOP && e->v[1] == WAIT_ACQUIRE;
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
    /* One warning per released deadlock, per ignored unlock or release
     * replayed twice (at most DIAG_LENIENT_SHOWN of each kind, then a note;
     * after them the --lenient summary), per thread with records left over;
     * none in a consistent set without leftovers. */
    uint64_t dl = diag_lenient_count(DIAG_LENIENT_DEADLOCK), bu = diag_lenient_count(DIAG_LENIENT_BAD_UNLOCK),
             dr = diag_lenient_count(DIAG_LENIENT_DUP_RELEASE);
    ck_assert_msg(dl == s.pr.deadlocks && bu + dr == s.pr.bad_unlocks, "%s: --lenient counts", what);
#define SHOWN(n) ((n) <= DIAG_LENIENT_SHOWN ? (n) : DIAG_LENIENT_SHOWN + 1)
    uint64_t lenient_lines = SHOWN(dl) + SHOWN(bu) + SHOWN(dr) + (dl + bu + dr > 0);
#undef SHOWN
    uint64_t lines = 0, leftover = 0, causes = 0;
    for (const char *p = warnings; *p; p++) lines += *p == '\n';
    for (int i = 0; i < P; i++) leftover += s.th[i].pos < s.th[i].n;
    /* ... and one per cause of unmodelled synchronisation, whose counts
     * per thread the scheduler keeps as the reference does. */
    for (unsigned c = 0; c < SMAIT_UM_COUNT; c++) {
        uint64_t sum = 0;
        for (int i = 0; i < P; i++) {
            sum += s.um[c * (size_t)P + (size_t)i];
            ck_assert_msg(sched_unmodelled(ctx.s, c, i) == s.um[c * (size_t)P + (size_t)i],
                          "%s: unmodelled cause %u, thread %d", what, c, i);
        }
        ck_assert_msg(sched_unmodelled(ctx.s, c, -1) == sum, "%s: unmodelled cause %u total", what, c);
        causes += sum != 0;
        cov->unmodelled += sum != 0;
    }
    ck_assert_msg(lines == lenient_lines + leftover + causes,
                  "%s: %" PRIu64 " warning lines:\n%s", what, lines, warnings);
    free(warnings);

    sched_free(ctx.s);
    trace_set_close_readers(&ts, rd);
    trace_set_free(&ts);
    for (int i = 0; i < P; i++) tu_recs_free(&t[i]);
    free(t);
    free(s.th);
    free(s.locks);
    for (size_t i = 0; i < s.nkeys; i++) free(s.keys[i].done);
    free(s.keys);
    free(s.um);
    free(ctx.sync);
    free(ctx.nfetch);
    free(got.e);
    free(want.e);
    tu_rmtree(dir);
}

/* 65, 128 and 200: queues of two, two full and four words (run_fast keeps one
 * word of the level in a register and moves between them). */
static const int thread_counts[] = { 2, 4, 16, 64, 65, 128, 200 };

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
                " far_jumps %" PRIu64 " ties %" PRIu64 " acquire_waits %" PRIu64 " unmodelled %" PRIu64 "\n",
                kind, threads, cov.records, cov.fetches, cov.phases, cov.deadlocks, cov.bad_unlocks,
                cov.unprocessed, cov.barrier_waits, cov.lock_waits, cov.joins, cov.far_jumps, cov.ties,
                cov.acquire_waits, cov.unmodelled);
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
    ck_assert_uint_gt(c.stalled, 1000);     /* sched_stall moved clocks */
    ck_assert_uint_gt(c.turn_runs, 3);      /* on one processor in turns */
    if (FAST_PATHS) {                       /* a build taking the general paths ignores the hints */
        ck_assert_uint_gt(c.ahead_shown, 1000);
        ck_assert_uint_gt(c.own_batches, 1000);
    }
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
    ck_assert_uint_gt(c.stalled, 1000);
    ck_assert_uint_gt(c.turn_runs, 3);
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

/* ---- the pseudo clock's limit (SCHED_CLOCK_LIMIT) -------------------------------- */

/* Disk waits from the call hook: waits[i] for the i-th call record. */
typedef struct limit_run {
    const char *prefix;
    bool slices;
    uint64_t waits[4];
    int calls;
    uint64_t end_clock;
    uint64_t stall;             /* the mem hook stalls every access this much (sched_stall) */
    scheduler *s;
} limit_run;

static void l_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)cpu; (void)clock; (void)rec;
    limit_run *l = ctx;
    sched_stall(l->s, t, l->stall);
}

static uint64_t l_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    (void)t; (void)cpu; (void)clock; (void)rec;
    limit_run *l = ctx;
    return l->waits[l->calls++];
}

static void l_phase_end(void *ctx, const sched_phase *ph)
{
    ((limit_run *)ctx)->end_clock = ph->end_clock;
}

static void limit_job(void *arg)
{
    limit_run *l = arg;
    diag_set_tool("cdat");
    trace_set ts;
    trace_set_from_prefix(&ts, l->prefix);
    trace_reader **rd = trace_set_open(&ts, NULL);
    sched_options so = { .parallel_start = !l->slices, .slice_cpus = l->slices, .gap_limit = 4096 };
    sched_hooks h = { .ctx = l, .call = l_call, .phase_end = l_phase_end, .mem = l->stall ? l_mem : NULL };
    scheduler *s = sched_create(&ts, rd, &so, &h);
    l->s = s;
    sched_run(s);
    printf("end %" PRIu64 "\n", l->end_clock);
    sched_free(s);
    trace_set_close_readers(&ts, rd);
    trace_set_free(&ts);
}

/* One thread: a read (waits[0]) at clock 0, then a procedure start at
 * 0x1000 and a branch from 0x1000 + 4·fill: a gap fill of `fill`
 * instructions; then a second read (waits[1]). */
static const char *limit_set(const char *name, uint32_t fill)
{
    tu_recs t = { 0 };
    tu_add_call(&t, SMAIT_CT_READ, 0, 0, 0x2000, 64, 3, 0);
    tu_add(&t, 0x40000000u, 0x1000);
    tu_add(&t, 0x80000000u | (0x1000u + 4 * fill), 0x3000);
    tu_add_call(&t, SMAIT_CT_READ, 0, 0, 0x2000, 64, 3, 0);
    char path[64];
    snprintf(path, sizeof path, "%s.1.0", name);
    tu_write_trace(tu_file(path), &t, SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);
    snprintf(path, sizeof path, "%s.1", name);
    return tu_file(path);
}

static void limit_expect(limit_run *l, int status, const char *out, const char *err_fmt)
{
    char *o = NULL, *e = NULL, want[512];
    int st = tu_run(limit_job, l, NULL, &o, &e);
    snprintf(want, sizeof want, err_fmt, l->prefix);
    ck_assert_str_eq(e, want);
    ck_assert_str_eq(o, out);
    ck_assert_int_eq(st, status);
    free(o);
    free(e);
}

#define LIMIT_HINT_IO "(a smaller -disk_latency, -mhz or -ipc or a larger -dma_bw shortens the waits)\n"

START_TEST(clock_limit_reached_not_passed)
{
    /* Waits to 2^51 - 5, a fill of 5 (clock 2^51), a wait of 0: exactly the limit. */
    limit_run l = { .prefix = limit_set("lim-exact", 5), .waits = { SCHED_CLOCK_LIMIT - 5, 0 } };
    limit_expect(&l, 100, "end 2251799813685248\n", "");
    l.slices = true;
    l.calls = 0;
    limit_expect(&l, 100, "end 2251799813685248\n", "");
}
END_TEST

START_TEST(clock_limit_passed_by_a_wait)
{
    /* At the limit after the fill, a wait of 1 would pass it: the second
     * read is record 8 (6 simple records of the first read, 6, 7), offset 64. */
    limit_run l = { .prefix = limit_set("lim-wait", 5), .waits = { SCHED_CLOCK_LIMIT - 5, 1 } };
    const char *err = "cdat: %s.0: 64: record 8: the disk wait of 1 cycles at clock 2251799813685248 would take"
                      " the pseudo clock past its limit of 2^51 = 2251799813685248 " LIMIT_HINT_IO;
    limit_expect(&l, 2, "", err);
    l.slices = true;                /* slice mode: the processor's clock, the same message */
    l.calls = 0;
    limit_expect(&l, 2, "", err);
    /* A first wait past it at clock 0 (a wait larger than the limit is not added up). */
    limit_run big = { .prefix = l.prefix, .waits = { UINT64_MAX } };
    limit_expect(&big, 2, "", "cdat: %s.0: 0: record 0: the disk wait of 18446744073709551615 cycles at clock 0"
                 " would take the pseudo clock past its limit of 2^51 = 2251799813685248 " LIMIT_HINT_IO);
}
END_TEST

START_TEST(clock_limit_passed_by_a_gap_fill)
{
    /* Waits to 2^51 - 5, then a fill of 6: the branch is record 7 (offset 56). */
    limit_run l = { .prefix = limit_set("lim-fill", 6), .waits = { SCHED_CLOCK_LIMIT - 5, 0 } };
    const char *err = "cdat: %s.0: 56: record 7: a gap fill of 6 instructions at clock 2251799813685243 would"
                      " take the pseudo clock past its limit of 2^51 = 2251799813685248 (a smaller --gap-limit"
                      " fills less)\n";
    limit_expect(&l, 2, "", err);
    l.slices = true;
    l.calls = 0;
    limit_expect(&l, 2, "", err);
}
END_TEST

/* sched_stall: a read's wait to 2^51 - 10, then a load (record 6, offset
 * 48) at clock 2^51 - 9 whose stall takes the clock to the limit (9) or
 * past it (10). Thread mode only (the stalls of a consumer's machine). */
START_TEST(clock_limit_passed_by_a_stall)
{
    tu_recs t = { 0 };
    tu_add_call(&t, SMAIT_CT_READ, 0, 0, 0x2000, 64, 3, 0);
    tu_add(&t, smait_mem_f1(SMAIT_LOAD, 2, 0), 0x20000000);
    tu_write_trace(tu_file("lim-stall.1.0"), &t, SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);
    limit_run l = { .prefix = tu_file("lim-stall.1"), .waits = { SCHED_CLOCK_LIMIT - 10 }, .stall = 9 };
    limit_expect(&l, 100, "end 2251799813685248\n", "");
    l = (limit_run){ .prefix = l.prefix, .waits = { SCHED_CLOCK_LIMIT - 10 }, .stall = 10 };
    limit_expect(&l, 2, "", "cdat: %s.0: 48: record 6: a stall of 10 cycles at clock 2251799813685239 would take the"
                 " pseudo clock past its limit of 2^51 = 2251799813685248 (smaller [timing] latencies or a"
                 " shorter trace keep it below)\n");
}
END_TEST

START_TEST(counts_add_saturates)
{
    sched_counts a = { .is.executed = UINT64_MAX - 1, .sync_idle = 5, .io_idle = UINT64_MAX };
    sched_counts b = { .is.executed = 2, .sync_idle = 7, .io_idle = 1 };
    sched_counts_add(&a, &b);
    ck_assert_uint_eq(a.is.executed, UINT64_MAX);
    ck_assert_uint_eq(a.sync_idle, 12);
    ck_assert_uint_eq(a.io_idle, UINT64_MAX);
}
END_TEST

START_TEST(random_recorded)
{
    coverage c = runs(GEN_RECORDED, thread_counts[_i], seeds_for(thread_counts[_i]));
    ck_assert_uint_gt(c.records, 10000);
    ck_assert_uint_gt(c.ties, 1000);
    ck_assert_uint_gt(c.acquire_waits, 50);
    ck_assert_uint_gt(c.lock_waits, 50);
    ck_assert_uint_gt(c.barrier_waits, 20);
    ck_assert_uint_gt(c.unmodelled, 5);
}
END_TEST

/* ---- the releases replayed per key (common/scheduler_sync.c) ------------------------- */

typedef struct dups { sync_release r[8]; int n; } dups;

static void on_dup(void *ctx, const sync_release *again)
{
    dups *d = ctx;
    ck_assert_int_lt(d->n, 8);
    d->r[d->n++] = *again;
}

/* Numbers modulo 2^32: after 4294967295 comes 0, then 1; a release across
 * the wrap replayed early waits for the numbers before it. */
START_TEST(sync_wrap)
{
    sync_key k = { .used = true, .done = 0xFFFFFFFEu };
    dups d = { .n = 0 };
    ck_assert(sync_ready(&k, 0xFFFFFFFEu));
    ck_assert(!sync_ready(&k, 0xFFFFFFFFu));
    ck_assert(!sync_ready(&k, 1));                  /* 3 numbers ahead, across the wrap */
    ck_assert(sync_ready(&k, 0x7FFFFFFFu));         /* 2^31 - 1 behind */
    ck_assert(!sync_ready(&k, 0x7FFFFFFEu));        /* 2^31 ahead */
    ck_assert(sync_ready(&k, 0));                   /* seq 0 waits for nothing */
    ck_assert(!sync_mark(&k, 1, 2, 40, on_dup, &d));    /* early: kept */
    ck_assert(!sync_mark(&k, 0, 1, 30, on_dup, &d));
    ck_assert_uint_eq(k.npending, 2);
    ck_assert(sync_mark(&k, 0xFFFFFFFFu, 1, 20, on_dup, &d));   /* then 0 and 1 follow */
    ck_assert_uint_eq(k.done, 1);
    ck_assert_uint_eq(k.npending, 0);
    ck_assert(sync_ready(&k, 0xFFFFFFFFu) && sync_ready(&k, 1) && !sync_ready(&k, 2));
    ck_assert_int_eq(d.n, 0);
    free(k.pending);
}
END_TEST

/* A number replayed twice: at once when it is at or behind the watermark,
 * else when the watermark reaches it (the second one is reported). */
START_TEST(sync_repeats)
{
    sync_key k = { .used = true };
    dups d = { .n = 0 };
    ck_assert(!sync_ready(&k, 1) && sync_ready(&k, 0) && sync_ready(NULL, 0) && !sync_ready(NULL, 1));
    ck_assert(sync_mark(&k, 1, 0, 10, on_dup, &d));
    ck_assert(!sync_mark(&k, 1, 3, 11, on_dup, &d));    /* at the watermark */
    ck_assert_int_eq(d.n, 1);
    ck_assert(d.r[0].seq == 1 && d.r[0].thread == 3 && d.r[0].index == 11);
    ck_assert(!sync_mark(&k, 0x80000001u, 3, 12, on_dup, &d));  /* 2^31 ahead: taken as behind */
    ck_assert_int_eq(d.n, 2);
    ck_assert(!sync_mark(&k, 0x80000000u, 3, 13, on_dup, &d));  /* 2^31 - 1 ahead: kept */
    ck_assert_int_eq(d.n, 2);
    ck_assert(!sync_mark(&k, 4, 1, 14, on_dup, &d));
    ck_assert(!sync_mark(&k, 3, 1, 15, on_dup, &d));
    ck_assert(!sync_mark(&k, 4, 2, 16, on_dup, &d));    /* a second 4, not known yet */
    ck_assert_int_eq(d.n, 2);
    ck_assert_uint_eq(k.npending, 4);
    char text[128];
    sync_done_text(&k, text, sizeof text);
    ck_assert_str_eq(text, "release 1 replayed, 4 later ones out of order");
    ck_assert(sync_mark(&k, 2, 0, 17, on_dup, &d));     /* 2, 3, 4: the other 4 is a repeat */
    ck_assert_uint_eq(k.done, 4);
    ck_assert_int_eq(d.n, 3);
    ck_assert(d.r[2].seq == 4 && (d.r[2].index == 14 || d.r[2].index == 16));
    ck_assert_uint_eq(k.npending, 1);                   /* 0x80000000 */
    sync_done_text(&k, text, sizeof text);
    ck_assert_str_eq(text, "releases 1..4 replayed, 1 later one out of order");
    sync_done_text(NULL, text, sizeof text);
    ck_assert_str_eq(text, "no release replayed");
    free(k.pending);
}
END_TEST

/* --lenient gives a wait up: the watermark jumps, and the kept releases at
 * or before it are taken in (those after it stay, in order). */
START_TEST(sync_give_up)
{
    sync_key k = { .used = true };
    dups d = { .n = 0 };
    for (uint32_t r = 9; r >= 3; r -= 2) sync_mark(&k, r, 0, r, on_dup, &d);   /* 9, 7, 5, 3 */
    sync_mark(&k, 12, 0, 12, on_dup, &d);
    sync_force(&k, 6);                                  /* 1..6; 7 follows; 9 and 12 stay */
    ck_assert_uint_eq(k.done, 7);
    ck_assert_uint_eq(k.npending, 2);
    sync_force(&k, 4);                                  /* already: nothing changes */
    ck_assert_uint_eq(k.done, 7);
    ck_assert(sync_mark(&k, 8, 0, 8, on_dup, &d));      /* 8, then the kept 9 */
    ck_assert_uint_eq(k.done, 9);
    sync_force(&k, 11);
    ck_assert_uint_eq(k.done, 12);
    ck_assert_uint_eq(k.npending, 0);
    ck_assert_int_eq(d.n, 0);
    free(k.pending);
}
END_TEST

/* Many releases in a random order: the watermark is always the largest w
 * with 1..w all replayed. */
START_TEST(sync_shuffled)
{
    enum { N = 20000 };
    uint32_t *order = malloc(N * sizeof *order);
    bool *seen = calloc(N + 2, sizeof *seen);
    rng r = { 7 };
    for (uint32_t i = 0; i < N; i++) order[i] = i + 1;
    for (uint32_t i = N - 1; i > 0; i--) {          /* mostly in order, some far out */
        uint32_t j = rchance(&r, 20) ? rbelow(&r, i + 1) : i;
        uint32_t x = order[i]; order[i] = order[j]; order[j] = x;
    }
    sync_key k = { .used = true, .done = 0xFFFFF000u };     /* and across the wrap */
    uint32_t w = 0;
    for (uint32_t i = 0; i < N; i++) {
        sync_mark(&k, 0xFFFFF000u + order[i], 0, i, NULL, NULL);
        seen[order[i]] = true;
        while (seen[w + 1]) w++;
        REQUIRE(k.done == 0xFFFFF000u + w, "after %u releases: done %u, expected %u", i + 1, k.done,
                0xFFFFF000u + w);
    }
    ck_assert_uint_eq(k.npending, 0);
    free(k.pending);
    free(order);
    free(seen);
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
    suite_add_tcase(s, tc);
    TCase *lim = tcase_create("clock_limit");
    tcase_add_test(lim, clock_limit_reached_not_passed);
    tcase_add_test(lim, clock_limit_passed_by_a_wait);
    tcase_add_test(lim, clock_limit_passed_by_a_gap_fill);
    tcase_add_test(lim, clock_limit_passed_by_a_stall);
    tcase_add_test(lim, counts_add_saturates);
    suite_add_tcase(s, lim);
    TCase *ts = tcase_create("sync");
    tcase_add_test(ts, sync_wrap);
    tcase_add_test(ts, sync_repeats);
    tcase_add_test(ts, sync_give_up);
    tcase_add_test(ts, sync_shuffled);
    suite_add_tcase(s, ts);
    return s;
}

/* The random sets of --lenient (chaos) and recorded synchronisation: a suite
 * of their own, so that tests/run-unit-tests.sh can run it beside the others. */
Suite *scheduler_replay_suite(void)
{
    Suite *s = suite_create("scheduler_replay");
    TCase *tc = tcase_create("random");
    tcase_set_timeout(tc, 120);     /* a few seconds normally; a hang fails */
    int n = (int)(sizeof thread_counts / sizeof thread_counts[0]);
    tcase_add_loop_test(tc, random_chaos, 0, n);
    tcase_add_loop_test(tc, random_recorded, 0, n);
    suite_add_tcase(s, tc);
    return s;
}
