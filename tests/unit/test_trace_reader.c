/* test_trace_reader.c — common/trace_reader (and byte_source under it): plain,
 * gzip, concatenated gzip and standard input; byte order detection and forcing;
 * small buffers so call records straddle refills; every bad-input message; the
 * --lenient counts; pairing with call traces (formats/SMAIT.md; docs/trace-sets.md §3). */
#include "suites.h"
#include "../../base/diag.h"
#include "../../formats/smait_delta.h"
#include "../../formats/smait_text.h"

#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- a child that dumps a trace ------------------------------------------------ */

typedef struct dump_job {
    const char *path, *calls;
    trace_reader_opts opts;
} dump_job;

/* Prints the dump of job->path (paired with job->calls), record by record,
 * so what came before a fatal error is on stdout; returns the reader. */
static trace_reader *dump_records(const dump_job *j)
{
    trace_reader *r = trace_reader_open(j->path, &j->opts);
    if (j->calls) trace_reader_attach_calls(r, trace_reader_open(j->calls, &j->opts));
    const smait_raw *q;
    char text[SMAIT_TEXT_MAX];
    while ((q = trace_reader_next(r)) != NULL) {
        smait_text_format(q, text, sizeof text);
        printf("%llu: %s\n", (unsigned long long)trace_reader_index(r), text);
    }
    return r;
}

/* Prints the dump of job->path (paired with job->calls) and a problems line. */
static void dump_job_run(void *arg)
{
    trace_reader *r = dump_records(arg);
    trace_reader_problems p = trace_reader_problem_counts(r);
    printf("problems skipped=%llu truncated=%llu unpaired=%llu corrupt=%llu order=%s\n",
           (unsigned long long)p.skipped_records, (unsigned long long)p.truncated_bytes,
           (unsigned long long)p.unpaired_calls, (unsigned long long)p.corrupt_streams,
           smait_order_name(trace_reader_order(r)));
    trace_reader_close(r);
}

static int run_dump(const dump_job *j, char **out, char **err)
{
    return tu_run(dump_job_run, (void *)j, NULL, out, err);
}

static const char *NO_PROBLEMS = "problems skipped=0 truncated=0 unpaired=0 corrupt=0 order=";

/* Expected output of dump_job_run: the dump of t plus a problems line. */
static char *expected_dump(const tu_recs *t, const char *problems, const char *order)
{
    char *d = tu_dump_recs(t);
    size_t n = strlen(d) + strlen(problems) + strlen(order) + 2;
    char *s = malloc(n);
    snprintf(s, n, "%s%s%s\n", d, problems, order);
    free(d);
    return s;
}

/* A trace where call records fall at every position relative to a small
 * buffer: runs of 0..7 single records between call records. */
static void mixed_trace(tu_recs *t, unsigned nrecords)
{
    uint32_t v = 1;
    unsigned gap = 0;
    while (t->n < nrecords) {
        for (unsigned k = 0; k < gap % 8; k++) {
            v = v * 1103515245u + 12345u;
            switch (v >> 29) {
            case 0: tu_add(t, 0x80000000u | (v & 0x0FFFFFFF), v); break;
            case 1: tu_add(t, 0x40000000u, v); break;
            case 2: tu_add(t, 0xC0000000u | (v >> 8), v ^ 0x5555); break;
            default: tu_add_mem(t, (v >> 3) % 3, (v >> 5) % 8 + 1, (v >> 9) % 3, v); break;
            }
        }
        tu_add_call(t, (gap * 7) % 0x19, gap, gap + 1, v, gap, 0, gap & 1);
        gap++;
    }
}

static const char *write_recs(const char *name, const tu_recs *t, smait_order o)
{
    const char *p = tu_file(name);
    tu_write_trace(p, t, o);
    return p;
}

/* ---- good input ------------------------------------------------------------------- */

START_TEST(plain_file_every_kind)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    const char *p = tu_file("plain.trace");
    tu_write_trace(p, &t, SMAIT_ORDER_LITTLE);

    trace_reader *r = trace_reader_open(p, NULL);
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_LITTLE);
    ck_assert(!trace_reader_compressed(r));
    ck_assert_str_eq(trace_reader_path(r), p);
    char *got = tu_dump_reader(r), *want = tu_dump_recs(&t);
    ck_assert_str_eq(got, want);
    /* The hand-made view of the same trace. */
    ck_assert_str_eq(got,
        "0: load 4 0x00001000\n"
        "1: store 8 0x00002000 fp\n"
        "2: atomic 4 0x00003000\n"
        "3: load 16 0x00004000 vec\n"
        "4: branch 0x00004c18 0x00004d20\n"
        "5: proc 0x00004c00\n"
        "6: proc 0x00004c00 low=0x0000005\n"
        "7: pcall 0x0000542c 0x00005630\n"
        "8: barrier var=0x00008000 threads=4 @100:120\n"
        "14: spawn region=1 threads=4\n"
        "20: type_0x42 arg1=1 arg2=2 arg3=3 arg4=4 @7:7\n"
        "26: begin_critical lock=0x00000000 @200:200\n"
        "32: store 0 0x00005000\n"
        "33: atomic 64 0x00006000 vec\n");
    trace_reader_problems pr = trace_reader_problem_counts(r);
    ck_assert_uint_eq(pr.skipped_records + pr.truncated_bytes + pr.unpaired_calls +
                      pr.corrupt_streams, 0);
    uint64_t done, total;
    trace_reader_progress(r, &done, &total);
    ck_assert_uint_eq(total, 8 * t.n);
    ck_assert_uint_eq(done, 8 * t.n);
    ck_assert_ptr_null(trace_reader_next(r));      /* stays at the end */
    ck_assert_ptr_null(trace_reader_next(r));
    trace_reader_close(r);
    free(got);
    free(want);
    tu_recs_free(&t);
}
END_TEST

START_TEST(record_index_and_contents)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    const char *p = tu_file("index.trace");
    tu_write_trace(p, &t, SMAIT_ORDER_LITTLE);
    trace_reader *r = trace_reader_open(p, NULL);
    size_t i = 0;
    const smait_raw *q;
    while ((q = trace_reader_next(r)) != NULL) {
        ck_assert_uint_eq(trace_reader_index(r), i);
        unsigned span = smait_record_span(t.r[i].f1);
        for (unsigned k = 0; k < span; k++) {      /* call parts are contiguous */
            ck_assert_uint_eq(q[k].f1, t.r[i + k].f1);
            ck_assert_uint_eq(q[k].f2, t.r[i + k].f2);
        }
        i += span;
    }
    ck_assert_uint_eq(i, t.n);
    trace_reader_close(r);
    tu_recs_free(&t);
}
END_TEST

START_TEST(empty_file)
{
    const char *p = tu_file("empty.trace");
    tu_write(p, "", 0);
    trace_reader *r = trace_reader_open(p, NULL);
    ck_assert_ptr_null(trace_reader_next(r));
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_LITTLE);
    trace_reader_close(r);
    /* An empty gzip stream or zstd frame is an empty trace too. */
    p = tu_file("empty.trace.gz");
    tu_write_gz(p, "", 0, "wb");
    r = trace_reader_open(p, NULL);
    ck_assert(trace_reader_compressed(r));
    ck_assert_ptr_null(trace_reader_next(r));
    trace_reader_close(r);
    p = tu_file("empty.trace.zst");
    tu_write_zst(p, "", 0, "wb");
    r = trace_reader_open(p, NULL);
    ck_assert_str_eq(trace_reader_format(r), "zstd");
    ck_assert_ptr_null(trace_reader_next(r));
    trace_reader_close(r);
}
END_TEST

START_TEST(gzip_file)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    const char *p = tu_file("gz.trace");    /* detected by magic bytes, not by name */
    tu_write_trace_gz(p, &t, SMAIT_ORDER_LITTLE);
    trace_reader *r = trace_reader_open(p, NULL);
    ck_assert(trace_reader_compressed(r));
    char *got = tu_dump_reader(r), *want = tu_dump_recs(&t);
    ck_assert_str_eq(got, want);
    uint64_t done, total;
    trace_reader_progress(r, &done, &total);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_uint_eq(total, (uint64_t)st.st_size);   /* progress counts file bytes */
    ck_assert_uint_eq(done, (uint64_t)st.st_size);
    trace_reader_close(r);
    free(got);
    free(want);
    tu_recs_free(&t);
}
END_TEST

START_TEST(zstd_file)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    const char *p = tu_file("zst.trace");    /* detected by magic bytes, not by name */
    tu_write_trace_zst(p, &t, SMAIT_ORDER_BIG);
    trace_reader *r = trace_reader_open(p, NULL);
    ck_assert(trace_reader_compressed(r));
    ck_assert_str_eq(trace_reader_format(r), "zstd");
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_BIG);
    char *got = tu_dump_reader(r), *want = tu_dump_recs(&t);
    ck_assert_str_eq(got, want);
    uint64_t done, total;
    trace_reader_progress(r, &done, &total);
    struct stat st;
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_uint_eq(total, (uint64_t)st.st_size);   /* progress counts file bytes */
    ck_assert_uint_eq(done, (uint64_t)st.st_size);
    trace_reader_close(r);
    free(got);
    free(want);
    tu_recs_free(&t);
}
END_TEST

START_TEST(zstd_concatenated_frames)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    unsigned char *b = tu_bytes(&t, SMAIT_ORDER_LITTLE);
    const char *p = tu_file("multi.trace.zst");
    /* Frames split inside a simple record and inside the barrier call record,
     * with an empty frame and a skippable frame in between. */
    tu_write_zst(p, b, 11, "wb");
    tu_write_zst(p, b + 11, 8 * 9 + 3 - 11, "ab");
    tu_write_zst(p, "", 0, "ab");
    FILE *f = fopen(p, "ab");
    ck_assert_uint_eq(fwrite("\x51\x2a\x4d\x18\x03\0\0\0abc", 1, 11, f), 11);
    ck_assert_int_eq(fclose(f), 0);
    tu_write_zst(p, b + 75, 8 * t.n - 75, "ab");
    char *want = expected_dump(&t, NO_PROBLEMS, "little"), *out, *err;
    dump_job j = { .path = p };
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, want);
    free(out);
    free(err);
    free(want);
    free(b);
    tu_recs_free(&t);
}
END_TEST

START_TEST(gzip_concatenated_members)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    unsigned char *b = tu_bytes(&t, SMAIT_ORDER_LITTLE);
    const char *p = tu_file("multi.trace.gz");
    /* Members split inside a simple record (byte 11) and inside the barrier
     * call record (byte 8*9+3), with an empty member in between. */
    tu_write_gz(p, b, 11, "wb");
    tu_write_gz(p, b + 11, 8 * 9 + 3 - 11, "ab");
    tu_write_gz(p, "", 0, "ab");
    tu_write_gz(p, b + 75, 8 * t.n - 75, "ab");
    char *want = expected_dump(&t, NO_PROBLEMS, "little"), *out, *err;
    dump_job j = { .path = p };
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, want);
    free(out);
    free(err);
    free(want);
    free(b);
    tu_recs_free(&t);
}
END_TEST

START_TEST(big_endian_auto)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    const char *p = tu_file("big.trace");
    tu_write_trace(p, &t, SMAIT_ORDER_BIG);
    trace_reader_opts o = { .order = SMAIT_ORDER_AUTO };
    trace_reader *r = trace_reader_open(p, &o);
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_BIG);
    char *got = tu_dump_reader(r), *want = tu_dump_recs(&t);
    ck_assert_str_eq(got, want);
    trace_reader_close(r);
    free(got);

    /* Forcing the right order gives the same. */
    o.order = SMAIT_ORDER_BIG;
    got = tu_dump_path(p, &o, NULL);
    ck_assert_str_eq(got, want);
    free(got);

    /* Big-endian and gzip-compressed. */
    p = tu_file("big.trace.gz");
    tu_write_trace_gz(p, &t, SMAIT_ORDER_BIG);
    o.order = SMAIT_ORDER_AUTO;
    r = trace_reader_open(p, &o);
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_BIG);
    got = tu_dump_reader(r);
    ck_assert_str_eq(got, want);
    trace_reader_close(r);
    free(got);
    free(want);
    tu_recs_free(&t);
}
END_TEST

START_TEST(forced_order_overrides_detection)
{
    /* Big-endian word accesses decode either way round; auto picks little
     * (formats/SMAIT.md §2) and reads them as procedure starts; forcing big reads the
     * loads and stores that were written. */
    tu_recs t = { 0 };
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x1000);
    tu_add_mem(&t, SMAIT_STORE, 4, 0, 0x2000);
    const char *p = tu_file("ambiguous.trace");
    tu_write_trace(p, &t, SMAIT_ORDER_BIG);

    char *got = tu_dump_path(p, NULL, NULL);
    ck_assert_str_eq(got, "0: proc 0x00100000\n1: proc 0x00200000 low=0x1000000\n");
    free(got);
    trace_reader_opts o = { .order = SMAIT_ORDER_BIG };
    got = tu_dump_path(p, &o, NULL);
    ck_assert_str_eq(got, "0: load 4 0x00001000\n1: store 4 0x00002000\n");
    free(got);
    trace_reader *r = trace_reader_open(p, &o);
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_BIG);
    trace_reader_close(r);
    /* A tie (zero-byte loads read the same both ways) is little-endian. */
    tu_recs_free(&t);
    tu_add(&t, 0x00000000, 0x1000);
    p = write_recs("tie.trace", &t, SMAIT_ORDER_BIG);
    r = trace_reader_open(p, NULL);
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_LITTLE);
    trace_reader_close(r);
    tu_recs_free(&t);
}
END_TEST

static void check_all_buffer_sizes(const tu_recs *t, smait_order o, bool gz)
{
    const char *p = tu_file(gz ? "sizes.trace.gz" : "sizes.trace");
    if (gz) tu_write_trace_gz(p, t, o);
    else tu_write_trace(p, t, o);
    char *want = tu_dump_recs(t);
    for (size_t cap = 0; cap <= 41; cap++) {
        if (cap > 0 && cap < 12) continue;      /* below the minimum; 0 = default */
        trace_reader_opts opts = { .buffer_records = cap };
        trace_reader *r = trace_reader_open(p, &opts);
        ck_assert_int_eq(trace_reader_order(r), o);
        char *got = tu_dump_reader(r);
        ck_assert_msg(strcmp(got, want) == 0, "buffer_records=%zu order=%s gzip=%d differs",
                      cap, smait_order_name(o), gz);
        free(got);
        trace_reader_close(r);
    }
    free(want);
}

START_TEST(small_buffers_call_records_straddle)
{
    tu_recs t = { 0 };
    mixed_trace(&t, 400);
    check_all_buffer_sizes(&t, SMAIT_ORDER_LITTLE, false);
    check_all_buffer_sizes(&t, SMAIT_ORDER_BIG, false);
    check_all_buffer_sizes(&t, SMAIT_ORDER_LITTLE, true);
    check_all_buffer_sizes(&t, SMAIT_ORDER_BIG, true);
    tu_recs_free(&t);
}
END_TEST

START_TEST(buffer_12_13_17_by_hand)
{
    /* 10 loads then a call record at 10..15: with 12-record buffers its parts
     * 0,1 arrive with the first block and 2..5 with the next one; with 13 parts
     * 0..2; with 17 the second call record (22..27) is cut after part 0. */
    tu_recs t = { 0 };
    for (int i = 0; i < 10; i++) tu_add_mem(&t, SMAIT_LOAD, 8, 0, 0x100u * (unsigned)i);
    tu_add_call(&t, SMAIT_CT_BARRIER, 1, 2, 0x8000, 2, 0, 0);
    for (int i = 0; i < 6; i++) tu_add(&t, 0x80000010u + (unsigned)i, (unsigned)i);
    tu_add_call(&t, SMAIT_CT_JOIN, 3, 4, 0, 0, 0, 0);
    tu_add_call(&t, SMAIT_CT_END_TRACE, 5, 6, 0, 0, 0, 0);
    const char *p = tu_file("straddle.trace");
    tu_write_trace(p, &t, SMAIT_ORDER_LITTLE);
    char *want = tu_dump_recs(&t);
    const size_t caps[] = { 12, 13, 17 };
    for (int k = 0; k < 3; k++) {
        trace_reader_opts o = { .buffer_records = caps[k] };
        char *got = tu_dump_path(p, &o, NULL);
        ck_assert_str_eq(got, want);
        free(got);
    }
    free(want);
    tu_recs_free(&t);
}
END_TEST

/* Dump with trace_reader_next_run (and, when mix, every other step with
 * trace_reader_next). */
static char *dump_runs(const char *path, const trace_reader_opts *o, bool mix)
{
    trace_reader *r = trace_reader_open(path, o);
    size_t cap = 1 << 16, n = 0;
    char *s = malloc(cap), text[SMAIT_TEXT_MAX];
    s[0] = '\0';
    const smait_raw *p, *end;
    for (unsigned step = 0;; step++) {
        if (mix && step % 2) {
            if (!(p = trace_reader_next(r))) break;
            end = p + smait_record_span(p->f1);
            ck_assert_uint_eq(trace_reader_index_of(r, p), trace_reader_index(r));
        } else if (!(p = trace_reader_next_run(r, &end))) {
            break;
        }
        ck_assert(p < end);
        for (; p < end; p += smait_record_span(p->f1)) {
            smait_text_format(p, text, sizeof text);
            if (n + 300 > cap) s = realloc(s, cap *= 2);
            n += (size_t)snprintf(s + n, cap - n, "%llu: %s\n",
                                  (unsigned long long)trace_reader_index_of(r, p), text);
        }
        ck_assert_ptr_eq(p, end);       /* runs hold whole logical records */
    }
    trace_reader_close(r);
    return s;
}

/* ---- delta-coded records (formats/SMAIT.md §11.1) ------------------------------- */

/* t delta coded: the marker, then t's records coded (host order). */
static void delta_coded(tu_recs *out, const tu_recs *t)
{
    smait_delta *d = malloc(sizeof *d);
    smait_delta_init(d);
    tu_add(out, SMAIT_DELTA_F1, SMAIT_DELTA_VERSION);
    for (size_t i = 0; i < t->n; i++) {
        smait_raw c;
        smait_delta_encode(d, &c, &t->r[i], 1);
        tu_add(out, c.f1, c.f2);
    }
    free(d);
}

/* A loop: a branch to 0x100, then three strided accesses, n times. */
static void strided_loop(tu_recs *t, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        tu_add(t, 0x80000120u, 0x100);
        tu_add_mem(t, SMAIT_LOAD, 8, 1, 0x10000 + 8 * i);
        tu_add_mem(t, SMAIT_LOAD, 8, 1, 0x80000 + 2048 * i);
        tu_add_mem(t, SMAIT_STORE, 8, 1, 0x40000 + 8 * i);
    }
}

START_TEST(delta_coding_round_trip)
{
    /* Every kind, call records at every position, a loop, and a run of
     * memory records without branches longer than the run's cap. */
    tu_recs t = { 0 }, c = { 0 };
    mixed_trace(&t, 3000);
    strided_loop(&t, 200);
    for (unsigned i = 0; i < 3 * SMAIT_DELTA_RUN_MAX; i++) tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x7000 + 4 * i);
    tu_all_kinds(&t);
    delta_coded(&c, &t);
    char *want = tu_dump_recs(&t);
    const smait_order orders[2] = { SMAIT_ORDER_LITTLE, SMAIT_ORDER_BIG };
    for (int k = 0; k < 2; k++)
        for (int zst = 0; zst < 2; zst++) {
            const char *p = tu_file(zst ? "delta.trace.zst" : "delta.trace");
            if (zst) tu_write_trace_zst(p, &c, orders[k]);
            else tu_write_trace(p, &c, orders[k]);
            for (size_t cap = 0; cap <= 41; cap += cap ? 29 : 12) {    /* 0 (default), 12, 41 */
                trace_reader_opts o = { .buffer_records = cap };
                trace_reader *r = trace_reader_open(p, &o);
                ck_assert(trace_reader_delta_coded(r));
                ck_assert_int_eq(trace_reader_order(r), orders[k]);   /* the marker decides it */
                char *got = tu_dump_reader(r);
                ck_assert_msg(strcmp(got, want) == 0, "order %d zstd %d buffer %zu differs", k, zst, cap);
                free(got);
                trace_reader_close(r);
            }
        }
    /* Forcing the order the file has is obeyed too. */
    const char *p = tu_file("delta-big.trace");
    tu_write_trace(p, &c, SMAIT_ORDER_BIG);
    trace_reader_opts o = { .order = SMAIT_ORDER_BIG };
    char *got = tu_dump_path(p, &o, NULL);
    ck_assert_str_eq(got, want);
    free(got);
    free(want);
    tu_recs_free(&t);
    tu_recs_free(&c);
}
END_TEST

START_TEST(delta_coding_makes_loops_repeat)
{
    /* After the first pass through the loop, each access is coded as its
     * stride: the same three differences every iteration. */
    tu_recs t = { 0 }, c = { 0 };
    strided_loop(&t, 50);
    delta_coded(&c, &t);
    ck_assert_uint_eq(c.n, t.n + 1);
    for (size_t i = 1 + 4; i < c.n; i += 4) {
        ck_assert_uint_eq(c.r[i].f1, t.r[i - 1].f1);                    /* branches as they are */
        ck_assert_uint_eq(c.r[i].f2, 0x100);
        ck_assert_uint_eq(c.r[i + 1].f2, 8);
        ck_assert_uint_eq(c.r[i + 2].f2, 2048);
        ck_assert_uint_eq(c.r[i + 3].f2, 8);
    }
    /* The first pass: against nothing remembered, the address itself. */
    ck_assert_uint_eq(c.r[2].f2, 0x10000);
    tu_recs_free(&t);
    tu_recs_free(&c);
}
END_TEST

START_TEST(delta_plain_trace_is_not_coded)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    const char *p = write_recs("notdelta.trace", &t, SMAIT_ORDER_LITTLE);
    trace_reader *r = trace_reader_open(p, NULL);
    ck_assert(!trace_reader_delta_coded(r));
    trace_reader_close(r);
    tu_recs_free(&t);
}
END_TEST

START_TEST(next_run_bulk_access)
{
    tu_recs t = { 0 };
    mixed_trace(&t, 500);
    const char *p = write_recs("runs.trace", &t, SMAIT_ORDER_BIG);
    char *want = tu_dump_recs(&t);
    for (size_t cap = 0; cap <= 30; cap++) {
        if (cap && cap < 12) continue;
        trace_reader_opts o = { .buffer_records = cap };
        for (int mix = 0; mix < 2; mix++) {
            char *got = dump_runs(p, &o, mix);
            ck_assert_msg(strcmp(got, want) == 0, "buffer %zu mix %d", cap, mix);
            free(got);
        }
    }
    free(want);
    tu_recs_free(&t);
}
END_TEST

/* trace_reader_peek: the next logical record, not consumed — also when it
 * lies in the next buffer fill and when it is a call record cut by the fill
 * (buffers of 12 and 13 records), and NULL at the end. */
START_TEST(peek_does_not_consume)
{
    tu_recs t = { 0 };
    mixed_trace(&t, 200);
    const char *p = write_recs("peek.trace", &t, SMAIT_ORDER_LITTLE);
    char *want = tu_dump_recs(&t);
    const size_t caps[] = { 0, 12, 13 };
    for (int k = 0; k < 3; k++) {
        trace_reader_opts o = { .buffer_records = caps[k] };
        trace_reader *r = trace_reader_open(p, &o);
        size_t cap = 1 << 16, n = 0;
        char *got = malloc(cap), text[SMAIT_TEXT_MAX];
        got[0] = '\0';
        for (;;) {
            const smait_raw *ahead = trace_reader_peek(r);
            smait_raw copy[SMAIT_CALL_PARTS];
            if (ahead) memcpy(copy, ahead, smait_record_span(ahead->f1) * sizeof *ahead);
            const smait_raw *rec = trace_reader_next(r);
            ck_assert((ahead == NULL) == (rec == NULL));
            if (!rec) break;
            ck_assert(memcmp(copy, rec, smait_record_span(rec->f1) * sizeof *rec) == 0);
            smait_text_format(rec, text, sizeof text);
            if (n + 300 > cap) got = realloc(got, cap *= 2);
            n += (size_t)snprintf(got + n, cap - n, "%llu: %s\n",
                                  (unsigned long long)trace_reader_index(r), text);
        }
        ck_assert_ptr_null(trace_reader_peek(r));
        ck_assert_msg(strcmp(got, want) == 0, "buffer %zu", caps[k]);
        free(got);
        trace_reader_close(r);
    }
    free(want);
    tu_recs_free(&t);
}
END_TEST

static void read_stdin_job(void *arg)
{
    (void)arg;
    dump_job j = { .path = "-" };
    dump_job_run(&j);
}

START_TEST(standard_input)
{
    tu_recs t = { 0 };
    tu_all_kinds(&t);
    char *want = expected_dump(&t, NO_PROBLEMS, "big");
    const char *p = tu_file("stdin.trace");
    tu_write_trace(p, &t, SMAIT_ORDER_BIG);
    char *out, *err;
    ck_assert_int_eq(tu_run(read_stdin_job, NULL, p, &out, &err), 100);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, want);
    free(out);
    free(err);
    p = tu_file("stdin.trace.gz");
    tu_write_trace_gz(p, &t, SMAIT_ORDER_BIG);
    ck_assert_int_eq(tu_run(read_stdin_job, NULL, p, &out, &err), 100);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, want);
    free(out);
    free(err);
    p = tu_file("stdin.trace.zst");
    tu_write_trace_zst(p, &t, SMAIT_ORDER_BIG);
    ck_assert_int_eq(tu_run(read_stdin_job, NULL, p, &out, &err), 100);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, want);
    free(out);
    free(err);
    free(want);
    tu_recs_free(&t);
}
END_TEST

/* ---- bad input: exact messages, exit status 2 ---------------------------------------- */

/* Expect job to fail with status 2 and exactly "dsmtrace: <path>: <rest>\n" on
 * stderr, having printed the dump of the records before the bad one. */
static void expect_failure(const dump_job *j, const char *stdout_want, const char *msg_path,
                           const char *rest)
{
    char *out, *err, want[2048];
    snprintf(want, sizeof want, "dsmtrace: %s: %s\n", msg_path, rest);
    int st = run_dump(j, &out, &err);
    ck_assert_str_eq(err, want);
    ck_assert_int_eq(st, 2);
    if (stdout_want) ck_assert_str_eq(out, stdout_want);
    free(out);
    free(err);
}

START_TEST(bad_invalid_kind)
{
    tu_recs t = { 0 };
    /* The branch makes the order clear: 20000000 alone would read big-endian
     * as a valid 2-byte load (00000020). */
    tu_add(&t, 0x80004c18, 0x4d20);
    for (int i = 1; i < 5; i++) tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x10u * (unsigned)i);
    tu_add(&t, 0x20000020, 0x12345678);         /* invalid in both orders: no hint */
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0);
    dump_job j = { .path = write_recs("kind.trace", &t, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, "0: branch 0x00004c18 0x00004d20\n1: load 4 0x00000010\n2: load 4 0x00000020\n"
                   "3: load 4 0x00000030\n4: load 4 0x00000040\n", j.path,
                   "40: record 5: invalid record kind: bytes 20000020 78563412"
                   " (f1 20000020 as little-endian)");
    /* A big-endian file (the branch makes auto pick big); 20000000 reads
     * little-endian as a 2-byte load, so the message has the (here
     * misleading) hint. */
    tu_recs_free(&t);
    char want_out[2048] = "";
    for (unsigned i = 0; i < 16; i++) {     /* a bad record among the first 16 would
                                             * leave neither order valid: little */
        tu_add(&t, 0x80004c18, i);
        snprintf(want_out + strlen(want_out), sizeof want_out - strlen(want_out),
                 "%u: branch 0x00004c18 0x%08x\n", i, i);
    }
    tu_add(&t, 0x20000000, 0x12345678);
    j.path = write_recs("kind-big.trace", &t, SMAIT_ORDER_BIG);
    expect_failure(&j, want_out, j.path,
                   "128: record 16: invalid record kind: bytes 20000000 12345678"
                   " (f1 20000000 as big-endian); it is valid as little-endian: try"
                   " --byte-order=little");
    tu_recs_free(&t);
}
END_TEST

START_TEST(bad_delta_marker)
{
    /* A coding version this reader does not know: stop at record 0. */
    tu_recs t = { 0 };
    tu_add(&t, SMAIT_DELTA_F1, 2);
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x10);
    dump_job j = { .path = write_recs("delta-v2.trace", &t, SMAIT_ORDER_BIG) };
    expect_failure(&j, "", j.path, "0: record 0: delta-coded trace of coding version 2 (this reader"
                   " knows version 1; formats/SMAIT.md §11.1)");
    /* Forced to the other order, the marker is no marker: an invalid record. */
    tu_recs_free(&t);
    tu_add(&t, SMAIT_DELTA_F1, 1);
    j.path = write_recs("delta-le.trace", &t, SMAIT_ORDER_LITTLE);
    j.opts.order = SMAIT_ORDER_BIG;
    expect_failure(&j, "", j.path, "0: record 0: invalid record kind: bytes 007ae17d 01000000"
                   " (f1 007ae17d as big-endian)");
    /* A marker after the first record is an invalid record too. */
    tu_recs_free(&t);
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x10);
    tu_add(&t, SMAIT_DELTA_F1, 1);
    j.path = write_recs("delta-late.trace", &t, SMAIT_ORDER_LITTLE);
    j.opts.order = SMAIT_ORDER_AUTO;
    expect_failure(&j, "0: load 4 0x00000010\n", j.path, "8: record 1: invalid record kind: bytes"
                   " 007ae17d 01000000 (f1 7de17a00 as little-endian)");
    tu_recs_free(&t);
}
END_TEST

START_TEST(bad_kind_byte_order_hint)
{
    tu_recs t = { 0 };
    tu_add_call(&t, SMAIT_CT_START_TRACE, 1, 2, 0, 0, 0, 0);
    dump_job j = { .path = write_recs("hint-big.trace", &t, SMAIT_ORDER_BIG),
                   .opts = { .order = SMAIT_ORDER_LITTLE } };
    expect_failure(&j, "", j.path,
                   "0: record 0: invalid record kind: bytes 00001170 00000001 (f1 70110000 as"
                   " little-endian); it is valid as big-endian: try --byte-order=big");
    tu_recs_free(&t);

    tu_add(&t, 0x80004c18, 0x4d20);
    j.path = write_recs("hint-little.trace", &t, SMAIT_ORDER_LITTLE);
    j.opts.order = SMAIT_ORDER_BIG;
    expect_failure(&j, "", j.path,
                   "0: record 0: invalid record kind: bytes 184c0080 204d0000 (f1 184c0080 as"
                   " big-endian); it is valid as little-endian: try --byte-order=little");
    tu_recs_free(&t);
}
END_TEST

START_TEST(bad_call_stray_part)
{
    tu_recs t = { 0 };
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0);
    tu_add(&t, smait_call_f1(SMAIT_CT_BARRIER, 3), 0);
    dump_job j = { .path = write_recs("stray.trace", &t, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, "0: load 4 0x00000000\n", j.path,
                   "8: record 1: malformed call record: part 3 of call type 0x03 without"
                   " the parts before it (f1 00001033)");
    tu_recs_free(&t);
}
END_TEST

START_TEST(bad_call_wrong_index)
{
    tu_recs t = { 0 };
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0);
    tu_add_call(&t, SMAIT_CT_BARRIER, 0, 0, 0, 0, 0, 0);
    t.r[4].f1 = smait_call_f1(SMAIT_CT_BARRIER, 4);     /* parts 0 1 2 4 4 5 */
    dump_job j = { .path = write_recs("index.trace", &t, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, "0: load 4 0x00000000\n", j.path,
                   "8: record 1: malformed call record of type 0x03: part 3 is f1 00001034,"
                   " expected 00001033");
    tu_recs_free(&t);
}
END_TEST

START_TEST(bad_call_mixed_types)
{
    tu_recs t = { 0 };
    tu_add_call(&t, SMAIT_CT_BEGIN_CRITICAL, 0, 0, 0, 0, 0, 0);
    for (unsigned i = 2; i < 6; i++) t.r[i].f1 = smait_call_f1(SMAIT_CT_END_CRITICAL, i);
    dump_job j = { .path = write_recs("mixed.trace", &t, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, "", j.path,
                   "0: record 0: malformed call record of type 0x06: part 2 is f1 00001072,"
                   " expected 00001062");
    tu_recs_free(&t);
}
END_TEST

START_TEST(bad_call_cut_by_end)
{
    tu_recs t = { 0 };
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0);
    tu_add(&t, smait_call_f1(SMAIT_CT_BARRIER, 0), 0);
    tu_add(&t, smait_call_f1(SMAIT_CT_BARRIER, 1), 0);
    dump_job j = { .path = write_recs("cut.trace", &t, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, "0: load 4 0x00000000\n", j.path,
                   "8: record 1: malformed call record: the trace ends after 2 of its 6 parts");
    /* The same cut across small buffers and gzip. */
    j.opts.buffer_records = 12;
    expect_failure(&j, "0: load 4 0x00000000\n", j.path,
                   "8: record 1: malformed call record: the trace ends after 2 of its 6 parts");
    j.path = tu_file("cut.trace.gz");
    tu_write_trace_gz(j.path, &t, SMAIT_ORDER_LITTLE);
    expect_failure(&j, "0: load 4 0x00000000\n", j.path,
                   "8: record 1: malformed call record: the trace ends after 2 of its 6 parts");
    tu_recs_free(&t);

    /* A call record whose second part is not a call part, then the end: the
     * message names the part that is wrong, not the length. */
    tu_add(&t, smait_call_f1(SMAIT_CT_BARRIER, 0), 0);
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0);
    j.path = write_recs("cut2.trace", &t, SMAIT_ORDER_LITTLE);
    j.opts.buffer_records = 0;
    expect_failure(&j, "", j.path,
                   "0: record 0: malformed call record of type 0x03: part 1 is f1 00000040,"
                   " expected 00001031");
    tu_recs_free(&t);
}
END_TEST

START_TEST(bad_truncated_final_record)
{
    tu_recs t = { 0 };
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x10);
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x20);
    unsigned char *b = tu_bytes(&t, SMAIT_ORDER_LITTLE);
    memcpy(b + 16, "abc", 3);
    dump_job j = { .path = tu_file("trunc.trace") };
    tu_write(j.path, b, 19);
    expect_failure(&j, "0: load 4 0x00000010\n1: load 4 0x00000020\n", j.path,
                   "16: record 2: truncated final record (file size is not a multiple of 8;"
                   " 3 bytes left over)");
    /* Less than one record in all. */
    tu_write(j.path, b, 5);
    expect_failure(&j, "", j.path,
                   "0: record 0: truncated final record (file size is not a multiple of 8;"
                   " 5 bytes left over)");
    /* Compressed: the decompressed size counts. */
    j.path = tu_file("trunc.trace.gz");
    tu_write_gz(j.path, b, 19, "wb");
    expect_failure(&j, "0: load 4 0x00000010\n1: load 4 0x00000020\n", j.path,
                   "16: record 2: truncated final record (file size is not a multiple of 8;"
                   " 3 bytes left over)");
    free(b);
    tu_recs_free(&t);
}
END_TEST

/* A gzip file of four word loads (32 bytes of data). */
static size_t write_four_loads_gz(const char *path)
{
    tu_recs t = { 0 };
    for (int i = 0; i < 4; i++) tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x10u * (unsigned)i);
    tu_write_trace_gz(path, &t, SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return (size_t)st.st_size;
}

static const char FOUR_LOADS[] = "0: load 4 0x00000000\n1: load 4 0x00000010\n"
                                 "2: load 4 0x00000020\n3: load 4 0x00000030\n";

START_TEST(bad_gzip_truncated)
{
    dump_job j = { .path = tu_file("trunc-stream.gz") };
    size_t n = write_four_loads_gz(j.path);
    /* Without the size field of the trailer: all data is there, the end is not. */
    tu_truncate(j.path, n - 4);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
    /* Only the gzip header left. */
    tu_truncate(j.path, 10);
    expect_failure(&j, "", j.path,
                   "0: record 0: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
    /* Only the magic bytes. */
    tu_write(j.path, "\x1f\x8b", 2);
    expect_failure(&j, "", j.path,
                   "0: record 0: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
}
END_TEST

START_TEST(bad_gzip_corrupt)
{
    dump_job j = { .path = tu_file("corrupt.gz") };
    size_t n;
    write_four_loads_gz(j.path);
    unsigned char *b = tu_read(j.path, &n);
    /* A damaged CRC in the trailer: the data comes out, then the check fails. */
    b[n - 8] ^= 0xFF;
    tu_write(j.path, b, n);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: incorrect data check");
    /* A damaged header (compression method 9). */
    b[n - 8] ^= 0xFF;
    b[2] = 9;
    tu_write(j.path, b, n);
    expect_failure(&j, "", j.path,
                   "0: record 0: corrupt compressed stream: unknown compression method");
    /* Garbage after a complete member. */
    b[2] = 8;
    memcpy(b + n, "x", 1);
    tu_write(j.path, b, n + 1);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: trailing data after the end"
                   " of the compressed stream");
    free(b);
}
END_TEST

/* A zstd frame of four word loads (32 bytes of data, with a checksum). */
static size_t write_four_loads_zst(const char *path)
{
    tu_recs t = { 0 };
    for (int i = 0; i < 4; i++) tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x10u * (unsigned)i);
    tu_write_trace_zst(path, &t, SMAIT_ORDER_LITTLE);
    tu_recs_free(&t);
    struct stat st;
    ck_assert_int_eq(stat(path, &st), 0);
    return (size_t)st.st_size;
}

START_TEST(bad_zstd_truncated)
{
    dump_job j = { .path = tu_file("trunc-stream.zst") };
    size_t n = write_four_loads_zst(j.path);
    /* Without the checksum: all data is there, the end of the frame is not. */
    tu_truncate(j.path, n - 4);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
    /* Only the frame header left; only the magic bytes. */
    tu_truncate(j.path, 6);
    expect_failure(&j, "", j.path,
                   "0: record 0: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
    tu_write(j.path, "\x28\xb5\x2f\xfd", 4);
    expect_failure(&j, "", j.path,
                   "0: record 0: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
    /* A complete frame, then half of the next: the first frame's records come out. */
    write_four_loads_zst(j.path);
    size_t m;
    unsigned char *b = tu_read(j.path, &m);
    FILE *f = fopen(j.path, "ab");
    ck_assert_uint_eq(fwrite(b, 1, m / 2, f), m / 2);
    ck_assert_int_eq(fclose(f), 0);
    free(b);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
    /* A skippable frame cut short. */
    write_four_loads_zst(j.path);
    f = fopen(j.path, "ab");
    ck_assert_uint_eq(fwrite("\x50\x2a\x4d\x18\x10\0\0\0abc", 1, 11, f), 11);
    ck_assert_int_eq(fclose(f), 0);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: compressed stream is truncated"
                   " (unexpected end of file)");
}
END_TEST

START_TEST(bad_zstd_corrupt)
{
    dump_job j = { .path = tu_file("corrupt.zst") };
    size_t n = write_four_loads_zst(j.path);
    unsigned char *b = tu_read(j.path, &n);
    /* A damaged checksum. */
    b[n - 1] ^= 0xFF;
    tu_write(j.path, b, n);
    expect_failure(&j, "", j.path,
                   "0: record 0: corrupt compressed stream: Restored data doesn't match checksum");
    /* Reserved bit of the frame header descriptor set. */
    b[n - 1] ^= 0xFF;
    b[4] |= 0x08;
    tu_write(j.path, b, n);
    expect_failure(&j, "", j.path,
                   "0: record 0: corrupt compressed stream: Unsupported frame parameter");
    /* Garbage after a complete frame. */
    b[4] &= (unsigned char)~0x08;
    b = realloc(b, n + 8);
    memcpy(b + n, "junkjunk", 8);
    tu_write(j.path, b, n + 8);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: trailing data after the end"
                   " of the compressed stream");
    /* A gzip member after a zstd frame is trailing data too (one format a file). */
    tu_write(j.path, b, n);
    free(b);
    write_four_loads_gz(tu_file("member.gz"));
    b = tu_read(tu_file("member.gz"), &n);
    FILE *f = fopen(j.path, "ab");
    ck_assert_uint_eq(fwrite(b, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
    free(b);
    expect_failure(&j, FOUR_LOADS, j.path,
                   "32: record 4: corrupt compressed stream: trailing data after the end"
                   " of the compressed stream");
}
END_TEST

START_TEST(bad_unreadable_files)
{
    dump_job j = { .path = tu_file("does-not-exist") };
    expect_failure(&j, "", j.path, "cannot read trace: No such file or directory");
    j.path = tu_dir;
    expect_failure(&j, "", j.path, "cannot read trace: is a directory");
    if (geteuid() != 0) {       /* root reads anything */
        j.path = tu_file("noperm.trace");
        tu_write(j.path, "", 0);
        chmod(j.path, 0);
        expect_failure(&j, "", j.path, "cannot read trace: Permission denied");
    }
}
END_TEST

/* ---- --lenient ---------------------------------------------------------------------------- */

typedef struct lenient_case {
    const char *name;
    void (*build)(tu_recs *t);
    unsigned skipped;
    const char *dump;           /* the records that survive */
    unsigned warnings;          /* one per bad record (a run of call parts is one) */
} lenient_case;

static void l_invalid(tu_recs *t)
{
    tu_add_mem(t, SMAIT_LOAD, 4, 0, 1);
    tu_add(t, 0x20000000, 0);
    tu_add(t, 0xF0000000, 0);
    tu_add_mem(t, SMAIT_LOAD, 4, 0, 2);
}
static void l_stray_parts(tu_recs *t)
{
    tu_add(t, smait_call_f1(3, 3), 0);
    tu_add(t, smait_call_f1(3, 4), 0);
    tu_add(t, smait_call_f1(3, 5), 0);
    tu_add_call(t, SMAIT_CT_JOIN, 1, 2, 0, 0, 0, 0);
}
static void l_wrong_index(tu_recs *t)
{
    tu_add_call(t, SMAIT_CT_BARRIER, 0, 0, 0, 0, 0, 0);
    t->r[t->n - 2].f1 = smait_call_f1(SMAIT_CT_BARRIER, 3);
    tu_add_mem(t, SMAIT_STORE, 8, 1, 8);
}
static void l_mixed_types(tu_recs *t)
{
    tu_add_mem(t, SMAIT_STORE, 8, 1, 8);
    tu_add_call(t, SMAIT_CT_BEGIN_ORDER, 0, 0, 0, 0, 0, 0);
    for (size_t i = t->n - 3; i < t->n; i++) t->r[i].f1 += 0x10;    /* parts 3..5: END_ORDER */
    tu_add_call(t, SMAIT_CT_END_ORDER, 9, 9, 0, 0, 0, 0);
}
static void l_cut_at_end(tu_recs *t)
{
    tu_add_mem(t, SMAIT_STORE, 8, 1, 8);
    tu_add(t, smait_call_f1(3, 0), 0);
    tu_add(t, smait_call_f1(3, 1), 0);
    tu_add(t, smait_call_f1(3, 2), 0);
}
static void l_part0_then_memory(tu_recs *t)
{
    tu_add(t, smait_call_f1(3, 0), 0);
    tu_add_mem(t, SMAIT_STORE, 8, 1, 8);
}
/* A stray part just before a call record that a 12-record buffer cuts. */
static void l_stray_before_cut_call(tu_recs *t)
{
    for (int i = 0; i < 8; i++) tu_add_mem(t, SMAIT_LOAD, 4, 0, (uint32_t)i);
    tu_add(t, smait_call_f1(2, 5), 0);
    tu_add_call(t, SMAIT_CT_BARRIER, 1, 2, 3, 4, 0, 0);
    tu_add_mem(t, SMAIT_LOAD, 4, 0, 99);
}

static const lenient_case lenient_cases[] = {
    { "invalid", l_invalid, 2, "0: load 4 0x00000001\n3: load 4 0x00000002\n", 2 },
    { "stray", l_stray_parts, 3, "3: join @1:2\n", 1 },
    { "index", l_wrong_index, 6, "6: store 8 0x00000008 fp\n", 1 },
    { "mixed", l_mixed_types, 6, "0: store 8 0x00000008 fp\n7: end_order lock=0x00000000 @9:9\n", 1 },
    { "cut", l_cut_at_end, 3, "0: store 8 0x00000008 fp\n", 1 },
    { "part0", l_part0_then_memory, 1, "1: store 8 0x00000008 fp\n", 1 },
    { "straddle", l_stray_before_cut_call, 1,
      "0: load 4 0x00000000\n1: load 4 0x00000001\n2: load 4 0x00000002\n"
      "3: load 4 0x00000003\n4: load 4 0x00000004\n5: load 4 0x00000005\n"
      "6: load 4 0x00000006\n7: load 4 0x00000007\n"
      "9: barrier var=0x00000003 threads=4 @1:2\n15: load 4 0x00000063\n", 1 },
};
enum { NLENIENT = sizeof lenient_cases / sizeof lenient_cases[0] };

START_TEST(lenient_skips)
{
    const lenient_case *c = &lenient_cases[_i];
    tu_recs t = { 0 };
    c->build(&t);
    const char *p = write_recs("lenient.trace", &t, SMAIT_ORDER_LITTLE);
    /* Every buffer size (and gzip) skips the same records, with the same
     * warnings: one per bad record, "; skipped" (a run of call parts cut by
     * the buffer's end is still one). */
    for (int gz = 0; gz < 2; gz++) {
        char *first = NULL;         /* the warnings with the default buffer */
        if (gz) {
            p = tu_file("lenient.trace.gz");
            tu_write_trace_gz(p, &t, SMAIT_ORDER_LITTLE);
        }
        for (size_t cap = 11; cap <= 24; cap++) {
            trace_reader_opts o = { .lenient = true, .buffer_records = cap == 11 ? 0 : cap };
            trace_reader_problems pr;
            diag_lenient_reset();       /* each read is a run of its own: its first warnings show */
            tu_capture_begin();
            char *got = tu_dump_path(p, &o, &pr);
            char *err = tu_capture_end();
            ck_assert_msg(strcmp(got, c->dump) == 0, "%s, buffer %zu, gzip %d: got\n%s",
                          c->name, cap, gz, got);
            ck_assert_msg(pr.skipped_records == c->skipped, "%s, buffer %zu, gzip %d: skipped %llu",
                          c->name, cap, gz, (unsigned long long)pr.skipped_records);
            ck_assert_uint_eq(pr.truncated_bytes + pr.corrupt_streams + pr.unpaired_calls + pr.cut_traces, 0);
            unsigned lines = 0;
            for (const char *q = err; (q = strstr(q, "; skipped")) != NULL; q++) lines++;
            ck_assert_msg(lines == c->warnings && strncmp(err, "dsmtrace: warning: ", 19) == 0,
                          "%s, buffer %zu, gzip %d: warnings\n%s", c->name, cap, gz, err);
            if (!first) first = err;
            else {
                ck_assert_msg(strcmp(err, first) == 0, "%s, buffer %zu, gzip %d: warnings\n%s\nnot\n%s",
                              c->name, cap, gz, err, first);
                free(err);
            }
            free(got);
        }
        free(first);
    }
    tu_recs_free(&t);
}
END_TEST

START_TEST(lenient_many_bad_records_any_buffer)
{
    /* Bad records sprinkled over a long trace: the same survivors and count
     * whatever the buffer size. */
    tu_recs t = { 0 };
    mixed_trace(&t, 300);
    for (size_t i = 20; i < t.n; i += 37) t.r[i].f1 = 0x30000000u | (uint32_t)i;
    const char *p = write_recs("many-bad.trace", &t, SMAIT_ORDER_BIG);
    trace_reader_opts o = { .lenient = true };
    trace_reader_problems ref;
    char *want = tu_dump_path(p, &o, &ref);
    ck_assert_uint_ge(ref.skipped_records, 8);
    trace_reader *r = trace_reader_open(p, &o);
    ck_assert_int_eq(trace_reader_order(r), SMAIT_ORDER_BIG);
    trace_reader_close(r);
    for (size_t cap = 12; cap <= 45; cap++) {
        o.buffer_records = cap;
        trace_reader_problems pr;
        char *got = tu_dump_path(p, &o, &pr);
        ck_assert_msg(strcmp(got, want) == 0, "buffer %zu", cap);
        ck_assert_uint_eq(pr.skipped_records, ref.skipped_records);
        free(got);
    }
    free(want);
    tu_recs_free(&t);
}
END_TEST

START_TEST(lenient_truncated_final_record)
{
    tu_recs t = { 0 };
    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x10);
    tu_add(&t, 0x20000020, 0);                  /* invalid in both orders */
    unsigned char *b = tu_bytes(&t, SMAIT_ORDER_LITTLE);
    dump_job j = { .path = tu_file("trunc-lenient.trace"), .opts = { .lenient = true } };
    tu_write(j.path, b, 8 + 8 + 5);
    char *out, *err;
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: load 4 0x00000010\n"
                     "problems skipped=1 truncated=5 unpaired=0 corrupt=0 order=little\n");
    char want[1024];
    snprintf(want, sizeof want, "dsmtrace: warning: %s: 8: record 1: invalid record kind: bytes 20000020 00000000"
             " (f1 20000020 as little-endian); skipped\n"
             "dsmtrace: warning: %s: 16: record 2: truncated final record (file size is not a multiple of 8;"
             " 5 bytes left over); dropped\n", j.path, j.path);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
    free(b);
    tu_recs_free(&t);
}
END_TEST

START_TEST(lenient_gzip_truncated_and_corrupt)
{
    dump_job j = { .path = tu_file("trunc-lenient.gz"), .opts = { .lenient = true } };
    size_t n = write_four_loads_gz(j.path);
    tu_truncate(j.path, n - 4);
    char *out, *err, want[4096];
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: load 4 0x00000000\n1: load 4 0x00000010\n"
                     "2: load 4 0x00000020\n3: load 4 0x00000030\n"
                     "problems skipped=0 truncated=0 unpaired=0 corrupt=1 order=little\n");
    snprintf(want, sizeof want, "dsmtrace: warning: %s: 32: record 4: compressed stream is truncated"
             " (unexpected end of file); the trace is treated as ending here\n", j.path);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);

    /* Corrupt in the middle of a longer stream: the records before the damage
     * survive (how many depends on zlib's block layout, so only the count and
     * the order of what survives are checked). */
    tu_recs t = { 0 };
    for (unsigned i = 0; i < 20000; i++) tu_add_mem(&t, SMAIT_LOAD, 4, 0, i * 2654435761u);
    j.path = tu_file("corrupt-lenient.gz");
    tu_write_trace_gz(j.path, &t, SMAIT_ORDER_LITTLE);
    unsigned char *b = tu_read(j.path, &n);
    for (size_t k = n / 2; k < n / 2 + 64; k++) b[k] ^= 0x5A;
    tu_write(j.path, b, n);
    free(b);
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert(strstr(out, "corrupt=1 order=little\n") != NULL);
    ck_assert(strncmp(err, "dsmtrace: warning: ", 19) == 0);
    ck_assert(strstr(err, "; the trace is treated as ending here\n") != NULL);
    ck_assert(strncmp(out, "0: load 4 0x00000000\n1: load 4 0x9e3779b1\n", 42) == 0);
    free(out);
    free(err);

    /* zstd alike: a frame cut short is counted, what came before kept. */
    const char *big = tu_file("big-lenient.zst");
    tu_write_trace_zst(big, &t, SMAIT_ORDER_LITTLE);
    b = tu_read(big, &n);
    j.path = tu_file("trunc-lenient.zst");
    write_four_loads_zst(j.path);
    FILE *f = fopen(j.path, "ab");
    ck_assert_uint_eq(fwrite(b, 1, n - 10, f), n - 10);
    ck_assert_int_eq(fclose(f), 0);
    free(b);
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert(strncmp(out, FOUR_LOADS, strlen(FOUR_LOADS)) == 0);
    ck_assert(strstr(out, "corrupt=1 order=little\n") != NULL);
    ck_assert(strstr(err, "compressed stream is truncated (unexpected end of file); the trace is"
                     " treated as ending here\n") != NULL);
    free(out);
    free(err);
    tu_recs_free(&t);
}
END_TEST

/* ---- cut traces (formats/SMAIT.md §12) ------------------------------------------------------ */

/* Prints what dump_job_run prints, but for problems the cut count only. */
static void cut_job_run(void *arg)
{
    trace_reader *r = dump_records(arg);
    trace_reader_problems p = trace_reader_problem_counts(r);
    printf("cut=%llu skipped=%llu truncated=%llu\n", (unsigned long long)p.cut_traces,
           (unsigned long long)p.skipped_records, (unsigned long long)p.truncated_bytes);
    trace_reader_close(r);
}

static int run_cut(const dump_job *j, char **out, char **err)
{
    return tu_run(cut_job_run, (void *)j, NULL, out, err);
}

/* start_trace @1:2 (0..5), load (6), store (7): cut after the store. */
static void started(tu_recs *t)
{
    tu_add_call(t, SMAIT_CT_START_TRACE, 1, 2, 0, 0, 0, 0);
    tu_add_mem(t, SMAIT_LOAD, 4, 0, 0x1000);
    tu_add_mem(t, SMAIT_STORE, 4, 0, 0x1004);
}
static const char STARTED[] = "0: start_trace @1:2\n6: load 4 0x00001000\n7: store 4 0x00001004\n";
static const char CUT7[] = "56: record 7: trace is cut: no end_trace after the last record (store 4 0x00001004;"
                           " a trace that begins with start_trace ends with end_trace: was the program killed,"
                           " or the disk full?)";

/* A plain file's last record is read when it is opened: the cut is found
 * before any record is handed out, whatever the buffer. */
START_TEST(cut_plain_found_before_any_record)
{
    tu_recs t = { 0 };
    started(&t);
    dump_job j = { .path = write_recs("cut.trace", &t, SMAIT_ORDER_LITTLE) };
    for (size_t cap = 0; cap <= 20; cap = cap ? cap + 1 : 12) {
        j.opts.buffer_records = cap;
        expect_failure(&j, "", j.path, CUT7);
    }
    /* big-endian alike; and standard input that is a file */
    j.path = write_recs("cut.be", &t, SMAIT_ORDER_BIG);
    j.opts.buffer_records = 0;
    expect_failure(&j, "", j.path, CUT7);
    char *out, *err, want[1024];
    ck_assert_int_eq(tu_run(read_stdin_job, NULL, j.path, &out, &err), 2);
    snprintf(want, sizeof want, "dsmtrace: -: %s\n", CUT7);
    ck_assert_str_eq(err, want);
    ck_assert_str_eq(out, "");
    free(out);
    free(err);
    tu_recs_free(&t);
}
END_TEST

/* Compressed: the end is known when the reads reach it, so every record is
 * handed out first; the message is the plain file's. */
START_TEST(cut_stream_found_at_its_end)
{
    tu_recs t = { 0 };
    started(&t);
    dump_job j = { .path = tu_file("cut.trace.gz") };
    tu_write_trace_gz(j.path, &t, SMAIT_ORDER_LITTLE);
    for (size_t cap = 0; cap <= 20; cap = cap ? cap + 1 : 12) {
        j.opts.buffer_records = cap;
        expect_failure(&j, STARTED, j.path, CUT7);
    }
    j.path = tu_file("cut.trace.zst");
    tu_write_trace_zst(j.path, &t, SMAIT_ORDER_BIG);
    j.opts.buffer_records = 0;
    expect_failure(&j, STARTED, j.path, CUT7);
    /* A delta-coded plain file: its last memory record cannot be decoded
     * alone, so it is found at the end too (with the decoded address). */
    tu_recs d = { 0 };
    delta_coded(&d, &t);
    j.path = write_recs("cut.delta", &d, SMAIT_ORDER_LITTLE);
    expect_failure(&j, STARTED, j.path, CUT7);
    tu_recs_free(&d);
    tu_recs_free(&t);
}
END_TEST

/* What is not cut: a trace that ends with end_trace, one that does not begin
 * with start_trace (a fragment: nothing to say), an empty one. What is: a
 * trace of start_trace alone, one whose end_trace is followed by a record,
 * one that ends in a call record (named by its first part). */
START_TEST(cut_or_not)
{
    tu_recs t = { 0 };
    started(&t);
    tu_add_call(&t, SMAIT_CT_END_TRACE, 3, 4, 0, 0, 0, 0);
    dump_job j = { .path = write_recs("whole.trace", &t, SMAIT_ORDER_LITTLE) };
    char *out, *err;
    ck_assert_int_eq(run_cut(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: start_trace @1:2\n6: load 4 0x00001000\n7: store 4 0x00001004\n"
                     "8: end_trace @3:4\ncut=0 skipped=0 truncated=0\n");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
    tu_recs_free(&t);

    tu_add_mem(&t, SMAIT_LOAD, 4, 0, 0x1000);
    tu_add_call(&t, SMAIT_CT_BARRIER, 1, 2, 0x8000, 2, 0, 0);
    j.path = write_recs("fragment.trace", &t, SMAIT_ORDER_LITTLE);
    ck_assert_int_eq(run_cut(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: load 4 0x00001000\n1: barrier var=0x00008000 threads=2 @1:2\n"
                     "cut=0 skipped=0 truncated=0\n");
    free(out);
    free(err);
    tu_recs_free(&t);

    tu_add_call(&t, SMAIT_CT_START_TRACE, 0, 0, 1, 0, 0, 0);
    j.path = write_recs("start-only.trace", &t, SMAIT_ORDER_LITTLE);
    expect_failure(&j, "", j.path, "0: record 0: trace is cut: no end_trace after the last record (start_trace"
                   " sync=1; a trace that begins with start_trace ends with end_trace: was the program killed,"
                   " or the disk full?)");
    tu_add_call(&t, SMAIT_CT_END_TRACE, 0, 0, 0, 0, 0, 0);
    tu_add_mem(&t, SMAIT_LOAD, 8, 1, 0x2000);
    j.path = write_recs("after-end.trace", &t, SMAIT_ORDER_LITTLE);
    expect_failure(&j, "", j.path, "96: record 12: trace is cut: no end_trace after the last record (load 8"
                   " 0x00002000 fp; a trace that begins with start_trace ends with end_trace: was the program"
                   " killed, or the disk full?)");
    tu_recs_free(&t);

    started(&t);
    tu_add_call(&t, SMAIT_CT_BARRIER, 5, 6, 0x8000, 2, 0, 0);       /* 8..13 */
    j.path = write_recs("barrier-last.trace", &t, SMAIT_ORDER_LITTLE);
    expect_failure(&j, "", j.path, "64: record 8: trace is cut: no end_trace after the last record (barrier"
                   " var=0x00008000 threads=2 @5:6; a trace that begins with start_trace ends with end_trace:"
                   " was the program killed, or the disk full?)");
    tu_recs_free(&t);
}
END_TEST

/* A last record that is bad, or a size that is not a multiple of 8, leaves
 * the question to the reads: they report the bad record where they meet it
 * (no cut said first); with --lenient it is skipped, then the trace is cut. */
START_TEST(cut_behind_a_bad_end)
{
    tu_recs t = { 0 };
    started(&t);
    tu_add(&t, 0x20000000, 0);                                      /* record 8: invalid */
    dump_job j = { .path = write_recs("bad-last.trace", &t, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, STARTED, j.path, "64: record 8: invalid record kind: bytes 00000020 00000000 (f1 20000000"
                   " as little-endian); it is valid as big-endian: try --byte-order=big");
    j.opts.lenient = true;
    char *out, *err, want[2048];
    ck_assert_int_eq(run_cut(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: start_trace @1:2\n6: load 4 0x00001000\n7: store 4 0x00001004\n"
                     "cut=1 skipped=1 truncated=0\n");
    snprintf(want, sizeof want, "dsmtrace: warning: %s: 64: record 8: invalid record kind: bytes 00000020 00000000"
             " (f1 20000000 as little-endian); it is valid as big-endian: try --byte-order=big; skipped\n"
             "dsmtrace: warning: %s: 56: record 7: trace is cut: no end_trace after the last record (store 4"
             " 0x00001004); the trace is read as ending there\n", j.path, j.path);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
    tu_recs_free(&t);

    /* 3 bytes more than whole records: the truncated final record first */
    started(&t);
    unsigned char *b = tu_bytes(&t, SMAIT_ORDER_LITTLE);
    j.path = tu_file("short-cut.trace");
    tu_write(j.path, b, 8 * t.n + 3);
    free(b);
    j.opts.lenient = false;
    expect_failure(&j, STARTED, j.path, "64: record 8: truncated final record (file size is not a multiple of 8;"
                   " 3 bytes left over)");
    j.opts.lenient = true;
    ck_assert_int_eq(run_cut(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: start_trace @1:2\n6: load 4 0x00001000\n7: store 4 0x00001004\n"
                     "cut=1 skipped=0 truncated=3\n");
    snprintf(want, sizeof want, "dsmtrace: warning: %s: 64: record 8: truncated final record (file size is not a"
             " multiple of 8; 3 bytes left over); dropped\n"
             "dsmtrace: warning: %s: 56: record 7: trace is cut: no end_trace after the last record (store 4"
             " 0x00001004); the trace is read as ending there\n", j.path, j.path);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
    tu_recs_free(&t);
}
END_TEST

/* --lenient: one warning naming the trace, the records all handed out, the
 * count; plain (warned at open) and gzip (at the end) alike. A compressed
 * stream that breaks has said that its trace ends early: no second warning. */
START_TEST(cut_lenient_one_warning)
{
    tu_recs t = { 0 };
    started(&t);
    char *out, *err, want[2048];
    for (int gz = 0; gz < 2; gz++) {
        dump_job j = { .path = gz ? tu_file("cutl.trace.gz") : write_recs("cutl.trace", &t, SMAIT_ORDER_LITTLE),
                       .opts = { .lenient = true } };
        if (gz) tu_write_trace_gz(j.path, &t, SMAIT_ORDER_LITTLE);
        ck_assert_int_eq(run_cut(&j, &out, &err), 100);
        ck_assert_str_eq(out, "0: start_trace @1:2\n6: load 4 0x00001000\n7: store 4 0x00001004\n"
                         "cut=1 skipped=0 truncated=0\n");
        snprintf(want, sizeof want, "dsmtrace: warning: %s: 56: record 7: trace is cut: no end_trace after the"
                 " last record (store 4 0x00001004); the trace is read as ending there\n", j.path);
        ck_assert_str_eq(err, want);
        free(out);
        free(err);
        /* a second reader of the trace (quiet) counts it and says nothing */
        j.opts.quiet = true;
        ck_assert_int_eq(run_cut(&j, &out, &err), 100);
        ck_assert(strstr(out, "cut=1 ") != NULL);
        ck_assert_str_eq(err, "");
        free(out);
        free(err);
    }
    dump_job j = { .path = tu_file("cutl-broken.gz"), .opts = { .lenient = true } };
    tu_write_trace_gz(j.path, &t, SMAIT_ORDER_LITTLE);
    size_t n;
    unsigned char *b = tu_read(j.path, &n);
    tu_write(j.path, b, n - 4);                 /* the gzip trailer's size cut off */
    free(b);
    ck_assert_int_eq(run_cut(&j, &out, &err), 100);
    ck_assert(strstr(out, "cut=0 ") != NULL);
    snprintf(want, sizeof want, "dsmtrace: warning: %s: 64: record 8: compressed stream is truncated (unexpected"
             " end of file); the trace is treated as ending here\n", j.path);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
    tu_recs_free(&t);
}
END_TEST

/* A cut call trace is named as such (the plain one at open, before any
 * pairing problem its missing records would cause). */
START_TEST(cut_call_trace)
{
    tu_recs t = { 0 }, c = { 0 };
    started(&t);
    tu_add_call(&t, SMAIT_CT_END_TRACE, 3, 4, 0, 0, 0, 0);
    tu_add_call(&c, SMAIT_CT_START_TRACE, 10, 20, 0, 0, 0, 0);
    dump_job j = { .path = write_recs("paired.trace", &t, SMAIT_ORDER_LITTLE),
                   .calls = write_recs("cutcalls.trace", &c, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, "", j.calls, "0: record 0: trace is cut: no end_trace after the last record (start_trace"
                   " @10:20; a trace that begins with start_trace ends with end_trace: was the program killed, or"
                   " the disk full?)");
    tu_recs_free(&t);
    tu_recs_free(&c);
}
END_TEST

/* ---- call traces (docs/trace-sets.md §3) ---------------------------------------------------- */

/* Detailed trace: 3 call records with their own times, memory in between. */
static void detailed_trace(tu_recs *t)
{
    tu_add_mem(t, SMAIT_LOAD, 4, 0, 0x10);
    tu_add_call(t, SMAIT_CT_BARRIER, 1, 2, 0x8000, 4, 0, 0);        /* 1..6 */
    tu_add_mem(t, SMAIT_STORE, 4, 0, 0x20);                          /* 7 */
    tu_add_call(t, SMAIT_CT_SPAWN, 3, 4, 1, 4, 0, 0);                /* 8..13 */
    tu_add_call(t, SMAIT_CT_JOIN, 5, 6, 0, 0, 0, 0);                 /* 14..19 */
}

/* Call trace: the same call types with other times and arguments, and
 * non-call records in between that pairing passes over. */
static void call_trace(tu_recs *t, unsigned ncalls, unsigned second_type)
{
    tu_add(t, 0x40000000, 0x4c00);
    if (ncalls > 0) tu_add_call(t, SMAIT_CT_BARRIER, 100, 200, 0x9999, 9, 9, 9);
    tu_add_mem(t, SMAIT_LOAD, 8, 1, 0x30);
    if (ncalls > 1) tu_add_call(t, second_type, 300, 400, 7, 7, 7, 7);
    if (ncalls > 2) tu_add_call(t, SMAIT_CT_JOIN, 500, 600, 0, 0, 0, 0);
    for (unsigned k = 3; k < ncalls; k++) tu_add_call(t, SMAIT_CT_JOIN, 700, 800, 0, 0, 0, 0);
}

static const char PAIRED[] =
    "0: load 4 0x00000010\n"
    "1: barrier var=0x00008000 threads=4 @100:200\n"
    "7: store 4 0x00000020\n"
    "8: spawn region=1 threads=4 @300:400\n"
    "14: join @500:600\n";

static void pairing_files(unsigned ncalls, unsigned second_type, dump_job *j)
{
    tu_recs d = { 0 }, c = { 0 };
    detailed_trace(&d);
    call_trace(&c, ncalls, second_type);
    j->path = write_recs("detail.trace", &d, SMAIT_ORDER_LITTLE);
    j->calls = write_recs("calls.trace", &c, SMAIT_ORDER_BIG);  /* orders are per file */
    tu_recs_free(&d);
    tu_recs_free(&c);
}

START_TEST(pairing_substitutes_times)
{
    dump_job j = { 0 };
    pairing_files(3, SMAIT_CT_SPAWN, &j);
    char want[1024];
    snprintf(want, sizeof want, "%s%slittle\n", PAIRED, NO_PROBLEMS);
    for (size_t cap = 0; cap <= 20; cap++) {
        if (cap && cap < 12) continue;
        j.opts.buffer_records = cap;
        char *out, *err;
        ck_assert_int_eq(run_dump(&j, &out, &err), 100);
        ck_assert_str_eq(err, "");
        ck_assert_str_eq(out, want);
        free(out);
        free(err);
    }
}
END_TEST

START_TEST(pairing_after_records_were_read)
{
    /* attach_calls after the first records were handed out: only the call
     * records not yet handed out get the call trace's times. */
    dump_job j = { 0 };
    pairing_files(3, SMAIT_CT_SPAWN, &j);
    trace_reader *r = trace_reader_open(j.path, NULL);
    ck_assert_ptr_nonnull(trace_reader_next(r));            /* the load */
    trace_reader_attach_calls(r, trace_reader_open(j.calls, NULL));
    char *got = tu_dump_reader(r);
    ck_assert_str_eq(got, PAIRED + strlen("0: load 4 0x00000010\n"));
    free(got);
    trace_reader_close(r);
}
END_TEST

START_TEST(pairing_type_mismatch)
{
    dump_job j = { 0 };
    pairing_files(3, SMAIT_CT_JOIN, &j);
    char rest[1024];
    snprintf(rest, sizeof rest, "64: record 8: call record 1 is of type 0x01 but call record 1"
             " of call trace %s (record 8) is of type 0x02", j.calls);
    expect_failure(&j, NULL, j.path, rest);

    /* Lenient: a warning, then the detailed trace's own times from there on. */
    j.opts.lenient = true;
    char *out, *err, want[4096];
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: load 4 0x00000010\n"
                     "1: barrier var=0x00008000 threads=4 @100:200\n"
                     "7: store 4 0x00000020\n"
                     "8: spawn region=1 threads=4 @3:4\n"
                     "14: join @5:6\n"
                     "problems skipped=0 truncated=0 unpaired=2 corrupt=0 order=little\n");
    snprintf(want, sizeof want, "dsmtrace: warning: %s: %s; using this trace's own times from"
             " here on\n", j.path, rest);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
}
END_TEST

START_TEST(pairing_call_trace_too_short)
{
    dump_job j = { 0 };
    pairing_files(2, SMAIT_CT_SPAWN, &j);
    char rest[1024];
    snprintf(rest, sizeof rest, "112: record 14: call record 2 has no partner: call trace %s"
             " ends after 2 call records", j.calls);
    expect_failure(&j, NULL, j.path, rest);

    j.opts.lenient = true;
    char *out, *err, want[4096];
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    ck_assert_str_eq(out, "0: load 4 0x00000010\n"
                     "1: barrier var=0x00008000 threads=4 @100:200\n"
                     "7: store 4 0x00000020\n"
                     "8: spawn region=1 threads=4 @300:400\n"
                     "14: join @5:6\n"
                     "problems skipped=0 truncated=0 unpaired=1 corrupt=0 order=little\n");
    snprintf(want, sizeof want, "dsmtrace: warning: %s: %s; using this trace's own times from"
             " here on\n", j.path, rest);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
}
END_TEST

START_TEST(pairing_call_trace_too_long)
{
    dump_job j = { 0 };
    pairing_files(5, SMAIT_CT_SPAWN, &j);
    /* The 4th call record of the call trace starts at simple record 20. */
    char rest[1024];
    snprintf(rest, sizeof rest, "160: record 20: call trace has more call records than %s"
             " (which has 3)", j.path);
    expect_failure(&j, PAIRED, j.calls, rest);

    j.opts.lenient = true;
    char *out, *err, want[4096];
    ck_assert_int_eq(run_dump(&j, &out, &err), 100);
    snprintf(want, sizeof want, "%sproblems skipped=0 truncated=0 unpaired=2 corrupt=0"
             " order=little\n", PAIRED);
    ck_assert_str_eq(out, want);
    snprintf(want, sizeof want, "dsmtrace: warning: %s: 160: call trace has more call records"
             " than %s (3); extra ones ignored\n", j.calls, j.path);
    ck_assert_str_eq(err, want);
    free(out);
    free(err);
}
END_TEST

START_TEST(pairing_bad_call_trace)
{
    /* A bad record in the call trace is reported against the call trace. */
    tu_recs d = { 0 }, c = { 0 };
    detailed_trace(&d);
    tu_add(&c, 0x20000020, 0);
    dump_job j = { .path = write_recs("detail2.trace", &d, SMAIT_ORDER_LITTLE),
                   .calls = write_recs("calls2.trace", &c, SMAIT_ORDER_LITTLE) };
    expect_failure(&j, NULL, j.calls, "0: record 0: invalid record kind: bytes 20000020 00000000"
                   " (f1 20000020 as little-endian)");
    tu_recs_free(&d);
    tu_recs_free(&c);
}
END_TEST

/* ---- exit tests the Check way -------------------------------------------------------------- */

START_TEST(exit_missing_file)
{
    if (!freopen("/dev/null", "w", stderr)) return;
    trace_reader_open(tu_file("no-such-trace"), NULL);
}
END_TEST

START_TEST(exit_bad_record)
{
    if (!freopen("/dev/null", "w", stderr)) return;
    const char *p = tu_file("exit-bad.trace");
    tu_write(p, "\x20\0\0\x20\0\0\0\0", 8);      /* invalid in both orders */
    trace_reader *r = trace_reader_open(p, NULL);
    trace_reader_next(r);
}
END_TEST

Suite *trace_reader_suite(void)
{
    Suite *s = suite_create("trace_reader");
    TCase *tc = tcase_create("read");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, plain_file_every_kind);
    tcase_add_test(tc, record_index_and_contents);
    tcase_add_test(tc, empty_file);
    tcase_add_test(tc, gzip_file);
    tcase_add_test(tc, gzip_concatenated_members);
    tcase_add_test(tc, zstd_file);
    tcase_add_test(tc, zstd_concatenated_frames);
    tcase_add_test(tc, big_endian_auto);
    tcase_add_test(tc, forced_order_overrides_detection);
    tcase_add_test(tc, small_buffers_call_records_straddle);
    tcase_add_test(tc, buffer_12_13_17_by_hand);
    tcase_add_test(tc, next_run_bulk_access);
    tcase_add_test(tc, peek_does_not_consume);
    tcase_add_test(tc, standard_input);
    tcase_add_test(tc, delta_coding_round_trip);
    tcase_add_test(tc, delta_coding_makes_loops_repeat);
    tcase_add_test(tc, delta_plain_trace_is_not_coded);
    suite_add_tcase(s, tc);

    tc = tcase_create("bad_input");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, bad_invalid_kind);
    tcase_add_test(tc, bad_kind_byte_order_hint);
    tcase_add_test(tc, bad_delta_marker);
    tcase_add_test(tc, bad_call_stray_part);
    tcase_add_test(tc, bad_call_wrong_index);
    tcase_add_test(tc, bad_call_mixed_types);
    tcase_add_test(tc, bad_call_cut_by_end);
    tcase_add_test(tc, bad_truncated_final_record);
    tcase_add_test(tc, bad_gzip_truncated);
    tcase_add_test(tc, bad_gzip_corrupt);
    tcase_add_test(tc, bad_zstd_truncated);
    tcase_add_test(tc, bad_zstd_corrupt);
    tcase_add_test(tc, bad_unreadable_files);
    tcase_add_exit_test(tc, exit_missing_file, 2);
    tcase_add_exit_test(tc, exit_bad_record, 2);
    suite_add_tcase(s, tc);

    tc = tcase_create("lenient");
    tcase_set_timeout(tc, 60);
    tcase_add_loop_test(tc, lenient_skips, 0, NLENIENT);
    tcase_add_test(tc, lenient_many_bad_records_any_buffer);
    tcase_add_test(tc, lenient_truncated_final_record);
    tcase_add_test(tc, lenient_gzip_truncated_and_corrupt);
    suite_add_tcase(s, tc);

    tc = tcase_create("cut");
    tcase_add_test(tc, cut_plain_found_before_any_record);
    tcase_add_test(tc, cut_stream_found_at_its_end);
    tcase_add_test(tc, cut_or_not);
    tcase_add_test(tc, cut_behind_a_bad_end);
    tcase_add_test(tc, cut_lenient_one_warning);
    tcase_add_test(tc, cut_call_trace);
    suite_add_tcase(s, tc);

    tc = tcase_create("call_traces");
    tcase_add_test(tc, pairing_substitutes_times);
    tcase_add_test(tc, pairing_after_records_were_read);
    tcase_add_test(tc, pairing_type_mismatch);
    tcase_add_test(tc, pairing_call_trace_too_short);
    tcase_add_test(tc, pairing_call_trace_too_long);
    tcase_add_test(tc, pairing_bad_call_trace);
    suite_add_tcase(s, tc);
    return s;
}
