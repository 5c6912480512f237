/* memusage.c — write and parse memory usage files. */
#include "memusage.h"
#include "../base/decimal.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void memusage_write_header(FILE *f, uint64_t page_size)
{
    fprintf(f, "# dsmtrace memory usage\n");
    fprintf(f, "# page_size %" PRIu64 "\n", page_size);
    fprintf(f, "# fields: page touched_bytes code_bytes shared_bytes data_accesses code_accesses"
               " shared_data_accesses shared_code_accesses owner\n");
}

void memusage_write_page(FILE *f, const memusage_page *p)
{
    const uint64_t v[8] = { p->page, p->touched_bytes, p->code_bytes, p->shared_bytes, p->data_accesses,
                            p->code_accesses, p->shared_data_accesses, p->shared_code_accesses };
    char line[9 * (DECIMAL_MAX + 2)], *e = line;
    for (int i = 0; i < 8; i++) {
        e = decimal_u64(e, v[i]);
        *e++ = ' ';
    }
    e = decimal_i64(e, p->owner);
    *e++ = '\n';
    fwrite(line, 1, (size_t)(e - line), f);
}

static bool parse_u64(const char **s, uint64_t *v)
{
    while (**s == ' ' || **s == '\t') (*s)++;
    if (!isdigit((unsigned char)**s)) return false;
    char *end;
    errno = 0;
    unsigned long long x = strtoull(*s, &end, 10);
    if (errno) return false;
    *v = x;
    *s = end;
    return true;
}

enum { LINE_MAX_BYTES = 1023 };
enum line_status { LINE_OK, LINE_END, LINE_LONG, LINE_NUL };

/* The next line of f into buf (LINE_MAX_BYTES + 1 bytes; no newline,
 * NUL-terminated), read to its newline whatever it holds, so line numbers
 * stay right: a line with a NUL byte (fgets would end the string there and
 * read the rest as the next line) or too long is reported as such. */
static enum line_status next_line(FILE *f, char *buf)
{
    size_t n = 0;
    bool nul = false, seen = false;
    int c;
    while ((c = getc(f)) != EOF) {
        seen = true;
        if (c == '\n') break;
        if (c == '\0') nul = true;
        if (n < LINE_MAX_BYTES + 1) buf[n] = (char)c;   /* one more: too long */
        n += n <= LINE_MAX_BYTES;
    }
    if (!seen) return LINE_END;
    if (nul) return LINE_NUL;
    if (n > LINE_MAX_BYTES) return LINE_LONG;
    buf[n] = '\0';
    return LINE_OK;
}

bool memusage_read(const char *path, memusage *out, char *why, size_t whycap)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(why, whycap, "cannot read: %s", strerror(errno));
        return false;
    }
    char line[LINE_MAX_BYTES + 1];
    size_t cap = 0;
    unsigned long lineno = 0;
    bool ok = true;
    enum line_status st;
    while (ok && (st = next_line(f, line)) != LINE_END) {
        lineno++;
        if (st == LINE_LONG) {
            snprintf(why, whycap, "line %lu: line too long (more than %d bytes)", lineno, LINE_MAX_BYTES);
            ok = false;
            break;
        }
        if (st == LINE_NUL) {
            snprintf(why, whycap, "line %lu: a NUL byte (not a text file?)", lineno);
            ok = false;
            break;
        }
        if (line[0] == '#') {
            uint64_t ps;
            const char *p = line + 1;
            while (*p == ' ') p++;
            if (strncmp(p, "page_size", 9) == 0) {
                p += 9;
                if (!parse_u64(&p, &ps) || ps == 0) {
                    snprintf(why, whycap, "line %lu: bad page_size", lineno);
                    ok = false;
                }
                out->page_size = ps;
            }
            continue;
        }
        const char *p = line;
        while (*p == ' ' || *p == '\t') p++;
        if (*p == '\n' || *p == '\0') continue;
        memusage_page pg;
        uint64_t *fields[] = { &pg.page, &pg.touched_bytes, &pg.code_bytes, &pg.shared_bytes,
                               &pg.data_accesses, &pg.code_accesses, &pg.shared_data_accesses,
                               &pg.shared_code_accesses };
        for (size_t i = 0; i < sizeof fields / sizeof fields[0] && ok; i++)
            if (!parse_u64(&p, fields[i])) {
                snprintf(why, whycap, "line %lu: field %zu is not a number", lineno, i + 1);
                ok = false;
            }
        if (!ok) break;
        while (*p == ' ' || *p == '\t') p++;
        char *end;
        errno = 0;
        long long owner = strtoll(p, &end, 10);
        if (end == p || errno || owner < -1) {
            snprintf(why, whycap, "line %lu: bad owner (a thread number or -1)", lineno);
            ok = false;
            break;
        }
        p = end;
        while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
        if (*p) {
            snprintf(why, whycap, "line %lu: unexpected text after the owner", lineno);
            ok = false;
            break;
        }
        pg.owner = owner;
        if (out->count && pg.page <= out->pages[out->count - 1].page) {
            snprintf(why, whycap, "line %lu: page %" PRIu64 " is not in ascending order", lineno, pg.page);
            ok = false;
            break;
        }
        if (out->count == cap) {
            cap = cap ? 2 * cap : 256;
            memusage_page *np = realloc(out->pages, cap * sizeof *np);
            if (!np) {
                snprintf(why, whycap, "out of memory");
                ok = false;
                break;
            }
            out->pages = np;
        }
        out->pages[out->count++] = pg;
    }
    if (ok && ferror(f)) {
        snprintf(why, whycap, "read error: %s", strerror(errno));
        ok = false;
    }
    if (ok && out->page_size == 0) {
        snprintf(why, whycap, "no '# page_size N' header line");
        ok = false;
    }
    fclose(f);
    if (!ok) memusage_free(out);
    return ok;
}

const memusage_page *memusage_find(const memusage *m, uint64_t page)
{
    size_t lo = 0, hi = m->count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (m->pages[mid].page < page) lo = mid + 1;
        else hi = mid;
    }
    return lo < m->count && m->pages[lo].page == page ? &m->pages[lo] : NULL;
}

void memusage_free(memusage *m)
{
    free(m->pages);
    memset(m, 0, sizeof *m);
}
