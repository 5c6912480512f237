/* rt_sink.c — where a trace slot's records go: a plain file (normal), a
 * gzip file (compressed), or nowhere (suppressed). to_ciat/to_cdat will be
 * further sinks with the same three calls (rt.h). */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>
#include <zlib.h>

#include "rt.h"

typedef struct { rt_sink s; int fd; } file_sink;
/* compressed: our own deflate stream (not gzFile, which allocates its
 * buffers at the first write, in whichever thread flushes first: a worker's
 * first malloc makes an arena, an mmap at a moment that depends on timing). */
typedef struct { rt_sink s; int fd; z_stream z; unsigned char out[1 << 16]; } gz_sink;

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

/* Deflate what is in g->z with flush mode f; write out every full buffer. */
static int gz_run(gz_sink *g, int f)
{
    for (;;) {
        g->z.next_out = g->out;
        g->z.avail_out = sizeof g->out;
        int rc = deflate(&g->z, f);
        if (rc == Z_STREAM_ERROR)
            return EIO;
        int err = write_all(g->fd, g->out, sizeof g->out - g->z.avail_out);
        if (err)
            return err;
        if (f == Z_FINISH ? rc == Z_STREAM_END : g->z.avail_out != 0)
            return 0;
    }
}

static int gz_write(rt_sink *s, const smait_raw *r, size_t n)
{
    gz_sink *g = (gz_sink *)s;
    size_t bytes = n * sizeof *r;
    const unsigned char *p = (const unsigned char *)r;
    while (bytes > 0) {
        unsigned k = bytes > (1u << 30) ? 1u << 30 : (unsigned)bytes;
        g->z.next_in = (unsigned char *)p;
        g->z.avail_in = k;
        int err = gz_run(g, Z_NO_FLUSH);
        if (err)
            return err;
        p += k;
        bytes -= k;
    }
    return 0;
}

static int gz_close(rt_sink *s)
{
    gz_sink *g = (gz_sink *)s;
    g->z.next_in = NULL;
    g->z.avail_in = 0;
    int err = gz_run(g, Z_FINISH);
    deflateEnd(&g->z);
    if (close(g->fd) && !err)
        err = errno;
    free(g);
    return err;
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
        /* level 1, gzip wrapper (15 + 16): all its memory is allocated here */
        gz_sink *g = calloc(1, sizeof *g);
        if (!g || deflateInit2(&g->z, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
            free(g);
            close(fd);
            return *err = ENOMEM, NULL;
        }
        g->fd = fd;
        g->s = (rt_sink){ true, gz_write, gz_close };
        return &g->s;
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
