/* testutil.c — helpers shared by the unit tests (see suites.h). */
#include "suites.h"
#include "../../formats/smait_text.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

char *tu_dir;

const char *tu_file(const char *name)
{
    static char ring[16][4096];
    static unsigned next;
    char *p = ring[next++ % 16];
    snprintf(p, sizeof ring[0], "%s/%s", tu_dir, name);
    return p;
}

void tu_write(const char *path, const void *data, size_t n)
{
    FILE *f = fopen(path, "wb");
    ck_assert_msg(f != NULL, "cannot create %s: %s", path, strerror(errno));
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    ck_assert_int_eq(fclose(f), 0);
}

void tu_write_str(const char *path, const char *text)
{
    tu_write(path, text, strlen(text));
}

void tu_write_gz(const char *path, const void *data, size_t n, const char *mode)
{
    gzFile g = gzopen(path, mode);
    ck_assert_msg(g != NULL, "gzopen %s failed", path);
    if (n) ck_assert_int_eq(gzwrite(g, data, (unsigned)n), (int)n);
    ck_assert_int_eq(gzclose(g), Z_OK);
}

void tu_write_zst(const char *path, const void *data, size_t n, const char *mode)
{
    ZSTD_CCtx *c = ZSTD_createCCtx();
    ck_assert_ptr_nonnull(c);
    ck_assert(!ZSTD_isError(ZSTD_CCtx_setParameter(c, ZSTD_c_checksumFlag, 1)));
    size_t cap = ZSTD_compressBound(n);
    void *buf = malloc(cap);
    size_t k = ZSTD_compress2(c, buf, cap, data, n);
    ck_assert_msg(!ZSTD_isError(k), "zstd: %s", ZSTD_getErrorName(k));
    ZSTD_freeCCtx(c);
    FILE *f = fopen(path, mode);
    ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
    ck_assert_uint_eq(fwrite(buf, 1, k, f), k);
    ck_assert_int_eq(fclose(f), 0);
    free(buf);
}

unsigned char *tu_read(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    ck_assert_msg(f != NULL, "cannot open %s: %s", path, strerror(errno));
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap + 1);
    for (;;) {
        size_t k = fread(buf + len, 1, cap - len, f);
        len += k;
        if (len < cap) break;
        cap *= 2;
        buf = realloc(buf, cap + 1);
    }
    fclose(f);
    buf[len] = '\0';    /* text files can be used as strings */
    if (n) *n = len;
    return buf;
}

bool tu_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

void tu_truncate(const char *path, size_t size)
{
    ck_assert_int_eq(truncate(path, (off_t)size), 0);
}

void tu_rmtree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            char p[4096];
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) {
                chmod(p, 0700);
                tu_rmtree(p);
            } else {
                unlink(p);
            }
        }
        closedir(d);
    }
    rmdir(dir);
}

int tu_count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    ck_assert_msg(d != NULL, "cannot list %s", dir);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* ---- traces ---------------------------------------------------------------- */

void tu_add(tu_recs *t, uint32_t f1, uint32_t f2)
{
    if (t->n == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 64;
        t->r = realloc(t->r, t->cap * sizeof *t->r);
        ck_assert_ptr_nonnull(t->r);
    }
    t->r[t->n].f1 = f1;
    t->r[t->n].f2 = f2;
    t->n++;
}

void tu_add_mem(tu_recs *t, unsigned access, unsigned bytes, unsigned regtype, uint32_t addr)
{
    int code = smait_size_code_of(bytes);
    ck_assert_int_ge(code, 0);
    tu_add(t, smait_mem_f1(access, (unsigned)code, regtype), addr);
}

void tu_add_call(tu_recs *t, unsigned type, uint32_t start, uint32_t end,
                 uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
    uint32_t v[SMAIT_CALL_PARTS] = { start, end, a1, a2, a3, a4 };
    for (unsigned i = 0; i < SMAIT_CALL_PARTS; i++)
        tu_add(t, smait_call_f1(type, i), v[i]);
}

void tu_recs_free(tu_recs *t)
{
    free(t->r);
    memset(t, 0, sizeof *t);
}

unsigned char *tu_bytes(const tu_recs *t, smait_order o)
{
    unsigned char *b = calloc(8 * t->n + 16, 1);    /* room for a few stray bytes */
    for (size_t i = 0; i < t->n; i++)
        smait_store_raw(b + 8 * i, t->r[i], o);
    return b;
}

void tu_write_trace(const char *path, const tu_recs *t, smait_order o)
{
    unsigned char *b = tu_bytes(t, o);
    tu_write(path, b, 8 * t->n);
    free(b);
}

void tu_write_trace_gz(const char *path, const tu_recs *t, smait_order o)
{
    unsigned char *b = tu_bytes(t, o);
    tu_write_gz(path, b, 8 * t->n, "wb");
    free(b);
}

void tu_write_trace_zst(const char *path, const tu_recs *t, smait_order o)
{
    unsigned char *b = tu_bytes(t, o);
    tu_write_zst(path, b, 8 * t->n, "wb");
    free(b);
}

void tu_all_kinds(tu_recs *t)
{
    tu_add_mem(t, SMAIT_LOAD, 4, SMAIT_REG_FIXED, 0x1000);      /* 0 */
    tu_add_mem(t, SMAIT_STORE, 8, SMAIT_REG_FLOAT, 0x2000);     /* 1 */
    tu_add_mem(t, SMAIT_ATOMIC, 4, SMAIT_REG_FIXED, 0x3000);    /* 2 */
    tu_add_mem(t, SMAIT_LOAD, 16, SMAIT_REG_VECTOR, 0x4000);    /* 3 */
    tu_add(t, 0x80004c18, 0x4d20);                              /* 4 branch */
    tu_add(t, 0x40000000, 0x4c00);                              /* 5 proc */
    tu_add(t, 0x40000005, 0x4c00);                              /* 6 proc, low bits */
    tu_add(t, 0xC000542c, 0x5630);                              /* 7 pcall */
    tu_add_call(t, SMAIT_CT_BARRIER, 100, 120, 0x8000, 4, 0, 0);   /* 8..13 */
    tu_add_call(t, SMAIT_CT_SPAWN, 0, 0, 1, 4, 0, 0);              /* 14..19 */
    tu_add_call(t, 0x42, 7, 7, 1, 2, 3, 4);                        /* 20..25 */
    tu_add_call(t, SMAIT_CT_BEGIN_CRITICAL, 200, 200, 0, 0, 0, 0); /* 26..31 */
    tu_add_mem(t, SMAIT_STORE, 0, SMAIT_REG_FIXED, 0x5000);     /* 32 */
    tu_add_mem(t, SMAIT_ATOMIC, 64, SMAIT_REG_VECTOR, 0x6000);  /* 33 */
}

typedef struct strbuf {
    char *s;
    size_t n, cap;
} strbuf;

static void sb_add(strbuf *b, const char *text)
{
    size_t k = strlen(text);
    if (b->n + k + 1 > b->cap) {
        while (b->n + k + 1 > b->cap) b->cap = b->cap ? 2 * b->cap : 256;
        b->s = realloc(b->s, b->cap);
    }
    memcpy(b->s + b->n, text, k + 1);
    b->n += k;
}

static void sb_record(strbuf *b, uint64_t index, const smait_raw *p)
{
    char text[SMAIT_TEXT_MAX], line[SMAIT_TEXT_MAX + 32];
    smait_text_format(p, text, sizeof text);
    snprintf(line, sizeof line, "%llu: %s\n", (unsigned long long)index, text);
    sb_add(b, line);
}

char *tu_dump_recs(const tu_recs *t)
{
    strbuf b = { 0 };
    sb_add(&b, "");
    for (size_t i = 0; i < t->n; i += smait_record_span(t->r[i].f1)) {
        if (smait_classify(t->r[i].f1) == SMAIT_CALL_PART)
            ck_assert_uint_le(i + SMAIT_CALL_PARTS, t->n);
        sb_record(&b, i, &t->r[i]);
    }
    return b.s;
}

char *tu_dump_reader(trace_reader *r)
{
    strbuf b = { 0 };
    sb_add(&b, "");
    const smait_raw *p;
    while ((p = trace_reader_next(r)) != NULL)
        sb_record(&b, trace_reader_index(r), p);
    return b.s;
}

char *tu_dump_path(const char *path, const trace_reader_opts *opts, trace_reader_problems *pr)
{
    trace_reader *r = trace_reader_open(path, opts);
    char *s = tu_dump_reader(r);
    if (pr) *pr = trace_reader_problem_counts(r);
    trace_reader_close(r);
    return s;
}

/* ---- child processes -------------------------------------------------------- */

static char *slurp_and_unlink(const char *path)
{
    char *s = (char *)tu_read(path, NULL);
    unlink(path);
    return s;
}

int tu_run(void (*fn)(void *), void *arg, const char *stdin_path, char **out, char **err)
{
    static unsigned serial;
    char opath[4096], epath[4096];
    snprintf(opath, sizeof opath, "%s/.run-%ld-%u.out", tu_dir, (long)getpid(), serial);
    snprintf(epath, sizeof epath, "%s/.run-%ld-%u.err", tu_dir, (long)getpid(), serial++);
    fflush(NULL);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        int o = open(opath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        int e = open(epath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        if (o < 0 || e < 0) _exit(99);
        if (stdin_path) {
            int i = open(stdin_path, O_RDONLY);
            if (i < 0 || dup2(i, 0) < 0) _exit(98);
            close(i);
        }
        dup2(o, 1);
        dup2(e, 2);
        close(o);
        close(e);
        fn(arg);
        fflush(NULL);
        _exit(100);
    }
    int st;
    while (waitpid(pid, &st, 0) < 0)
        ck_assert_int_eq(errno, EINTR);
    char *o = slurp_and_unlink(opath), *e = slurp_and_unlink(epath);
    if (out) *out = o; else free(o);
    if (err) *err = e; else free(e);
    if (WIFEXITED(st)) return WEXITSTATUS(st);
    return 128 + WTERMSIG(st);
}

static int saved_stderr = -1;
static char capture_path[4096];

void tu_capture_begin(void)
{
    ck_assert_int_eq(saved_stderr, -1);
    snprintf(capture_path, sizeof capture_path, "%s/.capture-%ld", tu_dir, (long)getpid());
    fflush(stderr);
    saved_stderr = dup(2);
    int fd = open(capture_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ck_assert_int_ge(fd, 0);
    dup2(fd, 2);
    close(fd);
}

char *tu_capture_end(void)
{
    fflush(stderr);
    dup2(saved_stderr, 2);
    close(saved_stderr);
    saved_stderr = -1;
    return slurp_and_unlink(capture_path);
}
