/* test_io.c — base/byte_source, line_reader and diag, common/out_file: the plumbing
 * under the trace reader and the tools (formats/SMAIT.md §11; all-or-nothing
 * outputs: docs/trace-sets.md §6; messages: README.md "Exit status and
 * messages"). */
#include "suites.h"
#include "../../base/byte_source.h"
#include "../../base/line_reader.h"
#include "../../common/out_file.h"
#include "../../base/diag.h"
#include "../../formats/memusage.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

/* ---- byte_source ---------------------------------------------------------------- */

static unsigned char *read_source_format(const char *path, size_t chunk, size_t *n, bool *gz,
                                         const char **format);

/* Read all of path in chunks of `chunk` bytes; returns the bytes (caller frees). */
static unsigned char *read_source(const char *path, size_t chunk, size_t *n, bool *gz)
{
    return read_source_format(path, chunk, n, gz, NULL);
}

/* The same, also giving the format (NULL: plain). */
static unsigned char *read_source_format(const char *path, size_t chunk, size_t *n, bool *gz,
                                         const char **format)
{
    const char *why = NULL;
    byte_source *s = byte_source_open(path, &why);
    ck_assert_msg(s != NULL, "%s: %s", path, why);
    if (gz) *gz = byte_source_compressed(s);
    if (format) *format = byte_source_format(s);
    size_t cap = 1 << 16, len = 0;
    unsigned char *buf = malloc(cap);
    for (;;) {
        while (len + chunk > cap) buf = realloc(buf, cap *= 2);
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


/* A 9 MiB plain file read in chunks of odd sizes (up to 4 MiB a call): the
 * same bytes, all consumed. */
START_TEST(byte_source_large_plain)
{
    size_t size = (9u << 20) + 5;
    unsigned char *data = malloc(size);
    for (size_t i = 0; i < size; i++) data[i] = (unsigned char)(i * 13 + (i >> 12));
    const char *p = tu_file("big");
    tu_write(p, data, size);
    const size_t chunks[] = { (3u << 20) + 1, 65536 + 3, 4u << 20 };
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        size_t n;
        unsigned char *got = read_source(p, chunks[c], &n, NULL);
        ck_assert_uint_eq(n, size);
        ck_assert(memcmp(got, data, size) == 0);
        free(got);
    }
    free(data);
}
END_TEST

/* Reads a plain file on after cutting it to zero bytes, as another process
 * truncating a trace would: the file ends before the size it had at open. */
static void shrinking_file_job(void *arg)
{
    const char *p = arg;
    const char *why = NULL;
    byte_source *s = byte_source_open(p, &why);
    unsigned char buf[4096];
    if (!s || byte_source_read(s, buf, sizeof buf, &why) != (long)sizeof buf) exit(90);
    if (truncate(p, 0) != 0) exit(91);
    for (;;)
        if (byte_source_read(s, buf, sizeof buf, &why) <= 0) exit(92);   /* not reached: the short read stops the run */
}

START_TEST(byte_source_file_shrinks)
{
    size_t size = 1u << 20;
    unsigned char *data = calloc(1, size);
    const char *p = tu_file("shrinks");
    tu_write(p, data, size);
    free(data);
    char want[4200];
    snprintf(want, sizeof want, "dsmtrace: %s: 4096: the file shrank while it was read (another process"
             " truncated it)\n", p);
    tu_assert_fatal(shrinking_file_job, (void *)p, 2, want);
}
END_TEST

START_TEST(byte_source_chunks)
{
    unsigned char data[3000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)(i * 7 + (i >> 8));
    const size_t sizes[] = { 0, 1, 2, 3, 4, 5, 9, 3000 };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        for (int codec = 0; codec < 3; codec++) {     /* plain, gzip, zstd */
            const char *p = tu_file("bytes");
            if (codec == 1) tu_write_gz(p, data, sizes[k], "wb");
            else if (codec == 2) tu_write_zst(p, data, sizes[k], "wb");
            else tu_write(p, data, sizes[k]);
            for (size_t chunk = 1; chunk <= 9; chunk += 2) {
                size_t n;
                bool compressed;
                const char *format;
                unsigned char *got = read_source_format(p, chunk, &n, &compressed, &format);
                ck_assert_uint_eq(n, sizes[k]);
                ck_assert(!memcmp(got, data, n));
                ck_assert_int_eq(compressed, codec != 0);
                if (codec) ck_assert_str_eq(format, codec == 1 ? "gzip" : "zstd");
                else ck_assert_ptr_null(format);
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
    /* Three bytes of the zstd magic, or the magic later in the file, are plain too. */
    tu_write(p, "\x28\xb5\x2f", 3);
    got = read_source(p, 4, &n, &gz);
    ck_assert(!gz);
    ck_assert_uint_eq(n, 3);
    free(got);
    tu_write(p, "a\x28\xb5\x2f\xfd", 5);
    got = read_source(p, 2, &n, &gz);
    ck_assert(!gz);
    ck_assert_uint_eq(n, 5);
    free(got);
}
END_TEST

/* Zstd: frames one after another are one stream; skippable frames (magic
 * 0x184D2A50..5F) before, between and after them give nothing; the input
 * buffer (128 KiB) is refilled in the middle of a frame. */
static void write_skippable(const char *path, unsigned char low, size_t len)
{
    FILE *f = fopen(path, "ab");
    ck_assert_ptr_nonnull(f);
    unsigned char h[8] = { low, 0x2a, 0x4d, 0x18, (unsigned char)len, (unsigned char)(len >> 8), 0, 0 };
    ck_assert_uint_eq(fwrite(h, 1, 8, f), 8);
    for (size_t i = 0; i < len; i++) fputc('s', f);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(byte_source_zstd_frames)
{
    enum { BIG = 600000 };
    unsigned char *data = malloc(BIG);
    uint32_t x = 12345;
    for (size_t i = 0; i < BIG; i++) {      /* barely compressible: many input refills */
        x = x * 1103515245u + 12345u;
        data[i] = (unsigned char)(x >> 24);
    }
    const char *p = tu_file("frames.zst");
    tu_write(p, "", 0);
    write_skippable(p, 0x50, 0);
    tu_write_zst(p, data, 10, "ab");
    write_skippable(p, 0x5f, 300);
    tu_write_zst(p, data + 10, 0, "ab");                 /* an empty frame */
    tu_write_zst(p, data + 10, BIG - 10 - 7, "ab");
    tu_write_zst(p, data + BIG - 7, 7, "ab");
    write_skippable(p, 0x5a, 5);
    static const size_t chunks[] = { 7, 4096, 1 << 20 };
    for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
        size_t n;
        const char *format;
        unsigned char *got = read_source_format(p, chunks[c], &n, NULL, &format);
        ck_assert_str_eq(format, "zstd");
        ck_assert_uint_eq(n, BIG);
        ck_assert(!memcmp(got, data, BIG));
        free(got);
    }
    /* Only a skippable frame: an empty stream. */
    p = tu_file("skip-only.zst");
    tu_write(p, "", 0);
    write_skippable(p, 0x53, 4);
    size_t n;
    unsigned char *got = read_source(p, 4, &n, NULL);
    ck_assert_uint_eq(n, 0);
    free(got);
    free(data);
}
END_TEST

START_TEST(byte_source_open_errors)
{
    const char *why = NULL;
    ck_assert_ptr_null(byte_source_open(tu_file("missing"), &why));
    ck_assert_str_eq(why, "No such file or directory");
    ck_assert_ptr_null(byte_source_open(tu_dir, &why));
    ck_assert_str_eq(why, "is a directory");
    byte_source_close(NULL);
}
END_TEST

START_TEST(byte_source_partial_data_before_error)
{
    /* A truncated stream hands out everything it could decompress before it
     * reports the error, so the offset of the damage is known. */
    unsigned char data[1000];
    for (size_t i = 0; i < sizeof data; i++) data[i] = (unsigned char)i;
    for (int zst = 0; zst < 2; zst++) {
        const char *p = tu_file(zst ? "partial.zst" : "partial.gz");
        if (zst) tu_write_zst(p, data, sizeof data, "wb");
        else tu_write_gz(p, data, sizeof data, "wb");
        size_t n;
        unsigned char *b = tu_read(p, &n);
        tu_write(p, b, n - 4);      /* gzip: the size field; zstd: the checksum */
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

START_TEST(lines_plain_gzip_zstd)
{
    const char *text = "first\nsecond\r\n\n  spaced  \nlast without newline";
    const char *want[] = { "first", "second", "", "  spaced  ", "last without newline" };
    for (int codec = 0; codec < 3; codec++) {     /* plain, gzip, zstd */
        const char *p = tu_file("lines.txt");
        if (codec == 1) tu_write_gz(p, text, strlen(text), "wb");
        else if (codec == 2) tu_write_zst(p, text, strlen(text), "wb");
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

    p = tu_file("bad.txt.zst");
    tu_write_zst(p, "one\ntwo\n", 8, "wb");
    b = tu_read(p, &n);
    b[n - 1] ^= 0xff;           /* the content checksum */
    tu_write(p, b, n);
    free(b);
    /* zstd checks a frame's checksum before it hands out the frame's last
     * block, so here no line comes out before the error. */
    snprintf(want, sizeof want, "dsmtrace: %s: line 1: Restored data doesn't match checksum\n", p);
    tu_assert_fatal(line_read_all_job, (void *)p, 2, want);

    /* a NUL byte in line 2 (not the last line, and in a last line without
     * a line end): named, not a line silently cut short */
    p = tu_file("nul.txt");
    tu_write(p, "one\ntw\0o\nthree\n", 15);
    snprintf(want, sizeof want, "dsmtrace: %s: line 2: a NUL byte (not a text file?)\n", p);
    tu_assert_fatal(line_read_all_job, (void *)p, 2, want);
    tu_write(p, "one\ntwo\0", 8);
    tu_assert_fatal(line_read_all_job, (void *)p, 2, want);
}
END_TEST

/* line_reader_set_max: lines of max characters pass (a CR of a CR LF does not
 * count), one more is an error naming the line, also across read chunks and
 * in a last line without a line end. */
typedef struct max_job_arg {
    const char *path;
    size_t max;
} max_job_arg;

static void line_read_max_job(void *arg)
{
    const max_job_arg *a = arg;
    line_reader *r = line_reader_open(a->path);
    line_reader_set_max(r, a->max);
    while (line_reader_next(r, NULL)) {}
    line_reader_close(r);
}

START_TEST(lines_max)
{
    char text[512], want[4096];
    const char *p = tu_file("max.txt");
    memset(text, 'x', sizeof text);
    memcpy(text + 100, "\n", 1);
    memcpy(text + 201, "\r\n", 2);
    memcpy(text + 305, "\n", 1);
    text[306] = '\0';
    tu_write_str(p, text);              /* lines of 100, 100 (+ CR) and 102 */
    line_reader *r = line_reader_open(p);
    line_reader_set_max(r, 100);
    size_t len;
    ck_assert(line_reader_next(r, &len) && len == 100);
    ck_assert(line_reader_next(r, &len) && len == 100);
    line_reader_close(r);
    max_job_arg a = { p, 100 };
    snprintf(want, sizeof want, "dsmtrace: %s: line 3: longer than 100 characters\n", p);
    tu_assert_fatal(line_read_max_job, &a, 2, want);
    a.max = 101;
    snprintf(want, sizeof want, "dsmtrace: %s: line 3: longer than 101 characters\n", p);
    tu_assert_fatal(line_read_max_job, &a, 2, want);
    a.max = 102;
    ck_assert_int_eq(tu_run(line_read_max_job, &a, NULL, NULL, NULL), 100);

    /* The last line, without a line end: 101 characters. */
    text[100] = '\0';
    tu_write_str(p, "ok\n");
    FILE *f = fopen(p, "a");
    fputs(text, f);
    fputs("y", f);
    fclose(f);
    a.max = 100;
    snprintf(want, sizeof want, "dsmtrace: %s: line 2: longer than 100 characters\n", p);
    tu_assert_fatal(line_read_max_job, &a, 2, want);

    /* Across the 64 KiB read chunks: 65536 characters and a CR LF pass, 65537 do not. */
    size_t big = 65536;
    char *t = malloc(2 * big + 16);
    memset(t, 'a', 2 * big + 16);
    memcpy(t + big, "\r\n", 2);
    memcpy(t + 2 * big + 3, "\n", 2);
    tu_write_str(p, t);
    a.max = big;
    snprintf(want, sizeof want, "dsmtrace: %s: line 2: longer than 65536 characters\n", p);
    tu_assert_fatal(line_read_max_job, &a, 2, want);
    a.max = big + 1;
    ck_assert_int_eq(tu_run(line_read_max_job, &a, NULL, NULL, NULL), 100);
    free(t);
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

/* zstd: printf (short and long), write (small and big), read back by
 * byte_source; a run that dies leaves no .zst behind. */
static void zstd_dies_job(void *arg)
{
    out_file *f = out_file_open_format(arg, OUT_ZSTD);
    out_file_printf(f, "partial output\n");
    diag_data_error("input", 80, "record 10: bad");
}

START_TEST(out_file_zstd)
{
    const char *p = tu_file("out.zst");
    out_file *f = out_file_open_format(p, OUT_ZSTD);
    ck_assert_ptr_null(out_file_stream(f));
    char long_line[2000];
    memset(long_line, 'x', sizeof long_line - 1);
    long_line[sizeof long_line - 1] = '\0';
    enum { BIG = 300000 };
    char *big = malloc(BIG);
    for (size_t i = 0; i < BIG; i++) big[i] = (char)('a' + (i * 7919 % 26));
    out_file_printf(f, "short %s\n", "line");
    out_file_printf(f, "%s\n", long_line);      /* longer than the printf buffer */
    out_file_write(f, big, BIG);                /* more than zstd's output buffer */
    out_file_write(f, "end\n", 4);
    out_file_commit(f);
    size_t n;
    bool compressed;
    const char *format;
    unsigned char *got = read_source_format(p, 4096, &n, &compressed, &format);
    ck_assert_str_eq(format, "zstd");
    ck_assert_uint_eq(n, 11 + 2000 + BIG + 4);
    ck_assert(strncmp((char *)got, "short line\nxxx", 14) == 0);
    ck_assert(memcmp(got + 11 + 2000, big, BIG) == 0);
    ck_assert(memcmp(got + 11 + 2000 + BIG, "end\n", 4) == 0);
    free(got);
    free(big);
    /* Nothing written: an empty frame, an empty stream. */
    p = tu_file("empty.zst");
    out_file_commit(out_file_open_format(p, OUT_ZSTD));
    got = read_source_format(p, 16, &n, &compressed, &format);
    ck_assert_str_eq(format, "zstd");
    ck_assert_uint_eq(n, 0);
    free(got);

    p = tu_file("dies.zst");
    ck_assert_int_eq(tu_run(zstd_dies_job, (void *)p, NULL, NULL, NULL), 2);
    ck_assert(!tu_exists(p));
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

/* ---- the commit of a run's outputs ------------------------------------------------ */

/* Entries of dir whose name holds ".tmp." (temporaries and their backups). */
static int count_temps(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) n += strstr(e->d_name, ".tmp.") != NULL;
    closedir(d);
    return n;
}

/* The one temporary in dir (the first found); caller frees. */
static char *find_temp(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_ptr_nonnull(d);
    char *found = NULL;
    struct dirent *e;
    while (!found && (e = readdir(d)) != NULL)
        if (strstr(e->d_name, ".tmp.")) {
            found = malloc(strlen(dir) + strlen(e->d_name) + 2);
            sprintf(found, "%s/%s", dir, e->d_name);
        }
    closedir(d);
    ck_assert_msg(found != NULL, "no temporary in %s", dir);
    return found;
}

static void assert_text(const char *path, const char *want)
{
    char *s = (char *)tu_read(path, NULL);
    ck_assert_str_eq(s, want);
    free(s);
}

/* A run with several outputs, in a child: each path gets its text; then the
 * commit of them all. */
typedef struct commit_job {
    const char *paths[4];
    const char *texts[4];
    const char *block;      /* made a directory after the opens: its rename fails */
    long fsize;             /* > 0: the file size limit (SIGXFSZ ignored), as a full disk */
    bool held;              /* standard output held: "frequencies\n" */
    const char *before;     /* printed to standard output before the run */
    bool stdout_full;       /* standard output is /dev/full */
    bool stderr_joined;     /* standard error shares standard output's file (2>&1) */
} commit_job;

static void commit_job_run(void *arg)
{
    const commit_job *j = arg;
    if (j->stdout_full) {
        int fd = open("/dev/full", O_WRONLY);
        if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0) _exit(97);
        close(fd);
    }
    if (j->stderr_joined && dup2(STDOUT_FILENO, STDERR_FILENO) < 0) _exit(94);
    if (j->before) {
        printf("%s", j->before);
        fflush(stdout);
    }
    out_file *h = j->held ? out_file_open_stdout() : NULL;
    for (int i = 0; j->paths[i]; i++) {
        out_file *f = out_file_open(j->paths[i], false);
        out_file_printf(f, "%s", j->texts[i]);
    }
    if (h) out_file_printf(h, "frequencies\n");
    if (j->block && mkdir(j->block, 0700) != 0) _exit(96);
    if (j->fsize) {
        signal(SIGXFSZ, SIG_IGN);
        struct rlimit rl = { (rlim_t)j->fsize, (rlim_t)j->fsize };
        if (setrlimit(RLIMIT_FSIZE, &rl) != 0) _exit(95);
    }
    out_file_commit_all();
}

static char big_text[20000];

static const char *fresh(const char *name)
{
    const char *d = tu_file(name);
    tu_rmtree(d);
    ck_assert_int_eq(mkdir(d, 0700), 0);
    return d;
}

START_TEST(commit_all_success)
{
    const char *dir = fresh("commit-ok");
    char a[4096], n[4096];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(n, sizeof n, "%s/n", dir);
    tu_write_str(a, "earlier a\n");
    commit_job j = { { a, n }, { "new a\n", "new n\n" }, .held = true, .before = "before\n" };
    char *out, *err;
    ck_assert_int_eq(tu_run(commit_job_run, &j, NULL, &out, &err), 100);
    ck_assert_str_eq(err, "");
    ck_assert_str_eq(out, "before\nfrequencies\n");
    free(out);
    free(err);
    assert_text(a, "new a\n");
    assert_text(n, "new n\n");
    ck_assert_int_eq(tu_count_entries(dir), 2);     /* no temporary, no backup */
}
END_TEST

/* A rename that fails after others succeeded: the earlier file comes back,
 * the new one goes, no temporary or backup stays. */
START_TEST(commit_all_rename_fails)
{
    const char *dir = fresh("commit-rename");
    char a[4096], n[4096], c[4096], want[8192];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(n, sizeof n, "%s/n", dir);
    snprintf(c, sizeof c, "%s/c", dir);
    tu_write_str(a, "earlier a\n");
    commit_job j = { { a, n, c }, { "new a\n", "new n\n", "new c\n" }, .block = c };
    snprintf(want, sizeof want, "dsmtrace: %s: cannot rename output into place: Is a directory\n", c);
    tu_assert_fatal(commit_job_run, &j, 2, want);
    assert_text(a, "earlier a\n");
    ck_assert(!tu_exists(n));
    ck_assert_int_eq(count_temps(dir), 0);
    ck_assert_int_eq(tu_count_entries(dir), 2);     /* a and the directory c */

    /* Standard output, a regular file, is cut back to what it held before. */
    tu_rmtree(c);
    j.held = true;
    j.before = "earlier line\n";
    char *out, *err;
    ck_assert_int_eq(tu_run(commit_job_run, &j, NULL, &out, &err), 2);
    ck_assert_str_eq(err, want);
    ck_assert_str_eq(out, "earlier line\n");
    free(out);
    free(err);
    assert_text(a, "earlier a\n");
    ck_assert(!tu_exists(n));
    ck_assert_int_eq(count_temps(dir), 0);

    /* With 2>&1, the message follows the earlier text (no gap where the cut
     * text was). */
    tu_rmtree(c);
    j.stderr_joined = true;
    ck_assert_int_eq(tu_run(commit_job_run, &j, NULL, &out, &err), 2);
    char joined[8300];
    snprintf(joined, sizeof joined, "earlier line\n%s", want);
    ck_assert_str_eq(out, joined);
    ck_assert_str_eq(err, "");
    free(out);
    free(err);
}
END_TEST

/* A write that fails at the commit (a full disk; here the file size limit):
 * whichever file it is, no earlier output is replaced. */
START_TEST(commit_all_write_fails)
{
    memset(big_text, 'x', sizeof big_text - 1);
    const char *dir = fresh("commit-full");
    char a[4096], b[4096], want[8192];
    snprintf(a, sizeof a, "%s/a", dir);
    snprintf(b, sizeof b, "%s/b", dir);
    tu_write_str(a, "earlier a\n");
    tu_write_str(b, "earlier b\n");
    snprintf(want, sizeof want, "dsmtrace: %s: write failed: File too large\n", b);
    commit_job last = { { a, b }, { "new a\n", big_text }, .fsize = 8192, .held = true };
    char *out, *err;
    ck_assert_int_eq(tu_run(commit_job_run, &last, NULL, &out, &err), 2);
    ck_assert_str_eq(err, want);
    ck_assert_str_eq(out, "");                      /* no frequency output either */
    free(out);
    free(err);
    commit_job first = { { b, a }, { big_text, "new a\n" }, .fsize = 8192 };
    tu_assert_fatal(commit_job_run, &first, 2, want);
    assert_text(a, "earlier a\n");
    assert_text(b, "earlier b\n");
    ck_assert_int_eq(tu_count_entries(dir), 2);
}
END_TEST

/* Standard output that is a regular file is written before the renames: when
 * it fails (here the file size limit, 2 bytes short), the files are not
 * replaced and the partial text is cut off again. */
START_TEST(commit_all_stdout_file_fails)
{
    static char before[8191];
    memset(before, 'y', sizeof before - 1);
    before[sizeof before - 2] = '\n';
    const char *dir = fresh("commit-stdout");
    char a[4096];
    snprintf(a, sizeof a, "%s/a", dir);
    tu_write_str(a, "earlier a\n");
    commit_job j = { { a }, { "new a\n" }, .fsize = 8192, .held = true, .before = before };
    char *out, *err;
    ck_assert_int_eq(tu_run(commit_job_run, &j, NULL, &out, &err), 2);
    ck_assert_str_eq(err, "dsmtrace: standard output: write failed: File too large\n");
    ck_assert_str_eq(out, before);
    free(out);
    free(err);
    assert_text(a, "earlier a\n");
    ck_assert_int_eq(tu_count_entries(dir), 1);
}
END_TEST

/* Standard output that cannot be cut back (here /dev/full) is written after
 * the files are in place: a failure there is reported, exit 2. */
START_TEST(commit_all_stdout_not_a_file)
{
    const char *dir = fresh("commit-devfull");
    char a[4096];
    snprintf(a, sizeof a, "%s/a", dir);
    commit_job j = { { a }, { "new a\n" }, .held = true, .stdout_full = true };
    tu_assert_fatal(commit_job_run, &j, 2, "dsmtrace: standard output: write failed: No space left on device\n");
    assert_text(a, "new a\n");
    ck_assert_int_eq(tu_count_entries(dir), 1);
}
END_TEST

/* Outputs get a real 128 KiB stdio buffer: 100 KiB of small writes reach the
 * file only at the commit. */
START_TEST(out_file_buffer)
{
    const char *dir = fresh("buffer");
    char p[4096];
    snprintf(p, sizeof p, "%s/x", dir);
    out_file *f = out_file_open(p, false);
    for (int i = 0; i < 1024; i++) out_file_printf(f, "%099d\n", i);
    char *tmp = find_temp(dir);
    struct stat st;
    ck_assert_int_eq(stat(tmp, &st), 0);
    ck_assert_int_eq(st.st_size, 0);
    free(tmp);
    out_file_commit(f);
    ck_assert_int_eq(stat(p, &st), 0);
    ck_assert_int_eq(st.st_size, 1024 * 100);
}
END_TEST

static void killed_job(void *arg)
{
    out_file *f = out_file_open(arg, false);
    out_file_printf(f, "partial\n");
    raise(SIGKILL);
}

/* A run killed outright leaves its temporary; the next open into that
 * directory removes it (and its backup), but neither the temporary of a run
 * that is still alive nor a file of another host or program. */
START_TEST(stale_temporaries)
{
    const char *dir = fresh("stale");
    char x[4096], y[4096], z[4096], other[4096], plain[4096];
    snprintf(x, sizeof x, "%s/x.report", dir);
    snprintf(y, sizeof y, "%s/y.report", dir);
    snprintf(z, sizeof z, "%s/z.report", dir);

    /* A live run that has opened its output and waits. */
    int go[2], ready[2];
    ck_assert_int_eq(pipe(go), 0);
    ck_assert_int_eq(pipe(ready), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        out_file *f = out_file_open(y, false);
        out_file_printf(f, "live\n");
        char c = 1;
        if (write(ready[1], &c, 1) != 1 || read(go[0], &c, 1) != 1) _exit(90);
        out_file_commit(f);
        _exit(0);
    }
    char c;
    ck_assert_int_eq(read(ready[0], &c, 1), 1);
    char *live = find_temp(dir);

    /* A run killed with its output open, a backup of the kind a commit
     * makes, another host's temporary (its tag is not hex) and a file that
     * only looks alike. */
    ck_assert_int_eq(tu_run(killed_job, x, NULL, NULL, NULL), 128 + SIGKILL);
    ck_assert_int_eq(count_temps(dir), 2);
    char stale[4200], backup[4300];
    DIR *d = opendir(dir);
    struct dirent *e;
    stale[0] = '\0';
    while ((e = readdir(d)) != NULL)
        if (strncmp(e->d_name, "x.report.tmp.", 13) == 0) snprintf(stale, sizeof stale, "%s/%s", dir, e->d_name);
    closedir(d);
    ck_assert_msg(stale[0], "the killed run left no temporary");
    snprintf(backup, sizeof backup, "%s.old", stale);
    ck_assert_int_eq(link(stale, backup), 0);
    snprintf(other, sizeof other, "%s/w.tmp.%ld.zzzzzzzz.abcdef", dir, (long)INT32_MAX);
    tu_write_str(other, "");
    snprintf(plain, sizeof plain, "%s/notes.tmp.txt", dir);
    tu_write_str(plain, "");
    ck_assert_int_eq(count_temps(dir), 5);

    out_file *f = out_file_open(z, false);
    ck_assert(!tu_exists(stale));
    ck_assert(!tu_exists(backup));
    ck_assert(tu_exists(live));
    ck_assert(tu_exists(other));
    ck_assert(tu_exists(plain));
    ck_assert_int_eq(count_temps(dir), 4);          /* live, other, plain, z's own */
    ck_assert_int_eq(write(go[1], &c, 1), 1);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_text(y, "live\n");
    out_file_abort(f);
    free(live);
}
END_TEST

/* The renames wait for the lock on the directory: while another process
 * holds it, a commit does not change the directory. */
static bool lock_waiter(ino_t ino)
{
    FILE *f = fopen("/proc/locks", "r");
    if (!f) return false;
    char line[512], want[64];
    snprintf(want, sizeof want, ":%lu ", (unsigned long)ino);
    bool found = false;
    while (!found && fgets(line, sizeof line, f)) found = strstr(line, "->") && strstr(line, want);
    fclose(f);
    return found;
}

START_TEST(commit_waits_for_the_directory_lock)
{
    ck_assert_msg(access("/proc/locks", R_OK) == 0, "this test needs /proc/locks");
    const char *dir = fresh("locked");
    char p[4096];
    snprintf(p, sizeof p, "%s/out", dir);
    int dfd = open(dir, O_RDONLY | O_DIRECTORY);
    ck_assert_int_ge(dfd, 0);
    struct stat dst;
    ck_assert_int_eq(fstat(dfd, &dst), 0);
    ck_assert_int_eq(flock(dfd, LOCK_EX), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(dfd);
        out_file *f = out_file_open(p, false);
        out_file_printf(f, "done\n");
        out_file_commit_all();
        _exit(0);
    }
    bool waiting = false;
    for (int i = 0; i < 300 && !waiting; i++) {     /* up to 3 s for the child to get there */
        waiting = lock_waiter(dst.st_ino);
        if (!waiting) nanosleep(&(struct timespec){ 0, 10000000 }, NULL);
    }
    ck_assert_msg(waiting, "the commit did not wait for the directory lock");
    ck_assert(!tu_exists(p));
    close(dfd);
    int st;
    ck_assert_int_eq(waitpid(pid, &st, 0), pid);
    ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
    assert_text(p, "done\n");
}
END_TEST

/* ---- memusage (the reader's line numbers) ------------------------------------------ */

static const char mu_head[] = "# dsmtrace memory usage\n# page_size 4096\n";

/* memusage_read on text (n bytes): its message, or "ok" (static buffer). */
static const char *mu_read(const char *text, size_t n)
{
    static char why[256];
    const char *p = tu_file("x.memory");
    tu_write(p, text, n);
    memusage m;
    if (!memusage_read(p, &m, why, sizeof why)) return why;
    memusage_free(&m);
    return "ok";
}

START_TEST(memusage_line_numbers)
{
    char text[4096];
    size_t n = (size_t)snprintf(text, sizeof text, "%s0 4 0 4 2 0 2 0 -1\n1 4 4 4 0 2 0 2 -1\n", mu_head);
    ck_assert_str_eq(mu_read(text, n), "ok");

    /* A NUL byte, in a short line and in one longer than the reader's
     * buffer (fgets ended the string at the NUL and took the rest of the
     * line for line 5). */
    n = (size_t)snprintf(text, sizeof text, "%s0 4 0 4 2 0 2 0 -1", mu_head);
    text[n++] = '\0';
    n += (size_t)snprintf(text + n, sizeof text - n, " junk\n");
    ck_assert_str_eq(mu_read(text, n), "line 3: a NUL byte (not a text file?)");
    n = (size_t)snprintf(text, sizeof text, "%s# comment\n0 4 0 4 2 0 2 0 -1", mu_head);
    text[n++] = '\0';
    memset(text + n, 'x', 1100);
    n += 1100;
    n += (size_t)snprintf(text + n, sizeof text - n, "\n1 4 4 4 0 2 0 2 -1\n");
    ck_assert_str_eq(mu_read(text, n), "line 4: a NUL byte (not a text file?)");

    /* Too long: 1023 bytes are a line, 1024 are not; a later error keeps
     * its number. */
    n = (size_t)snprintf(text, sizeof text, "%s#", mu_head);
    memset(text + n, ' ', 1022);
    n += 1022;
    n += (size_t)snprintf(text + n, sizeof text - n, "\n0 4 0 4 2 0 2 0 -1\nx\n");
    ck_assert_str_eq(mu_read(text, n), "line 5: field 1 is not a number");
    n = (size_t)snprintf(text, sizeof text, "%s#", mu_head);
    memset(text + n, ' ', 1023);
    n += 1023;
    n += (size_t)snprintf(text + n, sizeof text - n, "\n");
    ck_assert_str_eq(mu_read(text, n), "line 3: line too long (more than 1023 bytes)");

    /* No newline at the end, CR LF. */
    n = (size_t)snprintf(text, sizeof text, "%s0 4 0 4 2 0 2 0 -1\r\n1 4 4 4 0 2 0 2 0", mu_head);
    ck_assert_str_eq(mu_read(text, n), "ok");
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

/* Cleanup hooks: each registered once, run in order after the message, told
 * whether the process ends (no trap) or a trap unwinds the run. */
static void hook_a(diag_cleanup how) { fprintf(stderr, "a: %s\n", how == DIAG_CLEANUP_EXIT ? "exit" : "unwind"); }
static void hook_b(diag_cleanup how) { fprintf(stderr, "b: %s\n", how == DIAG_CLEANUP_EXIT ? "exit" : "unwind"); }

static void hooks_job(void *arg)
{
    diag_set_tool("cdat");
    diag_on_fatal(hook_a);
    diag_on_fatal(hook_b);
    diag_on_fatal(hook_a);
    if (*(int *)arg) {
        static test_trap tt = { .t = { trap_message, trap_fatal } };
        diag_set_trap(&tt.t);
        if (setjmp(tt.back) == 0) diag_data_error("f", DIAG_NO_OFFSET, "bad");
        diag_set_trap(NULL);
        fprintf(stderr, "back: %s\n", tt.log);
        return;
    }
    diag_data_error("f", DIAG_NO_OFFSET, "bad");
}

START_TEST(diag_cleanup_hooks)
{
    int trapped = 0;
    tu_assert_fatal(hooks_job, &trapped, 2, "cdat: f: bad\na: exit\nb: exit\n");
    trapped = 1;      /* 100: the job returned (tu_run) */
    tu_assert_fatal(hooks_job, &trapped, 100, "a: unwind\nb: unwind\nback: [error|f|18446744073709551615|bad]\n");
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
    tcase_add_test(tc, byte_source_large_plain);
    tcase_add_test(tc, byte_source_file_shrinks);
    tcase_add_test(tc, byte_source_zstd_frames);
    tcase_add_test(tc, byte_source_magic_not_name);
    tcase_add_test(tc, byte_source_open_errors);
    tcase_add_test(tc, byte_source_partial_data_before_error);
    tcase_add_test(tc, byte_source_truncated_gzip_any_chunk);
    suite_add_tcase(s, tc);

    tc = tcase_create("line_reader");
    tcase_add_test(tc, lines_plain_gzip_zstd);
    tcase_add_test(tc, lines_empty_and_long);
    tcase_add_test(tc, lines_errors);
    tcase_add_test(tc, lines_max);
    suite_add_tcase(s, tc);

    tc = tcase_create("out_file");
    tcase_add_test(tc, out_file_commit_and_abort);
    tcase_add_test(tc, out_file_big_chunks_in_order);
    tcase_add_test(tc, out_file_gzip);
    tcase_add_test(tc, out_file_zstd);
    tcase_add_test(tc, out_file_fatal_leaves_nothing);
    tcase_add_test(tc, out_file_special);
    tcase_add_test(tc, out_file_buffer);
    suite_add_tcase(s, tc);

    tc = tcase_create("commit");
    tcase_add_test(tc, commit_all_success);
    tcase_add_test(tc, commit_all_rename_fails);
    tcase_add_test(tc, commit_all_write_fails);
    tcase_add_test(tc, commit_all_stdout_file_fails);
    tcase_add_test(tc, commit_all_stdout_not_a_file);
    tcase_add_test(tc, stale_temporaries);
    tcase_add_test(tc, commit_waits_for_the_directory_lock);
    suite_add_tcase(s, tc);

    tc = tcase_create("memusage");
    tcase_add_test(tc, memusage_line_numbers);
    suite_add_tcase(s, tc);

    tc = tcase_create("diag");
    tcase_add_test(tc, diag_messages);
    tcase_add_test(tc, diag_fatal_statuses);
    tcase_add_test(tc, diag_trap_returns);
    tcase_add_test(tc, diag_cleanup_hooks);
    tcase_add_test(tc, allocation_helpers);
    suite_add_tcase(s, tc);
    return s;
}
