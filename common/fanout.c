/* fanout.c — one scheduled run replayed to several consumers (fanout.h). */
#include "fanout.h"
#include "diag.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef enum ev_kind { EV_FETCH, EV_FETCH_RUN, EV_MEM, EV_STOP, EV_RESUME } ev_kind;

/* One event: 24 bytes. */
typedef struct event {
    uint64_t clock;
    uint32_t a;                 /* address; resume: idle (low 32 bits are enough: unused by cdat) */
    uint32_t b;                 /* run length, record f1, wait reason */
    int32_t cpu;
    uint32_t t_kind;            /* thread << 3 | kind */
} event;

/* 2^15 events (768 KiB) a batch: big enough that handing a batch over (a
 * few microseconds) is lost in its replay, small enough to stay in the
 * second-level cache of the thread that replays it. RING batches are in
 * flight at once, so a machine that is slower on one stretch of the trace
 * does not hold up the others or the scheduler. */
enum { BATCH = 1 << 15, RING = 4 };

/* Work is (machine, batch): a machine replays its batches in order, on one
 * thread at a time, but any thread may take its next batch. The scheduler's
 * thread records; when the ring is full it replays too instead of waiting,
 * so on P processors P threads do all the work (P - 1 helper threads). */
struct fanout {
    sched_hooks *c;
    int n, nthreads;
    event *ring[RING];
    size_t count[RING];         /* events in each published batch */
    size_t fill;                /* events recorded into the batch being filled */
    /* Under mu: batches published so far; each machine's next batch and
     * whether a thread is replaying it; sleeping helpers and scheduler. */
    pthread_mutex_t mu;
    pthread_cond_t work, progress;
    uint64_t published;
    uint64_t *next;
    bool *busy;
    int idle_helpers;
    bool waiting, quit;
    struct helper *helpers;
};

static void replay(const sched_hooks *h, const event *e, size_t n)
{
    for (size_t i = 0; i < n; i++, e++) {
        int t = (int)(e->t_kind >> 3);
        switch ((ev_kind)(e->t_kind & 7)) {
        case EV_FETCH:
            h->fetch(h->ctx, t, e->cpu, e->clock, e->a);
            break;
        case EV_FETCH_RUN:
            if (h->fetch_run) {
                h->fetch_run(h->ctx, t, e->cpu, e->clock, e->a, e->b);
                break;
            }
            for (uint32_t k = 0; k < e->b; k++) h->fetch(h->ctx, t, e->cpu, e->clock + k, e->a + 4 * k);
            break;
        case EV_MEM: {
            smait_raw r = { .f1 = e->b, .f2 = e->a };
            h->mem(h->ctx, t, e->cpu, e->clock, &r);
            break;
        }
        case EV_STOP:
            if (h->thread_stop) h->thread_stop(h->ctx, t, e->cpu, e->clock, (sched_wait)e->b);
            break;
        case EV_RESUME:
            if (h->thread_resume) h->thread_resume(h->ctx, t, e->cpu, e->clock, e->a);
            break;
        }
    }
}

/* Under mu: claim a machine with a published batch it has not replayed
 * (-1: none) for thread `self` (0: the scheduler's). A thread prefers its
 * own machines (i mod threads = self), whose state is in its processor's
 * caches, and takes another's only when its own are done. */
static int claim(fanout *f, int self)
{
    for (int pass = 0; pass < 2; pass++)
        for (int i = pass ? 0 : self; i < f->n; i += pass ? 1 : f->nthreads)
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
    replay(&f->c[i], f->ring[slot], f->count[slot]);
    pthread_mutex_lock(&f->mu);
    f->busy[i] = false;
    f->next[i]++;
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
    for (;;) {
        int i = claim(f, h->self);
        if (i >= 0) {
            replay_claimed(f, i);
            continue;
        }
        if (f->quit) break;
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
    while (f->published - oldest(f) >= most) {
        int i = claim(f, 0);
        if (i >= 0) {
            replay_claimed(f, i);
            continue;
        }
        f->waiting = true;
        pthread_cond_wait(&f->progress, &f->mu);
        f->waiting = false;
    }
}

/* Publish the batch being filled (or, on one thread, replay it here) and
 * make room for the next one. */
static void flush(fanout *f)
{
    if (!f->fill) return;
    if (f->nthreads <= 1) {
        for (int i = 0; i < f->n; i++) replay(&f->c[i], f->ring[0], f->fill);
        f->fill = 0;
        return;
    }
    pthread_mutex_lock(&f->mu);
    f->count[f->published % RING] = f->fill;
    f->published++;
    if (f->idle_helpers) pthread_cond_broadcast(&f->work);
    wait_below(f, RING);                        /* the next slot is free again */
    pthread_mutex_unlock(&f->mu);
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

static inline event *current(fanout *f)
{
    return f->ring[f->nthreads > 1 ? f->published % RING : 0];
}

static inline event *next(fanout *f)
{
    if (f->fill == BATCH) flush(f);
    return &current(f)[f->fill++];
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
        event *e = &current(f)[f->fill - 1];
        uint32_t n = (e->t_kind & 7) == EV_FETCH ? 1 : e->b;
        if ((e->t_kind == (tk | EV_FETCH) || e->t_kind == (tk | EV_FETCH_RUN)) && e->cpu == cpu &&
            e->clock + n == clock && e->a + 4 * n == addr && n < UINT32_MAX / 8) {
            e->t_kind = tk | EV_FETCH_RUN;
            e->b = n + 1;
            return;
        }
    }
    *next(ctx) = (event){ clock, addr, 0, cpu, tk | EV_FETCH };
}

static void on_fetch_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    *next(ctx) = (event){ clock, addr, n, cpu, (uint32_t)t << 3 | EV_FETCH_RUN };
}

static void on_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *rec)
{
    *next(ctx) = (event){ clock, rec->f2, rec->f1, cpu, (uint32_t)t << 3 | EV_MEM };
}

static void on_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait why)
{
    *next(ctx) = (event){ clock, 0, (uint32_t)why, cpu, (uint32_t)t << 3 | EV_STOP };
}

static void on_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle)
{
    *next(ctx) = (event){ clock, (uint32_t)idle, 0, cpu, (uint32_t)t << 3 | EV_RESUME };
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

fanout *fanout_create(const sched_hooks *consumers, int n, int workers)
{
    fanout *f = xcalloc(1, sizeof *f);
    f->c = xcalloc((size_t)n, sizeof *f->c);
    memcpy(f->c, consumers, (size_t)n * sizeof *f->c);
    f->n = n;
    if (workers <= 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        workers = online < 1 ? 1 : online < n ? (int)online : n;
    }
    f->nthreads = workers > n ? n : workers;
    int slots = f->nthreads > 1 ? RING : 1;
    for (int k = 0; k < slots; k++) f->ring[k] = xcalloc(BATCH, sizeof(event));
    if (f->nthreads > 1) {
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
    return (sched_hooks){ .ctx = f, .fetch = on_fetch, .fetch_run = on_fetch_run, .mem = on_mem,
                          .phase_begin = on_phase_begin, .phase_end = on_phase_end,
                          .thread_stop = on_stop, .thread_resume = on_resume };
}

int fanout_workers(const fanout *f) { return f->nthreads; }

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
    free(f);
}
