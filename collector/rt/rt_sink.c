/* rt_sink.c — where a trace slot's records go: a plain file (normal), a
 * zstd file (compressed), or nowhere (suppressed). to_ciat/to_cdat will be
 * further sinks with the same three calls (rt.h). */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY    /* ZSTD_initStaticCCtx and its size estimate */
#include <zstd.h>

#include "rt.h"
#include "../../formats/smait_delta.h"

typedef struct { rt_sink s; int fd; } file_sink;
/* compressed: a zstd stream in a workspace allocated when the trace opens
 * (a plain ZSTD_CCtx allocates at the first write, in whichever thread flushes
 * first: a worker's first malloc makes an arena, an mmap at a moment that
 * depends on timing).
 *
 * With a helper (zs_helper_wanted: a core to spare for it), the program
 * thread only copies its records into a ring of ZS_RING buffers and hands
 * each full one to the trace's own compressing thread, which compresses and
 * writes them in order while the program fills the next; the program waits
 * only when every other buffer is still queued. With two buffers the helper
 * went to sleep after each one and waited to be woken for the next (two
 * wake-ups a buffer, about a quarter of its time on a virtual machine); with
 * a ring it finds the next one queued. The helper's stack is part of the
 * workspace, and its locks are the C library's own (__real_*: the wrapped
 * ones would be recorded). A child of fork, which has no helper, never
 * writes (rt_main.c).
 *
 * The records arrive delta coded (formats/SMAIT.md §11.1; rt_flush codes
 * them in the sink's state as it folds them): zstd level 1 then compresses
 * mat_mul's trace at several GB/s instead of about 1 GB/s. */
enum { ZS_HELP_RECS = 1 << 15, ZS_RING = 4, ZS_HELP_STACK = 1 << 18 };
typedef struct {
    rt_sink s;
    int fd;
    ZSTD_CCtx *cc;
    void *ws;
    unsigned char out[1 << 16];
    bool helper;
    smait_raw *buf[ZS_RING];
    size_t n[ZS_RING];                  /* records in each buffer */
    unsigned fill;                      /* the program fills buf[fill % ZS_RING] */
    pthread_t tid;
    pthread_mutex_t mu;                 /* guards the rest */
    pthread_cond_t cv[2];               /* the program [0] and the helper [1] sleep on their own */
    unsigned queued;                    /* full buffers before buf[fill], oldest first, the
                                         * first of them maybe being compressed */
    bool waiting[2];                    /* the program [0] or the helper [1] sleeps */
    bool closing;
    int err;                            /* the helper's first error */
    smait_delta delta;                  /* the coder's state (s.delta points here) */
} zs_sink;

int __real_pthread_create(pthread_t *, const pthread_attr_t *, void *(*)(void *), void *);
int __real_pthread_join(pthread_t, void **);
int __real_pthread_mutex_lock(pthread_mutex_t *);
int __real_pthread_mutex_unlock(pthread_mutex_t *);
int __real_pthread_cond_wait(pthread_cond_t *, pthread_mutex_t *);
int __real_pthread_cond_signal(pthread_cond_t *);

/* Level 1 (the fastest of the usual levels) with a 128 KiB window: about
 * 1 MiB of workspace per trace, and the readers' decompression stays in the
 * cache when many traces are read at once. The checksum lets the readers tell
 * a damaged trace. */
enum { ZS_LEVEL = 1, ZS_WINDOW_LOG = 17 };

static int write_all(int fd, const void *buf, size_t left)
{
    const char *p = buf;
    while (left > 0) {
        ssize_t k = write(fd, p, left);
        if (k < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        p += k;
        left -= (size_t)k;
    }
    return 0;
}

static int file_write(rt_sink *s, const smait_raw *r, size_t n)
{
    return write_all(((file_sink *)s)->fd, r, n * sizeof *r);
}

static int file_close(rt_sink *s)
{
    int err = close(((file_sink *)s)->fd) ? errno : 0;
    free(s);
    return err;
}

/* Compress n bytes (mode ZSTD_e_continue) or end the frame (ZSTD_e_end);
 * write out what comes out. */
static int zs_run(zs_sink *z, const void *p, size_t n, ZSTD_EndDirective mode)
{
    ZSTD_inBuffer in = { p, n, 0 };
    for (;;) {
        ZSTD_outBuffer out = { z->out, sizeof z->out, 0 };
        size_t left = ZSTD_compressStream2(z->cc, &out, &in, mode);
        if (ZSTD_isError(left))
            return EIO;
        int err = write_all(z->fd, z->out, out.pos);
        if (err)
            return err;
        if (mode == ZSTD_e_end ? left == 0 : in.pos == in.size)
            return 0;
    }
}

/* Under mu: side `who` (0 the program, 1 the helper) sleeps until the
 * other wakes it. */
static void zs_sleep(zs_sink *z, int who)
{
    z->waiting[who] = true;
    __real_pthread_cond_wait(&z->cv[who], &z->mu);
    z->waiting[who] = false;
}

/* Under mu: wake side `who` if it sleeps. */
static void zs_wake(zs_sink *z, int who)
{
    if (z->waiting[who])
        __real_pthread_cond_signal(&z->cv[who]);
}

static void *zs_helper(void *p)
{
    zs_sink *z = p;
    __real_pthread_mutex_lock(&z->mu);
    for (;;) {
        while (!z->queued && !z->closing)
            zs_sleep(z, 1);
        if (!z->queued)
            break;
        unsigned i = (z->fill - z->queued) % ZS_RING;
        __real_pthread_mutex_unlock(&z->mu);
        int err = z->err ? 0 : zs_run(z, z->buf[i], z->n[i] * sizeof *z->buf[i], ZSTD_e_continue);
        __real_pthread_mutex_lock(&z->mu);
        if (err && !z->err)
            z->err = err;
        z->queued--;
        zs_wake(z, 0);
    }
    __real_pthread_mutex_unlock(&z->mu);
    return NULL;
}

/* Wait until at most `most` buffers are queued; the helper's error, if any. */
static int zs_wait(zs_sink *z, unsigned most)
{
    __real_pthread_mutex_lock(&z->mu);
    while (z->queued > most)
        zs_sleep(z, 0);
    int err = z->err;
    __real_pthread_mutex_unlock(&z->mu);
    return err;
}

static int zs_write(rt_sink *s, const smait_raw *r, size_t n)
{
    zs_sink *z = (zs_sink *)s;
    if (!z->helper)
        return zs_run(z, r, n * sizeof *r, ZSTD_e_continue);
    while (n > 0) {
        unsigned f = z->fill % ZS_RING;
        size_t k = ZS_HELP_RECS - z->n[f] < n ? ZS_HELP_RECS - z->n[f] : n;
        memcpy(z->buf[f] + z->n[f], r, k * sizeof *r);
        z->n[f] += k, r += k, n -= k;
        if (z->n[f] == ZS_HELP_RECS) {
            int err = zs_wait(z, ZS_RING - 2);      /* the next buffer is free */
            if (err)
                return err;
            __real_pthread_mutex_lock(&z->mu);
            z->queued++;
            z->fill++;
            z->n[z->fill % ZS_RING] = 0;
            zs_wake(z, 1);
            __real_pthread_mutex_unlock(&z->mu);
        }
    }
    return 0;
}

static int zs_close(rt_sink *s)
{
    zs_sink *z = (zs_sink *)s;
    int err = 0;
    unsigned f = z->fill % ZS_RING;
    if (z->helper) {
        err = zs_wait(z, 0);
        __real_pthread_mutex_lock(&z->mu);
        z->closing = true;
        zs_wake(z, 1);
        __real_pthread_mutex_unlock(&z->mu);
        __real_pthread_join(z->tid, NULL);
    }
    /* The records not yet handed over, then the end of the frame. */
    if (!err && z->helper && z->n[f] > 0)
        err = zs_run(z, z->buf[f], z->n[f] * sizeof *z->buf[0], ZSTD_e_continue);
    if (!err)
        err = zs_run(z, NULL, 0, ZSTD_e_end);
    if (close(z->fd) && !err)
        err = errno;
    free(z->ws);
    free(z);
    return err;
}

/* A helper while the process may run on at least twice as many cores as
 * compressed traces have been opened, this one included, unless
 * SMAIT_COMPRESSOR says thread or inline. Traces open one at a time (under
 * the slots' lock, or before main). */
static bool zs_helper_wanted(void)
{
    static int mode = -1;               /* 0 inline, 1 thread, 2 by the cores */
    static unsigned opened;             /* compressed traces opened */
    if (mode < 0) {
        const char *e = getenv("SMAIT_COMPRESSOR");
        if (!e || !*e)
            mode = 2;
        else if (!strcmp(e, "inline"))
            mode = 0;
        else if (!strcmp(e, "thread"))
            mode = 1;
        else
            rt_fatal("SMAIT_COMPRESSOR=%s: unknown value (thread or inline)", e);
    }
    opened++;
    if (mode < 2)
        return mode == 1;
    cpu_set_t set;
    long cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set)
                                                             : sysconf(_SC_NPROCESSORS_ONLN);
    return cores >= 2 * (long)opened;
}

static zs_sink *zs_open(int fd, bool helper)
{
    ZSTD_compressionParameters cp = ZSTD_getCParams(ZS_LEVEL, ZSTD_CONTENTSIZE_UNKNOWN, 0);
    cp.windowLog = ZS_WINDOW_LOG;
    cp = ZSTD_adjustCParams(cp, ZSTD_CONTENTSIZE_UNKNOWN, 0);
    size_t size = ZSTD_estimateCStreamSize_usingCParams(cp);
    size = (size + 63) & ~(size_t)63;
    /* with a helper: the ring's buffers and its stack after the context */
    size_t bufs = helper ? ZS_RING * ZS_HELP_RECS * sizeof(smait_raw) : 0;
    zs_sink *z = calloc(1, sizeof *z);
    void *ws = NULL;
    if (posix_memalign(&ws, 4096, size + bufs + (helper ? ZS_HELP_STACK : 0)))
        ws = NULL;
    ZSTD_CCtx *cc = ws ? ZSTD_initStaticCCtx(ws, size) : NULL;
    if (!z || !cc ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_compressionLevel, ZS_LEVEL)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_windowLog, ZS_WINDOW_LOG)) ||
        ZSTD_isError(ZSTD_CCtx_setParameter(cc, ZSTD_c_checksumFlag, 1))) {
        free(ws);
        free(z);
        return NULL;
    }
    z->fd = fd;
    z->cc = cc;
    z->ws = ws;
    z->s = (rt_sink){ true, zs_write, zs_close, &z->delta };
    smait_delta_init(&z->delta);
    /* the coding's marker record first (it goes out with the first block) */
    const smait_raw marker = { SMAIT_DELTA_F1, SMAIT_DELTA_VERSION };
    if (zs_run(z, &marker, sizeof marker, ZSTD_e_continue)) {
        free(ws);
        free(z);
        return NULL;
    }
    if (helper) {
        unsigned char *p = (unsigned char *)ws + size;
        for (int i = 0; i < ZS_RING; i++)
            z->buf[i] = (smait_raw *)p + (size_t)i * ZS_HELP_RECS;
        void *stack = (void *)(((uintptr_t)(p + bufs) + 4095) & ~(uintptr_t)4095);
        pthread_attr_t attr;
        bool ok = pthread_mutex_init(&z->mu, NULL) == 0 && pthread_cond_init(&z->cv[0], NULL) == 0 &&
                  pthread_cond_init(&z->cv[1], NULL) == 0 &&
                  pthread_attr_init(&attr) == 0;
        if (ok) {
            /* every signal blocked: the program's handlers run in its own threads */
            sigset_t all, old;
            sigfillset(&all);
            pthread_sigmask(SIG_SETMASK, &all, &old);
            ok = pthread_attr_setstack(&attr, stack, ZS_HELP_STACK - 4096) == 0 &&
                 __real_pthread_create(&z->tid, &attr, zs_helper, z) == 0;
            pthread_sigmask(SIG_SETMASK, &old, NULL);
            pthread_attr_destroy(&attr);
        }
        /* no thread: compress in the program's threads */
        z->helper = ok;
    }
    return z;
}

static int null_write(rt_sink *s, const smait_raw *r, size_t n) { (void)s, (void)r, (void)n; return 0; }
static int null_close(rt_sink *s) { free(s); return 0; }

rt_sink *rt_sink_open(int type, const char *path, int *err)
{
    *err = 0;
    if (type == RT_TYPE_SUPPRESSED) {
        rt_sink *s = malloc(sizeof *s);
        if (!s)
            return *err = ENOMEM, NULL;
        *s = (rt_sink){ false, null_write, null_close, NULL };
        return s;
    }
    bool helper = type == RT_TYPE_COMPRESSED && zs_helper_wanted();   /* may stop: before the file */
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return *err = errno, NULL;
    if (type == RT_TYPE_COMPRESSED) {
        zs_sink *z = zs_open(fd, helper);
        if (!z) {
            close(fd);
            return *err = ENOMEM, NULL;
        }
        return &z->s;
    }
    file_sink *f = malloc(sizeof *f);
    if (!f) {
        close(fd);
        return *err = ENOMEM, NULL;
    }
    f->s = (rt_sink){ true, file_write, file_close, NULL };
    f->fd = fd;
    return &f->s;
}
