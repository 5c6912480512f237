/* test_cdat_partial.c — cdat's partial results (cdat/partial.c): two parts
 * written and merged back, every counter word summed with stats_add, the
 * processors' time added once, the sums and alike records at the end; the
 * counters written sparsely (only the words that are not zero); the parts'
 * keyed trace records merged in the whole run's order. */
#include "suites.h"
#include "../../cdat/partial.h"
#include "../../common/out_file.h"

#include <string.h>

/* Counters with every word set: word k of part `seed` is (k + 1) * seed, some zero. */
static void fill(cpu_stats *st, uint64_t seed)
{
    uint64_t w[CDAT_STATS_WORDS];
    for (size_t k = 0; k < CDAT_STATS_WORDS; k++) w[k] = k % 7 == 3 ? 0 : (k + 1) * seed;
    memcpy(st, w, sizeof w);
}

/* keyed: the part's keyed trace records (traces.h), or NULL: no traces. */
static const char *write_part(uint32_t i, const cpu_stats *st, uint64_t directory, const char *keyed)
{
    static char paths[2][4096];
    snprintf(paths[i], sizeof paths[i], "%s/p.cdat_partial.%u-of-2", tu_dir, i);
    out_file *f = out_file_open(paths[i], false);
    const char *traces[1] = { tu_dir };
    const cdat_timing tm = { .on = true, .cycles = { 100, 60, 300, 250, 40, 20 } };
    const char *config[2] = { " configuration: x.ini", " options: gap_limit 4096" };
    const cdat_trace_outputs to = { keyed != NULL, keyed != NULL, OUT_PLAIN };
    cdat_partial_begin(f, i, 2, "cdat -p t.1 x.ini", true, traces, 1, 2, 1, 0, &tm, &to, config, 2);
    sched_phase ph = { .number = 1, .kind = PHASE_PARALLEL, .by = PHASE_BY_START, .active = 1, .start_clock = 0,
                       .end_clock = 90, .last = true };
    const uint64_t active[2] = { 90, 0 }, idle[2] = { 5, 0 };
    cdat_partial_phase(f, &ph, st, 2, active, idle);
    if (keyed) {
        FILE *k = tmpfile();
        ck_assert_ptr_nonnull(k);
        fputs(keyed, k);
        rewind(k);
        cdat_partial_traces(f, k);
    }
    const char *placement[1] = { "node 0 pages 3" }, *header[1] = { " traces: 1 (t.1)" };
    cdat_partial_end(f, directory, placement, 1, header, 1);
    out_file_commit_all();
    return paths[i];
}

START_TEST(two_parts_sum)
{
    cpu_stats a[2], b[2];
    fill(&a[0], 1);
    fill(&a[1], 2);
    fill(&b[0], 10);
    memset(&b[1], 0, sizeof b[1]);
    char *paths[2] = { (char *)write_part(0, a, 3, NULL), (char *)write_part(1, b, 4, NULL) };
    /* sparse: the words that are zero are left out */
    size_t n;
    char *text = (char *)tu_read(paths[1], &n);
    ck_assert_ptr_nonnull(strstr(text, "\nstats 1 "));
    char want[64];
    snprintf(want, sizeof want, "\nstats 1 %d\n", (int)CDAT_STATS_WORDS);
    ck_assert_ptr_nonnull(strstr(text, want));
    free(text);

    cdat_merge *m = cdat_merge_open(paths, 2);
    ck_assert_uint_eq(cdat_merge_slots(m), 2);
    ck_assert_uint_eq(cdat_merge_levels(m), 1);
    ck_assert(cdat_merge_timing(m)->on);
    ck_assert_uint_eq(cdat_merge_timing(m)->cycles[TIMING_HOP], 20);
    sched_phase ph;
    cpu_stats st[2];
    ck_assert(cdat_merge_phase(m, &ph, st));
    ck_assert_int_eq(ph.number, 1);
    ck_assert_uint_eq(ph.end_clock, 90);
    ck_assert(ph.last);
    for (int p = 0; p < 2; p++) {
        cpu_stats want_st = a[p];
        stats_add(&want_st, &b[p]);
        want_st.active += p ? 0 : 90;
        want_st.idle += p ? 0 : 5;
        ck_assert_mem_eq(&st[p], &want_st, sizeof want_st);
    }
    ck_assert(!cdat_merge_phase(m, &ph, st));
    uint64_t dir;
    char **pl, **hd;
    size_t npl, nhd;
    cdat_merge_end(m, &dir, &pl, &npl, &hd, &nhd);
    ck_assert_uint_eq(dir, 7);
    ck_assert_uint_eq(npl, 1);
    ck_assert_str_eq(pl[0], "node 0 pages 3");
    ck_assert_uint_eq(nhd, 1);
    ck_assert_str_eq(hd[0], " traces: 1 (t.1)");
    cdat_merge_close(m);
}
END_TEST

/* What the merge puts where, one "FILE:RECORD" line each. */
static bool collect(void *ctx, const char *file, const char *record, size_t len)
{
    char *out = ctx;
    size_t n = strlen(out);
    snprintf(out + n, 1024 - n, "%s:%.*s\n", file, (int)len, record);
    return strcmp(file, "9") != 0;
}

START_TEST(traces_in_order)
{
    cpu_stats st[2] = { 0 };
    /* reference 1 and 3 are part 0's lines, 2 part 1's; reference 2's second
     * line (index 1) is part 0's; part 0's status record follows reference 3 */
    const char *k0 = "1 0 d 5 64 01 0 0 0 0\n1 0 d 5 64 11 0 0 0 0\n2 1 0 7 128 01 0 0 0 0 1 0 0 -1\n"
                     "3 0 d 9 64 04 0 0 0 0\n3 4294967295 1 9 0 92 1 0 0 0 0 -1\n";
    const char *k1 = "2 0 d 7 192 02 1 0 1 0\n3 4294967295 1 9 0 92 1 0 0 0 0 -1\n";
    char *paths[2] = { (char *)write_part(0, st, 1, k0), (char *)write_part(1, st, 1, k1) };
    cdat_merge *m = cdat_merge_open(paths, 2);
    ck_assert(cdat_merge_trace_outputs(m)->general);
    ck_assert(cdat_merge_trace_outputs(m)->detailed);
    sched_phase ph;
    cpu_stats sum[2];
    ck_assert(cdat_merge_phase(m, &ph, sum));
    ck_assert(!cdat_merge_phase(m, &ph, sum));
    char out[1024] = "";
    cdat_merge_traces(m, collect, out);
    ck_assert_str_eq(out, "d:5 64 01 0 0 0 0\nd:5 64 11 0 0 0 0\nd:7 192 02 1 0 1 0\n0:7 128 01 0 0 0 0 1 0 0 -1\n"
                          "d:9 64 04 0 0 0 0\n1:9 0 92 1 0 0 0 0 -1\n1:9 0 92 1 0 0 0 0 -1\n");
    uint64_t dir;
    char **pl, **hd;
    size_t npl, nhd;
    cdat_merge_end(m, &dir, &pl, &npl, &hd, &nhd);
    ck_assert_uint_eq(dir, 2);
    cdat_merge_close(m);
}
END_TEST

Suite *cdat_partial_suite(void)
{
    Suite *s = suite_create("cdat_partial");
    TCase *c = tcase_create("merge");
    tcase_add_test(c, two_parts_sum);
    tcase_add_test(c, traces_in_order);
    suite_add_tcase(s, c);
    return s;
}
