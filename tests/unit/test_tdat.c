/* test_tdat.c — tdat's pieces (docs/tdat.md): the clock parser (no scanf, 64-bit
 * overflow), line kinds, fields and -f filters (tdat/record), the growable
 * bins and their limit (tdat/bins), the summary, classes, density and bounds
 * (tdat/distrib, including rates on class boundaries and the 128-bit path)
 * and the SVG axis ticks (tdat/svg). Every expected number is worked out in
 * the comment beside it. */
#include "suites.h"
#include "../../tdat/bins.h"
#include "../../tdat/distrib.h"
#include "../../tdat/record.h"
#include "../../tdat/svg.h"

#include <string.h>

/* ---- record: numbers -------------------------------------------------------- */

static rec_num num(const char *s, uint64_t *v)
{
    *v = 12345;     /* must stay untouched unless OK */
    return rec_parse_u64(s, strlen(s), v);
}

START_TEST(parse_u64_good)
{
    uint64_t v;
    ck_assert_int_eq(num("0", &v), REC_NUM_OK);
    ck_assert_uint_eq(v, 0);
    ck_assert_int_eq(num("007", &v), REC_NUM_OK);     /* leading zeros: decimal, not octal */
    ck_assert_uint_eq(v, 7);
    ck_assert_int_eq(num("4294967296", &v), REC_NUM_OK);   /* past 32 bits */
    ck_assert_uint_eq(v, 4294967296ull);
    ck_assert_int_eq(num("18446744073709551615", &v), REC_NUM_OK);  /* 2^64 - 1 */
    ck_assert_uint_eq(v, UINT64_MAX);
    ck_assert_int_eq(num("000000000000000000000018446744073709551615", &v), REC_NUM_OK);
    ck_assert_uint_eq(v, UINT64_MAX);
    /* Only the first n bytes count. */
    ck_assert_int_eq(rec_parse_u64("123 RAW", 3, &v), REC_NUM_OK);
    ck_assert_uint_eq(v, 123);
}
END_TEST

START_TEST(parse_u64_bad)
{
    uint64_t v;
    const char *bad[] = { "", "a", "12a", "-1", "+1", " 1", "1 ", "1.0", "0x10", "1e3", "clock", "#1" };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        ck_assert_msg(num(bad[i], &v) == REC_NUM_BAD, "'%s'", bad[i]);
        ck_assert_uint_eq(v, 12345);
    }
    /* 2^64 and beyond: overflow, *out untouched. */
    ck_assert_int_eq(num("18446744073709551616", &v), REC_NUM_OVERFLOW);
    ck_assert_uint_eq(v, 12345);
    ck_assert_int_eq(num("18446744073709551620", &v), REC_NUM_OVERFLOW);
    ck_assert_int_eq(num("99999999999999999999", &v), REC_NUM_OVERFLOW);
    ck_assert_int_eq(num("184467440737095516150", &v), REC_NUM_OVERFLOW);   /* (2^64-1)*10 */
    /* A bad character wins over an overflow before it. */
    ck_assert_int_eq(num("99999999999999999999x", &v), REC_NUM_BAD);
}
END_TEST

/* ---- record: lines, fields, filters -------------------------------------------- */

START_TEST(classify_and_fields)
{
    ck_assert_int_eq(rec_classify("", NULL), REC_BLANK);
    ck_assert_int_eq(rec_classify(" \t ", NULL), REC_BLANK);
    ck_assert_int_eq(rec_classify("# clock", NULL), REC_COMMENT);
    ck_assert_int_eq(rec_classify(" \t#", NULL), REC_COMMENT);
    ck_assert_int_eq(rec_classify("clock event", NULL), REC_FIELDS);
    const char *first = NULL, *five = " \t5 RAW 1 0";
    ck_assert_int_eq(rec_classify(five, &first), REC_FIELDS);
    ck_assert_ptr_eq(first, five + 2);

    const char *line = " \t12\tRAW  3 0 ";
    const char *want[] = { "12", "RAW", "3", "0" };
    for (unsigned n = 1; n <= 4; n++) {
        const char *s;
        size_t len;
        ck_assert(rec_field(line, n, &s, &len));
        ck_assert_uint_eq(len, strlen(want[n - 1]));
        ck_assert(!memcmp(s, want[n - 1], len));
    }
    const char *s = NULL;
    size_t len = 99;
    ck_assert(!rec_field(line, 5, &s, &len));
    ck_assert(!rec_field("", 1, &s, &len));
    ck_assert(!rec_field("   ", 1, &s, &len));
    ck_assert_uint_eq(rec_field_count(line), 4);
    ck_assert_uint_eq(rec_field_count(""), 0);
    ck_assert_uint_eq(rec_field_count("a"), 1);
    ck_assert_uint_eq(rec_field_count("\ta\t\tb"), 2);
}
END_TEST

START_TEST(filters)
{
    rec_filter f[3];
    ck_assert_ptr_null(rec_filter_parse("2=WAR", &f[0]));
    ck_assert_uint_eq(f[0].field, 2);
    ck_assert_str_eq(f[0].value, "WAR");
    ck_assert_uint_eq(f[0].len, 3);
    ck_assert_ptr_null(rec_filter_parse("3=1", &f[1]));
    ck_assert_ptr_null(rec_filter_parse("65535==", &f[2]));   /* VALUE "=" */
    ck_assert_str_eq(f[2].value, "=");

    rec_filter g;
    ck_assert_str_eq(rec_filter_parse("WAR", &g), "expects N=VALUE (e.g. 2=WAR: field 2 equals WAR)");
    const char *badn = "N must be a field number from 1 to 65535 (N=VALUE)";
    ck_assert_str_eq(rec_filter_parse("0=WAR", &g), badn);
    ck_assert_str_eq(rec_filter_parse("65536=WAR", &g), badn);
    ck_assert_str_eq(rec_filter_parse("=WAR", &g), badn);
    ck_assert_str_eq(rec_filter_parse("x=WAR", &g), badn);
    ck_assert_str_eq(rec_filter_parse("-1=WAR", &g), badn);
    ck_assert_str_eq(rec_filter_parse("99999999999999999999=WAR", &g), badn);
    ck_assert_str_eq(rec_filter_parse("2=", &g), "VALUE is empty (a field is never empty)");
    ck_assert_str_eq(rec_filter_parse("2=W R", &g), "VALUE contains a blank or tab (a field never does)");
    ck_assert_str_eq(rec_filter_parse("2=W\tR", &g), "VALUE contains a blank or tab (a field never does)");

    /* Exact string equality of the field; all filters must match. */
    ck_assert(rec_filters_match("5 WAR 1 2", f, 0));
    ck_assert(rec_filters_match("5 WAR 1 2", f, 1));
    ck_assert(rec_filters_match("5\tWAR\t1", f, 2));
    ck_assert(!rec_filters_match("5 WAR 2 2", f, 2));      /* field 3 is 2, not 1 */
    ck_assert(!rec_filters_match("5 RAW 1 0", f, 1));
    ck_assert(!rec_filters_match("5 WARX 1 0", f, 1));     /* not a prefix match */
    ck_assert(!rec_filters_match("5 WA 1 0", f, 1));
    ck_assert(!rec_filters_match("5 war 1 0", f, 1));      /* case matters */
    ck_assert(!rec_filters_match("5", f, 1));              /* no field 2: no match */
    ck_assert(!rec_filters_match("5 WAR", f, 2));          /* no field 3 */
}
END_TEST

/* ---- bins ---------------------------------------------------------------------- */

START_TEST(bins_unsorted_and_growth)
{
    bins b;
    bins_init(&b, 10, BINS_DEFAULT_MAX);
    /* Clocks out of order; 10 and 29 sit on / just below bin boundaries. */
    const uint64_t clocks[] = { 25, 3, 10, 9, 29, 0, 20, 19999 };
    for (size_t i = 0; i < sizeof clocks / sizeof clocks[0]; i++) ck_assert(bins_add(&b, clocks[i]));
    /* bin 0: 3 9 0; bin 1: 10; bin 2: 25 29 20; bin 1999: 19999. */
    ck_assert_uint_eq(b.used, 2000);
    ck_assert_uint_eq(b.events, 8);
    ck_assert_uint_eq(b.count[0], 3);
    ck_assert_uint_eq(b.count[1], 1);
    ck_assert_uint_eq(b.count[2], 3);
    for (uint64_t i = 3; i < 1999; i++) ck_assert_uint_eq(b.count[i], 0);   /* grown zeroed */
    ck_assert_uint_eq(b.count[1999], 1);
    ck_assert_uint_ge(b.cap, b.used);
    bins_free(&b);
}
END_TEST

START_TEST(bins_limit)
{
    bins b;
    bins_init(&b, 1, BINS_DEFAULT_MAX);
    /* Bin 2^24 is one too many by default: refused before anything is allocated. */
    ck_assert_uint_eq(BINS_DEFAULT_MAX, (uint64_t)1 << 24);
    ck_assert(!bins_add(&b, BINS_DEFAULT_MAX));
    ck_assert(!bins_add(&b, UINT64_MAX));
    ck_assert_uint_eq(b.events, 0);
    ck_assert_uint_eq(b.used, 0);
    ck_assert_ptr_null(b.count);
    /* Bin 2^24 - 1, the last one, is fine (and the array stops at the limit). */
    ck_assert(bins_add(&b, BINS_DEFAULT_MAX - 1));
    ck_assert_uint_eq(b.used, BINS_DEFAULT_MAX);
    ck_assert_uint_eq(b.cap, BINS_DEFAULT_MAX);
    ck_assert(!bins_add(&b, BINS_DEFAULT_MAX));
    ck_assert_uint_eq(b.events, 1);
    bins_free(&b);
    /* A raised limit (--max-bins 2^24 + 1) takes bin 2^24, not 2^24 + 1. */
    bins_init(&b, 1, BINS_DEFAULT_MAX + 1);
    ck_assert(bins_add(&b, BINS_DEFAULT_MAX));
    ck_assert(!bins_add(&b, BINS_DEFAULT_MAX + 1));
    ck_assert_uint_eq(b.used, BINS_DEFAULT_MAX + 1);
    ck_assert_uint_eq(b.cap, BINS_DEFAULT_MAX + 1);
    ck_assert_uint_eq(b.count[BINS_DEFAULT_MAX], 1);
    bins_free(&b);
    /* A lowered one: 8 bins. */
    bins_init(&b, 10, 8);
    ck_assert(bins_add(&b, 79));
    ck_assert(!bins_add(&b, 80));
    ck_assert_uint_eq(b.used, 8);
    bins_free(&b);
    /* With w = 2^40, clock 2^64-1 is in bin 2^24 - 1: fine. */
    bins_init(&b, (uint64_t)1 << 40, BINS_DEFAULT_MAX);
    ck_assert(bins_add(&b, UINT64_MAX));
    ck_assert_uint_eq(b.used, (uint64_t)1 << 24);
    ck_assert_uint_eq(b.count[((uint64_t)1 << 24) - 1], 1);
    bins_free(&b);
    /* The highest limit: bin 2^32 - 1 would be allowed, 2^32 is not. */
    bins_init(&b, 1, BINS_MAX_LIMIT);
    ck_assert(!bins_add(&b, BINS_MAX_LIMIT));
    ck_assert_ptr_null(b.count);
    bins_free(&b);

    /* bins_width_for(c, m): the smallest w with c / w < m. */
    const uint64_t m = BINS_DEFAULT_MAX;
    ck_assert_uint_eq(bins_width_for(0, m), 1);
    ck_assert_uint_eq(bins_width_for(m - 1, m), 1);
    ck_assert_uint_eq(bins_width_for(m, m), 2);
    ck_assert_uint_eq(bins_width_for(2 * m - 1, m), 2);
    ck_assert_uint_eq(bins_width_for(2 * m, m), 3);
    ck_assert_uint_eq(bins_width_for(UINT64_MAX, m), (uint64_t)1 << 40);
    ck_assert_uint_eq(bins_width_for(UINT64_MAX - 1, 1), UINT64_MAX);  /* one bin: clock / w = 0 */
    ck_assert_uint_eq(bins_width_for(UINT64_MAX, 1), 0);               /* no width does */
    const uint64_t ms[] = { 1, 8, BINS_DEFAULT_MAX, BINS_MAX_LIMIT };
    const uint64_t cs[] = { 1000000000000ull, UINT64_MAX, UINT64_MAX / 3, 5 * BINS_DEFAULT_MAX + 7 };
    for (size_t k = 0; k < sizeof ms / sizeof ms[0]; k++)
        for (size_t i = 0; i < sizeof cs / sizeof cs[0]; i++) {
            uint64_t w = bins_width_for(cs[i], ms[k]);
            if (w == 0) {
                ck_assert(ms[k] == 1 && cs[i] == UINT64_MAX);
                continue;
            }
            ck_assert_uint_lt(cs[i] / w, ms[k]);
            if (w > 1) ck_assert_uint_ge(cs[i] / (w - 1), ms[k]);
        }
}
END_TEST

/* ---- distrib -------------------------------------------------------------------- */

START_TEST(summary_by_hand)
{
    /* 4 bins holding 4, 1, 0, 1 events, p = 2: rates 2, 0.5, 0, 0.5.
     * avg = 6 / 4 / 2 = 0.75; deviations 1.25 -0.25 -0.75 -0.25, squares
     * 1.5625 + 0.0625 + 0.5625 + 0.0625 = 2.25, / 4 = 0.5625, stddev 0.75. */
    const uint64_t c[] = { 4, 1, 0, 1 };
    distrib_summary s;
    distrib_summarize(c, 4, 2, &s);
    ck_assert_uint_eq(s.events, 6);
    ck_assert_uint_eq(s.bins, 4);
    ck_assert_uint_eq(s.min_count, 0);
    ck_assert_uint_eq(s.max_count, 4);
    ck_assert_double_eq_tol(s.avg_rate, 0.75, 1e-12);
    ck_assert_double_eq_tol(s.min_rate, 0, 1e-12);
    ck_assert_double_eq_tol(s.max_rate, 2, 1e-12);
    ck_assert_double_eq_tol(s.stddev, 0.75, 1e-12);
    /* 4 classes of width 0.5 over [0, 2]: 0 -> class 0; 0.5 on the boundary
     * -> class 1 (twice); 2, the maximum -> the last class, 3. */
    uint64_t nc = distrib_class_count(&s, 4), h[4];
    ck_assert_uint_eq(nc, 4);
    distrib_classes(&s, c, nc, h);
    ck_assert_uint_eq(h[0], 1);
    ck_assert_uint_eq(h[1], 2);
    ck_assert_uint_eq(h[2], 0);
    ck_assert_uint_eq(h[3], 1);
    const double bound[] = { 0, 0.5, 1, 1.5, 2 };
    for (uint64_t k = 0; k <= 4; k++) ck_assert_double_eq_tol(distrib_class_bound(&s, nc, k), bound[k], 1e-12);
}
END_TEST

START_TEST(classes_on_boundaries)
{
    /* 11 bins holding 0..10 events, p = 10: rates 0, 0.1, ..., 1.0; 10
     * classes of width 0.1. Rate k/10 starts class k exactly (in floating
     * point (0.3 - 0) / 0.1 = 2.9999999999999996 would put it in class 2);
     * the maximum 1.0 joins class 9. */
    uint64_t c[11], h[10];
    for (uint64_t i = 0; i < 11; i++) c[i] = i;
    distrib_summary s;
    distrib_summarize(c, 11, 10, &s);
    distrib_classes(&s, c, 10, h);
    for (int k = 0; k < 9; k++) ck_assert_uint_eq(h[k], 1);
    ck_assert_uint_eq(h[9], 2);
    /* Bounds print as 0.0000, 0.1000, ... 1.0000. */
    char buf[32];
    for (uint64_t k = 0; k <= 10; k++) {
        char want[32];
        if (k < 10) snprintf(want, sizeof want, "0.%llu000", (unsigned long long)k);
        else snprintf(want, sizeof want, "1.0000");
        snprintf(buf, sizeof buf, "%.4f", distrib_class_bound(&s, 10, k));
        ck_assert_str_eq(buf, want);
    }
    /* Mean of 0..10 = 5 events, 0.5 per processor; population variance of
     * 0..10 = 10 (sum of squared deviations 110 / 11), stddev sqrt(10)/10. */
    ck_assert_double_eq_tol(s.avg_rate, 0.5, 1e-12);
    ck_assert_double_eq_tol(s.stddev, 0.31622776601683794, 1e-12);
    /* 3 classes over [0, 10] events: width 10/3; n = 3 -> 0 (9/10 < 1),
     * n = 4 -> 1 (12/10), n = 7 -> 2 (21/10), n = 10 -> 3 -> last class 2. */
    ck_assert_uint_eq(distrib_class_of(&s, 3, 3), 0);
    ck_assert_uint_eq(distrib_class_of(&s, 3, 4), 1);
    ck_assert_uint_eq(distrib_class_of(&s, 3, 6), 1);
    ck_assert_uint_eq(distrib_class_of(&s, 3, 7), 2);
    ck_assert_uint_eq(distrib_class_of(&s, 3, 10), 2);
}
END_TEST

START_TEST(one_class_when_flat)
{
    /* Every bin holds 3 events, p = 2: min = max = 1.5, one class whatever
     * -classes says, holding all 3 bins; stddev 0. */
    const uint64_t c[] = { 3, 3, 3 };
    distrib_summary s;
    distrib_summarize(c, 3, 2, &s);
    ck_assert_uint_eq(distrib_class_count(&s, 20), 1);
    uint64_t h[1];
    distrib_classes(&s, c, 1, h);
    ck_assert_uint_eq(h[0], 3);
    ck_assert_double_eq_tol(distrib_class_bound(&s, 1, 0), 1.5, 1e-12);
    ck_assert_double_eq_tol(distrib_class_bound(&s, 1, 1), 1.5, 1e-12);
    ck_assert_double_eq_tol(s.stddev, 0, 1e-12);
    /* A single bin. */
    const uint64_t one[] = { 7 };
    distrib_summarize(one, 1, 7, &s);
    ck_assert_uint_eq(distrib_class_count(&s, 5), 1);
    ck_assert_double_eq_tol(s.avg_rate, 1, 1e-12);
}
END_TEST

START_TEST(classes_large_counts)
{
    /* Counts near 2^63 with a million classes: (n - min) * c passes 2^64
     * and takes the 128-bit path. min 0, max 2^63: n = 2^62 is half way,
     * class 500000; n = 2^63 - 1 is class 999999 (floor of 999999.99...). */
    const uint64_t big = (uint64_t)1 << 63;
    const uint64_t c[] = { 0, big, big / 2, big - 1 };
    distrib_summary s;
    distrib_summarize(c, 2, 1, &s);     /* min and max from the first two */
    ck_assert_uint_eq(distrib_class_of(&s, 1000000, big / 2), 500000);
    ck_assert_uint_eq(distrib_class_of(&s, 1000000, big - 1), 999999);
    ck_assert_uint_eq(distrib_class_of(&s, 1000000, big), 999999);
    ck_assert_uint_eq(distrib_class_of(&s, 1000000, 0), 0);
    /* The 64-bit path gives the same answer where both apply. */
    ck_assert_uint_eq(distrib_class_of(&s, 2, big / 2), 1);
    ck_assert_uint_eq(distrib_class_of(&s, 2, big / 2 - 1), 0);
}
END_TEST

/* ---- svg ticks ---------------------------------------------------------------- */

/* The default class count suits the number of bins (Sturges): 3 bins get
 * 3 classes, not 20 mostly empty ones; it stops at 20. */
START_TEST(default_classes)
{
    ck_assert_uint_eq(distrib_default_classes(0), 1);
    ck_assert_uint_eq(distrib_default_classes(1), 1);
    ck_assert_uint_eq(distrib_default_classes(2), 2);
    ck_assert_uint_eq(distrib_default_classes(3), 3);
    ck_assert_uint_eq(distrib_default_classes(4), 3);
    ck_assert_uint_eq(distrib_default_classes(5), 4);
    ck_assert_uint_eq(distrib_default_classes(6), 4);
    ck_assert_uint_eq(distrib_default_classes(1000), 11);
    ck_assert_uint_eq(distrib_default_classes((uint64_t)1 << 18), 19);
    ck_assert_uint_eq(distrib_default_classes(((uint64_t)1 << 18) + 1), 20);
    ck_assert_uint_eq(distrib_default_classes(UINT64_MAX), 20);
}
END_TEST

START_TEST(ticks)
{
    /* range / target, rounded to 1, 2 or 5 times a power of ten. */
    ck_assert_double_eq_tol(svg_tick_step(40, 8, 1), 5, 1e-12);        /* 5 */
    ck_assert_double_eq_tol(svg_tick_step(4, 5, 1), 1, 1e-12);         /* 0.8 -> 1 */
    ck_assert_double_eq_tol(svg_tick_step(2, 8, 0), 0.2, 1e-12);       /* 0.25 -> 0.2 */
    ck_assert_double_eq_tol(svg_tick_step(0.5, 5, 0), 0.1, 1e-12);     /* 0.1 */
    ck_assert_double_eq_tol(svg_tick_step(3, 8, 1), 1, 1e-12);         /* 0.375 -> 0.5, integer: 1 */
    ck_assert_double_eq_tol(svg_tick_step(1e9, 8, 1), 1e8, 1e-3);      /* 1.25e8 -> 1e8 */
    ck_assert_double_eq_tol(svg_tick_step(300, 8, 1), 50, 1e-12);      /* 37.5 -> 50 */
    ck_assert_double_eq_tol(svg_tick_step(0, 8, 1), 1, 1e-12);
    char b[64];
    svg_tick_label(b, sizeof b, 10, 5);
    ck_assert_str_eq(b, "10");
    svg_tick_label(b, sizeof b, 0.2, 0.2);
    ck_assert_str_eq(b, "0.2");
    svg_tick_label(b, sizeof b, 0.25, 0.05);
    ck_assert_str_eq(b, "0.25");
    svg_tick_label(b, sizeof b, -1e-17, 0.1);
    ck_assert_str_eq(b, "0.0");
    svg_tick_label(b, sizeof b, 1e9, 1e8);
    ck_assert_str_eq(b, "1e+09");
    svg_tick_label(b, sizeof b, 12500000, 2500000);
    ck_assert_str_eq(b, "1.25e+07");
    svg_tick_label(b, sizeof b, 9999999, 1);
    ck_assert_str_eq(b, "9999999");
}
END_TEST

Suite *tdat_suite(void)
{
    Suite *s = suite_create("tdat");
    TCase *tc = tcase_create("tdat");
    /* bins_limit fills three arrays of 2^24 bins (384 MiB): under ASan on a
     * virtual machine whose page faults are slow it took 3 s idle and more
     * than Check's default 4 s beside a parallel build. */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, parse_u64_good);
    tcase_add_test(tc, parse_u64_bad);
    tcase_add_test(tc, classify_and_fields);
    tcase_add_test(tc, filters);
    tcase_add_test(tc, bins_unsorted_and_growth);
    tcase_add_test(tc, bins_limit);
    tcase_add_test(tc, summary_by_hand);
    tcase_add_test(tc, classes_on_boundaries);
    tcase_add_test(tc, one_class_when_flat);
    tcase_add_test(tc, classes_large_counts);
    tcase_add_test(tc, default_classes);
    tcase_add_test(tc, ticks);
    suite_add_tcase(s, tc);
    return s;
}
