/* test_fanout.c — common/fanout: every consumer sees the events it would see
 * from the scheduler directly, in order, with one worker (replay on the
 * calling thread), with workers, and with more consumers than workers; fetch
 * runs made from consecutive fetches are the same fetches; phase hooks run
 * after every earlier event. */
#include "suites.h"
#include "../../common/fanout.h"

#include <string.h>

/* A consumer: a running hash of what it saw, fetch runs as their fetches. */
typedef struct sink {
    uint64_t h, events, phases;
} sink;

static void mix(sink *s, uint64_t a, uint64_t b, uint64_t c, uint64_t d)
{
    uint64_t x[4] = { a, b, c, d };
    for (int i = 0; i < 4; i++) s->h = (s->h ^ x[i]) * 0x100000001b3ull + 7;
    s->events++;
}

static void s_fetch(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr) { mix(ctx, 1, (uint64_t)t << 32 | (uint32_t)cpu, clock, addr); }
static void s_run(void *ctx, int t, int cpu, uint64_t clock, uint32_t addr, uint32_t n)
{
    for (uint32_t k = 0; k < n; k++) s_fetch(ctx, t, cpu, clock + k, addr + 4 * k);
}
static void s_mem(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *r)
{
    mix(ctx, 2, (uint64_t)t << 32 | (uint32_t)cpu, clock, (uint64_t)r->f1 << 32 | r->f2);
}
static void s_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait w) { mix(ctx, 3, (uint64_t)t << 32 | (uint32_t)cpu, clock, w); }
static void s_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle) { mix(ctx, 4, (uint64_t)t << 32 | (uint32_t)cpu, clock, idle & 0xffffffff); }
static void s_phase(void *ctx, const sched_phase *ph)
{
    sink *s = ctx;
    mix(s, 5, (uint64_t)ph->number, s->events, 0);     /* the count: every earlier event is in */
    s->phases++;
}

static sched_hooks sink_hooks(sink *s)
{
    return (sched_hooks){ .ctx = s, .fetch = s_fetch, .fetch_run = s_run, .mem = s_mem, .phase_begin = s_phase,
                          .phase_end = s_phase, .thread_stop = s_stop, .thread_resume = s_resume };
}

/* A pseudo-random stream of 300000 events (several batches), straight-line
 * fetches included, given to h. */
static void drive(const sched_hooks *h)
{
    uint64_t x = 12345, clock[4] = { 0 };
    uint32_t pc[4] = { 0x1000, 0x2000, 0x3000, 0x4000 };
    int phase = 0;
    for (int i = 0; i < 300000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int t = (int)(x >> 60) & 3, what = (int)(x >> 40) % 100;
        if (what < 60) {
            h->fetch(h->ctx, t, t, ++clock[t], pc[t] += 4);
        } else if (what < 70) {
            h->fetch_run(h->ctx, t, t, clock[t] + 1, pc[t] + 4, 5);
            clock[t] += 5;
            pc[t] += 20;
        } else if (what < 95) {
            smait_raw r = { (uint32_t)(x >> 8), (uint32_t)(x >> 24) };
            h->mem(h->ctx, t, t, ++clock[t], &r);
        } else if (what < 97) {
            h->thread_stop(h->ctx, t, t, clock[t], WAIT_BARRIER);
        } else if (what < 99) {
            h->thread_resume(h->ctx, t, t, clock[t], 0);
        } else {
            sched_phase ph = { .number = ++phase };
            h->phase_end(h->ctx, &ph);
            h->phase_begin(h->ctx, &ph);
        }
    }
}

START_TEST(same_as_direct)
{
    sink want = { 0 };
    sched_hooks direct = sink_hooks(&want);
    drive(&direct);
    static const int workers[][2] = { { 1, 1 }, { 2, 2 }, { 3, 2 }, { 5, 0 }, { 5, 3 }, { 4, 4 } };   /* consumers, workers */
    for (size_t w = 0; w < sizeof workers / sizeof *workers; w++) {
        int n = workers[w][0];
        sink got[5];
        sched_hooks hs[5];
        memset(got, 0, sizeof got);
        for (int i = 0; i < n; i++) hs[i] = sink_hooks(&got[i]);
        fanout *f = fanout_create(hs, n, workers[w][1]);
        ck_assert_int_ge(fanout_workers(f), 1);
        sched_hooks h = fanout_hooks(f);
        drive(&h);
        fanout_finish(f);
        for (int i = 0; i < n; i++) {
            ck_assert_uint_eq(got[i].events, want.events);
            ck_assert_uint_eq(got[i].phases, want.phases);
            ck_assert_msg(got[i].h == want.h, "%d consumers, %d workers: consumer %d saw another stream", n,
                          workers[w][1], i);
        }
    }
}
END_TEST

Suite *fanout_suite(void)
{
    Suite *s = suite_create("fanout");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, same_as_direct);
    suite_add_tcase(s, tc);
    return s;
}
