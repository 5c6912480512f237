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

/* 2^15 events (768 KiB) a batch: big enough that a batch hand-over (a few
 * microseconds) is lost in the replay of the batch, small enough to stay in
 * the second-level cache of the worker that replays it. */
enum { BATCH = 1 << 15 };

typedef struct worker {
    fanout *f;
    int index;
    pthread_t thread;
} worker;

struct fanout {
    sched_hooks *c;
    int n, nworkers;
    event *buf[2];
    size_t fill;                /* events in buf[cur] */
    int cur;
    /* Hand-over: batch number gen (batch, count events) is being replayed
     * while pending > 0. */
    pthread_mutex_t mu;
    pthread_cond_t go, done;
    uint64_t gen;
    const event *batch;
    size_t count;
    int pending;
    bool quit;
    worker *w;
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

static void *work(void *arg)
{
    worker *w = arg;
    fanout *f = w->f;
    uint64_t seen = 0;
    for (;;) {
        pthread_mutex_lock(&f->mu);
        while (f->gen == seen && !f->quit) pthread_cond_wait(&f->go, &f->mu);
        if (f->gen == seen) {                   /* quit, nothing left */
            pthread_mutex_unlock(&f->mu);
            return NULL;
        }
        seen = f->gen;
        const event *e = f->batch;
        size_t n = f->count;
        pthread_mutex_unlock(&f->mu);
        for (int i = w->index; i < f->n; i += f->nworkers) replay(&f->c[i], e, n);
        pthread_mutex_lock(&f->mu);
        if (--f->pending == 0) pthread_cond_signal(&f->done);
        pthread_mutex_unlock(&f->mu);
    }
}

static void wait_idle(fanout *f)
{
    pthread_mutex_lock(&f->mu);
    while (f->pending > 0) pthread_cond_wait(&f->done, &f->mu);
    pthread_mutex_unlock(&f->mu);
}

/* Hand the recorded batch over (or replay it here, without workers) and
 * start filling the other buffer. */
static void flush(fanout *f)
{
    if (!f->fill) return;
    if (f->nworkers <= 1) {
        for (int i = 0; i < f->n; i++) replay(&f->c[i], f->buf[0], f->fill);
        f->fill = 0;
        return;
    }
    wait_idle(f);                               /* the other buffer is free again */
    pthread_mutex_lock(&f->mu);
    f->gen++;
    f->batch = f->buf[f->cur];
    f->count = f->fill;
    f->pending = f->nworkers;
    pthread_cond_broadcast(&f->go);
    pthread_mutex_unlock(&f->mu);
    f->cur ^= 1;
    f->fill = 0;
}

static void drain(fanout *f)
{
    flush(f);
    if (f->nworkers > 1) wait_idle(f);
}

static inline event *next(fanout *f)
{
    if (f->fill == BATCH) flush(f);
    return &f->buf[f->cur][f->fill++];
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
        event *e = &f->buf[f->cur][f->fill - 1];
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
    f->nworkers = workers > n ? n : workers;
    f->buf[0] = xcalloc(BATCH, sizeof(event));
    if (f->nworkers > 1) {
        f->buf[1] = xcalloc(BATCH, sizeof(event));
        pthread_mutex_init(&f->mu, NULL);
        pthread_cond_init(&f->go, NULL);
        pthread_cond_init(&f->done, NULL);
        f->w = xcalloc((size_t)f->nworkers, sizeof *f->w);
        for (int i = 0; i < f->nworkers; i++) {
            f->w[i] = (worker){ .f = f, .index = i };
            if (pthread_create(&f->w[i].thread, NULL, work, &f->w[i]) != 0)
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

int fanout_workers(const fanout *f) { return f->nworkers; }

void fanout_finish(fanout *f)
{
    drain(f);
    if (f->nworkers > 1) {
        pthread_mutex_lock(&f->mu);
        f->quit = true;
        pthread_cond_broadcast(&f->go);
        pthread_mutex_unlock(&f->mu);
        for (int i = 0; i < f->nworkers; i++) pthread_join(f->w[i].thread, NULL);
        pthread_mutex_destroy(&f->mu);
        pthread_cond_destroy(&f->go);
        pthread_cond_destroy(&f->done);
    }
    free(f->w);
    free(f->buf[0]);
    free(f->buf[1]);
    free(f->c);
    free(f);
}
