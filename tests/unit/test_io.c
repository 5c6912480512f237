/* test_io.c — common/byte_source, line_reader, out_file and diag: the plumbing
 * under the trace reader and the tools (SPEC §2.3, §3 atomic outputs, §10). */
#include "suites.h"
#include "../../common/byte_source.h"
#include "../../common/line_reader.h"
#include "../../common/out_file.h"
#include "../../common/diag.h"

#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* ---- byte_source ---------------------------------------------------------------- */

/* Read all of path in chunks of `chunk` bytes; returns the bytes (caller frees). */
static unsigned char *read_source(const char *path, size_t chunk, size_t *n, bool *gz)
{
    const char *why = NULL;
    byte_source *s = byte_source_open(path, &why);
    ck_assert_msg(s != NULL, "%s: %s", path, why);
    if (gz) *gz = byte_source_compressed(s);
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        if (len + chunk > cap) buf = realloc(buf, cap *= 2);
        long k = byte_source_read(s, buf + len, chunk, &why);
        ck_assert_msg(k >= 0, "%s: %s", path, why);
        if (k == 0) break;
        len += (size_t)k;
    }
    ck_assert_uint_eq(byte_source_consumed(s), byte_source_size(s));
    byte_source_close(s);
    *n = len;
    return buf;
}

START_TEST(byte_source_chunks)
{
    unsigned char data[3000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 7 + (i >> 8));
    const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 9, 3000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int gz = 0; gz < 2; gz++) {
            const char *p = tu_file("bytes");
            if (gz) tu_write_gz(p, data, sizes[k], "wb");
            else tu_write(p, data, sizes[k]);
            for (size_t chunk = 1; chunk <= 9; chunk += 2) {
                size_t n;
                bool was_gz;
                unsigned char *got = read_source(p, chunk, &n, &was_gz);
                ck_assert_uint_eq(n, sizes[k]);
                ck_assert(!memcmp(got, data, n));
                ck_assert_int_eq(was_gz, gz);
                free(got);
            }
        }
    }
}
END_TEST

START_TEST(byte_source_magic_not_name)
{
    /* One 0x1f byte, or 1f 8b in the middle, is plain data. */
    size_t n;
    bool gz;
    const char *p = tu_file("x.gz");
    tu_write(p, "\x1f", 1);
    unsigned char *got = read_source(p, 4, &n, &gz);
    ck_assert(!gz);
    ck_assert_uint_eq(n, 1);
    free(got);
    tu_write(p, "ab\x1f\x8b", 4);
    got = read_source(p, 4, &n, &gz);
    ck_assert(!gz);
    ck_assert_uint_eq(n, 4);
    free(got);
}
END_TEST

START_TEST(byte_source_open_errors)
{
    const char *why = NULL;
    ck_assert_ptr_null(byte_source_open(tu_file("missing"), &why));
    ck_assert_str_eq(why, "No such file or directory");
    ck_assert_ptr_null(byte_source_open(tu_dir, &why));
    ck_assert_str_eq(why, "is a directory");
    tu_write(tu_file("z.zst"), "\x28\xb5\x2f\xfd\x00", 5);
    ck_assert_ptr_null(byte_source_open(tu_file("z.zst"), &why));
    ck_assert_str_eq(why, "zstd-compressed input is not supported; decompress it first (zstd -d)");
    byte_source_close(NULL);
}
END_TEST

START_TEST(byte_source_partial_data_before_error)
{
    /* A truncated stream hands out everything it could decompress before it
     * reports the error, so the offset of the damage is known. */
    unsigned char data[1000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)i;
    const char *p = tu_file("partial.gz");
    tu_write_gz(p, data, sizeof data, "wb");
    size_t n;
    unsigned char *b = tu_read(p, &n);
    tu_write(p, b, n - 4);
    free(b);
    const char *why = NULL;
    byte_source *s = byte_source_open(p, &why);
    unsigned char out[2000];
    long k = byte_source_read(s, out, sizeof out, &why);
    ck_assert_int_eq(k, 1000);
    ck_assert(!memcmp(out, data, 1000));
    ck_assert_int_eq(byte_source_read(s, out, sizeof out, &why), -1);
    ck_assert_str_eq(why, "compressed stream is truncated (unexpected end of file)");
    ck_assert_int_eq(byte_source_read(s, out, sizeof out, &why), -1);   /* and stays so */
    byte_source_close(s);
}
END_TEST

/* Bytes handed out before the error, reading in chunks of `chunk`. */
static size_t bytes_before_error(const char *path, size_t chunk, unsigned char *out, size_t cap)
{
    const char *why = NULL;
    byte_source *s = byte_source_open(path, &why);
    ck_assert_ptr_nonnull(s);
    size_t len = 0;
    long k;
    while (len + chunk <= cap && (k = byte_source_read(s, out + len, chunk, &why)) > 0) len += (size_t)k;
    ck_assert_int_eq(byte_source_read(s, out + len, chunk, &why), -1);
    ck_assert_str_eq(why, "compressed stream is truncated (unexpected end of file)");
    byte_source_close(s);
    return len;
}

START_TEST(byte_source_truncated_gzip_any_chunk)
{
    /* A stream cut short: zlib has taken all the input there is but still
     * holds output when the caller's buffer is full. Small reads must get
     * it all too, as big ones do (they used to stop at the end of input). */
    enum { N = 200000 };
    unsigned char *data = malloc(N), *out = malloc(N);
    /* Runs of one byte, 1..2000 long: long matches, whose output zlib
     * gives out piece by piece. */
    uint32_t x = 1;
    for (size_t i = 0; i < N;) {
        x = x * 1103515245u + 12345u;
        size_t run = (x >> 16) % 2000 + 1;
        for (size_t j = 0; j < run && i < N; j++) data[i++] = (unsigned char)(x >> 8);
    }
    const char *p = tu_file("cut.gz");
    tu_write_gz(p, data, N, "wb");
    size_t n;
    unsigned char *b = tu_read(p, &n);
    tu_write(p, b, n / 2);
    free(b);
    size_t whole = bytes_before_error(p, N, out, N);
    ck_assert_uint_gt(whole, N / 8);
    ck_assert(!memcmp(out, data, whole));
    const size_t chunks[] = { 1, 7, 136, 4096, 65536 };
    for (size_t k = 0; k < sizeof chunks / sizeof chunks[0]; k++)
        ck_assert_uint_eq(bytes_before_error(p, chunks[k], out, N), whole);
    free(data);
    free(out);
}
END_TEST

/* ---- line_reader ------------------------------------------------------------------ */

START_TEST(lines_plain_and_gzip)
{
    const char *text = "first\nsecond\r\n\n  spaced  \nlast without newline";
    const char *want[] = { "first", "second", "", "  spaced  ", "last without newline" };
    for (int gz = 0; gz < 2; gz++) {
        const char *p = tu_file("lines.txt");
        if (gz) tu_write_gz(p, text, strlen(text), "wb");
        else tu_write_str(p, text);
        line_reader *r = line_reader_open(p);
        ck_assert_str_eq(line_reader_path(r), p);
        char *line;
        size_t len, i = 0;
        while ((line = line_reader_next(r, &len)) != NULL) {
            ck_assert_uint_lt(i, 5);
            ck_assert_str_eq(line, want[i]);
            ck_assert_uint_eq(len, strlen(want[i]));
            ck_assert_uint_eq(line_reader_lineno(r), i + 1);
            i++;
        }
        ck_assert_uint_eq(i, 5);
        ck_assert_ptr_null(line_reader_next(r, NULL));
        line_reader_close(r);
    }
    line_reader_close(NULL);
}
END_TEST

START_TEST(lines_empty_and_long)
{
    const char *p = tu_file("empty.txt");
    tu_write(p, "", 0);
    line_reader *r = line_reader_open(p);
    ck_assert_ptr_null(line_reader_next(r, NULL));
    line_reader_close(r);

    tu_write_str(p, "\n");
    r = line_reader_open(p);
    ck_assert_str_eq(line_reader_next(r, NULL), "");
    ck_assert_ptr_null(line_reader_next(r, NULL));
    line_reader_close(r);

    /* Lines longer than the 64 KiB read chunk, several times over. */
    size_t big = 300000;
    char *text = malloc(2 * big + 10);
    memset(text, 'a', big);
    text[big] = '\n';
    memset(text + big + 1, 'b', big);
    memcpy(text + 2 * big + 1, "\nc\n", 4);
    tu_write_str(p, text);
    r = line_reader_open(p);
    size_t len;
    char *line = line_reader_next(r, &len);
    ck_assert_uint_eq(len, big);
    ck_assert(line[0] == 'a' && line[big - 1] == 'a');
    line = line_reader_next(r, &len);
    ck_assert_uint_eq(len, big);
    ck_assert(line[0] == 'b' && line[big - 1] == 'b');
    ck_assert_str_eq(line_reader_next(r, NULL), "c");
    ck_assert_ptr_null(line_reader_next(r, NULL));
    ck_assert_uint_eq(line_reader_lineno(r), 3);
    line_reader_close(r);
    free(text);
}
END_TEST

static void line_open_job(void *arg)
{
    line_reader_open(arg);
}

static void line_read_all_job(void *arg)
{
    line_reader *r = line_reader_open(arg);
    while (line_reader_next(r, NULL)) {}
    line_reader_close(r);
}

START_TEST(lines_errors)
{
    char want[4096];
    const char *p = tu_file("no-such.txt");
    snprintf(want, sizeof want, "dsmtrace: %s: cannot read: No such file or directory\n", p);
    tu_assert_fatal(line_open_job, (void *)p, 2, want);

    p = tu_file("cut.txt.gz");
    tu_write_gz(p, "one\ntwo\n", 8, "wb");
    size_t n;
    unsigned char *b = tu_read(p, &n);
    tu_write(p, b, n - 2);
    free(b);
    snprintf(want, sizeof want, "dsmtrace: %s: line 3: compressed stream is truncated"
             " (unexpected end of file)\n", p);
    tu_assert_fatal(line_read_all_job, (void *)p, 2, want);
}
END_TEST

/* ---- out_file --------------------------------------------------------------------- */

START_TEST(out_file_commit_and_abort)
{
    const char *dir = tu_file("out");
    mkdir(dir, 0755);
    int before = tu_count_entries(dir);
    const char *p = tu_file("out/report");
    out_file *f = out_file_open(p, false);
    ck_assert_str_eq(out_file_path(f), p);
    ck_assert_ptr_nonnull(out_file_stream(f));
    ck_assert(!tu_exists(p));                  /* not there until committed */
    ck_assert_int_eq(tu_count_entries(dir), before + 1);   /* the temporary */
    out_file_printf(f, "value %d\n", 42);
    out_file_write(f, "raw\n", 4);
    out_file_commit(f);
    ck_assert_int_eq(tu_count_entries(dir), before + 1);
    char *s = (char *)tu_read(p, NULL);
    ck_assert_str_eq(s, "value 42\nraw\n");
    free(s);
    struct stat st;
    mode_t mask = umask(022);
    umask(mask);
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0666 & ~mask);

    /* An aborted rewrite leaves the earlier complete file alone. */
    f = out_file_open(p, false);
    out_file_printf(f, "half");
    out_file_abort(f);
    s = (char *)tu_read(p, NULL);
    ck_assert_str_eq(s, "value 42\nraw\n");
    free(s);
    ck_assert_int_eq(tu_count_entries(dir), before + 1);

    /* abort_all removes every open temporary. */
    out_file *a = out_file_open(tu_file("out/a"), false);
    out_file *b = out_file_open(tu_file("out/b"), true);
    (void)a;
    (void)b;
    ck_assert_int_eq(tu_count_entries(dir), before + 3);
    out_file_abort_all();
    ck_assert_int_eq(tu_count_entries(dir), before + 1);
    ck_assert(!tu_exists(tu_file("out/a")));
}
END_TEST

/* Big chunks bypass stdio: the bytes still come out in the order written. */
START_TEST(out_file_big_chunks_in_order)
{
    const char *p = tu_file("big.out");
    static char b[40000], d[70000];
    memset(b, 'b', sizeof b);
    memset(d, 'd', sizeof d);
    out_file *f = out_file_open(p, false);
    out_file_printf(f, "a");
    out_file_write(f, b, sizeof b);
    out_file_printf(f, "c");
    out_file_write(f, "e", 1);
    out_file_write(f, d, sizeof d);
    out_file_printf(f, "z");
    out_file_commit(f);
    size_t n;
    unsigned char *s = tu_read(p, &n);
    ck_assert_uint_eq(n, 1 + sizeof b + 2 + sizeof d + 1);
    ck_assert_int_eq(s[0], 'a');
    ck_assert_int_eq(s[1], 'b');
    ck_assert_int_eq(s[sizeof b], 'b');
    ck_assert_int_eq(s[1 + sizeof b], 'c');
    ck_assert_int_eq(s[2 + sizeof b], 'e');
    ck_assert_int_eq(s[3 + sizeof b], 'd');
    ck_assert_int_eq(s[n - 2], 'd');
    ck_assert_int_eq(s[n - 1], 'z');
    free(s);
}
END_TEST

START_TEST(out_file_gzip)
{
    const char *p = tu_file("out.gz");
    out_file *f = out_file_open(p, true);
    ck_assert_ptr_null(out_file_stream(f));
    char long_line[2000];
    memset(long_line, 'x', sizeof long_line - 1);
    long_line[sizeof long_line - 1] = '\0';
    out_file_printf(f, "short %s\n", "line");
    out_file_printf(f, "%s\n", long_line);      /* longer than the printf buffer */
    out_file_write(f, "end\n", 4);
    out_file_commit(f);
    gzFile g = gzopen(p, "rb");
    char buf[4096];
    int n = gzread(g, buf, sizeof buf - 1);
    gzclose(g);
    ck_assert_int_eq(n, 11 + 2000 + 4);
    buf[n] = '\0';
    ck_assert(strncmp(buf, "short line\nxxx", 14) == 0);
    ck_assert_str_eq(buf + 11 + 2000, "end\n");
}
END_TEST

typedef struct fatal_out {
    const char *path;
    int how;        /* 0: data error, 1: SIGTERM, 2: usage error */
} fatal_out;

static void fatal_out_job(void *arg)
{
    const fatal_out *j = arg;
    out_file *f = out_file_open(j->path, false);
    out_file_printf(f, "partial output\n");
    fflush(out_file_stream(f));
    if (j->how == 1) raise(SIGTERM);
    if (j->how == 2) diag_usage_error("bad option");
    diag_data_error("input", 80, "record 10: bad");
}

START_TEST(out_file_fatal_leaves_nothing)
{
    const char *dir = tu_file("fatal");
    mkdir(dir, 0755);
    fatal_out j = { tu_file("fatal/new.report"), 0 };
    tu_assert_fatal(fatal_out_job, &j, 2, "dsmtrace: input: 80: record 10: bad\n");
    ck_assert_int_eq(tu_count_entries(dir), 0);

    /* An earlier complete file survives a failed rewrite, by error or signal. */
    j.path = tu_file("fatal/old.report");
    tu_write_str(j.path, "complete\n");
    tu_assert_fatal(fatal_out_job, &j, 2, "dsmtrace: input: 80: record 10: bad\n");
    j.how = 1;
    tu_assert_fatal(fatal_out_job, &j, 128 + SIGTERM, "");
    j.how = 2;
    tu_assert_fatal(fatal_out_job, &j, 1, "dsmtrace: bad option\ndsmtrace: try 'dsmtrace --help'\n");
    ck_assert_int_eq(tu_count_entries(dir), 1);
    char *s = (char *)tu_read(j.path, NULL);
    ck_assert_str_eq(s, "complete\n");
    free(s);
}
END_TEST

static void out_missing_dir_job(void *arg)
{
    out_file_open(arg, false);
}

static void out_stdout_job(void *arg)
{
    (void)arg;
    out_file *f = out_file_open("-", false);
    out_file_printf(f, "to stdout\n");
    out_file_commit(f);
    printf("after\n");
}

START_TEST(out_file_special)
{
    char want[4096];
    const char *p = tu_file("no-dir/x.report");
    snprintf(want, sizeof want, "dsmtrace: %s: cannot create output file: No such file or"
             " directory\n", p);
    tu_assert_fatal(out_missing_dir_job, (void *)p, 2, want);
    /* An existing FIFO or directory is not replaced (nor is /dev/null). */
    const char *fifo = tu_file("a.fifo");
    ck_assert_int_eq(mkfifo(fifo, 0600), 0);
    snprintf(want, sizeof want, "dsmtrace: %s: exists and is not a regular file (a FIFO); it is not replaced\n", fifo);
    tu_assert_fatal(out_missing_dir_job, (void *)fifo, 2, want);
    const char *dir = tu_file("a.dir");
    ck_assert_int_eq(mkdir(dir, 0700), 0);
    snprintf(want, sizeof want, "dsmtrace: %s: exists and is not a regular file (a directory); it is not"
             " replaced\n", dir);
    tu_assert_fatal(out_missing_dir_job, (void *)dir, 2, want);
    tu_assert_fatal(out_missing_dir_job, (void *)"/dev/null", 2,
                    "dsmtrace: /dev/null: exists and is not a regular file (a device); it is not replaced\n");
    char *out, *err;
    ck_assert_int_eq(tu_run(out_stdout_job, NULL, NULL, &out, &err), 100);
    ck_assert_str_eq(out, "to stdout\nafter\n");
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
}
END_TEST

/* ---- diag ---------------------------------------------------------------------------- */

START_TEST(diag_messages)
{
    ck_assert_str_eq(diag_tool(), "dsmtrace");
    diag_set_tool("ciat");
    ck_assert_str_eq(diag_tool(), "ciat");
    tu_capture_begin();
    diag_warn("t.4.0", 16, "record %d: odd", 2);
    diag_warn(NULL, DIAG_NO_OFFSET, "no file");
    diag_warn("f", 0, "offset zero");
    diag_warn("f", UINT64_MAX - 1, "huge");
    char *err = tu_capture_end();
    ck_assert_str_eq(err, "ciat: warning: t.4.0: 16: record 2: odd\n"
                     "ciat: warning: no file\n"
                     "ciat: warning: f: 0: offset zero\n"
                     "ciat: warning: f: 18446744073709551614: huge\n");
    free(err);
    diag_set_tool("dsmtrace");
}
END_TEST

static void diag_fatal_job(void *arg)
{
    diag_set_tool("cdat");
    int which = *(int *)arg;
    if (which == 0) diag_data_error("cfg", DIAG_NO_OFFSET, "line %d: bad key", 3);
    if (which == 1) diag_fatal(3, NULL, DIAG_NO_OFFSET, "internal: %s", "oops");
    diag_usage_error("missing operand");
}

START_TEST(diag_fatal_statuses)
{
    int which = 0;
    tu_assert_fatal(diag_fatal_job, &which, 2, "cdat: cfg: line 3: bad key\n");
    which = 1;
    tu_assert_fatal(diag_fatal_job, &which, 3, "cdat: internal: oops\n");
    which = 2;
    tu_assert_fatal(diag_fatal_job, &which, 1, "cdat: missing operand\ncdat: try 'cdat --help'\n");
}
END_TEST

/* The fuzzing harnesses' trap: messages to a function, fatal errors back
 * through longjmp with their status, unfinished outputs removed first. */
typedef struct test_trap {
    diag_trap t;
    jmp_buf back;
    char log[1024];
    size_t len;
} test_trap;

static void trap_message(diag_trap *t, const char *file, uint64_t offset, bool warning, const char *text)
{
    test_trap *tt = (test_trap *)t;
    tt->len += (size_t)snprintf(tt->log + tt->len, sizeof tt->log - tt->len, "[%s|%s|%" PRIu64 "|%s]",
                                warning ? "warning" : "error", file ? file : "-", offset, text);
}

static void trap_fatal(diag_trap *t, int status)
{
    longjmp(((test_trap *)t)->back, status);
}

START_TEST(diag_trap_returns)
{
    static test_trap tt = { .t = { trap_message, trap_fatal } };
    static const char *out;
    static int step;
    out = tu_file("trapped.report");
    step = 0;
    diag_set_trap(&tt.t);
    tu_capture_begin();
    int status = setjmp(tt.back);
    switch (step++) {
    case 0:
        ck_assert_int_eq(status, 0);
        diag_warn("t.1.0", 8, "record %d: odd", 1);
        out_file_printf(out_file_open(out, false), "partial\n");
        diag_data_error("t.1.0", 16, "record %d: bad", 2);
        break;
    case 1:
        ck_assert_int_eq(status, EXIT_DATA);
        ck_assert(!tu_exists(out));
        diag_usage_error("missing %s", "operand");
        break;
    case 2:
        ck_assert_int_eq(status, EXIT_USAGE);
        xgrow(NULL, SIZE_MAX / 4, SIZE_MAX / 2, 8);
        break;
    case 3:
        ck_assert_int_eq(status, EXIT_INTERNAL);
        break;
    }
    diag_set_trap(NULL);
    char *err = tu_capture_end();
    ck_assert_str_eq(err, "");      /* nothing printed, and no "try --help" */
    free(err);
    ck_assert_int_eq(step, 4);
    ck_assert_str_eq(tt.log, "[warning|t.1.0|8|record 1: odd][error|t.1.0|16|record 2: bad]"
                     "[error|-|18446744073709551615|missing operand]"
                     "[error|-|18446744073709551615|out of memory (allocating 18446744073709551615 bytes)]");
    /* Without the trap, the same errors print and exit as before. */
    int which = 0;
    tu_assert_fatal(diag_fatal_job, &which, 2, "cdat: cfg: line 3: bad key\n");
    diag_set_tool("dsmtrace");
}
END_TEST

static void oom_job(void *arg)
{
    (void)arg;
    diag_set_tool("t");
    xgrow(NULL, SIZE_MAX / 4, SIZE_MAX / 2, 8);
}

START_TEST(allocation_helpers)
{
    int *a = NULL;
    size_t cap = xgrow((void **)&a, 0, 1, sizeof *a);
    ck_assert_uint_eq(cap, 16);
    cap = xgrow((void **)&a, cap, 16, sizeof *a);
    ck_assert_uint_eq(cap, 16);
    cap = xgrow((void **)&a, cap, 17, sizeof *a);
    ck_assert_uint_eq(cap, 32);
    cap = xgrow((void **)&a, cap, 1000, sizeof *a);
    ck_assert_uint_eq(cap, 1024);
    a[1023] = 7;
    free(a);
    char *s = xstrdup("copy");
    ck_assert_str_eq(s, "copy");
    free(s);
    int *z = xcalloc(4, sizeof *z);
    ck_assert_int_eq(z[0] | z[1] | z[2] | z[3], 0);
    free(z);
    free(xmalloc(0));
    free(xrealloc(NULL, 0));
    tu_assert_fatal(oom_job, NULL, 3, "t: out of memory (allocating 18446744073709551615 bytes)\n");
}
END_TEST

Suite *io_suite(void)
{
    Suite *s = suite_create("io");
    TCase *tc = tcase_create("byte_source");
    tcase_add_test(tc, byte_source_chunks);
    tcase_add_test(tc, byte_source_magic_not_name);
    tcase_add_test(tc, byte_source_open_errors);
    tcase_add_test(tc, byte_source_partial_data_before_error);
    tcase_add_test(tc, byte_source_truncated_gzip_any_chunk);
    suite_add_tcase(s, tc);

    tc = tcase_create("line_reader");
    tcase_add_test(tc, lines_plain_and_gzip);
    tcase_add_test(tc, lines_empty_and_long);
    tcase_add_test(tc, lines_errors);
    suite_add_tcase(s, tc);

    tc = tcase_create("out_file");
    tcase_add_test(tc, out_file_commit_and_abort);
    tcase_add_test(tc, out_file_big_chunks_in_order);
    tcase_add_test(tc, out_file_gzip);
    tcase_add_test(tc, out_file_fatal_leaves_nothing);
    tcase_add_test(tc, out_file_special);
    suite_add_tcase(s, tc);

    tc = tcase_create("diag");
    tcase_add_test(tc, diag_messages);
    tcase_add_test(tc, diag_fatal_statuses);
    tcase_add_test(tc, diag_trap_returns);
    tcase_add_test(tc, allocation_helpers);
    suite_add_tcase(s, tc);
    return s;
}
