/* test_trace_set.c — common/trace_set: prefixes "trace.P", list files (-t/-c),
 * output names and opening a set with its call traces (docs/trace-sets.md). */
#include "suites.h"
#include "../../common/trace_set.h"
#include "../../base/diag.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

START_TEST(prefix_count)
{
    static const struct { const char *prefix; int count; } cases[] = {
        { "trace_level_3.4", 4 }, { "a.b.12", 12 }, { "dir.d/t.1", 1 }, { "x.65536", 65536 },
        { "x.007", 7 }, { "trace", -1 }, { "trace.", -1 }, { "trace.0", -1 },
        { "trace.4x", -1 }, { "trace.-4", -1 }, { "trace.+4", -1 }, { "dir.5/trace", -1 },
        { "x.65537", -1 }, { "x.99999999999999999999", -1 }, { ".3", 3 }, { "", -1 },
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(trace_set_prefix_count(cases[i].prefix) == cases[i].count,
                      "'%s': %d, want %d", cases[i].prefix,
                      trace_set_prefix_count(cases[i].prefix), cases[i].count);
}
END_TEST

static void bad_prefix_job(void *arg);

static void make_dir(const char *p)
{
    ck_assert_msg(mkdir(p, 0755) == 0 || tu_exists(p), "mkdir %s", p);
}

/* Empty files: a prefix's names are found by their existence alone. */
static void touch_all(const char *dir, const char *const *names)
{
    char p[4200];
    make_dir(tu_file(dir));
    for (; *names; names++) {
        snprintf(p, sizeof p, "%s/%s", tu_file(dir), *names);
        tu_write_str(p, "");
    }
}

START_TEST(from_prefix)
{
    static const char *const files[] = {
        "trace_level_3.4.0", "trace_level_3.4.1", "trace_level_3.4.2", "trace_level_3.4.3",
        "calls.4.0", "calls.4.1", "calls.4.2", "calls.4.3", NULL
    };
    touch_all("runs", files);
    char prefix[4200], want[4400];
    snprintf(prefix, sizeof prefix, "%s/trace_level_3.4", tu_file("runs"));
    trace_set ts;
    trace_set_from_prefix(&ts, prefix);
    ck_assert_int_eq(ts.count, 4);
    ck_assert_str_eq(ts.name, prefix);
    snprintf(want, sizeof want, "%s.0", prefix);
    ck_assert_str_eq(ts.paths[0], want);
    snprintf(want, sizeof want, "%s.3", prefix);
    ck_assert_str_eq(ts.paths[3], want);
    ck_assert_ptr_null(ts.call_paths);
    snprintf(prefix, sizeof prefix, "%s/calls.4", tu_file("runs"));
    trace_set_calls_from_prefix(&ts, prefix);
    snprintf(want, sizeof want, "%s.0", prefix);
    ck_assert_str_eq(ts.call_paths[0], want);
    snprintf(want, sizeof want, "%s.3", prefix);
    ck_assert_str_eq(ts.call_paths[3], want);
    trace_set_free(&ts);
    ck_assert_int_eq(ts.count, 0);
    ck_assert_ptr_null(ts.paths);
}
END_TEST

/* Each file of a set has its own name: plain, .gz or .zst (gzip's and zstd's
 * names), for traces and call traces alike. */
START_TEST(from_prefix_compressed_names)
{
    static const char *const files[] = {
        "mix.3.0", "mix.3.1.gz", "mix.3.2.zst", "c.3.0.zst", "c.3.1", "c.3.2.gz", NULL
    };
    touch_all("names", files);
    char prefix[4200], want[4400];
    snprintf(prefix, sizeof prefix, "%s/mix.3", tu_file("names"));
    trace_set ts;
    trace_set_from_prefix(&ts, prefix);
    ck_assert_str_eq(ts.name, prefix);
    static const char *const sfx[] = { ".0", ".1.gz", ".2.zst" }, *const csfx[] = { ".0.zst", ".1", ".2.gz" };
    for (int t = 0; t < 3; t++) {
        snprintf(want, sizeof want, "%s%s", prefix, sfx[t]);
        ck_assert_str_eq(ts.paths[t], want);
    }
    snprintf(prefix, sizeof prefix, "%s/c.3", tu_file("names"));
    trace_set_calls_from_prefix(&ts, prefix);
    for (int t = 0; t < 3; t++) {
        snprintf(want, sizeof want, "%s%s", prefix, csfx[t]);
        ck_assert_str_eq(ts.call_paths[t], want);
    }
    /* outputs are named after the prefix, not the files */
    char *out = trace_set_output_path(&ts, NULL, "ciat_report");
    snprintf(want, sizeof want, "%s/mix.3.ciat_report", tu_file("names"));
    ck_assert_str_eq(out, want);
    free(out);
    trace_set_free(&ts);
}
END_TEST

static void calls_prefix_job(void *arg)
{
    trace_set ts;
    char p[4200];
    snprintf(p, sizeof p, "%s/mix.3", tu_file("names2"));
    trace_set_from_prefix(&ts, p);
    trace_set_calls_from_prefix(&ts, arg);
}

/* A file missing under every name, and a file under two or three names. */
START_TEST(prefix_name_errors)
{
    static const char *const files[] = {
        "mix.3.0", "mix.3.1.gz", "mix.3.2.zst", "two.2.0", "two.2.0.zst", "two.2.1.gz",
        "three.1.0", "three.1.0.gz", "three.1.0.zst", "gz.1.0.gz", "gz.1.0.zst",
        "half.2.0", NULL
    };
    touch_all("names2", files);
    const char *d = tu_file("names2");
    char p[4200], want[16384];

    snprintf(p, sizeof p, "%s/half.2", d);
    snprintf(want, sizeof want, "dsmtrace: %s/half.2.1: cannot read trace: No such file or directory"
             " (tried %s/half.2.1, %s/half.2.1.gz and %s/half.2.1.zst)\n", d, d, d, d);
    tu_assert_fatal(bad_prefix_job, p, 2, want);

    snprintf(p, sizeof p, "%s/nodir/x.1", d);
    snprintf(want, sizeof want, "dsmtrace: %s/nodir/x.1.0: cannot read trace: No such file or directory"
             " (tried %s/nodir/x.1.0, %s/nodir/x.1.0.gz and %s/nodir/x.1.0.zst)\n", d, d, d, d);
    tu_assert_fatal(bad_prefix_job, p, 2, want);

    snprintf(p, sizeof p, "%s/two.2", d);
    snprintf(want, sizeof want, "dsmtrace: %s/two.2.0: ambiguous: %s/two.2.0 and %s/two.2.0.zst"
             " exist; keep one of them, or name the files in a trace list (-t)\n", d, d, d);
    tu_assert_fatal(bad_prefix_job, p, 2, want);

    snprintf(p, sizeof p, "%s/three.1", d);
    snprintf(want, sizeof want, "dsmtrace: %s/three.1.0: ambiguous: %s/three.1.0, %s/three.1.0.gz"
             " and %s/three.1.0.zst exist; keep one of them, or name the files in a trace list"
             " (-t)\n", d, d, d, d);
    tu_assert_fatal(bad_prefix_job, p, 2, want);

    snprintf(p, sizeof p, "%s/gz.1", d);
    snprintf(want, sizeof want, "dsmtrace: %s/gz.1.0: ambiguous: %s/gz.1.0.gz and %s/gz.1.0.zst"
             " exist; keep one of them, or name the files in a trace list (-t)\n", d, d, d);
    tu_assert_fatal(bad_prefix_job, p, 2, want);

    /* call traces are looked for the same way */
    snprintf(p, sizeof p, "%s/callx.3", d);
    snprintf(want, sizeof want, "dsmtrace: %s/callx.3.0: cannot read trace: No such file or directory"
             " (tried %s/callx.3.0, %s/callx.3.0.gz and %s/callx.3.0.zst)\n", d, d, d, d);
    tu_assert_fatal(calls_prefix_job, p, 2, want);
}
END_TEST

static void bad_prefix_job(void *arg)
{
    trace_set ts;
    trace_set_from_prefix(&ts, arg);
}

START_TEST(bad_prefix_is_usage_error)
{
    tu_assert_fatal(bad_prefix_job, "trace", 1,
                    "dsmtrace: trace prefix 'trace' must end in '.P', P = the number of traces"
                    " (1..65536), e.g. trace_level_3.4\n"
                    "dsmtrace: try 'dsmtrace --help'\n");
    tu_assert_fatal(bad_prefix_job, "t.0", 1,
                    "dsmtrace: trace prefix 't.0' must end in '.P', P = the number of traces"
                    " (1..65536), e.g. trace_level_3.4\n"
                    "dsmtrace: try 'dsmtrace --help'\n");
}
END_TEST

START_TEST(from_list_file)
{
    make_dir(tu_file("lists"));
    const char *list = tu_file("lists/run.list");
    tu_write_str(list,
                 "# threads of run 7\n"
                 "  a.trace.0  \n"
                 "\n"
                 "   \t\n"
                 "b/c.trace\n"
                 "/abs/path.trace\n"
                 "\t# an indented comment\n"
                 "d.trace\r\n"
                 "last.trace");          /* no final newline */
    trace_set ts;
    trace_set_from_list(&ts, list);
    ck_assert_int_eq(ts.count, 5);
    ck_assert_str_eq(ts.name, list);
    char want[4096];
    snprintf(want, sizeof want, "%s/lists/a.trace.0", tu_dir);
    ck_assert_str_eq(ts.paths[0], want);
    snprintf(want, sizeof want, "%s/lists/b/c.trace", tu_dir);
    ck_assert_str_eq(ts.paths[1], want);
    ck_assert_str_eq(ts.paths[2], "/abs/path.trace");
    snprintf(want, sizeof want, "%s/lists/d.trace", tu_dir);
    ck_assert_str_eq(ts.paths[3], want);
    snprintf(want, sizeof want, "%s/lists/last.trace", tu_dir);
    ck_assert_str_eq(ts.paths[4], want);

    /* Call traces from a gzip-compressed list with the same count. */
    const char *calls = tu_file("lists/calls.list.gz");
    const char *text = "c0\nc1\nc2\nc3\n# done\nc4\n";
    tu_write_gz(calls, text, strlen(text), "wb");
    trace_set_calls_from_list(&ts, calls);
    snprintf(want, sizeof want, "%s/lists/c4", tu_dir);
    ck_assert_str_eq(ts.call_paths[4], want);
    trace_set_free(&ts);
}
END_TEST

static void list_in_cwd_job(void *arg)
{
    (void)arg;
    if (chdir(tu_dir) != 0) _exit(97);
    trace_set ts;
    trace_set_from_list(&ts, "cwd.list");
    printf("%d %s %s %s\n", ts.count, ts.paths[0], ts.paths[1], ts.name);
    trace_set_free(&ts);
}

START_TEST(list_without_directory_part)
{
    tu_write_str(tu_file("cwd.list"), "x.0\nsub/y.1\n");
    char *out, *err;
    ck_assert_int_eq(tu_run(list_in_cwd_job, NULL, NULL, &out, &err), 100);
    ck_assert_str_eq(out, "2 x.0 sub/y.1 cwd.list\n");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
}
END_TEST

START_TEST(list_with_stdin)
{
    const char *list = tu_file("stdin.list");
    tu_write_str(list, "# from a pipe\n-\n");
    trace_set ts;
    trace_set_from_list(&ts, list);
    ck_assert_int_eq(ts.count, 1);
    ck_assert_str_eq(ts.paths[0], "-");      /* not made relative to the list */
    trace_set_free(&ts);
}
END_TEST

static void list_job(void *arg)
{
    trace_set ts;
    trace_set_from_list(&ts, arg);
}

START_TEST(bad_lists)
{
    char want[4096];
    const char *p = tu_file("two-stdin.list");
    tu_write_str(p, "a\n-\n");
    snprintf(want, sizeof want, "dsmtrace: %s: '-' (standard input) is only allowed when the"
             " list names exactly one trace\n", p);
    tu_assert_fatal(list_job, (void *)p, 2, want);

    p = tu_file("empty.list");
    tu_write_str(p, "# nothing here\n\n   \n");
    snprintf(want, sizeof want, "dsmtrace: %s: trace list names no traces\n", p);
    tu_assert_fatal(list_job, (void *)p, 2, want);

    p = tu_file("missing.list");
    snprintf(want, sizeof want, "dsmtrace: %s: cannot read: No such file or directory\n", p);
    tu_assert_fatal(list_job, (void *)p, 2, want);

    p = tu_dir;
    snprintf(want, sizeof want, "dsmtrace: %s: cannot read: is a directory\n", p);
    tu_assert_fatal(list_job, (void *)p, 2, want);

    /* a line of 65536 characters is a path line at most; one more is refused */
    p = tu_file("long.list");
    size_t n = 65537;
    char *line = malloc(n + 2);
    memset(line, 'a', n);
    strcpy(line + n, "\n");
    tu_write_str(p, line);
    snprintf(want, sizeof want, "dsmtrace: %s: line 1: longer than 65536 characters\n", p);
    tu_assert_fatal(list_job, (void *)p, 2, want);
    free(line);
}
END_TEST

static void calls_mismatch_job(void *arg)
{
    (void)arg;
    if (chdir(tu_file("names2")) != 0) _exit(97);
    trace_set ts;
    trace_set_from_prefix(&ts, "mix.3");
    trace_set_calls_from_prefix(&ts, "calls.2");     /* missing too: the count is checked first */
}

START_TEST(call_count_mismatch)
{
    tu_assert_fatal(calls_mismatch_job, NULL, 1,
                    "dsmtrace: call traces calls.2 name 2 traces but the detailed traces"
                    " mix.3 name 3\n"
                    "dsmtrace: try 'dsmtrace --help'\n");
}
END_TEST

START_TEST(output_paths)
{
    /* Only the name matters (from a prefix, the prefix; the files need not exist). */
    trace_set ts = { .name = xstrdup("runs/fft.4") };
    char *p = trace_set_output_path(&ts, NULL, "ciat_report");
    ck_assert_str_eq(p, "runs/fft.4.ciat_report");
    free(p);
    p = trace_set_output_path(&ts, "out", "memory");
    ck_assert_str_eq(p, "out/fft.4.memory");
    free(p);
    p = trace_set_output_path(&ts, "/tmp/o", "general.-1");
    ck_assert_str_eq(p, "/tmp/o/fft.4.general.-1");
    free(p);
    trace_set_free(&ts);

    ts.name = xstrdup("fft.2");
    p = trace_set_output_path(&ts, "out", "cdat_report");
    ck_assert_str_eq(p, "out/fft.2.cdat_report");
    free(p);
    trace_set_free(&ts);

    /* A list file names the outputs. */
    const char *list = tu_file("names.list");
    tu_write_str(list, "a\n");
    trace_set_from_list(&ts, list);
    p = trace_set_output_path(&ts, NULL, "ciat_events");
    char want[4096];
    snprintf(want, sizeof want, "%s/names.list.ciat_events", tu_dir);
    ck_assert_str_eq(p, want);
    free(p);
    p = trace_set_output_path(&ts, "o", "detailed");
    ck_assert_str_eq(p, "o/names.list.detailed");
    free(p);
    trace_set_free(&ts);
}
END_TEST

START_TEST(open_set_with_call_traces)
{
    char prefix[4096], cprefix[4096];
    snprintf(prefix, sizeof prefix, "%s/set.2", tu_dir);
    snprintf(cprefix, sizeof cprefix, "%s/setcalls.2", tu_dir);
    for (int t = 0; t < 2; t++) {
        tu_recs d = { 0 }, c = { 0 };
        tu_add_mem(&d, SMAIT_LOAD, 4, 0, 0x100u + (unsigned)t);
        tu_add_call(&d, SMAIT_CT_BARRIER, 1, 2, 0x8000, 2, 0, 0);
        tu_add_call(&c, SMAIT_CT_BARRIER, 10u + (unsigned)t, 20u + (unsigned)t, 0, 0, 0, 0);
        char name[64];
        snprintf(name, sizeof name, "set.2.%d", t);
        tu_write_trace(tu_file(name), &d, t ? SMAIT_ORDER_BIG : SMAIT_ORDER_LITTLE);
        snprintf(name, sizeof name, "setcalls.2.%d", t);
        tu_write_trace_gz(tu_file(name), &c, SMAIT_ORDER_LITTLE);
        tu_recs_free(&d);
        tu_recs_free(&c);
    }
    trace_set ts;
    trace_set_from_prefix(&ts, prefix);
    trace_set_calls_from_prefix(&ts, cprefix);
    trace_reader **r = trace_set_open(&ts, NULL);
    char *d0 = tu_dump_reader(r[0]), *d1 = tu_dump_reader(r[1]);
    ck_assert_str_eq(d0, "0: load 4 0x00000100\n1: barrier var=0x00008000 threads=2 @10:20\n");
    ck_assert_str_eq(d1, "0: load 4 0x00000101\n1: barrier var=0x00008000 threads=2 @11:21\n");
    ck_assert_int_eq(trace_reader_order(r[0]), SMAIT_ORDER_LITTLE);
    ck_assert_int_eq(trace_reader_order(r[1]), SMAIT_ORDER_BIG);
    free(d0);
    free(d1);
    trace_set_close_readers(&ts, r);
    trace_set_close_readers(&ts, NULL);
    trace_set_free(&ts);
}
END_TEST

Suite *trace_set_suite(void)
{
    Suite *s = suite_create("trace_set");
    TCase *tc = tcase_create("sets");
    tcase_add_test(tc, prefix_count);
    tcase_add_test(tc, from_prefix);
    tcase_add_test(tc, from_prefix_compressed_names);
    tcase_add_test(tc, prefix_name_errors);
    tcase_add_test(tc, bad_prefix_is_usage_error);
    tcase_add_test(tc, from_list_file);
    tcase_add_test(tc, list_without_directory_part);
    tcase_add_test(tc, list_with_stdin);
    tcase_add_test(tc, bad_lists);
    tcase_add_test(tc, call_count_mismatch);     /* after prefix_name_errors: its files */
    tcase_add_test(tc, output_paths);
    tcase_add_test(tc, open_set_with_call_traces);
    suite_add_tcase(s, tc);
    return s;
}
