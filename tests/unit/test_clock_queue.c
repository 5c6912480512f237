/* test_clock_queue.c — common/clock_queue against a naive reference (docs/scheduler.md §3).
 *
 * The reference keeps every thread's clock in an array and picks by a linear
 * scan: the smallest clock, ties to the first thread after `prev` in cyclic
 * order (lowest id when prev is -1). Random sequences of insert / remove /
 * update / pick (fixed-seed PRNG, so every run is the same) drive both, and
 * cq_pick must agree with the scan at (nearly) every step; so must cq_count,
 * cq_contains, cq_min_other, cq_next_level and the lockstep loop's pick
 * cq_level_first (with each word of the level in turn held apart).
 * Clock steps are drawn from 0..1000 (and sometimes much further), so threads
 * leave the 256-clock window of buckets for the heap and come back; a few
 * inserts and updates go below the window's base, which forces a rebase. */
#include "suites.h"
#include "../../common/clock_queue.h"

#include <stdio.h>
#include <string.h>

/* splitmix64: small, fast, the same on every machine. */
typedef struct rng { uint64_t s; } rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Check's ck_assert marks its place through the runner's pipe on every call,
 * even when it passes: too slow for millions of checks. REQUIRE costs nothing
 * until it fails. */
#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/* Uniform in 0..n-1 (n > 0; the tiny modulo bias does not matter here). */
static uint64_t rng_below(rng *r, uint64_t n) { return rng_next(r) % n; }

/* ---- the reference ------------------------------------------------------------ */

typedef struct ref_queue {
    int n;
    bool *in;
    uint64_t *clock;
} ref_queue;

static int ref_count(const ref_queue *q)
{
    int c = 0;
    for (int t = 0; t < q->n; t++) c += q->in[t];
    return c;
}

static uint64_t ref_min(const ref_queue *q)
{
    uint64_t m = UINT64_MAX;
    for (int t = 0; t < q->n; t++)
        if (q->in[t] && q->clock[t] < m) m = q->clock[t];
    return m;
}

/* The rule of docs/scheduler.md §3, written as plainly as possible. */
static int ref_pick(const ref_queue *q, int prev)
{
    uint64_t m = ref_min(q);
    if (m == UINT64_MAX && ref_count(q) == 0) return -1;
    int start = prev < 0 ? 0 : prev + 1;
    for (int k = 0; k < q->n; k++) {
        int t = (start + k) % q->n;
        if (q->in[t] && q->clock[t] == m) return t;
    }
    return -1;
}

static uint64_t ref_min_other(const ref_queue *q, int thread)
{
    uint64_t m = UINT64_MAX;
    for (int t = 0; t < q->n; t++)
        if (t != thread && q->in[t] && q->clock[t] < m) m = q->clock[t];
    return m;
}

/* Smallest queued clock in (lo, lo + window), or UINT64_MAX: what
 * cq_next_level must return right after a pick has put base at lo. */
static uint64_t ref_next_level(const ref_queue *q, uint64_t lo, uint32_t window)
{
    uint64_t m = UINT64_MAX;
    for (int t = 0; t < q->n; t++)
        if (q->in[t] && q->clock[t] > lo && q->clock[t] - lo < window && q->clock[t] < m)
            m = q->clock[t];
    return m;
}

/* A random queued / unqueued thread, or -1 when there is none. */
static int random_thread(rng *r, const ref_queue *q, bool queued)
{
    int k = 0;
    for (int t = 0; t < q->n; t++) k += q->in[t] == queued;
    if (k == 0) return -1;
    int want = (int)rng_below(r, (uint64_t)k);
    for (int t = 0; t < q->n; t++)
        if (q->in[t] == queued && want-- == 0) return t;
    return -1;
}

/* A clock step: many zeros and small steps (ties), a spread up to 1000, and
 * now and then a long jump (into the heap, far beyond the window). */
static uint64_t random_step(rng *r)
{
    uint64_t c = rng_below(r, 100);
    if (c < 3) return 254 + rng_below(r, 4);    /* right at the window's edge */
    if (c < 30) return 0;
    if (c < 55) return rng_below(r, 4);
    if (c < 75) return rng_below(r, 41);
    if (c < 97) return rng_below(r, 1001);
    return 256 + rng_below(r, 100000);
}

typedef struct counts { unsigned picks, rebase, heap, next_level, min_other; } counts;

static void check_agree(clock_queue *q, const ref_queue *ref, int prev, counts *n, const char *ctx)
{
    REQUIRE(cq_count(q) == ref_count(ref), "%s: cq_count %d, want %d", ctx, cq_count(q),
            ref_count(ref));
    for (int t = 0; t < ref->n; t++)
        REQUIRE(cq_contains(q, t) == ref->in[t], "%s: thread %d contained %d, want %d",
                      ctx, t, cq_contains(q, t), ref->in[t]);
    int want = ref_pick(ref, prev);
    int got = cq_pick(q, prev);
    REQUIRE(got == want, "%s: cq_pick(prev=%d) = %d, reference %d (min clock %llu)",
                  ctx, prev, got, want, (unsigned long long)ref_min(ref));
    n->picks++;
    /* The documented layout (clock_queue.h): clocks within W of base are in
     * the buckets, later ones in the heap; base is at most every clock. */
    for (int t = 0; t < ref->n; t++)
        if (ref->in[t])
            REQUIRE(ref->clock[t] >= q->base &&
                    q->queued[t] == (ref->clock[t] - q->base < q->window ? 1 : 2),
                    "%s: thread %d at clock %llu is in the %s with base %llu", ctx, t,
                    (unsigned long long)ref->clock[t], q->queued[t] == 1 ? "buckets" : "heap",
                    (unsigned long long)q->base);
    if (got < 0) return;
    /* After a pick, base is the smallest clock: cq_min_other and cq_next_level. */
    uint64_t mo = cq_min_other(q, got), wmo = ref_min_other(ref, got);
    REQUIRE(mo == wmo, "%s: cq_min_other(%d) = %llu, reference %llu", ctx, got,
                  (unsigned long long)mo, (unsigned long long)wmo);
    n->min_other++;
    REQUIRE(q->base == ref->clock[got], "%s: base %llu is not the smallest clock %llu", ctx,
            (unsigned long long)q->base, (unsigned long long)ref->clock[got]);
    uint64_t nl = cq_next_level(q), wnl = ref_next_level(ref, q->base, q->window);
    REQUIRE(nl == wnl, "%s: cq_next_level = %llu, reference %llu (base %llu)", ctx,
                  (unsigned long long)nl, (unsigned long long)wnl,
                  (unsigned long long)q->base);
    n->next_level++;
    /* The lockstep loop's pick, with any word of the level in its register
     * (a copy: the loop keeps its word out of the bucket until it leaves it). */
    uint64_t *level = cq_bucket(q, q->base);
    for (int w = 0; w < q->words; w++) {
        uint64_t word = level[w];
        level[w] = ~word;           /* must be read from the register, not the bucket */
        int lf = cq_level_first(q, level, w, word, prev);
        level[w] = word;
        REQUIRE(lf == got, "%s: cq_level_first(word %d, prev=%d) = %d, reference %d", ctx, w, prev, lf, got);
    }
    n->heap += q->heap_len > 0;
}

/* One random run over `threads` threads and `steps` operations. */
static void random_run(int threads, uint64_t seed, int steps)
{
    rng r = { seed };
    clock_queue q;
    cq_init(&q, threads);
    ref_queue ref = { threads, calloc((size_t)threads, sizeof(bool)),
                      calloc((size_t)threads, sizeof(uint64_t)) };
    counts n = { 0 };
    int prev = -1;
    uint64_t now = rng_below(&r, 3) == 0 ? 0 : rng_below(&r, 1u << 20);   /* clock "of the run" */
    char ctx[96];
    for (int step = 0; step < steps; step++) {
        snprintf(ctx, sizeof ctx, "threads %d seed %llu step %d", threads,
                 (unsigned long long)seed, step);
        uint64_t op = rng_below(&r, 100);
        uint64_t lo = ref_count(&ref) ? ref_min(&ref) : now;
        if (op < 15) {                          /* insert a thread that is not queued */
            int t = random_thread(&r, &ref, false);
            if (t < 0) continue;
            uint64_t c, how = rng_below(&r, 100);
            int other = random_thread(&r, &ref, true);
            if (how < 20 && other >= 0) c = ref.clock[other];           /* a tie */
            else if (how < 30 && lo >= 600) { c = lo - 1 - rng_below(&r, 500); n.rebase++; }
            else c = lo + random_step(&r);
            cq_insert(&q, t, c);
            ref.in[t] = true;
            ref.clock[t] = c;
        } else if (op < 25) {                   /* remove (a thread blocks or ends) */
            int t = random_thread(&r, &ref, true);
            if (t < 0) continue;
            cq_remove(&q, t);
            ref.in[t] = false;
            now = ref.clock[t];
        } else if (op < 45) {                   /* update a queued thread's clock */
            int t = random_thread(&r, &ref, true);
            if (t < 0) continue;
            uint64_t c, how = rng_below(&r, 100);
            int other = random_thread(&r, &ref, true);
            if (how < 3 && ref.clock[t] >= 600) {                       /* backwards */
                c = ref.clock[t] - 1 - rng_below(&r, 500);
                n.rebase++;
            } else if (how < 15 && other >= 0 && ref.clock[other] >= ref.clock[t]) {
                c = ref.clock[other];                                   /* catch up: a tie */
            } else {
                c = ref.clock[t] + random_step(&r);
            }
            cq_update(&q, t, c);
            ref.clock[t] = c;
        } else if (op < 50) {                   /* a pick with an arbitrary prev */
            check_agree(&q, &ref, (int)rng_below(&r, (uint64_t)threads + 1) - 1, &n, ctx);
        } else {                                /* the scheduler's step: pick, run, advance */
            check_agree(&q, &ref, prev, &n, ctx);
            int t = ref_pick(&ref, prev);
            if (t < 0) continue;
            prev = t;
            uint64_t c = ref.clock[t] + random_step(&r);
            cq_update(&q, t, c);
            ref.clock[t] = c;
        }
        /* Most steps end with a check; some leave the queue as it is, so a
         * stale base (an emptied bucket nobody has picked from yet) meets
         * the next insert or update. */
        if (rng_below(&r, 4) != 0) check_agree(&q, &ref, prev, &n, ctx);
    }
    /* Drain: pick and remove until empty; the order must agree to the end. */
    while (ref_count(&ref) > 0) {
        check_agree(&q, &ref, prev, &n, "drain");
        int t = ref_pick(&ref, prev);
        cq_remove(&q, t);
        ref.in[t] = false;
        prev = t;
    }
    ck_assert_int_eq(cq_pick(&q, prev), -1);
    ck_assert_int_eq(cq_count(&q), 0);
    /* The run really went where it should: the heap was used, both picks
     * happened often, the rebase paths were taken. */
    ck_assert_uint_gt(n.picks, (unsigned)steps / 3);
    if (threads > 1) ck_assert_uint_gt(n.heap, 10);     /* one thread is always at base */
    ck_assert_uint_gt(n.rebase, 10);
    free(ref.in);
    free(ref.clock);
    cq_free(&q);
}

static const int thread_counts[] = { 1, 3, 64, 65, 130 };

START_TEST(random_against_reference)
{
    int threads = thread_counts[_i];
    for (uint64_t seed = 1; seed <= 4; seed++)
        random_run(threads, seed * 7919 + (uint64_t)threads, 60000);
}
END_TEST

/* The queue starts empty, picks -1, and the first insert sets the base. */
START_TEST(empty_and_single)
{
    clock_queue q;
    cq_init(&q, 3);
    ck_assert_int_eq(cq_pick(&q, -1), -1);
    ck_assert_int_eq(cq_pick(&q, 2), -1);
    cq_insert(&q, 1, 1000000);
    ck_assert_int_eq(cq_pick(&q, -1), 1);
    ck_assert_int_eq(cq_pick(&q, 1), 1);
    ck_assert_uint_eq(cq_min_other(&q, 1), UINT64_MAX);
    ck_assert_uint_eq(cq_next_level(&q), UINT64_MAX);
    cq_remove(&q, 1);
    ck_assert(!cq_contains(&q, 1));
    ck_assert_int_eq(cq_pick(&q, 1), -1);
    cq_remove(&q, 1);                           /* removing twice is harmless */
    ck_assert_int_eq(cq_count(&q), 0);
    cq_free(&q);
}
END_TEST

/* The tie rule by hand: three threads at one clock, cyclic after prev. */
START_TEST(tie_order_by_hand)
{
    clock_queue q;
    cq_init(&q, 5);
    cq_insert(&q, 4, 7);
    cq_insert(&q, 1, 7);
    cq_insert(&q, 3, 7);
    cq_insert(&q, 0, 9);
    ck_assert_int_eq(cq_pick(&q, -1), 1);      /* first step: lowest id */
    ck_assert_int_eq(cq_pick(&q, 1), 3);
    ck_assert_int_eq(cq_pick(&q, 2), 3);       /* prev need not be queued */
    ck_assert_int_eq(cq_pick(&q, 3), 4);
    ck_assert_int_eq(cq_pick(&q, 4), 1);       /* wraps around */
    cq_update(&q, 1, 300);                      /* beyond the window: heap */
    cq_update(&q, 3, 8);
    ck_assert_int_eq(cq_pick(&q, 4), 4);       /* 4 alone at 7 */
    cq_update(&q, 4, 9);
    ck_assert_int_eq(cq_pick(&q, 4), 3);       /* 3 at 8 */
    cq_update(&q, 3, 9);
    ck_assert_int_eq(cq_pick(&q, 3), 4);       /* 0, 3, 4 at 9: after 3 comes 4 */
    ck_assert_int_eq(cq_pick(&q, 4), 0);
    cq_update(&q, 0, 300);
    cq_update(&q, 3, 300);
    cq_update(&q, 4, 300);
    ck_assert_int_eq(cq_pick(&q, 0), 1);       /* all from the heap again */
    ck_assert_int_eq(cq_pick(&q, 1), 3);
    cq_free(&q);
}
END_TEST

Suite *clock_queue_suite(void)
{
    Suite *s = suite_create("clock_queue");
    TCase *tc = tcase_create("queue");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, empty_and_single);
    tcase_add_test(tc, tie_order_by_hand);
    tcase_add_loop_test(tc, random_against_reference, 0,
                        (int)(sizeof thread_counts / sizeof thread_counts[0]));
    suite_add_tcase(s, tc);
    return s;
}
