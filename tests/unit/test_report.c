/* test_report.c — common/report: the tagged lines of docs/reports.md, the number
 * formats, the header (first, in the order written) and the atomic commit
 * (nothing at the final path before report_finish and out_file_commit_all,
 * no temporary after it). */
#include "suites.h"
#include "../../common/progress.h"
#include "../../common/report.h"
#include "../../common/report_fields.h"
#include "../../base/diag.h"
#include "../../common/out_file.h"
#include "../../common/trace_set.h"
#include "../../common/version.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A fresh empty directory under the scratch directory. */
static const char *fresh_dir(const char *name)
{
    const char *d = tu_file(name);
    tu_rmtree(d);
    ck_assert_int_eq(mkdir(d, 0700), 0);
    return d;
}

/* The file's text (caller frees). */
static char *slurp(const char *path)
{
    size_t n;
    unsigned char *b = tu_read(path, &n);
    char *s = malloc(n + 1);
    memcpy(s, b, n);
    s[n] = '\0';
    free(b);
    return s;
}

/* The run's commit: the report, then every output together. */
static void report_commit(report *r)
{
    report_finish(r);
    out_file_commit_all();
}

/* Commit r and return the report's text. */
static char *commit_and_read(report *r, const char *path)
{
    report_commit(r);
    return slurp(path);
}

/* report_line without its format attribute, so an empty format compiles. */
static void (*const line_plain)(report *, int, int, int, const char *, const char *, ...) =
    report_line;

/* The progress meter's time left (common/progress.h): at the rate so far,
 * in seconds, minutes and seconds, or hours and minutes; nothing before a
 * second has passed, before anything was read, or once all was. */
START_TEST(progress_time_left)
{
    char b[64];
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 0.5, 10, 100), "");
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 2.0, 0, 100), "");
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 2.0, 100, 100), "");
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 2.0, 50, 100), ", about 2 s left");
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 10.0, 1, 25), ", about 4 min 00 s left");
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 1.0, 1, 200), ", about 3 min 19 s left");
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 60.0, 1, 101), ", about 1 h 40 min left");
    ck_assert_str_eq(progress_eta_text(b, sizeof b, 1e6, 1, UINT64_MAX), ", about 27777 h 46 min left");
}
END_TEST

START_TEST(tags)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/tags.report", fresh_dir("tags"));
    report *r = report_open(path);
    report_line(r, 1, 0, 1, "instructions", "total %d", 5);
    report_line(r, 1, 3, 12, "loads", "%s", "4 5 6");
    report_line(r, 12, 127, 99, "last", "x %u", 7u);
    report_line(r, 2, REPORT_ALL_THREADS, 0, "phase", "kind %s", "parallel");
    report_line(r, REPORT_ALL_PHASES, 0, 7, "agg", "n %d", 1);
    report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 45, "all", "n %d", 2);
    report_line(r, 1, -1, 30, "io", "reads %d", 3);        /* I/O processors */
    report_line(r, REPORT_ALL_PHASES, -2, 30, "io", "reads %d", 4);
    report_line(r, 3, 0, 5, "bare", NULL);                   /* no fields */
    line_plain(r, 3, 0, 5, "bare", "");                     /* an empty format */
    report_line(r, 3, 0, 5, "bare", "%s", "");               /* empty fields: no blank */
    char *got = commit_and_read(r, path);
    ck_assert_str_eq(got,
                     "R1T0L01: instructions total 5\n"
                     "R1T3L12: loads 4 5 6\n"
                     "R12T127L99: last x 7\n"
                     "R2TxL00: phase kind parallel\n"
                     "RxT0L07: agg n 1\n"
                     "RxTxL45: all n 2\n"
                     "R1T-1L30: io reads 3\n"
                     "RxT-2L30: io reads 4\n"
                     "R3T0L05: bare\n"
                     "R3T0L05: bare\n"
                     "R3T0L05: bare\n");
    free(got);
}
END_TEST

START_TEST(percent_and_ratio)
{
    char b[REPORT_NUM];
    ck_assert_ptr_eq(report_pct(b, 1, 3), b);
    ck_assert_str_eq(b, "33.33%");
    ck_assert_str_eq(report_pct(b, 2, 3), "66.67%");
    ck_assert_str_eq(report_pct(b, 1, 8), "12.50%");
    ck_assert_str_eq(report_pct(b, 2, 2), "100.00%");
    ck_assert_str_eq(report_pct(b, 0, 7), "0.00%");
    ck_assert_str_eq(report_pct(b, 1, 200000), "0.00%");        /* rounds to 0.00 */
    ck_assert_str_eq(report_pct(b, 1, 2000), "0.05%");
    ck_assert_str_eq(report_pct(b, 3, 2), "150.00%");           /* not clamped */
    ck_assert_str_eq(report_pct(b, UINT64_MAX, UINT64_MAX), "100.00%");
    ck_assert_str_eq(report_pct(b, 0, 0), "0.00%");             /* zero denominators */
    ck_assert_str_eq(report_pct(b, 5, 0), "0.00%");
    ck_assert_str_eq(report_pct(b, UINT64_MAX, 0), "0.00%");

    ck_assert_ptr_eq(report_ratio(b, 1, 3), b);
    ck_assert_str_eq(b, "0.3333");
    ck_assert_str_eq(report_ratio(b, 2, 3), "0.6667");
    ck_assert_str_eq(report_ratio(b, 5, 2), "2.5000");
    ck_assert_str_eq(report_ratio(b, 0, 9), "0.0000");
    ck_assert_str_eq(report_ratio(b, 1e6, 3), "333333.3333");
    ck_assert_str_eq(report_ratio(b, 0, 0), "0.0000");          /* zero denominators */
    ck_assert_str_eq(report_ratio(b, 1, 0), "0.0000");
    ck_assert_str_eq(report_ratio(b, -1, 0), "0.0000");
    ck_assert_str_eq(report_ratio(b, 1, -0.0), "0.0000");
}
END_TEST

START_TEST(header_first_in_order)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/h.report", fresh_dir("header"));
    report *r = report_open(path);
    report_header(r, " first");
    report_line(r, 1, 0, 0, "phase", "n %d", 1);
    report_header(r, " second %d", 2);
    report_line(r, 1, 1, 0, "phase", "n %d", 2);
    report_header(r, "no blank");
    report_header(r, "%s", "");
    report_header(r, " counts known only at the end: %s", "deadlocks 0");
    char *got = commit_and_read(r, path);
    ck_assert_str_eq(got,
                     "# first\n"
                     "# second 2\n"
                     "#no blank\n"
                     "#\n"
                     "# counts known only at the end: deadlocks 0\n"
                     "R1T0L00: phase n 1\n"
                     "R1T1L00: phase n 2\n");
    free(got);

    /* A header-only report and an empty one. */
    r = report_open(path);
    report_header(r, " only");
    got = commit_and_read(r, path);
    ck_assert_str_eq(got, "# only\n");
    free(got);
    r = report_open(path);
    got = commit_and_read(r, path);
    ck_assert_str_eq(got, "");
    free(got);
}
END_TEST

/* Many lines: the body streams through its temporary file, in order. */
START_TEST(long_body)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/long.report", fresh_dir("long"));
    report *r = report_open(path);
    for (int i = 0; i < 20000; i++) report_line(r, i / 1000 + 1, i % 1000, i % 100, "n", "i %d", i);
    report_header(r, " after %d lines", 20000);
    char *got = commit_and_read(r, path);
    ck_assert(strncmp(got, "# after 20000 lines\nR1T0L00: n i 0\nR1T1L01: n i 1\n", 49) == 0);
    ck_assert_ptr_nonnull(strstr(got, "\nR20T999L99: n i 19999\n"));
    size_t lines = 0;
    for (const char *p = got; *p; p++) lines += *p == '\n';
    ck_assert_uint_eq(lines, 20001);
    free(got);
}
END_TEST

START_TEST(nothing_before_commit)
{
    const char *dir = fresh_dir("atomic");
    char path[4096];
    snprintf(path, sizeof path, "%s/run.ciat_report", dir);
    report *r = report_open(path);
    report_header(r, " header");
    for (int i = 0; i < 5000; i++) report_line(r, 1, i, 1, "line", "i %d", i);
    ck_assert(!tu_exists(path));
    ck_assert_int_eq(tu_count_entries(dir), 1);     /* the empty temporary; the body is anonymous */
    report_finish(r);
    ck_assert(!tu_exists(path));                    /* not before the commit */
    out_file_commit_all();
    ck_assert(tu_exists(path));
    ck_assert_int_eq(tu_count_entries(dir), 1);     /* no temporary left */

    /* A second run replaces the first only at its commit. */
    r = report_open(path);
    report_line(r, 1, 0, 0, "second", NULL);
    char *got = slurp(path);
    ck_assert(strncmp(got, "# header\nR1T0L01: line i 0\n", 27) == 0);
    free(got);
    ck_assert_int_eq(tu_count_entries(dir), 2);
    report_commit(r);
    got = slurp(path);
    ck_assert_str_eq(got, "R1T0L00: second\n");
    free(got);
    ck_assert_int_eq(tu_count_entries(dir), 1);

    /* report_free without commit: nothing written, the earlier report stays. */
    r = report_open(path);
    report_line(r, 1, 0, 0, "third", NULL);
    report_free(r);
    report_free(NULL);
    got = slurp(path);
    ck_assert_str_eq(got, "R1T0L00: second\n");
    free(got);
    ck_assert_int_eq(tu_count_entries(dir), 1);
}
END_TEST

/* A run that fails after writing report lines leaves no report and no
 * temporary, and does not damage the earlier complete one. */
static void fail_midway(void *arg)
{
    report *r = report_open(arg);
    report_header(r, " partial");
    for (int i = 0; i < 3000; i++) report_line(r, 1, i, 1, "line", "i %d", i);
    diag_data_error("trace.2.1", 48, "record 6: the run fails here");
}

static void fail_in_commit(void *arg)
{
    report *r = report_open(arg);
    report_line(r, 1, 0, 0, "line", NULL);
    report_commit(r);
}

START_TEST(failed_run_leaves_nothing)
{
    const char *dir = fresh_dir("failed");
    char path[4096];
    snprintf(path, sizeof path, "%s/new.report", dir);
    tu_assert_fatal(fail_midway, path, 2, "dsmtrace: trace.2.1: 48: record 6: the run fails here\n");
    ck_assert(!tu_exists(path));
    ck_assert_int_eq(tu_count_entries(dir), 0);

    tu_write_str(path, "# earlier complete report\n");
    tu_assert_fatal(fail_midway, path, 2, "dsmtrace: trace.2.1: 48: record 6: the run fails here\n");
    char *got = slurp(path);
    ck_assert_str_eq(got, "# earlier complete report\n");
    free(got);
    ck_assert_int_eq(tu_count_entries(dir), 1);

    /* A report into a directory that does not exist: exit 2 at report_open, nothing made. */
    char bad[4096];
    snprintf(bad, sizeof bad, "%s/missing/x.report", dir);
    char want[8192];
    snprintf(want, sizeof want,
             "dsmtrace: %s: cannot create output file: No such file or directory\n", bad);
    tu_assert_fatal(fail_in_commit, bad, 2, want);
    ck_assert_int_eq(tu_count_entries(dir), 1);
}
END_TEST

START_TEST(standard_header)
{
    const char *dir = fresh_dir("std");
    char prefix[4096], cprefix[4096], out[4096], p0[4200], p1[4200], c0[4200], c1[4200];
    snprintf(prefix, sizeof prefix, "%s/run.2", dir);
    snprintf(cprefix, sizeof cprefix, "%s/calls.2", dir);
    snprintf(p0, sizeof p0, "%s.0", prefix);
    snprintf(p1, sizeof p1, "%s.1", prefix);
    snprintf(c0, sizeof c0, "%s.0", cprefix);
    snprintf(c1, sizeof c1, "%s.1", cprefix);
    snprintf(out, sizeof out, "%s/out", dir);
    ck_assert_int_eq(mkdir(out, 0700), 0);
    tu_recs t = { 0 };
    tu_add_call(&t, SMAIT_CT_START_TRACE, 1, 2, 0, 0, 0, 0);
    tu_add_mem(&t, SMAIT_LOAD, 4, SMAIT_REG_FIXED, 0x1000);
    tu_add_call(&t, SMAIT_CT_END_TRACE, 3, 4, 0, 0, 0, 0);     /* (without it the trace is cut) */
    tu_write_trace(p0, &t, SMAIT_ORDER_LITTLE);
    tu_write_trace_gz(p1, &t, SMAIT_ORDER_BIG);
    tu_recs_free(&t);
    tu_add_call(&t, SMAIT_CT_START_TRACE, 5, 6, 0, 0, 0, 0);
    tu_add_call(&t, SMAIT_CT_END_TRACE, 7, 8, 0, 0, 0, 0);
    tu_write_trace(c0, &t, SMAIT_ORDER_LITTLE);
    tu_write_trace(c1, &t, SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);

    trace_set ts;
    trace_set_from_prefix(&ts, prefix);
    trace_reader **rd = trace_set_open(&ts, NULL);
    char path[4200];
    snprintf(path, sizeof path, "%s/run.2.ciat_report", out);
    diag_set_tool("ciat");
    char *argv[] = { "/usr/local/bin/ciat", "-p", "--gap-limit=8", prefix, NULL };
    report *r = report_open(path);
    report_standard_header(r, 4, argv, &ts, rd);
    report_reader_problems(r, &ts, rd);
    report_line(r, 1, 0, 0, "phase", NULL);
    char *got = commit_and_read(r, path);
    char want[32768];
    snprintf(want, sizeof want,
             "# ciat (dsmtrace) " DSMTRACE_VERSION "\n"
             "# command: ciat -p --gap-limit=8 %s\n"
             "# traces: 2 (%s)\n"
             "# trace 0: %s (little-endian)\n"
             "# trace 1: %s (big-endian, gzip)\n"
             "# bad_input: skipped_records 0 truncated_bytes 0 unpaired_calls 0 corrupt_streams 0\n"
             "R1T0L00: phase\n", prefix, prefix, p0, p1);
    ck_assert_str_eq(got, want);
    free(got);
    trace_set_close_readers(&ts, rd);

    /* With call traces and a lenient reader that skipped records. Trace 1
     * is cut (start_trace, no end_trace): cut_traces 1, shown only when not
     * 0, and its call trace's end_trace is an extra call record. */
    tu_add_call(&t, SMAIT_CT_START_TRACE, 1, 2, 0, 0, 0, 0);
    tu_add(&t, 0x20000000, 0);                                  /* invalid */
    tu_add(&t, 0x20000000, 0);
    tu_write_trace(p1, &t, SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);
    trace_set_calls_from_prefix(&ts, cprefix);
    trace_reader_opts o = { .lenient = true };
    rd = trace_set_open(&ts, &o);
    for (int i = 0; i < 2; i++)
        while (trace_reader_next(rd[i])) {}
    char *argv0[] = { "ciat", NULL };
    r = report_open(path);
    report_standard_header(r, 1, argv0, &ts, rd);
    report_reader_problems(r, &ts, rd);
    got = commit_and_read(r, path);
    snprintf(want, sizeof want,
             "# ciat (dsmtrace) " DSMTRACE_VERSION "\n"
             "# command: ciat\n"
             "# traces: 2 (%s)\n"
             "# trace 0: %s (little-endian)\n"
             "# calls 0: %s\n"
             "# trace 1: %s (little-endian)\n"
             "# calls 1: %s\n"
             "# lenient: trace 1: skipped_records 2 truncated_bytes 0 unpaired_calls 1 corrupt_streams 0"
             " cut_traces 1\n"
             "# bad_input: skipped_records 2 truncated_bytes 0 unpaired_calls 1 corrupt_streams 0 cut_traces 1\n",
             prefix, p0, c0, p1, c1);
    ck_assert_str_eq(got, want);
    free(got);
    trace_set_close_readers(&ts, rd);
    trace_set_free(&ts);
    diag_set_tool("dsmtrace");
    ck_assert_int_eq(tu_count_entries(out), 1);
}
END_TEST

/* ---- the JSON form (report_add_json; docs/json.md) ---- */

START_TEST(json_fields)
{
    const char *dir = fresh_dir("json_fields");
    char path[4096], jpath[4200];
    snprintf(path, sizeof path, "%s/f.cdat_report", dir);
    snprintf(jpath, sizeof jpath, "%s.json", path);
    diag_set_tool("cdat");
    report *r = report_open(path);
    report_add_json(r);
    report_header(r, " cdat (dsmtrace) test");
    report_line(r, 1, REPORT_ALL_THREADS, 0, "phase", "kind parallel by start start 0 end 3 threads 2");
    report_line(r, 1, 0, 1, "mem", "total 3 loads 2 66.67%% stores 18446744073709551615 100.00%%");
    report_line(r, 1, 0, 10, "raw", "7");
    report_line(r, 1, 0, 11, "raw_degree", "%s", "");
    report_line(r, 1, -2, 11, "txn", "05 inv 4 50.00%%");
    report_line(r, 1, 0, 7, "call", "acquire count 16 time_us 0");
    report_line(r, 1, 0, 14, "cpu", "active 1 idle 3 utilization 25.00%%");
    report_line(r, 1, 0, 4, "load_strings", "strings 5 3:2 65-128:2 129-256:1");
    report_line(r, REPORT_ALL_PHASES, 0, 12, "state", "home local presence none status idle 01:1 23:0");
    report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 20, "odd", "a 1 a 2 b -0.50 c 1 2 d");
    report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 39, "code_locality", "0.0000");
    report_commit(r);
    char *got = slurp(jpath);
    ck_assert_str_eq(got,
        "{\n  \"format\": \"dsmtrace-report\",\n  \"version\": 1,\n  \"tool\": \"cdat\",\n"
        "  \"header\": [\n    \"cdat (dsmtrace) test\"\n  ],\n  \"header_fields\": {},\n  \"lines\": [\n"
        "    {\"tag\": \"R1TxL00\", \"phase\": 1, \"thread\": \"x\", \"level\": 0, \"name\": \"phase\", "
        "\"text\": \"kind parallel by start start 0 end 3 threads 2\", \"fields\": {\"kind\": \"parallel\", "
        "\"by\": \"start\", \"start\": 0, \"end\": 3, \"threads\": 2}},\n"
        "    {\"tag\": \"R1T0L01\", \"phase\": 1, \"thread\": 0, \"level\": 1, \"name\": \"mem\", "
        "\"text\": \"total 3 loads 2 66.67% stores 18446744073709551615 100.00%\", \"fields\": {\"total\": 3, "
        "\"loads\": 2, \"loads_pct\": 66.67, \"stores\": 18446744073709551615, \"stores_pct\": 100.00}},\n"
        "    {\"tag\": \"R1T0L10\", \"phase\": 1, \"thread\": 0, \"level\": 10, \"name\": \"raw\", "
        "\"text\": \"7\", \"fields\": {\"value\": 7}},\n"
        "    {\"tag\": \"R1T0L11\", \"phase\": 1, \"thread\": 0, \"level\": 11, \"name\": \"raw_degree\", "
        "\"text\": \"\", \"fields\": {}},\n"
        "    {\"tag\": \"R1T-2L11\", \"phase\": 1, \"thread\": -2, \"level\": 11, \"name\": \"txn\", "
        "\"text\": \"05 inv 4 50.00%\", \"fields\": {\"value\": 5, \"inv\": 4, \"inv_pct\": 50.00}},\n"
        "    {\"tag\": \"R1T0L07\", \"phase\": 1, \"thread\": 0, \"level\": 7, \"name\": \"call\", "
        "\"text\": \"acquire count 16 time_us 0\", \"fields\": {\"label\": \"acquire\", \"count\": 16, "
        "\"time_us\": 0}},\n"
        "    {\"tag\": \"R1T0L14\", \"phase\": 1, \"thread\": 0, \"level\": 14, \"name\": \"cpu\", "
        "\"text\": \"active 1 idle 3 utilization 25.00%\", \"fields\": {\"active\": 1, \"idle\": 3, "
        "\"utilization_pct\": 25.00}},\n"
        "    {\"tag\": \"R1T0L04\", \"phase\": 1, \"thread\": 0, \"level\": 4, \"name\": \"load_strings\", "
        "\"text\": \"strings 5 3:2 65-128:2 129-256:1\", \"fields\": {\"strings\": 5, \"hist\": {\"3\": 2, "
        "\"65-128\": 2, \"129-256\": 1}}},\n"
        "    {\"tag\": \"RxT0L12\", \"phase\": \"x\", \"thread\": 0, \"level\": 12, \"name\": \"state\", "
        "\"text\": \"home local presence none status idle 01:1 23:0\", \"fields\": {\"home\": \"local\", "
        "\"presence\": \"none\", \"status\": \"idle\", \"hist\": {\"01\": 1, \"23\": 0}}},\n"
        "    {\"tag\": \"RxTxL20\", \"phase\": \"x\", \"thread\": \"x\", \"level\": 20, \"name\": \"odd\", "
        "\"text\": \"a 1 a 2 b -0.50 c 1 2 d\", \"fields\": {\"a\": 1, \"a_2\": 2, \"b\": -0.50, "
        "\"c\": [1, 2], \"d\": null}},\n"
        "    {\"tag\": \"RxTxL39\", \"phase\": \"x\", \"thread\": \"x\", \"level\": 39, \"name\": \"code_locality\", "
        "\"text\": \"0.0000\", \"fields\": {\"value\": 0.0000}}\n"
        "  ]\n}\n");
    free(got);
    diag_set_tool("dsmtrace");
}
END_TEST

START_TEST(json_strings)
{
    const char *dir = fresh_dir("json_strings");
    char path[4096], jpath[4200];
    snprintf(path, sizeof path, "%s/s.ciat_report", dir);
    snprintf(jpath, sizeof jpath, "%s.json", path);
    report *r = report_open(path);
    report_add_json(r);
    /* quote, backslash, tab, a control character, DEL, valid UTF-8 (2 and 4
     * bytes), a lone continuation byte, an overlong '/', a surrogate, a cut
     * sequence at the end */
    report_header(r, " q\" b\\ t\t c\x01 d\x7f \xc3\xa9 \xf0\x9f\x98\x80 \x80 \xc0\xaf \xed\xa0\x80 \xe2\x82");
    report_commit(r);
    char *got = slurp(jpath);
    ck_assert_str_eq(got,
        "{\n  \"format\": \"dsmtrace-report\",\n  \"version\": 1,\n  \"tool\": \"dsmtrace\",\n"
        "  \"header\": [\n    \"q\\\" b\\\\ t\\t c\\u0001 d\\u007f \xc3\xa9 \xf0\x9f\x98\x80 \\u0080 \\u00c0\\u00af "
        "\\u00ed\\u00a0\\u0080 \\u00e2\\u0082\"\n  ],\n  \"header_fields\": {},\n  \"lines\": [\n  ]\n}\n");
    free(got);
}
END_TEST

START_TEST(json_failed_run)
{
    const char *dir = fresh_dir("json_failed");
    char path[4096];
    snprintf(path, sizeof path, "%s/x.ciat_report", dir);
    report *r = report_open(path);
    report_add_json(r);
    report_line(r, 1, 0, 1, "mem", "total 1");
    ck_assert_int_eq(tu_count_entries(dir), 2);     /* two temporaries */
    report_free(r);
    out_file_commit_all();
    ck_assert_int_eq(tu_count_entries(dir), 0);
}
END_TEST

START_TEST(field_kinds)
{
    static const struct { const char *tok; rf_kind k; } cases[] = {
        { "0", RF_INT }, { "05", RF_INT }, { "-3", RF_INT }, { "18446744073709551616", RF_INT },
        { "0.5000", RF_DEC }, { "-0.50", RF_DEC }, { "66.67%", RF_PCT }, { "-1.00%", RF_PCT },
        { "1:3", RF_BIN }, { "01:0", RF_BIN }, { "65-128:2", RF_BIN },
        { "word", RF_WORD }, { "1.", RF_WORD }, { ".5", RF_WORD }, { "1%", RF_WORD }, { "1:", RF_WORD },
        { ":3", RF_WORD }, { "1-:3", RF_WORD }, { "-1:3", RF_WORD }, { "1-2", RF_WORD }, { "0x10", RF_WORD },
        { "1:2:3", RF_WORD }, { "-", RF_WORD }, { "nan", RF_WORD }, { "1.5%x", RF_WORD },
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        ck_assert_msg(rf_classify(cases[i].tok, strlen(cases[i].tok)) == cases[i].k, "%s", cases[i].tok);
    rf_tag t;
    const char *rest;
    ck_assert(rf_parse_tag("R12T-1L05: io x", &t, &rest));
    ck_assert_int_eq(t.phase, 12);
    ck_assert_int_eq(t.thread, -1);
    ck_assert_int_eq(t.level, 5);
    ck_assert_str_eq(rest, "io x");
    ck_assert(rf_parse_tag("RxTxL39: a", &t, &rest));
    ck_assert_int_eq(t.phase, REPORT_ALL_PHASES);
    ck_assert_int_eq(t.thread, REPORT_ALL_THREADS);
    ck_assert(!rf_parse_tag("R1T0L5: a", &t, &rest));
    ck_assert(!rf_parse_tag("R1T0L05 a", &t, &rest));
    ck_assert(!rf_parse_tag("RT0L05: a", &t, &rest));
    ck_assert(!rf_parse_tag("R99999999999T0L05: a", &t, &rest));
    ck_assert(!rf_parse_tag("events 12", &t, &rest));
}
END_TEST

Suite *report_suite(void)
{
    Suite *s = suite_create("report");
    TCase *tc = tcase_create("report");
    tcase_add_test(tc, tags);
    tcase_add_test(tc, progress_time_left);
    tcase_add_test(tc, percent_and_ratio);
    tcase_add_test(tc, header_first_in_order);
    tcase_add_test(tc, long_body);
    tcase_add_test(tc, nothing_before_commit);
    tcase_add_test(tc, failed_run_leaves_nothing);
    tcase_add_test(tc, standard_header);
    tcase_add_test(tc, json_fields);
    tcase_add_test(tc, json_strings);
    tcase_add_test(tc, json_failed_run);
    tcase_add_test(tc, field_kinds);
    suite_add_tcase(s, tc);
    return s;
}
