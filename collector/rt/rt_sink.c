/* rt_sink.c — where a trace slot's records go: a plain file (normal), a
 * zstd file (compressed), or nowhere (suppressed). to_ciat/to_cdat will be
 * further sinks with the same three calls (rt.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#define ZSTD_STATIC_LINKING_ONLY    /* ZSTD_initStaticCCtx and its size estimate */
#include <zstd.h>

#include "rt.h"

typedef struct { rt_sink s; int fd; } file_sink;
/* compressed: a zstd stream in a workspace allocated when the trace opens
 * (a plain ZSTD_CCtx allocates at the first write, in whichever thread flushes
 * first: a worker's first malloc makes an arena, an mmap at a moment that
 * depends on timing). */
typedef struct { rt_sink s; int fd; ZSTD_CCtx *cc; void *ws; unsigned char out[1 << 16]; } zs_sink;

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

static int zs_write(rt_sink *s, const smait_raw *r, size_t n)
{
    return zs_run((zs_sink *)s, r, n * sizeof *r, ZSTD_e_continue);
}

static int zs_close(rt_sink *s)
{
    zs_sink *z = (zs_sink *)s;
    int err = zs_run(z, NULL, 0, ZSTD_e_end);
    if (close(z->fd) && !err)
        err = errno;
    free(z->ws);
    free(z);
    return err;
}

static zs_sink *zs_open(int fd)
{
    ZSTD_compressionParameters cp = ZSTD_getCParams(ZS_LEVEL, ZSTD_CONTENTSIZE_UNKNOWN, 0);
    cp.windowLog = ZS_WINDOW_LOG;
    cp = ZSTD_adjustCParams(cp, ZSTD_CONTENTSIZE_UNKNOWN, 0);
    size_t size = ZSTD_estimateCStreamSize_usingCParams(cp);
    zs_sink *z = calloc(1, sizeof *z);
    void *ws = malloc(size);
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
    z->s = (rt_sink){ true, zs_write, zs_close };
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
        *s = (rt_sink){ false, null_write, null_close };
        return s;
    }
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
    if (fd < 0)
        return *err = errno, NULL;
    if (type == RT_TYPE_COMPRESSED) {
        zs_sink *z = zs_open(fd);
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
    f->s = (rt_sink){ true, file_write, file_close };
    f->fd = fd;
    return &f->s;
}
