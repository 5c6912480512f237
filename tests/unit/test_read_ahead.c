/* test_read_ahead.c — base/read_ahead: the bytes of a producer thread reach
 * the consumer in order, whatever the sizes of the producer's pieces and of
 * the consumer's reads; a failure comes after the bytes made before it, and
 * again on every later read; stopping before the end does not wait for it. */
#include "suites.h"
#include "../../base/read_ahead.h"

#include <string.h>

/* A producer of total bytes (byte i = i * 7 mod 251) in pieces of up to
 * piece bytes, then the end or a failure. */
typedef struct gen {
    uint64_t at, total;
    size_t piece;
    const char *fail;
    int calls_after_end;
} gen;

static long gen_fill(void *ctx, unsigned char *buf, size_t n, const char **why, uint64_t *mark)
{
    gen *g = ctx;
    if (g->at == g->total) {
        g->calls_after_end++;
        *mark = g->at;
        if (g->fail) {
            *why = g->fail;
            return -1;
        }
        return 0;
    }
    size_t k = n < g->piece ? n : g->piece;
    if (k > g->total - g->at) k = (size_t)(g->total - g->at);
    for (size_t i = 0; i < k; i++) buf[i] = (unsigned char)((g->at + i) * 7 % 251);
    g->at += k;
    *mark = g->at;
    return (long)k;
}

/* Read everything in reads of up to step bytes; returns the count and checks
 * each byte. */
static uint64_t drain(read_ahead *ra, size_t step, const char **why, long *last)
{
    unsigned char buf[100000];
    uint64_t got = 0;
    for (;;) {
        long k = read_ahead_read(ra, buf, step, why);
        *last = k;
        if (k <= 0) return got;
        long bad = -1;      /* one check per read: Check's asserts are slow */
        for (long i = 0; i < k && bad < 0; i++)
            if (buf[i] != (unsigned char)((got + (uint64_t)i) * 7 % 251)) bad = i;
        ck_assert_int_eq(bad, -1);
        got += (uint64_t)k;
        ck_assert_uint_le(read_ahead_mark(ra), got + RA_CHUNK);
    }
}

START_TEST(test_order_and_end)
{
    static const size_t pieces[] = { 1, 1000, RA_CHUNK, RA_CHUNK + 3 };
    static const size_t steps[] = { 1, 7, 4096, 100000 };
    for (int p = 0; p < 4; p++)
        for (int s = 0; s < 4; s++) {
            uint64_t total = p == 0 || s <= 1 ? 20001 : 300001;
            gen g = { .total = total, .piece = pieces[p] };
            read_ahead *ra = read_ahead_start(gen_fill, &g);
            ck_assert_ptr_nonnull(ra);
            const char *why = NULL;
            long last;
            ck_assert_uint_eq(drain(ra, steps[s], &why, &last), total);
            ck_assert_int_eq(last, 0);
            ck_assert_int_eq(read_ahead_read(ra, &last, 1, &why), 0);  /* the end stays */
            ck_assert_uint_eq(read_ahead_mark(ra), total);
            read_ahead_stop(ra);
            ck_assert_int_eq(g.calls_after_end, 1);                    /* no fill after the end */
        }
}
END_TEST

START_TEST(test_failure_after_bytes)
{
    gen g = { .total = 300001, .piece = 5000, .fail = "broken stream" };
    read_ahead *ra = read_ahead_start(gen_fill, &g);
    const char *why = NULL;
    long last;
    ck_assert_uint_eq(drain(ra, 65536, &why, &last), 300001);
    ck_assert_int_eq(last, -1);
    ck_assert_str_eq(why, "broken stream");
    why = NULL;
    char b;
    ck_assert_int_eq(read_ahead_read(ra, &b, 1, &why), -1);
    ck_assert_str_eq(why, "broken stream");
    read_ahead_stop(ra);
}
END_TEST

START_TEST(test_empty_failure)
{
    gen g = { .total = 0, .piece = 1, .fail = "nothing" };
    read_ahead *ra = read_ahead_start(gen_fill, &g);
    const char *why = NULL;
    char b;
    ck_assert_int_eq(read_ahead_read(ra, &b, 1, &why), -1);
    ck_assert_str_eq(why, "nothing");
    read_ahead_stop(ra);
}
END_TEST

/* A reader closed early (an analysis that stops, an error elsewhere): the
 * producer stops once the ring is full, not at the end of its input. */
START_TEST(test_stop_early)
{
    gen g = { .total = (uint64_t)1 << 40, .piece = RA_CHUNK };
    read_ahead *ra = read_ahead_start(gen_fill, &g);
    char b[10];
    const char *why = NULL;
    ck_assert_int_eq(read_ahead_read(ra, b, sizeof b, &why), 10);
    read_ahead_stop(ra);
    ck_assert_uint_le(g.at, (uint64_t)(RA_CHUNKS + 1) * RA_CHUNK);
    gen g2 = { .total = (uint64_t)1 << 40, .piece = RA_CHUNK };
    read_ahead_stop(read_ahead_start(gen_fill, &g2));      /* nothing read at all */
}
END_TEST

Suite *read_ahead_suite(void)
{
    Suite *s = suite_create("read_ahead");
    TCase *tc = tcase_create("read_ahead");
    tcase_set_timeout(tc, 60);      /* threads on a loaded machine, under the sanitizers */
    tcase_add_test(tc, test_order_and_end);
    tcase_add_test(tc, test_failure_after_bytes);
    tcase_add_test(tc, test_empty_failure);
    tcase_add_test(tc, test_stop_early);
    suite_add_tcase(s, tc);
    return s;
}
