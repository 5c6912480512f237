/* line_reader.c — buffered line splitting over a byte_source. */
#include "line_reader.h"
#include "byte_source.h"
#include "diag.h"

#include <stdbool.h>
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
};

static noreturn void too_long(const line_reader *r)
{
    diag_data_error(r->path, DIAG_NO_OFFSET, "line %llu: longer than %zu characters",
                    (unsigned long long)r->lineno + 1, r->max);
}

line_reader *line_reader_open(const char *path)
{
    const char *why = NULL;
    byte_source *src = byte_source_open(path, &why);
    if (!src) diag_data_error(path, DIAG_NO_OFFSET, "cannot read: %s", why);
    byte_source_read_ahead(src);
    line_reader *r = xcalloc(1, sizeof *r);
    r->src = src;
    r->path = xstrdup(path);
    r->cap = CHUNK + 1;
    r->buf = xmalloc(r->cap);
    return r;
}

char *line_reader_next(line_reader *r, size_t *len)
{
    size_t scan = r->start;
    for (;;) {
        char *nl = memchr(r->buf + scan, '\n', r->end - scan);
        if (nl || (r->eof && r->end > r->start)) {
            char *line = r->buf + r->start;
            size_t n = nl ? (size_t)(nl - line) : r->end - r->start;
            r->start += n + (nl ? 1 : 0);
            if (n > 0 && line[n - 1] == '\r') n--;
            if (r->max && n > r->max) too_long(r);
            /* A NUL would cut the line short for every caller without a word. */
            if (memchr(line, '\0', n))
                diag_data_error(r->path, DIAG_NO_OFFSET, "line %llu: a NUL byte (not a text file?)",
                                (unsigned long long)r->lineno + 1);
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
        if (r->max && scan > r->max + 1) too_long(r);
        memmove(r->buf, r->buf + r->start, r->end - r->start);
        r->end -= r->start;
        r->start = 0;
        if (r->cap - r->end < CHUNK + 1) {
            r->cap = r->cap * 2 + CHUNK;
            r->buf = xrealloc(r->buf, r->cap);
        }
        const char *why = NULL;
        long k = byte_source_read(r->src, r->buf + r->end, r->cap - r->end - 1, &why);
        if (k < 0)
            diag_data_error(r->path, DIAG_NO_OFFSET, "line %llu: %s",
                            (unsigned long long)r->lineno + 1, why);
        if (k == 0) r->eof = true;
        r->end += (size_t)k;
    }
}

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
