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
typedef struct { rt_sink s; gzFile gz; } gz_sink;

static int file_write(rt_sink *s, const smait_raw *r, size_t n)
{
    const char *p = (const char *)r;
    size_t left = n * sizeof *r;
    while (left > 0) {
        ssize_t k = write(((file_sink *)s)->fd, p, left);
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

static int file_close(rt_sink *s)
{
    int err = close(((file_sink *)s)->fd) ? errno : 0;
    free(s);
    return err;
}

static int gz_write(rt_sink *s, const smait_raw *r, size_t n)
{
    size_t bytes = n * sizeof *r;
    const char *p = (const char *)r;
    while (bytes > 0) {
        unsigned k = bytes > (1u << 30) ? 1u << 30 : (unsigned)bytes;
        if (gzwrite(((gz_sink *)s)->gz, p, k) != (int)k)
            return errno ? errno : EIO;
        p += k;
        bytes -= k;
    }
    return 0;
}

static int gz_close(rt_sink *s)
{
    int rc = gzclose(((gz_sink *)s)->gz);
    free(s);
    return rc == Z_OK ? 0 : EIO;
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
        gz_sink *g = malloc(sizeof *g);
        if (!g || !(g->gz = gzdopen(fd, "wb1"))) {
            free(g);
            close(fd);
            return *err = ENOMEM, NULL;
        }
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
