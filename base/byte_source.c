/* byte_source.c — plain / gzip / zstd / stdin input with zlib's inflate and
 * libzstd's streaming decompression, which runs on a thread of its own
 * (read_ahead.c) once the caller asks for it (byte_source_read_ahead).
 *
 * A plain file is read with read() straight into the caller's buffer (the
 * trace reader's: tens to hundreds of KiB a call). Reading through memory
 * mappings, as this file did, copied the bytes all the same, from the
 * mapping instead of the kernel's page cache, and paid a page fault per 64
 * KiB and a flush of every processor's translation buffers at each unmapped
 * window, which stalls the analysis when it runs on a thread of its own
 * (docs/scheduler.md §14; bench/README.md E18). The size of
 * a regular file is taken at open; one that another process shortens while
 * it is read ends before that size, which is the error "the file shrank
 * while it was read" at the offset reached (exit 2, no outputs) instead of
 * a quietly shorter trace. */
#include "byte_source.h"
#include "diag.h"
#include "read_ahead.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>
#include <zstd_errors.h>

enum { PEEK = 4, IN_BUF = 1 << 17, ZWIN = 1 << 17 };   /* ZWIN: zstd's output window (fill_zstd_window) */

typedef enum codec { CODEC_PLAIN, CODEC_GZIP, CODEC_ZSTD } codec;

struct byte_source {
    int fd;
    bool own_fd;
    codec codec;
    bool eof;               /* underlying file exhausted */
    bool stream_done;       /* compressed: last member / frame ended with no more input */
    const char *error;      /* compressed: failure to report on the next read, after
                             * the bytes decompressed before it were handed out */
    unsigned char peek[PEEK];
    size_t peek_len, peek_pos;
    uint64_t consumed, size;
    uint64_t produced;      /* bytes handed out by byte_source_read */
    char *path;             /* a regular file's name, for the shrinking-file error */
    z_stream z;
    unsigned char *in;      /* compressed input buffer */
    ZSTD_DCtx *zd;
    ZSTD_inBuffer zin;      /* zstd: the unread part of in */
    size_t zret;            /* zstd: last ZSTD_decompressStream result, 0 = frame complete */
    unsigned char *zwin;    /* zstd: the window it decompresses into (ZWIN bytes) */
    size_t zwin_len, zwin_pos;  /* decompressed bytes in it; those handed out */
    uint64_t consumed_inline;   /* consumed when the read-ahead started */
    read_ahead *ahead;      /* compressed: decompresses on its own thread; it owns
                             * every field above but codec (the reader's thread
                             * only sees what read_ahead hands out) */
};

static long fill_ahead(void *ctx, unsigned char *buf, size_t n, const char **why, uint64_t *mark);

/* A zstd frame or a skippable frame (magic 0x184D2A50..5F) starts with these
 * four bytes (little-endian magic numbers). */
static bool zstd_magic(const unsigned char *p)
{
    return (p[0] == 0x28 && p[1] == 0xb5 && p[2] == 0x2f && p[3] == 0xfd) ||
           ((p[0] & 0xf0) == 0x50 && p[1] == 0x2a && p[2] == 0x4d && p[3] == 0x18);
}

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
        s->codec = CODEC_GZIP;
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
    } else if (k == PEEK && zstd_magic(s->peek)) {
        s->codec = CODEC_ZSTD;
        s->in = xmalloc(IN_BUF);
        memcpy(s->in, s->peek, s->peek_len);
        s->zin = (ZSTD_inBuffer){ s->in, s->peek_len, 0 };
        s->peek_len = 0;
        s->zret = 1;            /* a frame has begun and not ended */
        s->zd = ZSTD_createDCtx();
        if (!s->zd) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
        s->zwin = xmalloc(ZWIN);
    } else if (S_ISREG(st.st_mode)) {
        s->path = xstrdup(path);
    }
    return s;
}

void byte_source_read_ahead(byte_source *s)
{
    if (s->codec == CODEC_PLAIN || s->ahead) return;
    s->consumed_inline = s->consumed;
    s->ahead = read_ahead_start(fill_ahead, s);
}

void byte_source_close(byte_source *s)
{
    if (!s) return;
    read_ahead_stop(s->ahead);
    if (s->codec == CODEC_GZIP) inflateEnd(&s->z);
    ZSTD_freeDCtx(s->zd);
    if (s->own_fd) close(s->fd);
    free(s->path);
    free(s->in);
    free(s->zwin);
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
    s->consumed += (uint64_t)k;
    if ((size_t)k < n - got) {
        s->eof = true;
        if (s->consumed < s->size)      /* size: a regular file's at open, else 0 */
            diag_data_error(s->path, s->consumed, "the file shrank while it was read (another process"
                            " truncated it)");
    }
    return (long)(got + (size_t)k);
}

long byte_source_tail(byte_source *s, void *buf, size_t n, uint64_t *size)
{
    if (s->codec != CODEC_PLAIN || !s->path || s->size == 0) return -1;
    uint64_t at = s->size > n ? s->size - n : 0;
    size_t want = (size_t)(s->size - at), got = 0;
    while (got < want) {
        ssize_t k = pread(s->fd, (unsigned char *)buf + got, want - got, (off_t)(at + got));
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) return -1;      /* a read error, or the file shrank: the reads will say */
        got += (size_t)k;
    }
    *size = s->size;
    return (long)got;
}

static const char TRUNCATED[] = "compressed stream is truncated (unexpected end of file)";
static const char TRAILING[] = "trailing data after the end of the compressed stream";

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

/* A decompression failure: hand out the got bytes this call decompressed
 * before it, if any, and report the failure on the next call. */
static long stream_failed(byte_source *s, size_t got, const char *reason, const char **why)
{
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
        if (!fill_input(s, &reason)) return stream_failed(s, (size_t)(s->z.next_out - buf), reason, why);
        /* Without input left, inflate may still hold output decoded from
         * what it took (a long match cut by a full buffer): the stream is
         * truncated only once inflate makes no progress. */
        bool no_input = s->z.avail_in == 0 && s->eof;
        unsigned char *before = s->z.next_out;
        int rc = inflate(&s->z, Z_NO_FLUSH);
        if (no_input && rc != Z_STREAM_END && (rc == Z_OK || rc == Z_BUF_ERROR) && s->z.next_out == before)
            return stream_failed(s, (size_t)(s->z.next_out - buf), TRUNCATED, why);
        if (rc == Z_STREAM_END) {
            /* Another gzip member may follow; anything else is an error. */
            if (!fill_input(s, &reason)) return stream_failed(s, (size_t)(s->z.next_out - buf), reason, why);
            if (s->z.avail_in == 0 && s->eof) {
                s->stream_done = true;
            } else if (s->z.avail_in >= 1 && s->z.next_in[0] != 0x1f) {
                return stream_failed(s, (size_t)(s->z.next_out - buf), TRAILING, why);
            } else {
                inflateReset(&s->z);
            }
        } else if (rc == Z_BUF_ERROR) {
            continue;   /* needs more input: loop refills or reports truncation */
        } else if (rc != Z_OK) {
            return stream_failed(s, (size_t)(s->z.next_out - buf), s->z.msg ? s->z.msg : "corrupt compressed stream", why);
        }
    }
    return (long)((size_t)(s->z.next_out - buf));
}

/* Refill the zstd input buffer once it is used up; false on a read error. */
static bool fill_zstd_input(byte_source *s, const char **why)
{
    if (s->eof || s->zin.pos < s->zin.size) return true;
    long k = read_full(s->fd, s->in, IN_BUF);
    if (k < 0) {
        *why = strerror(errno);
        return false;
    }
    if (k < IN_BUF) s->eof = true;
    s->consumed += (uint64_t)k;
    s->zin = (ZSTD_inBuffer){ s->in, (size_t)k, 0 };
    return true;
}

/* Decompress the next ZWIN bytes of the stream into the window (fewer at
 * its end or at an error, which waits in s->error). zstd always gets the
 * same window, whatever the reader asks for: how much of a broken frame it
 * gives back before the error depends on the room it is given (a frame that
 * fits is decompressed in one go, and an error then gives nothing of it), so
 * a reader with another buffer size (--lenient keeps what came before the
 * error) must see the same bytes. */
static void fill_zstd_window(byte_source *s)
{
    ZSTD_outBuffer out = { s->zwin, ZWIN, 0 };
    while (out.pos < out.size && !s->stream_done) {
        const char *reason = NULL;
        if (!fill_zstd_input(s, &reason)) {
            s->error = reason;
            break;
        }
        bool at_end = s->zin.pos == s->zin.size && s->eof;
        if (at_end && s->zret == 0) {
            s->stream_done = true;
            break;
        }
        size_t before = out.pos;
        size_t r = ZSTD_decompressStream(s->zd, &out, &s->zin);
        if (ZSTD_isError(r)) {
            /* The first frame's magic was checked at open: an unknown one is
             * whatever follows the last frame. */
            s->error = ZSTD_getErrorCode(r) == ZSTD_error_prefix_unknown ? TRAILING : ZSTD_getErrorName(r);
            break;
        }
        s->zret = r;
        /* No input left and nothing more came out: the frame stops short. */
        if (at_end && r != 0 && out.pos == before) {
            s->error = TRUNCATED;
            break;
        }
    }
    s->zwin_len = out.pos;
    s->zwin_pos = 0;
}

/* Frames one after another (skippable ones included) are one stream, as for
 * `zstd -d`; the file must end where a frame ends. */
static long read_zstd(byte_source *s, unsigned char *buf, size_t n, const char **why)
{
    size_t got = 0;
    while (got < n) {
        if (s->zwin_pos == s->zwin_len) {
            if (s->error || s->stream_done) break;
            fill_zstd_window(s);
            if (s->zwin_len == 0) continue;     /* the end, or an error with nothing before it */
        }
        size_t k = s->zwin_len - s->zwin_pos < n - got ? s->zwin_len - s->zwin_pos : n - got;
        memcpy(buf + got, s->zwin + s->zwin_pos, k);
        s->zwin_pos += k;
        got += k;
    }
    if (got == 0 && s->error) {
        *why = s->error;
        return -1;
    }
    return (long)got;
}

static long read_codec(byte_source *s, void *buf, size_t n, const char **why)
{
    return s->codec == CODEC_GZIP ? read_gzip(s, buf, n, why) :
           s->codec == CODEC_ZSTD ? read_zstd(s, buf, n, why) : read_plain(s, buf, n, why);
}

static long fill_ahead(void *ctx, unsigned char *buf, size_t n, const char **why, uint64_t *mark)
{
    byte_source *s = ctx;
    long k = read_codec(s, buf, n, why);
    *mark = s->consumed;
    return k;
}

long byte_source_read(byte_source *s, void *buf, size_t n, const char **why)
{
    long k = s->ahead ? read_ahead_read(s->ahead, buf, n, why) : read_codec(s, buf, n, why);
    if (k > 0) s->produced += (uint64_t)k;
    return k;
}

const char *byte_source_format(const byte_source *s)
{
    return s->codec == CODEC_GZIP ? "gzip" : s->codec == CODEC_ZSTD ? "zstd" : NULL;
}
bool byte_source_compressed(const byte_source *s) { return s->codec != CODEC_PLAIN; }
uint64_t byte_source_consumed(const byte_source *s)
{
    if (!s->ahead) return s->consumed;
    uint64_t mark = read_ahead_mark(s->ahead);      /* 0 until a chunk of its own is handed out */
    return mark > s->consumed_inline ? mark : s->consumed_inline;
}
uint64_t byte_source_size(const byte_source *s) { return s->size; }
uint64_t byte_source_produced(const byte_source *s) { return s->produced; }
