/* byte_source.c — plain / gzip / stdin input with zlib's inflate. */
#include "byte_source.h"
#include "diag.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

enum { PEEK = 4, IN_BUF = 1 << 17 };

struct byte_source {
    int fd;
    bool own_fd;
    bool gzip;
    bool eof;               /* underlying file exhausted */
    bool stream_done;       /* gzip: last member ended with no more input */
    const char *error;      /* gzip: failure to report on the next read, after
                             * the bytes decompressed before it were handed out */
    unsigned char peek[PEEK];
    size_t peek_len, peek_pos;
    uint64_t consumed, size;
    z_stream z;
    unsigned char *in;      /* gzip input buffer */
};

/* read() that retries on EINTR and fills as much as it can (pipes give less). */
static long read_full(int fd, unsigned char *buf, size_t n)
{
    size_t got = 0;
    while (got < n) {
        ssize_t k = read(fd, buf + got, n - got);
        if (k < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        if (k == 0) break;
        got += (size_t)k;
    }
    return (long)got;
}

byte_source *byte_source_open(const char *path, const char **why)
{
    int fd;
    bool own = true;
    if (strcmp(path, "-") == 0) {
        fd = STDIN_FILENO;
        own = false;
    } else {
        fd = open(path, O_RDONLY);
        if (fd < 0) {
            *why = strerror(errno);
            return NULL;
        }
    }
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        if (own) close(fd);
        *why = "is a directory";
        return NULL;
    }
    byte_source *s = xcalloc(1, sizeof *s);
    s->fd = fd;
    s->own_fd = own;
    s->size = S_ISREG(st.st_mode) ? (uint64_t)st.st_size : 0;
#ifdef POSIX_FADV_SEQUENTIAL
    if (S_ISREG(st.st_mode)) posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL);
#endif
    long k = read_full(fd, s->peek, PEEK);
    if (k < 0) {
        *why = strerror(errno);
        byte_source_close(s);
        return NULL;
    }
    s->peek_len = (size_t)k;
    s->consumed = (uint64_t)k;
    if (k >= 2 && s->peek[0] == 0x1f && s->peek[1] == 0x8b) {
        s->gzip = true;
        s->in = xmalloc(IN_BUF);
        memcpy(s->in, s->peek, s->peek_len);
        s->z.next_in = s->in;
        s->z.avail_in = (uInt)s->peek_len;
        s->peek_len = 0;
        if (inflateInit2(&s->z, 16 + MAX_WBITS) != Z_OK) {
            *why = "cannot start gzip decompression";
            byte_source_close(s);
            return NULL;
        }
    } else if (k == PEEK && memcmp(s->peek, "\x28\xb5\x2f\xfd", 4) == 0) {
        *why = "zstd-compressed input is not supported; decompress it first (zstd -d)";
        byte_source_close(s);
        return NULL;
    }
    return s;
}

void byte_source_close(byte_source *s)
{
    if (!s) return;
    if (s->gzip) inflateEnd(&s->z);
    if (s->own_fd) close(s->fd);
    free(s->in);
    free(s);
}

static long read_plain(byte_source *s, unsigned char *buf, size_t n, const char **why)
{
    size_t got = 0;
    while (s->peek_pos < s->peek_len && got < n)
        buf[got++] = s->peek[s->peek_pos++];
    if (got == n || s->eof) return (long)got;
    long k = read_full(s->fd, buf + got, n - got);
    if (k < 0) {
        *why = strerror(errno);
        return -1;
    }
    if ((size_t)k < n - got) s->eof = true;
    s->consumed += (uint64_t)k;
    return (long)(got + (size_t)k);
}

/* Refill the gzip input buffer; false on a read error. */
static bool fill_input(byte_source *s, const char **why)
{
    if (s->eof || s->z.avail_in > 0) return true;
    long k = read_full(s->fd, s->in, IN_BUF);
    if (k < 0) {
        *why = strerror(errno);
        return false;
    }
    if (k < IN_BUF) s->eof = true;
    s->consumed += (uint64_t)k;
    s->z.next_in = s->in;
    s->z.avail_in = (uInt)k;
    return true;
}

/* A gzip failure: hand out what this call decompressed before it, if
 * anything, and report the failure on the next call. */
static long gzip_failed(byte_source *s, unsigned char *buf, const char *reason, const char **why)
{
    size_t got = (size_t)(s->z.next_out - buf);
    s->error = reason;
    if (got) return (long)got;
    *why = reason;
    return -1;
}

static long read_gzip(byte_source *s, unsigned char *buf, size_t n, const char **why)
{
    if (s->error) {
        *why = s->error;
        return -1;
    }
    s->z.next_out = buf;
    s->z.avail_out = (uInt)(n > UINT32_MAX ? UINT32_MAX : n);
    while (s->z.avail_out > 0 && !s->stream_done) {
        const char *reason = NULL;
        if (!fill_input(s, &reason)) return gzip_failed(s, buf, reason, why);
        /* Without input left, inflate may still hold output decoded from
         * what it took (a long match cut by a full buffer): the stream is
         * truncated only once inflate makes no progress. */
        bool no_input = s->z.avail_in == 0 && s->eof;
        unsigned char *before = s->z.next_out;
        int rc = inflate(&s->z, Z_NO_FLUSH);
        if (no_input && rc != Z_STREAM_END && (rc == Z_OK || rc == Z_BUF_ERROR) && s->z.next_out == before)
            return gzip_failed(s, buf, "compressed stream is truncated (unexpected end of file)", why);
        if (rc == Z_STREAM_END) {
            /* Another gzip member may follow; anything else is an error. */
            if (!fill_input(s, &reason)) return gzip_failed(s, buf, reason, why);
            if (s->z.avail_in == 0 && s->eof) {
                s->stream_done = true;
            } else if (s->z.avail_in >= 1 && s->z.next_in[0] != 0x1f) {
                return gzip_failed(s, buf, "trailing data after the end of the compressed stream", why);
            } else {
                inflateReset(&s->z);
            }
        } else if (rc == Z_BUF_ERROR) {
            continue;   /* needs more input: loop refills or reports truncation */
        } else if (rc != Z_OK) {
            return gzip_failed(s, buf, s->z.msg ? s->z.msg : "corrupt compressed stream", why);
        }
    }
    return (long)((size_t)(s->z.next_out - buf));
}

long byte_source_read(byte_source *s, void *buf, size_t n, const char **why)
{
    return s->gzip ? read_gzip(s, buf, n, why) : read_plain(s, buf, n, why);
}

bool byte_source_compressed(const byte_source *s) { return s->gzip; }
uint64_t byte_source_consumed(const byte_source *s) { return s->consumed; }
uint64_t byte_source_size(const byte_source *s) { return s->size; }
