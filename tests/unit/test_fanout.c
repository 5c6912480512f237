/* test_fanout.c — common/fanout: every consumer sees the events it would see
 * from the scheduler directly, in order, with one worker (replay on the
 * calling thread), with workers, with more consumers than workers, and one
 * consumer beside the scheduler (fanout_pipeline); fetch runs made from
 * consecutive fetches are the same fetches, and a fetch joined to its access
 * is the same fetch and access; calls reach the consumers in order, and a
 * call that may make the thread wait runs after every earlier event with its
 * wait returned; phase hooks run after every earlier event; the ahead hook
 * and the far one show only accesses still to come; a consumer's own replay
 * loop (consumer_loops.h) is used, and sees what the hooks' pointers would. */
#include "suites.h"
#include "../../common/ahead_tuner.h"
#include "../../common/fanout.h"
#include "../../common/consumer_loops.h"
#include "../../common/fast_paths.h"

#include <string.h>

/* What a look-ahead hook showed: the records not yet delivered (a ring). */
typedef struct shown {
    smait_raw r[64];
    unsigned head, len;
    uint64_t calls, bad, hits;
} shown;

/* A consumer: a running hash of what it saw, fetch runs as their fetches. */
typedef struct sink {
    uint64_t h, events, phases;
    shown ahead, far;           /* the ahead and ahead_far hooks */
    uint64_t own;               /* batches its own replay loop replayed */
} sink;

static void show(shown *w, const smait_raw *r)
{
    w->calls++;
    if (w->len == 64) {
        w->bad++;                   /* shown, and never delivered in that order */
        return;
    }
    w->r[(w->head + w->len++) % 64] = *r;
}

/* An access a hook showed is delivered in the order shown. */
static void deliver(shown *w, const smait_raw *r)
{
    if (w->len && w->r[w->head].f1 == r->f1 && w->r[w->head].f2 == r->f2) {
        w->head = (w->head + 1) % 64;
        w->len--;
        w->hits++;
    }
}

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
    sink *s = ctx;
    mix(s, 2, (uint64_t)t << 32 | (uint32_t)cpu, clock, (uint64_t)r->f1 << 32 | r->f2);
    deliver(&s->ahead, r);
    deliver(&s->far, r);
}
static void s_ahead(void *ctx, int t, int cpu, const smait_raw *r)
{
    (void)t; (void)cpu;
    show(&((sink *)ctx)->ahead, r);
}
static void s_ahead_far(void *ctx, int t, int cpu, const smait_raw *r)
{
    (void)t; (void)cpu;
    show(&((sink *)ctx)->far, r);
}
static uint64_t s_call(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *r)
{
    uint64_t parts = 0;
    for (int k = 0; k < SMAIT_CALL_PARTS; k++) parts = parts * 31 + r[k].f1 + r[k].f2;
    mix(ctx, 6, (uint64_t)t << 32 | (uint32_t)cpu, clock, parts);
    return 0;
}
/* A call that may make its thread wait: the wait is a function of the call
 * and of every event before it, so a call run before an earlier event is
 * replayed returns another wait. */
static uint64_t s_call_wait(void *ctx, int t, int cpu, uint64_t clock, const smait_raw *r)
{
    sink *s = ctx;
    s_call(ctx, t, cpu, clock, r);
    return s->h % 1000;
}
static void s_stop(void *ctx, int t, int cpu, uint64_t clock, sched_wait w) { mix(ctx, 3, (uint64_t)t << 32 | (uint32_t)cpu, clock, w); }
static void s_resume(void *ctx, int t, int cpu, uint64_t clock, uint64_t idle) { mix(ctx, 4, (uint64_t)t << 32 | (uint32_t)cpu, clock, idle & 0xffffffff); }
static void s_phase(void *ctx, const sched_phase *ph)
{
    sink *s = ctx;
    mix(s, 5, (uint64_t)ph->number, s->events, 0);     /* the count: every earlier event is in */
    s->phases++;
}

static inline __attribute__((always_inline)) sched_hooks sink_hooks(sink *s)
{
    return (sched_hooks){ .ctx = s, .fetch = s_fetch, .mem = s_mem, .call = s_call, .call_never_waits = true,
                          .phase_begin = s_phase, .phase_end = s_phase, .thread_stop = s_stop,
                          .thread_resume = s_resume, .hint = { .fetch_run = s_run } };
}

/* The pipeline's consumer: calls that may wait, and both hints. */
static inline __attribute__((always_inline)) sched_hooks waiting_sink_hooks(sink *s)
{
    sched_hooks h = sink_hooks(s);
    h.call = s_call_wait;
    h.call_never_waits = false;
    h.hint.ahead = s_ahead;
    h.hint.ahead_distance = 7;
    h.hint.ahead_far = s_ahead_far;
    h.hint.ahead_far_distance = 19;
    return h;
}

/* Each set's own replay loop, and the same counting the batches it replays. */
CONSUMER_LOOPS_DEFINE(direct_sink_hooks, sink_hooks)
CONSUMER_LOOPS_DEFINE(direct_waiting_sink_hooks, waiting_sink_hooks)

static void sink_replay(void *ctx, const fanout_event *e, size_t n, bool ahead, bool far)
{
    ((sink *)ctx)->own++;
    direct_sink_hooks_replay(ctx, e, n, ahead, far);
}

static void waiting_sink_replay(void *ctx, const fanout_event *e, size_t n, bool ahead, bool far)
{
    ((sink *)ctx)->own++;
    direct_waiting_sink_hooks_replay(ctx, e, n, ahead, far);
}

/* A pseudo-random stream of 300000 events (several batches), straight-line
 * fetches, accesses at the clock of their fetch, and calls included, given to
 * h; the calls' waits are summed into *waits. */
static void drive(const sched_hooks *h, uint64_t *waits)
{
    uint64_t x = 12345, clock[4] = { 0 };
    uint32_t pc[4] = { 0x1000, 0x2000, 0x3000, 0x4000 };
    int phase = 0;
    for (int i = 0; i < 300000; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        int t = (int)(x >> 60) & 3, what = (int)(x >> 40) % 100;
        if (what < 40) {
            h->fetch(h->ctx, t, t, ++clock[t], pc[t] += 4);
        } else if (what < 60) {     /* an access and its instruction's fetch: one call when h takes it */
            smait_raw r = { (uint32_t)(x >> 8), (uint32_t)(x >> 24) };
            if (h->hint.fetch_mem && (x >> 20 & 1)) {
                h->hint.fetch_mem(h->ctx, t, t, ++clock[t], pc[t] += 4, &r);
            } else {
                h->fetch(h->ctx, t, t, ++clock[t], pc[t] += 4);
                h->mem(h->ctx, t, t, clock[t], &r);
            }
        } else if (what < 70) {
            if (h->hint.fetch_run) h->hint.fetch_run(h->ctx, t, t, clock[t] + 1, pc[t] + 4, 5);
            else for (uint32_t k = 1; k <= 5; k++) h->fetch(h->ctx, t, t, clock[t] + k, pc[t] + 4 * k);
            clock[t] += 5;
            pc[t] += 20;
        } else if (what < 95) {
            smait_raw r = { (uint32_t)(x >> 8), (uint32_t)(x >> 24) };
            h->mem(h->ctx, t, t, ++clock[t], &r);
        } else if (what < 96) {
            smait_raw call[SMAIT_CALL_PARTS];
            for (int k = 0; k < SMAIT_CALL_PARTS; k++) call[k] = (smait_raw){ (uint32_t)(x >> k), (uint32_t)i + k };
            uint64_t w = h->call(h->ctx, t, t, clock[t], call);
            *waits += w;
            clock[t] += w;
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
    uint64_t waits = 0;
    drive(&direct, &waits);
    /* CONSUMER_LOOPS_DEFINE's hooks: make_hooks' own, with their loops */
    sched_hooks own = direct_sink_hooks(&want);
    ck_assert(own.hint.replay == direct_sink_hooks_replay && own.hint.records == direct_sink_hooks_records &&
              !direct.hint.replay && !direct.hint.records);
    ck_assert(own.ctx == direct.ctx && own.fetch == direct.fetch && own.hint.fetch_run == direct.hint.fetch_run &&
              own.mem == direct.mem && own.call == direct.call && own.phase_end == direct.phase_end &&
              own.thread_stop == direct.thread_stop && own.call_never_waits == direct.call_never_waits);
    static const int workers[][2] = { { 1, 1 }, { 1, 2 }, { 1, 0 }, { 2, 2 }, { 2, 3 }, { 3, 2 }, { 5, 0 },
                                      { 5, 3 }, { 4, 4 }, { 4, 5 } };   /* consumers, workers */
    for (size_t w = 0; w < sizeof workers / sizeof *workers; w++) {
        int n = workers[w][0];
        sink got[5];
        sched_hooks hs[5];
        memset(got, 0, sizeof got);
        for (int i = 0; i < n; i++) {
            hs[i] = sink_hooks(&got[i]);
            if ((i + (int)w) % 2) hs[i].hint.replay = sink_replay;   /* its own loop: every other consumer */
        }
        fanout *f = fanout_create(hs, n, workers[w][1]);
        ck_assert_int_ge(fanout_workers(f), 1);
        ck_assert_int_le(fanout_workers(f), n + 1);
        sched_hooks h = fanout_hooks(f);
        ck_assert(h.call && h.call_never_waits);
        uint64_t w0 = 0;
        drive(&h, &w0);
        fanout_finish(f);
        for (int i = 0; i < n; i++) {
            ck_assert_uint_eq(got[i].events, want.events);
            ck_assert_uint_eq(got[i].phases, want.phases);
            ck_assert_msg(got[i].h == want.h, "%d consumers, %d workers: consumer %d saw another stream", n,
                          workers[w][1], i);
            /* a build taking the general paths ignores the hints */
            ck_assert(FAST_PATHS && hs[i].hint.replay ? got[i].own > 10 : got[i].own == 0);
        }
    }
}
END_TEST

/* A call takes three slots of a batch and is never split between batches:
 * from an empty batch (after a phase's end), accesses up to FANOUT_BATCH - gap
 * slots, a call, then more accesses, for every gap around the batch's end
 * (gap 3: the call would fill the batch exactly). */
static void drive_calls_at_batch_end(const sched_hooks *h)
{
    uint64_t clock = 0;
    int phase = 0;
    for (int gap = 1; gap <= 5; gap++) {
        sched_phase ph = { .number = ++phase };
        h->phase_end(h->ctx, &ph);
        h->phase_begin(h->ctx, &ph);
        for (int i = 0; i < FANOUT_BATCH - gap; i++) {
            smait_raw r = { (uint32_t)i, (uint32_t)(gap << 16 | i) };
            h->mem(h->ctx, 0, 0, ++clock, &r);
        }
        smait_raw call[SMAIT_CALL_PARTS];
        for (int k = 0; k < SMAIT_CALL_PARTS; k++) call[k] = (smait_raw){ (uint32_t)gap, (uint32_t)k };
        h->call(h->ctx, 1, 1, clock, call);
        for (int i = 0; i < 10; i++) {
            smait_raw r = { (uint32_t)i, (uint32_t)(gap << 24 | i) };
            h->mem(h->ctx, 1, 1, ++clock, &r);
        }
    }
    sched_phase ph = { .number = ++phase };
    h->phase_end(h->ctx, &ph);
}

START_TEST(calls_at_batch_end)
{
    sink want = { 0 };
    sched_hooks direct = sink_hooks(&want);
    drive_calls_at_batch_end(&direct);
    for (int workers = 1; workers <= 2; workers++) {
        sink got = { 0 };
        sched_hooks h = sink_hooks(&got);
        fanout *f = fanout_create(&h, 1, workers);
        sched_hooks run = fanout_hooks(f);
        drive_calls_at_batch_end(&run);
        fanout_finish(f);
        ck_assert_uint_eq(got.events, want.events);
        ck_assert_msg(got.h == want.h, "%d workers: the consumer saw another stream", workers);
    }
}
END_TEST

/* One consumer beside the scheduler (fanout_pipeline): its calls may make a
 * thread wait; each runs after every earlier event, so the waits, and with
 * them the clocks of everything after, are those of the direct run. The
 * ahead hook and the far one show accesses still to come, in order (the far
 * one in some batches at least: its tuner's trials whenever the near hint is
 * on, in its own trials if no other). */
START_TEST(pipeline)
{
    sink want = { 0 };
    sched_hooks direct = sink_hooks(&want);
    direct.call = s_call_wait;
    direct.call_never_waits = false;
    uint64_t want_waits = 0;
    drive(&direct, &want_waits);
    ck_assert_uint_gt(want_waits, 0);

    /* The default: beside the scheduler for several traces on several processors. */
    sched_hooks run;
    ck_assert_ptr_null(fanout_pipeline(&direct, 0, 1, &run));
    fanout *d = fanout_pipeline(&direct, 0, 2, &run);
    ck_assert(fanout_processors() >= 2 ? d != NULL : d == NULL);
    if (d) fanout_finish(d);

    for (int k = 0; k < 4; k++) {      /* 1 or 2 workers; through the pointers or the own loop */
        int workers = 1 + k % 2;
        sink got = { 0 };
        sched_hooks h = waiting_sink_hooks(&got), run;
        if (k >= 2) h.hint.replay = waiting_sink_replay;
        fanout *f = fanout_pipeline(&h, workers, 1, &run);
        if (workers == 1) {
            ck_assert_ptr_null(f);
            ck_assert(run.ctx == h.ctx && run.mem == h.mem && run.call == h.call);
            continue;
        }
        ck_assert_ptr_nonnull(f);
        ck_assert_int_eq(fanout_workers(f), 2);
        ck_assert(run.hint.ahead == NULL);           /* the scheduler's own look-ahead is off */
        ck_assert(run.call && !run.call_never_waits);
        uint64_t waits = 0;
        drive(&run, &waits);
        fanout_finish(f);
        ck_assert_uint_eq(waits, want_waits);
        ck_assert_uint_eq(got.events, want.events);
        ck_assert_msg(got.h == want.h, "the pipeline's consumer saw another stream");
        if (FAST_PATHS) {                       /* a build taking the general paths ignores the hints */
            ck_assert_uint_gt(got.ahead.calls, 1000);
            ck_assert_uint_gt(got.far.calls, 100);
        } else {
            ck_assert_uint_eq(got.ahead.calls + got.far.calls, 0);
        }
        /* every access shown was delivered, in the order shown */
        ck_assert_uint_eq(got.ahead.bad, 0);
        ck_assert_uint_eq(got.ahead.hits, got.ahead.calls);
        ck_assert_uint_eq(got.far.bad, 0);
        ck_assert_uint_eq(got.far.hits, got.far.calls);
        ck_assert(FAST_PATHS && h.hint.replay ? got.own > 10 : got.own == 0);
    }
}
END_TEST

/* Runs batches through the tuner: each takes on_ns or off_ns times scale per
 * event as it goes with the hint or not, and each goes with the tuner's
 * choice unless it is a trial. Returns the batches that went with the hint. */
static unsigned tuner_run(ahead_tuner *u, int batches, double on_ns, double off_ns, double scale)
{
    unsigned on = 0;
    for (int j = 0; j < batches; j++) {
        bool trial = ahead_tuner_trial(u->batches);
        bool h = ahead_tuner_next(u);
        ck_assert(h == (trial ? !u->on : u->on));
        on += h;
        ahead_tuner_took(u, h, (h ? on_ns : off_ns) * scale);
    }
    return on;
}

/* The look-ahead's tuner: trials of the other setting, each against the
 * batch before it; the choice keeps through a slower phase and one outlier,
 * and turns when the hint stops paying. */
START_TEST(ahead_tuner_choice)
{
    ahead_tuner u = { 0 };
    ck_assert(!ahead_tuner_next(&u));           /* the first batches without the hint */
    ahead_tuner_took(&u, false, 500.0);         /* cold: no trial is compared with it */
    ck_assert(!ahead_tuner_next(&u));
    ahead_tuner_took(&u, false, 20.0);
    ck_assert(ahead_tuner_next(&u));            /* the first trial, against the batch before */
    ahead_tuner_took(&u, true, 10.0);
    ck_assert(u.on);                            /* the hint halved the time: chosen */
    /* Early on a trial every 4th batch, then every 16th. */
    unsigned trials = 0;
    for (uint64_t k = 0; k < AHEAD_EARLY_BATCHES + 4 * AHEAD_TRY_EVERY; k++) trials += ahead_tuner_trial(k);
    ck_assert_uint_eq(trials, AHEAD_EARLY_BATCHES / AHEAD_EARLY_EVERY + 4);
    unsigned on = tuner_run(&u, 20 * AHEAD_TRY_EVERY, 10.0, 20.0, 1.0);
    ck_assert(u.on);
    ck_assert_uint_ge(on, 20 * AHEAD_TRY_EVERY - 20 - AHEAD_EARLY_BATCHES / AHEAD_EARLY_EVERY);
    /* A slower phase of the run (every batch 8x as long) keeps the choice:
     * each trial is compared with its neighbour, not with old batches. */
    tuner_run(&u, 8 * AHEAD_TRY_EVERY, 10.0, 20.0, 8.0);
    ck_assert(u.on);
    /* One trial the system interrupted (a batch without the hint 20x faster
     * than the one before it) does not turn the choice. */
    ahead_tuner v = u;
    ck_assert(!ahead_tuner_trial(v.batches));
    while (!ahead_tuner_trial(v.batches)) ahead_tuner_took(&v, true, 10.0);
    ahead_tuner_took(&v, false, 0.5);
    ck_assert(v.on);
    /* The hint stops paying (twice the time): the choice turns within 3 trials. */
    int k = 0;
    while (u.on) {
        bool h = ahead_tuner_next(&u);
        ahead_tuner_took(&u, h, h ? 40.0 : 20.0);
        ck_assert_int_le(++k, 3 * AHEAD_TRY_EVERY);
    }
    on = tuner_run(&u, 10 * AHEAD_TRY_EVERY, 40.0, 20.0, 1.0);
    ck_assert(!u.on);
    ck_assert_uint_eq(on, 10);                  /* the trials alone */
}
END_TEST

Suite *fanout_suite(void)
{
    Suite *s = suite_create("fanout");
    TCase *tc = tcase_create("replay");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, same_as_direct);
    tcase_add_test(tc, calls_at_batch_end);
    tcase_add_test(tc, pipeline);
    tcase_add_test(tc, ahead_tuner_choice);
    suite_add_tcase(s, tc);
    return s;
}
