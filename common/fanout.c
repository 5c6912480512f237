/* fanout.c — one scheduled run replayed to several consumers (fanout.h). */
#define _GNU_SOURCE     /* sched_getaffinity, CPU_COUNT */
#include "fanout.h"
#include "fanout_replay.h"
#include "fast_paths.h"
#include "ahead_tuner.h"
#include "../base/diag.h"
#include "mono_time.h"

#include <assert.h>
#include <pthread.h>
#include <sched.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* FANOUT_BATCH events a batch (fanout.h says why 2^12). RING batches are
 * in flight at once, so a machine that is slower on one stretch of the
 * trace does not hold up the others or the scheduler. */
enum { BATCH = FANOUT_BATCH, RING = 4 };

/* Work is (machine, batch): a machine replays its batches in order, on one
 * thread at a time, but any helper may take its next batch. The scheduler's
 * thread records; when the ring is full and there are fewer helpers than
 * machines it replays too instead of waiting, so on P processors P threads
 * do all the work (P - 1 helper threads); with a helper for every machine
 * it waits (claim). */
struct fanout {
    sched_hooks *c;
    ahead_tuner *tune;          /* per consumer: whether its look-ahead pays; used by the thread
                                 * replaying the consumer's batch, like the consumer itself */
    ahead_tuner *tune_far;      /* the same for its far hint, among the batches with the near one */
    int n, nthreads;
    fanout_event *ring[RING];
    size_t count[RING];         /* events in each published batch */
    fanout_event *cur;          /* the batch being filled: ring[published % RING], or ring[0] */
    size_t fill;                /* events recorded into it */
    /* Under mu: batches published so far; each machine's next batch and
     * whether a thread is replaying it; sleeping helpers and scheduler. */
    pthread_mutex_t mu;
    pthread_cond_t work, progress;
    uint64_t published;
    uint64_t gen;               /* bumped (atomically, under mu) by every publish and every batch
                                 * replayed: what a spinning thread watches */
    uint64_t *next;
    bool *busy;
    int idle_helpers;
    bool waiting, quit;
    bool sync_calls;            /* the one consumer's call hook may make a thread wait: called
                                 * at once, after every earlier event is replayed */
    struct helper *helpers;
};

/* Replay n events to consumer h: through its own copy of the loop if it
 * has one (consumer_loops.h makes it), else through its hooks' pointers. */
static void replay(const sched_hooks *h, const fanout_event *e, size_t n, bool ahead, bool far)
{
    if (h->hint.replay) h->hint.replay(h->ctx, e, n, ahead, far);
    else fanout_replay_events(h, e, n, ahead, far);
}

/* Replay a batch to consumer h, with its look-ahead (if any) on or off as
 * its tuner u finds faster (ahead_tuner.h), and while it is on, its far
 * hint (if any) as uf finds: the far hint's trials and choice see only the
 * batches with the near one. */
static void replay_tuned(const sched_hooks *h, ahead_tuner *u, ahead_tuner *uf, const fanout_event *e, size_t n)
{
    if (!h->hint.ahead || !h->hint.ahead_distance || !n) {
        replay(h, e, n, false, false);
        return;
    }
    bool on = ahead_tuner_next(u);
    bool has_far = h->hint.ahead_far && h->hint.ahead_far_distance > h->hint.ahead_distance;
    bool far = on && has_far && ahead_tuner_next(uf);
    double t0 = mono_seconds();
    replay(h, e, n, on, far);
    double ns = (mono_seconds() - t0) * 1e9 / (double)n;
    ahead_tuner_took(u, on, ns);
    if (on && has_far) ahead_tuner_took(uf, far, ns);
}

/* Under mu: something was published or replayed. */
static void changed(fanout *f) { __atomic_fetch_add(&f->gen, 1, __ATOMIC_SEQ_CST); }

/* Under mu (released meanwhile): wait a little, awake, for f->gen to move
 * from seen. A batch is replayed in tens of microseconds, so the other side
 * usually moves soon; going to sleep and being woken would cost about as
 * much as the batch, each time (a system call and an interprocessor
 * interrupt both ways on a virtual machine). */
enum { SPIN = 1 << 11 };        /* pause instructions: some tens of microseconds */
static void spin(fanout *f)
{
    const uint64_t seen = f->gen;
    pthread_mutex_unlock(&f->mu);
    for (int k = 0; k < SPIN && __atomic_load_n(&f->gen, __ATOMIC_SEQ_CST) == seen; k++) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    }
    pthread_mutex_lock(&f->mu);
}

/* Under mu, in a loop that found nothing to do: the first time (*spun
 * false), spin and say so, for the caller to look again; the next time, say
 * it is time to sleep. Doing something sets *spun back to false. */
static bool spun_first(fanout *f, bool *spun)
{
    *spun = !*spun;
    if (*spun) spin(f);
    return *spun;
}

/* Under mu: claim a machine with a published batch it has not replayed
 * (-1: none) for thread `self` (0: the scheduler's). A thread prefers its
 * own machines, whose state is in its processor's caches, and takes
 * another's only when its own are done. With a helper for every machine,
 * machine i is helper i + 1's and the scheduler's thread claims none: its
 * replaying a batch whenever it found the ring full moved the machine's
 * state between the processors' caches (ciat on the FFT-like set with 256
 * threads replayed many of its batches on the scheduler's thread). Else
 * machine i is thread (i mod threads)'s, the scheduler's included. */
static int claim(fanout *f, int self)
{
    bool own_helpers = f->nthreads > f->n;
    if (own_helpers && self == 0) return -1;
    int first = own_helpers ? self - 1 : self;
    for (int pass = 0; pass < 2; pass++)
        for (int i = pass ? 0 : first; i < f->n; i += pass ? 1 : f->nthreads)
            if (!f->busy[i] && f->next[i] < f->published) {
                f->busy[i] = true;
                return i;
            }
    return -1;
}

/* Replay machine i's next batch, taking mu off meanwhile. Under mu. */
static void replay_claimed(fanout *f, int i)
{
    int slot = (int)(f->next[i] % RING);
    pthread_mutex_unlock(&f->mu);
    replay_tuned(&f->c[i], &f->tune[i], &f->tune_far[i], f->ring[slot], f->count[slot]);
    pthread_mutex_lock(&f->mu);
    f->busy[i] = false;
    f->next[i]++;
    changed(f);
    if (f->waiting) pthread_cond_signal(&f->progress);
}

typedef struct helper {
    fanout *f;
    int self;
    pthread_t thread;
} helper;

static void *help(void *arg)
{
    helper *h = arg;
    fanout *f = h->f;
    pthread_mutex_lock(&f->mu);
    bool spun = false;
    for (;;) {
        int i = claim(f, h->self);
        if (i >= 0) {
            replay_claimed(f, i);
            spun = false;
            continue;
        }
        if (f->quit) break;
        if (spun_first(f, &spun)) continue;
        f->idle_helpers++;
        pthread_cond_wait(&f->work, &f->mu);
        f->idle_helpers--;
    }
    pthread_mutex_unlock(&f->mu);
    return NULL;
}

/* Under mu: the oldest batch some machine has still to replay. */
static uint64_t oldest(const fanout *f)
{
    uint64_t o = f->published;
    for (int i = 0; i < f->n; i++)
        if (f->next[i] < o) o = f->next[i];
    return o;
}

/* Under mu, on the scheduler's thread: replay or sleep until fewer than
 * `most` published batches are still to be replayed by some machine. */
static void wait_below(fanout *f, uint64_t most)
{
    bool spun = false;
    while (f->published - oldest(f) >= most) {
        int i = claim(f, 0);
        if (i >= 0) {
            replay_claimed(f, i);
            spun = false;
            continue;
        }
        if (spun_first(f, &spun)) continue;
        f->waiting = true;
        pthread_cond_wait(&f->progress, &f->mu);
        f->waiting = false;
    }
}

/* Publish the batch being filled (or, on one thread, replay it here) and
 * make room for the next one. */
static __attribute__((noinline)) void flush(fanout *f)
{
    assert(f->fill <= BATCH);
    if (!f->fill) return;
    if (f->nthreads <= 1) {
        for (int i = 0; i < f->n; i++) replay_tuned(&f->c[i], &f->tune[i], &f->tune_far[i], f->ring[0], f->fill);
        f->fill = 0;
        return;
    }
    pthread_mutex_lock(&f->mu);
    f->count[f->published % RING] = f->fill;
    f->published++;
    changed(f);
    if (f->idle_helpers) pthread_cond_broadcast(&f->work);
    wait_below(f, RING);                        /* the next slot is free again */
    pthread_mutex_unlock(&f->mu);
    f->cur = f->ring[f->published % RING];
    f->fill = 0;
}

/* Every recorded event replayed to every machine. */
static void drain(fanout *f)
{
    flush(f);
    if (f->nthreads > 1) {
        pthread_mutex_lock(&f->mu);
        wait_below(f, 1);
        pthread_mutex_unlock(&f->mu);
    }
}

/* Room for k events: a call and its records, never split between batches.
 * They never fill the batch either: record() writes its event before it
 * looks whether the batch is full. */
static inline fanout_event *next_k(fanout *f, size_t k)
{
    if (f->fill + k >= BATCH) flush(f);
    fanout_event *e = &f->cur[f->fill];
    f->fill += k;
    return e;
}

/* A recycled batch was last read by the thread that replayed it, so its
 * lines sit in that processor's cache: every line the scheduler's thread
 * writes again has to be taken back from there first, and without a hint
 * those transfers come one after the other, the stores back up and the
 * scheduling thread stalls (ciat on the mat_mul-like set ran slower than
 * with --workers 1). So each event asks for the line WRITE_AHEAD events on
 * to be fetched for writing (PREFETCHW; a plain prefetch elsewhere): the
 * transfers overlap; 32, 64 and 128 events ahead did alike (bench/README.md
 * E17; make bench's "default (P processors) / --workers 1" lines). A
 * prefetch never faults, so the lines past a batch's end are harmless. */
enum { WRITE_AHEAD = 64 };
static inline void prefetch_for_write(const fanout_event *e)
{
    const char *p = (const char *)((uintptr_t)e + WRITE_AHEAD * sizeof(fanout_event));
#if defined(__x86_64__) || defined(__i386__)
    __asm__("prefetchw %0" : : "m"(*p));    /* a no-op on processors without it */
#else
    __builtin_prefetch(p, 1);
#endif
}

/* Record one event; a batch it fills is published at once. Publishing comes
 * last, a tail call, so the common path saves no registers: recording an
 * access takes far fewer instructions than with the check for a full batch
 * first and the call in the middle (bench/README.md E12; the scheduler's
 * thread bounds ciat on the mat_mul-like set). */
static inline void record(fanout *f, uint64_t clock, uint32_t a, uint32_t b, uint32_t pc, int cpu, uint32_t t_kind)
{
    fanout_event *e = &f->cur[f->fill];
    e->clock = clock;               /* field by field: a compound literal went through the stack */
    e->a = a;
    e->b = b;
    e->pc = pc;
    e->cpu = cpu;
    e->t_kind = t_kind;
    e->unused = 0;
    prefetch_for_write(e);
    if (__builtin_expect(++f->fill == BATCH, 0)) flush(f);
}

/* A fetch that continues the thread's last event (the next address at the
 * next clock, nothing of anyone else's in between) extends it into a fetch
 * run: one event, and one call of each consumer, for a straight line of
 * code (the hooks' contract: a run is the same as its fetches one by one). */
static void on_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr)
{
    fanout *f = ctx;
    uint32_t tk = (uint32_t)t << 3;
    if (f->fill) {
        fanout_event *e = &f->cur[f->fill - 1];
        uint32_t n = (e->t_kind & 7) == FANOUT_EV_FETCH ? 1 : e->b;
        if ((e->t_kind == (tk | FANOUT_EV_FETCH) || e->t_kind == (tk | FANOUT_EV_FETCH_RUN)) && e->cpu == cpu &&
            e->clock + n == clock && e->a + 4 * n == addr && n < UINT32_MAX / 8) {
            e->t_kind = tk | FANOUT_EV_FETCH_RUN;
            e->b = n + 1;
            return;
        }
    }
    record(f, clock, addr, 0, 0, cpu, tk | FANOUT_EV_FETCH);
}

static void on_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    record(ctx, clock, addr, n, 0, cpu, (uint32_t)t << 3 | FANOUT_EV_FETCH_RUN);
}

static void on_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    record(ctx, clock, rec->f2, rec->f1, 0, cpu, (uint32_t)t << 3 | FANOUT_EV_MEM);
}

/* An access and its instruction's fetch, from the scheduler in one call. */
static void on_fetch_mem(void *ctx, int t, int cpu, uint64_t clock, uint32_t pc, const smait_raw *rec)
{
    record(ctx, clock, rec->f2, rec->f1, pc, cpu, (uint32_t)t << 3 | FANOUT_EV_FETCH_MEM);
}

/* A call: recorded like any event when it cannot make the thread wait (the
 * consumers' call hooks return 0); else the one consumer's hook runs now,
 * after every earlier event, and its wait goes back to the scheduler. */
static uint64_t on_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    fanout *f = ctx;
    if (f->sync_calls) {
        drain(f);
        return f->c[0].call(f->c[0].ctx, t, cpu, clock, rec);
    }
    fanout_event *e = next_k(f, 1 + FANOUT_CALL_SLOTS);
    *e = (fanout_event){ .clock = clock, .cpu = cpu, .t_kind = (uint32_t)t << 3 | FANOUT_EV_CALL };
    for (int k = 0; k < FANOUT_CALL_SLOTS; k++) fanout_parts_put(e + 1 + k, rec + 3 * k);
    return 0;
}

static void on_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    record(ctx, clock, 0, (uint32_t)why, 0, cpu, (uint32_t)t << 3 | FANOUT_EV_STOP);
}

static void on_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    record(ctx, clock, (uint32_t)idle, 0, 0, cpu, (uint32_t)t << 3 | FANOUT_EV_RESUME);
}

static void on_phase_begin(void *ctx, const sched_phase *ph)
{
    fanout *f = ctx;
    drain(f);
    for (int i = 0; i < f->n; i++)
        if (f->c[i].phase_begin) f->c[i].phase_begin(f->c[i].ctx, ph);
}

static void on_phase_end(void *ctx, const sched_phase *ph)
{
    fanout *f = ctx;
    drain(f);
    for (int i = 0; i < f->n; i++)
        if (f->c[i].phase_end) f->c[i].phase_end(f->c[i].ctx, ph);
}

/* The threads `workers` asks for (0: one per processor). */
static int threads_asked(int workers) { return workers > 0 ? workers : fanout_processors(); }

/* The threads a fanout may use: one under a diag trap, as a fatal error
 * there would leave a helper running. */
static int threads_for(int workers) { return diag_trapped() ? 1 : threads_asked(workers); }

fanout *fanout_create(const sched_hooks *consumers, int n, int workers)
{
    fanout *f = xcalloc(1, sizeof *f);
    f->c = xcalloc((size_t)n, sizeof *f->c);
    memcpy(f->c, consumers, (size_t)n * sizeof *f->c);
    if (!FAST_PATHS)            /* a build taking the general paths: no hints */
        for (int i = 0; i < n; i++) f->c[i].hint = (sched_hints){ 0 };
    f->n = n;
    f->tune = xcalloc((size_t)n, sizeof *f->tune);
    f->tune_far = xcalloc((size_t)n, sizeof *f->tune_far);
    workers = threads_for(workers);
    /* One more thread than consumers: the scheduler's, which then only records. */
    f->nthreads = workers > n + 1 ? n + 1 : workers;
    for (int i = 0; i < n; i++) {
        if (consumers[i].branch)
            diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "internal error: a branch hook through a fanout");
        if (consumers[i].call && !consumers[i].call_never_waits) {
            if (n > 1) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "internal error: a call that waits, for"
                                  " several consumers");
            f->sync_calls = true;
        }
    }
    int slots = f->nthreads > 1 ? RING : 1;
    for (int k = 0; k < slots; k++) f->ring[k] = xcalloc(BATCH, sizeof(fanout_event));
    f->cur = f->ring[0];
    if (f->nthreads > 1) {
#ifdef __GLIBC__
        /* The consumers allocate on the helper threads (ciat's location
         * blocks, cdat's directory); glibc would give each thread an arena
         * of its own, whose free lists the others cannot reuse, and the peak
         * memory grows (the irregular mix of make bench: bench/README.md E8).
         * Allocation is rare beside the replay, so one arena's lock costs
         * nothing measurable. */
        mallopt(M_ARENA_MAX, 1);
#endif
        f->next = xcalloc((size_t)n, sizeof *f->next);
        f->busy = xcalloc((size_t)n, sizeof *f->busy);
        pthread_mutex_init(&f->mu, NULL);
        pthread_cond_init(&f->work, NULL);
        pthread_cond_init(&f->progress, NULL);
        f->helpers = xcalloc((size_t)f->nthreads - 1, sizeof *f->helpers);
        for (int i = 0; i < f->nthreads - 1; i++) {
            f->helpers[i] = (helper){ .f = f, .self = i + 1 };
            if (pthread_create(&f->helpers[i].thread, NULL, help, &f->helpers[i]) != 0)
                diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "cannot start a worker thread");
        }
    }
    return f;
}

sched_hooks fanout_hooks(fanout *f)
{
    bool calls = false;
    for (int i = 0; i < f->n; i++) calls |= f->c[i].call != NULL;
    return (sched_hooks){ .ctx = f, .fetch = on_fetch, .mem = on_mem, .call = calls ? on_call : NULL,
                          .call_never_waits = !f->sync_calls, .phase_begin = on_phase_begin,
                          .phase_end = on_phase_end, .thread_stop = on_stop, .thread_resume = on_resume,
                          .hint = { .fetch_run = on_fetch_run, .fetch_mem = on_fetch_mem } };
}

int fanout_processors(void)
{
    cpu_set_t set;
    if (sched_getaffinity(0, sizeof set, &set) == 0) {
        int k = CPU_COUNT(&set);
        if (k > 0) return k;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    return online < 1 ? 1 : online > 4096 ? 4096 : (int)online;
}

int fanout_workers(const fanout *f) { return f->nthreads; }

fanout *fanout_pipeline(const sched_hooks *h, int workers, int traces, sched_hooks *run)
{
    if (threads_asked(workers) < 2 || (!workers && traces < 2)) {
        *run = *h;
        return NULL;
    }
    fanout *f = fanout_create(h, 1, 2);
    *run = fanout_hooks(f);
    return f;
}

void fanout_finish(fanout *f)
{
    drain(f);
    if (f->nthreads > 1) {
        pthread_mutex_lock(&f->mu);
        f->quit = true;
        pthread_cond_broadcast(&f->work);
        pthread_mutex_unlock(&f->mu);
        for (int i = 0; i < f->nthreads - 1; i++) pthread_join(f->helpers[i].thread, NULL);
        pthread_mutex_destroy(&f->mu);
        pthread_cond_destroy(&f->work);
        pthread_cond_destroy(&f->progress);
    }
    for (int k = 0; k < RING; k++) free(f->ring[k]);
    free(f->helpers);
    free(f->next);
    free(f->busy);
    free(f->c);
    free(f->tune);
    free(f->tune_far);
    free(f);
}
