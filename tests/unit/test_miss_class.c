/* test_miss_class.c — cdat/miss_class (docs/cdat-report.md, L17/L18): the word
 * masks, and a long random sequence of misses, invalidations and writes
 * against a plain reference (arrays indexed by processor, cache and line):
 * cold on the first miss, true or false sharing on the first miss after an
 * invalidation by the words written since, capacity or conflict otherwise.
 * The lines are many and reused, so the hash maps grow and delete entries
 * (backward-shift deletion) throughout. The capacity/conflict split itself is
 * checked against an independent model by tests/cli/cdat-misses.sh. */
#include "suites.h"
#include "../../cdat/miss_class.h"

START_TEST(word_masks)
{
    cache g;
    ck_assert(cache_init(&g, 64, 1, 16));
    miss_class *mc = mc_new(1, &g, &g, 4);              /* 16-byte lines: 4 words of 4 bytes */
    ck_assert_uint_eq(mc_words(mc, 0, 3), 1);
    ck_assert_uint_eq(mc_words(mc, 4, 11), 6);
    ck_assert_uint_eq(mc_words(mc, 0, 15), 15);
    mc_free(mc);
    cache_free(&g);
    ck_assert(cache_init(&g, 1024, 1, 512));
    mc = mc_new(1, &g, &g, 9);                          /* 512-byte lines: 64 words of 8 bytes */
    ck_assert_uint_eq(mc_words(mc, 0, 511), ~0ULL);
    ck_assert_uint_eq(mc_words(mc, 504, 511), 1ULL << 63);
    ck_assert_uint_eq(mc_words(mc, 8, 15), 2);
    mc_free(mc);
    cache_free(&g);
}
END_TEST

enum { P = 4, LINES = 3000 };

START_TEST(random_against_reference)
{
    cache g;
    ck_assert(cache_init(&g, 64, 1, 16));
    miss_class *mc = mc_new(P, &g, &g, 4);
    static unsigned char seen[P][2][LINES], pend[P][2][LINES];
    static uint64_t words[P][2][LINES];
    memset(seen, 0, sizeof seen);
    memset(pend, 0, sizeof pend);
    uint64_t x = 12345;
    for (int i = 0; i < 400000; i++) {
        x = x * 6364136223846793005ULL + 1442695040888963407ULL;
        unsigned p = (unsigned)(x >> 60) % P, s = (unsigned)(x >> 58) & 1, l = (unsigned)(x >> 20) % LINES;
        uint64_t w = 1ULL << ((x >> 40) & 3);
        switch ((x >> 44) % 3) {
        case 0: {           /* a miss */
            int cls = mc_ref(mc, p, (int)s, l, w, 1);
            int want = !seen[p][s][l] ? MC_COLD : pend[p][s][l] ? (words[p][s][l] & w ? MC_TRUE : MC_FALSE) : -1;
            if (want >= 0) ck_assert_int_eq(cls, want);
            else ck_assert(cls == MC_CAPACITY || cls == MC_CONFLICT);
            seen[p][s][l] = 1;
            pend[p][s][l] = 0;
            break;
        }
        case 1:             /* an invalidation (only of a line the processor has seen) */
            if (!seen[p][s][l]) break;
            mc_invalidated(mc, p, (int)s, l);
            if (!pend[p][s][l]) words[p][s][l] = 0;
            pend[p][s][l] = 1;
            break;
        default:            /* a write */
            mc_write(mc, p, l, w);
            for (unsigned q = 0; q < P; q++)
                for (int t = 0; t < 2; t++)
                    if (q != p && pend[q][t][l]) words[q][t][l] |= w;
        }
        ck_assert_int_eq(mc_ref(mc, p, (int)s, l, w, 0), -1);       /* a hit changes nothing but the shadow */
    }
    mc_free(mc);
    cache_free(&g);
}
END_TEST

Suite *miss_class_suite(void)
{
    Suite *s = suite_create("miss_class");
    TCase *tc = tcase_create("miss_class");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, word_masks);
    tcase_add_test(tc, random_against_reference);
    suite_add_tcase(s, tc);
    return s;
}
