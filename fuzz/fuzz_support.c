/* fuzz_support.c — scratch files, trapped runs and their clean-up (fuzz_support.h). */
#include "fuzz_support.h"
#include "../base/diag.h"
#include "../common/out_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sanitizer/allocator_interface.h>

/* ---- scratch directory ---------------------------------------------------------- */

static char scratch[4096];

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (d) {
        struct dirent *e;
        char p[8192];
        while ((e = readdir(d)) != NULL) {
            if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
            snprintf(p, sizeof p, "%s/%s", dir, e->d_name);
            struct stat st;
            if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode)) remove_tree(p);
            else unlink(p);
        }
        closedir(d);
    }
    rmdir(dir);
}

static void remove_scratch(void)
{
    if (scratch[0]) remove_tree(scratch);
}

const char *fz_dir(void)
{
    if (scratch[0]) return scratch;
    const char *base = getenv("FUZZ_TMPDIR");
    if (!base || !*base) {
        struct stat st;
        base = stat("/dev/shm", &st) == 0 && S_ISDIR(st.st_mode) && access("/dev/shm", W_OK) == 0
               ? "/dev/shm" : getenv("TMPDIR");
    }
    if (!base || !*base) base = "/tmp";
    snprintf(scratch, sizeof scratch, "%s/dsm-fuzz.XXXXXX", base);
    if (!mkdtemp(scratch)) {
        fprintf(stderr, "fuzz: cannot make a scratch directory in %s: %s\n", base, strerror(errno));
        abort();
    }
    atexit(remove_scratch);
    return scratch;
}

const char *fz_path(const char *name)
{
    static char ring[16][4096 + 256];
    static unsigned next;
    char *p = ring[next++ % 16];
    snprintf(p, sizeof ring[0], "%s/%s", fz_dir(), name);
    return p;
}

const char *fz_write(const char *name, const void *data, size_t n)
{
    const char *p = fz_path(name);
    int fd = open(p, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0) fz_fail("cannot create %s: %s", p, strerror(errno));
    const char *b = data;
    while (n) {
        ssize_t w = write(fd, b, n);
        if (w <= 0) fz_fail("cannot write %s: %s", p, strerror(errno));
        b += w;
        n -= (size_t)w;
    }
    close(fd);
    return p;
}

void fz_remove(const char *name)
{
    unlink(fz_path(name));
}

unsigned char *fz_read(const char *name, size_t *n)
{
    FILE *f = fopen(fz_path(name), "rb");
    if (!f) return NULL;
    size_t cap = 4096, len = 0;
    unsigned char *buf = malloc(cap);
    size_t k;
    while (buf && (k = fread(buf + len, 1, cap - len, f)) > 0) {
        len += k;
        if (len == cap) buf = realloc(buf, cap *= 2);
    }
    fclose(f);
    if (!buf) fz_fail("out of memory reading %s", name);
    *n = len;
    return buf;
}

/* ---- what a run allocates ----------------------------------------------------------
 *
 * The sanitizer allocator calls these hooks on every malloc and free. While a
 * run is tracked (on this thread), live allocations sit in an open-addressing
 * table; a generation number per slot empties the table in O(1) for the next
 * run, and `order` lists the slots used, so freeing the survivors of a failed
 * run costs what the run allocated, not the table's size. A freed pointer
 * leaves a tombstone (p NULL, generation current). */

enum { SLOTS = 1 << 20, SLOT_LIMIT = SLOTS / 4 * 3 };

typedef struct slot {
    const volatile void *p;
    uint32_t gen;
} slot;

static slot slots[SLOTS];
static uint32_t order[SLOT_LIMIT];
static uint32_t generation, used;
static bool overflow;               /* the run allocated more than the table holds */
static _Thread_local bool tracking;

static inline uint32_t slot_of(const volatile void *p)
{
    uint64_t h = (uint64_t)(uintptr_t)p * 0x9e3779b97f4a7c15ull;
    return (uint32_t)(h >> 44) & (SLOTS - 1);
}

static void on_malloc(const volatile void *p, size_t size)
{
    (void)size;
    if (!tracking || !p) return;
    if (used >= SLOT_LIMIT) {
        overflow = true;
        return;
    }
    uint32_t i = slot_of(p);
    while (slots[i].gen == generation && slots[i].p) i = (i + 1) & (SLOTS - 1);
    if (slots[i].gen != generation) order[used++] = i;
    slots[i] = (slot){ p, generation };
}

static void on_free(const volatile void *p)
{
    if (!tracking || !p) return;
    for (uint32_t i = slot_of(p); slots[i].gen == generation; i = (i + 1) & (SLOTS - 1))
        if (slots[i].p == p) {
            slots[i].p = NULL;
            return;
        }
}

/* Free what the failed run still holds. */
static void free_survivors(void)
{
    if (overflow) {
        fprintf(stderr, "fuzz: a failed run made more than %d allocations; not all are freed\n", SLOT_LIMIT);
    }
    for (uint32_t k = 0; k < used; k++) {
        slot *s = &slots[order[k]];
        if (s->gen == generation && s->p) free((void *)s->p);
    }
}

/* ---- file descriptors ----------------------------------------------------------------
 *
 * Descriptors open before each run are noted (fcntl per number: cheaper than
 * reading /proc), so a failed run's are closed and nobody else's: the
 * sanitizers open their symbolizer pipe at any time. */

enum { FD_SCAN = 256 };
static bool fd_before[FD_SCAN];

static void note_fds(void)
{
    for (int fd = 0; fd < FD_SCAN; fd++) fd_before[fd] = fcntl(fd, F_GETFD) != -1;
}

/* Close what the failed run opened (its trace readers, the list file). */
static void close_new_fds(void)
{
    for (int fd = 3; fd < FD_SCAN; fd++)
        if (!fd_before[fd] && fcntl(fd, F_GETFD) != -1) close(fd);
}

/* ---- stdio streams -------------------------------------------------------------------
 *
 * A stream a failed run left open (cdat/ciat's report body is a tmpfile until
 * it is committed) is still on stdio's list of streams: freeing it would
 * leave that list pointing at freed memory. The harnesses link with
 * --wrap=fopen,fdopen,tmpfile,fclose (Makefile), so the streams the tools
 * open during a run are known and closed properly first. */

enum { STREAMS_MAX = 256 };
static FILE *streams[STREAMS_MAX];
static int nstreams;

FILE *__real_fopen(const char *path, const char *mode);
FILE *__real_fdopen(int fd, const char *mode);
FILE *__real_tmpfile(void);
int __real_fclose(FILE *f);

static FILE *note_stream(FILE *f)
{
    if (f && tracking) {
        if (nstreams == STREAMS_MAX) fz_fail("more than %d streams open in one run", STREAMS_MAX);
        streams[nstreams++] = f;
    }
    return f;
}

FILE *__wrap_fopen(const char *path, const char *mode) { return note_stream(__real_fopen(path, mode)); }
FILE *__wrap_fdopen(int fd, const char *mode) { return note_stream(__real_fdopen(fd, mode)); }
FILE *__wrap_tmpfile(void) { return note_stream(__real_tmpfile()); }

int __wrap_fclose(FILE *f)
{
    for (int i = 0; i < nstreams; i++)
        if (streams[i] == f) {
            streams[i] = streams[--nstreams];
            break;
        }
    return __real_fclose(f);
}

static void close_streams(void)
{
    while (nstreams > 0) __real_fclose(streams[--nstreams]);
}

/* ---- mappings ------------------------------------------------------------------------
 *
 * The analysers' state lives partly in memory mapped 2 MiB at a time
 * (common/huge_arena). A failed run's mappings are unmapped here: left
 * mapped, they would reach the kernel's limit on a process's mappings after
 * some tens of thousands of failed runs (the trace readers' mapped windows
 * once did), and every allocation failed from then on. The harnesses link
 * with --wrap=mmap,munmap (Makefile); only the calling thread's mappings are
 * noted (a run under the trap keeps to it). */

enum { MAPS_MAX = 256 };
static struct { void *p; size_t n; } maps[MAPS_MAX];
static int nmaps;

void *__real_mmap(void *addr, size_t n, int prot, int flags, int fd, off_t off);
int __real_munmap(void *addr, size_t n);

void *__wrap_mmap(void *addr, size_t n, int prot, int flags, int fd, off_t off)
{
    void *p = __real_mmap(addr, n, prot, flags, fd, off);
    if (p != MAP_FAILED && tracking) {
        if (nmaps == MAPS_MAX) fz_fail("more than %d mappings in one run", MAPS_MAX);
        maps[nmaps].p = p;
        maps[nmaps++].n = n;
    }
    return p;
}

int __wrap_munmap(void *addr, size_t n)
{
    for (int i = 0; i < nmaps; i++)
        if (maps[i].p == addr) {
            maps[i] = maps[--nmaps];
            break;
        }
    return __real_munmap(addr, n);
}

static void unmap_survivors(void)
{
    while (nmaps > 0) {
        nmaps--;
        __real_munmap(maps[nmaps].p, maps[nmaps].n);
    }
}

/* ---- trapped runs -------------------------------------------------------------------- */

typedef struct trap {
    diag_trap t;
    jmp_buf back;
    fz_result *res;
} trap;

static bool verbose;

static void on_message(diag_trap *t, const char *file, uint64_t offset, bool warning, const char *text)
{
    fz_result *r = ((trap *)t)->res;
    if (verbose) {
        fprintf(stderr, "%s: %s", diag_tool(), warning ? "warning: " : "");
        if (file) fprintf(stderr, "%s: ", file);
        if (offset != DIAG_NO_OFFSET) fprintf(stderr, "%llu: ", (unsigned long long)offset);
        fprintf(stderr, "%s\n", text);
    }
    if (warning) {
        r->warnings++;
        return;
    }
    snprintf(r->file, sizeof r->file, "%s", file ? file : "");
    r->offset = offset;
    snprintf(r->text, sizeof r->text, "%s", text);
}

static void on_fatal(diag_trap *t, int status)
{
    longjmp(((trap *)t)->back, status);
}

static bool started;

static void start(void)
{
    started = true;
    const char *v = getenv("FUZZ_VERBOSE");
    verbose = v && strcmp(v, "1") == 0;
    if (!verbose) {         /* what the tools print on stdout (tdat's frequency file) */
        int null = open("/dev/null", O_WRONLY);
        if (null >= 0) {
            fflush(stdout);
            dup2(null, STDOUT_FILENO);
            close(null);
        }
    }
    /* What the tools keep for the whole process is built on first use: here,
     * not inside a run, where a failure would free it — stdout's buffer, and
     * out_file's list of directories it has cleaned of stale temporaries
     * (every harness writes into the scratch directory). */
    fputc('\n', stdout);
    fflush(stdout);
    out_file_abort(out_file_open(fz_path("first-output"), false));
    fz_dir();
    generation = 1;
    __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free);
}

int fz_run(int (*fn)(void *arg), void *arg, fz_result *res)
{
    if (!started) start();
    static trap tr = { .t = { on_message, on_fatal } };
    memset(res, 0, sizeof *res);
    res->offset = DIAG_NO_OFFSET;
    tr.res = res;
    generation++;
    used = 0;
    overflow = false;
    nstreams = 0;
    nmaps = 0;
    note_fds();
    diag_set_trap(&tr.t);
    tracking = true;
    int status = setjmp(tr.back);
    if (status == 0) {
        res->status = fn(arg);
        tracking = false;
    } else {
        close_streams();        /* still tracked: what fclose frees is noted */
        tracking = false;
        res->status = status;
        free_survivors();
        close_new_fds();
        unmap_survivors();
    }
    diag_set_trap(NULL);
    return res->status;
}

const char *fz_describe(const fz_result *res)
{
    static char buf[2048];
    if (res->offset != DIAG_NO_OFFSET)
        snprintf(buf, sizeof buf, "exit %d: %s: %llu: %s", res->status, res->file,
                 (unsigned long long)res->offset, res->text);
    else
        snprintf(buf, sizeof buf, "exit %d: %s: %s", res->status, res->file, res->text);
    return buf;
}

int fz_job_run(void *job)
{
    fz_job *j = job;
    return j->main(j->argc, j->argv);
}

void fz_merge_parts(int (*main)(int argc, char **argv), const char *tool, const uint8_t *data, size_t size,
                    fz_result *res)
{
    const uint8_t *part[FZ_MAX_PARTS];
    size_t len[FZ_MAX_PARTS];
    int n = fz_split(data, size, "#PART#\n", 7, FZ_MAX_PARTS, part, len);
    static char paths[FZ_MAX_PARTS][FZ_PATH], names[FZ_MAX_PARTS][64];
    fz_job j = { .main = main };
    j.argv[j.argc++] = (char *)tool;
    j.argv[j.argc++] = "--merge";
    for (int k = 0; k < n; k++) {
        snprintf(names[k], sizeof names[k], "p.%s_partial.%d-of-%d", tool, k, n);
        snprintf(paths[k], sizeof paths[k], "%s", fz_write(names[k], part[k], len[k]));
        j.argv[j.argc++] = paths[k];
    }
    j.argv[j.argc] = NULL;
    fz_run(fz_job_run, &j, res);
    for (int k = 0; k < n; k++) fz_remove(names[k]);
    if (!res->status) return;
    FZ_CHECK(res->status == 1 || res->status == 2, "%s", fz_describe(res));
    bool named = res->status == 1;
    for (int k = 0; k < n; k++) named |= strcmp(res->file, paths[k]) == 0;
    FZ_CHECK(named, "the error names none of the parts: %s", fz_describe(res));
}

bool fz_same_end(const fz_result *a, const fz_result *b)
{
    return a->status == b->status && strcmp(a->file, b->file) == 0 && a->offset == b->offset &&
           strcmp(a->text, b->text) == 0;
}

/* "... blocked threads:\n  thread T (PATH) waits for ... at record R, ..." per thread. */
static bool names_every_blocked_trace(const char *text, int n)
{
    int listed = 0;
    for (const char *p = text; (p = strstr(p, "\n  thread ")) != NULL; p++) {
        const char *open = strchr(p, '('), *close = open ? strstr(open, ") waits for ") : NULL;
        if (!close || !strstr(open, " at record ")) return false;
        listed++;
    }
    return listed >= 1 && listed <= n;
}

void fz_check_set_error(const fz_result *res, char paths[][FZ_PATH], int n)
{
    FZ_CHECK(res->status == EXIT_DATA, "%s", fz_describe(res));
    bool names_trace = false;
    for (int t = 0; t < n; t++) names_trace |= strcmp(res->file, paths[t]) == 0;
    if (names_trace) {
        FZ_CHECK(res->offset != DIAG_NO_OFFSET || strncmp(res->text, "cannot read trace: ", 19) == 0,
                 "no offset: %s", fz_describe(res));
    } else {
        FZ_CHECK(!res->file[0] && strncmp(res->text, "inconsistent traces: no thread can run", 38) == 0 &&
                 names_every_blocked_trace(res->text, n), "names no trace: %s", fz_describe(res));
    }
}

size_t fz_drop_line(unsigned char *p, size_t n, const char *prefix)
{
    size_t k = strlen(prefix);
    for (size_t i = 0; i + k <= n; i++) {
        if ((i && p[i - 1] != '\n') || memcmp(p + i, prefix, k) != 0) continue;
        unsigned char *end = memchr(p + i, '\n', n - i);
        size_t to = end ? (size_t)(end - p) + 1 : n;
        memmove(p + i, p + to, n - to);
        return n - (to - i);
    }
    return n;
}

noreturn void fz_fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "fuzz: invariant broken: ");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    remove_scratch();       /* abort skips atexit; libFuzzer has saved the input */
    abort();
}

int fz_split(const uint8_t *data, size_t n, const char *sep, size_t sep_len, int max,
             const uint8_t **part, size_t *len)
{
    int k = 0;
    size_t from = 0;
    for (size_t i = 0; k < max - 1 && i + sep_len <= n;) {
        if (memcmp(data + i, sep, sep_len) == 0) {
            part[k] = data + from;
            len[k++] = i - from;
            i += sep_len;
            from = i;
        } else {
            i++;
        }
    }
    part[k] = data + from;
    len[k++] = n - from;
    return k;
}
