/* line_reader.c — buffered line splitting over a byte_source. */
#include "line_reader.h"
#include "byte_source.h"
#include "diag.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { CHUNK = 1 << 16 };

struct line_reader {
    byte_source *src;
    char *path;
    char *buf;
    size_t cap, start, end;     /* unread bytes are buf[start, end) */
    bool eof;
    uint64_t lineno;
    size_t max;                 /* longest line allowed; 0 = any */
    bool failed;                /* line_reader_try_next met an error: err says which */
    char err[512];
};

/* The try_ functions' failure: "line N: reason" (N the line it is in). */
static char *fail(line_reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static char *fail(line_reader *r, const char *fmt, ...)
{
    int n = snprintf(r->err, sizeof r->err, "line %llu: ", (unsigned long long)r->lineno + 1);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->err + n, sizeof r->err - (size_t)n, fmt, ap);
    va_end(ap);
    r->failed = true;
    return NULL;
}

line_reader *line_reader_try_open(const char *path, const char **why)
{
    byte_source *src = byte_source_open(path, why);
    if (!src) return NULL;
    byte_source_read_ahead(src);
    line_reader *r = xcalloc(1, sizeof *r);
    r->src = src;
    r->path = xstrdup(path);
    r->cap = CHUNK + 1;
    r->buf = xmalloc(r->cap);
    return r;
}

line_reader *line_reader_open(const char *path)
{
    const char *why = NULL;
    line_reader *r = line_reader_try_open(path, &why);
    if (!r) diag_data_error(path, DIAG_NO_OFFSET, "cannot read: %s", why);
    return r;
}

char *line_reader_try_next(line_reader *r, size_t *len)
{
    if (r->failed) return NULL;
    size_t scan = r->start;
    for (;;) {
        char *nl = memchr(r->buf + scan, '\n', r->end - scan);
        if (nl || (r->eof && r->end > r->start)) {
            char *line = r->buf + r->start;
            size_t n = nl ? (size_t)(nl - line) : r->end - r->start;
            r->start += n + (nl ? 1 : 0);
            if (n > 0 && line[n - 1] == '\r') n--;
            if (r->max && n > r->max) return fail(r, "longer than %zu characters", r->max);
            /* A NUL would cut the line short for every caller without a word. */
            if (memchr(line, '\0', n)) return fail(r, "a NUL byte (not a text file?)");
            line[n] = '\0';     /* buffer has room: cap > end always */
            r->lineno++;
            if (len) *len = n;
            return line;
        }
        if (r->eof) return NULL;
        /* Compact, grow if a line fills the buffer, read more. */
        scan = r->end - r->start;
        /* No line end yet: refused as soon as it cannot be short enough (a
         * CR may still come off), before the buffer grows any further. */
        if (r->max && scan > r->max + 1) return fail(r, "longer than %zu characters", r->max);
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
        if (r->cap - r->end < CHUNK + 1) {
            r->cap = r->cap * 2 + CHUNK;
            r->buf = xrealloc(r->buf, r->cap);
        }
        const char *why = NULL;
        long k = byte_source_read(r->src, r->buf + r->end, r->cap - r->end - 1, &why);
        if (k < 0) return fail(r, "%s", why);
        if (k == 0) r->eof = true;
        r->end += (size_t)k;
    }
}

char *line_reader_next(line_reader *r, size_t *len)
{
    char *line = line_reader_try_next(r, len);
    if (!line && r->failed) diag_data_error(r->path, DIAG_NO_OFFSET, "%s", r->err);
    return line;
}

const char *line_reader_error(const line_reader *r) { return r->failed ? r->err : NULL; }
uint64_t line_reader_lineno(const line_reader *r) { return r->lineno; }
const char *line_reader_path(const line_reader *r) { return r->path; }
void line_reader_set_max(line_reader *r, size_t max) { r->max = max; }

void line_reader_close(line_reader *r)
{
    if (!r) return;
    byte_source_close(r->src);
    free(r->buf);
    free(r->path);
    free(r);
}
