/* addr_map.c — reading and searching the address map (addr_map.h). */
#include "addr_map.h"
#include "../base/diag.h"
#include "../base/line_reader.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_name[AM_KINDS] = { "code", "line", "data", "object", "heap" };

typedef struct parse {
    const char *path;
    uint64_t lineno;
    char *p;                    /* the rest of the line */
    uint64_t last_line[AM_KINDS];   /* the map line of each kind's last entry */
    unsigned version;           /* of the format: 1 (no version line), 2 or 3 */
    uint64_t end_line;          /* version 3: the line of AM_END_LINE, or 0 before it */
    am_error *err;
} parse;

/* A bad line: "PATH:LINE" and the reason into the error; false. */
static bool bad(const parse *ps, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static bool bad(const parse *ps, const char *fmt, ...)
{
    am_error *err = ps->err;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->why, sizeof err->why, fmt, ap);
    va_end(ap);
    snprintf(err->at, sizeof err->at, "%s:%" PRIu64, ps->path, ps->lineno);
    err->where = err->at;
    return false;
}

static bool blank(char c) { return c == ' ' || c == '\t'; }

/* The next blank-separated word (NUL-terminated in place); NULL at the end. */
static char *word(parse *ps)
{
    while (blank(*ps->p)) ps->p++;
    if (!*ps->p) return NULL;
    char *w = ps->p;
    while (*ps->p && !blank(*ps->p)) ps->p++;
    if (*ps->p) *ps->p++ = '\0';
    return w;
}

/* The rest of the line without its leading and trailing blanks into *r: a
 * name that may hold blanks (MODULE, MAPPING, FILE, SOURCE). The helpers
 * below give false after bad() when the line is bad. */
static bool rest(parse *ps, int kind, const char *what, char **r)
{
    while (blank(*ps->p)) ps->p++;
    *r = ps->p;
    size_t n = strlen(*r);
    while (n && blank((*r)[n - 1])) (*r)[--n] = '\0';
    if (!n) return bad(ps, "%s line without %s", kind_name[kind], what);
    return true;
}

/* rest() as a copy of its own in *r. */
static bool rest_copy(parse *ps, int kind, const char *what, char **r)
{
    char *v;
    if (!rest(ps, kind, what, &v)) return false;
    *r = xstrdup(v);
    return true;
}

static bool need(parse *ps, int kind, const char *what, char **w)
{
    *w = word(ps);
    if (!*w) return bad(ps, "%s line without %s", kind_name[kind], what);
    return true;
}

/* 0x and 1..digits hex digits, at most max. */
static bool hex(parse *ps, const char *w, const char *what, unsigned digits, uint64_t max, uint64_t *v)
{
    size_t n = strlen(w);
    if (n < 3 || n > 2 + digits || w[0] != '0' || (w[1] != 'x' && w[1] != 'X') ||
        strspn(w + 2, "0123456789abcdefABCDEF") != n - 2)
        return bad(ps, "%s '%s' is not a hexadecimal number 0x...", what, w);
    *v = strtoull(w + 2, NULL, 16);
    if (*v > max) return bad(ps, "%s %s is out of range (at most 0x%" PRIx64 ")", what, w, max);
    return true;
}

/* The next word, hexadecimal as hex() takes it. */
static bool need_hex(parse *ps, int kind, const char *what, unsigned digits, uint64_t max, uint64_t *v)
{
    char *w;
    return need(ps, kind, what, &w) && hex(ps, w, what, digits, max, v);
}

/* The next word, decimal, 1 .. 2^32-1 (LINE, COUNT). */
static bool need_dec(parse *ps, int kind, const char *what, uint64_t *v)
{
    char *w;
    if (!need(ps, kind, what, &w)) return false;
    size_t n = strlen(w);
    if (n == 0 || n > 10 || strspn(w, "0123456789") != n)
        return bad(ps, "%s '%s' is not a decimal number", what, w);
    *v = strtoull(w, NULL, 10);
    if (*v == 0 || *v > UINT32_MAX) return bad(ps, "%s %s is out of range (1..4294967295)", what, w);
    return true;
}

static bool add_entry(addr_map *m, parse *ps, int kind, am_entry *e)
{
    size_t n = m->n[kind];
    if (n) {
        const am_entry *prev = &m->e[kind][n - 1];
        if (e->start < prev->start)
            return bad(ps, "%s lines not sorted: START 0x%08" PRIx32 " is below 0x%08" PRIx32 " of line %" PRIu64,
                       kind_name[kind], e->start, prev->start, ps->last_line[kind]);
        if (e->start < prev->end)
            return bad(ps, "%s line 0x%08" PRIx32 "-0x%08" PRIx64 " overlaps line %" PRIu64 " (0x%08" PRIx32
                       "-0x%08" PRIx64 ")", kind_name[kind], e->start, e->end, ps->last_line[kind], prev->start,
                       prev->end);
    }
    if ((n & (n - 1)) == 0) m->e[kind] = xrealloc(m->e[kind], (n ? 2 * n : 16) * sizeof *m->e[kind]);
    m->e[kind][n] = *e;
    m->n[kind] = n + 1;
    ps->last_line[kind] = ps->lineno;
    return true;
}

/* The fields after END, by kind, into e (what it holds so far is e's). */
static bool parse_fields(parse *ps, int kind, am_entry *e)
{
    char *w;
    switch (kind) {
    case AM_CODE:
        if (!need(ps, kind, "FUNCTION", &w)) return false;
        e->a = xstrdup(w);
        return rest_copy(ps, kind, "MODULE", &e->b);
    case AM_LINE:
        return need_dec(ps, kind, "LINE", &e->num) && rest_copy(ps, kind, "FILE", &e->a);
    case AM_DATA:
        return need_hex(ps, kind, "ORIGINAL_START", 16, UINT64_MAX, &e->num) &&
               rest_copy(ps, kind, "MAPPING", &e->a);
    case AM_OBJECT:
        if (!need(ps, kind, "NAME", &w)) return false;
        e->a = xstrdup(w);
        return rest_copy(ps, kind, "SOURCE", &e->b);
    case AM_HEAP: {
        char *list;
        if (!need_dec(ps, kind, "COUNT", &e->num) || !need(ps, kind, "SITE", &list)) return false;
        if (word(ps)) return bad(ps, "heap line with more than COUNT and SITE[,SITE...] after END");
        size_t ns = 1;
        for (const char *c = list; *c; c++) ns += *c == ',';
        e->sites = xcalloc(ns, sizeof *e->sites);
        for (char *s = list; (size_t)e->nsites < ns; e->nsites++) {
            char *comma = strchr(s, ',');
            if (comma) *comma = '\0';
            uint64_t site;
            if (!hex(ps, s, "SITE", 8, UINT32_MAX, &site)) return false;
            e->sites[e->nsites] = (uint32_t)site;
            s = comma ? comma + 1 : s + strlen(s);
        }
        return true;
    }
    }
    return true;
}

static bool parse_line(addr_map *m, parse *ps)
{
    char *k = word(ps);
    if (!k || k[0] == '#') return true;         /* blank or comment */
    int kind = -1;
    for (int i = 0; i < AM_KINDS; i++)
        if (strcmp(k, kind_name[i]) == 0) kind = i;
    if (kind < 0) return bad(ps, "unknown kind of line '%s' (code, line, data, object or heap)", k);
    am_entry e = { 0 };
    uint64_t start;
    if (!need_hex(ps, kind, "START", 8, UINT32_MAX, &start) || !need_hex(ps, kind, "END", 9, (uint64_t)1 << 32, &e.end))
        return false;
    e.start = (uint32_t)start;
    if (e.end <= e.start) return bad(ps, "END 0x%08" PRIx64 " is not above START 0x%08" PRIx32, e.end, e.start);
    if (parse_fields(ps, kind, &e) && add_entry(m, ps, kind, &e)) return true;
    free(e.a);
    free(e.b);
    free(e.sites);
    return false;
}

/* The blank-separated words of l after a leading '#' equal those of want
 * (blanks around them are free)? */
static bool comment_is(const char *l, const char *want)
{
    while (blank(*l)) l++;
    if (*l++ != '#') return false;
    for (;;) {
        while (blank(*l)) l++;
        while (*want == ' ') want++;
        if (!*l || !*want) return !*l && !*want;
        while (*l && !blank(*l) && *l == *want) l++, want++;
        if ((*l && !blank(*l)) || (*want && *want != ' ')) return false;
    }
}

/* The version line "# smait address map vN" (N = 1 .. 9 digits): N; else 0. */
static uint64_t version_of(const char *l)
{
    const char *v = strrchr(l, 'v');
    if (!v || v == l) return 0;
    size_t n = strspn(v + 1, "0123456789");
    if (n == 0 || n > 9) return 0;
    for (const char *c = v + 1 + n; *c; c++)
        if (!blank(*c)) return 0;
    char head[64];
    size_t len = (size_t)(v - l);
    if (len >= sizeof head) return 0;
    memcpy(head, l, len);
    head[len] = '\0';
    if (len == 0 || !blank(head[len - 1]) || !comment_is(head, "smait address map")) return 0;
    return strtoull(v + 1, NULL, 10);
}

/* One line of the map; false (err set) when it is bad. */
static bool load_line(addr_map *m, parse *ps, char *l)
{
    if (ps->lineno == 1) {
        uint64_t v = version_of(l);
        if (v > AM_VERSION)
            return bad(ps, "address map of format version %" PRIu64 ": this reader knows versions 1 to %d"
                       " (formats/ADDRESS-MAP.md)", v, AM_VERSION);
        if (v) ps->version = (unsigned)v;
    }
    if (ps->end_line) {
        for (const char *c = l; *c; c++)
            if (!blank(*c))
                return bad(ps, "a line after the end of the map ('%s' at line %" PRIu64 ")", AM_END_LINE,
                           ps->end_line);
        return true;
    }
    if (ps->version >= 3 && comment_is(l, &AM_END_LINE[1])) {
        ps->end_line = ps->lineno;
        return true;
    }
    ps->p = l;
    return parse_line(m, ps);
}

bool am_load(addr_map *m, const char *path, am_error *err)
{
    memset(m, 0, sizeof *m);
    err->where = path;
    err->why[0] = '\0';
    const char *why = NULL;
    line_reader *r = line_reader_try_open(path, &why);
    if (!r) {
        snprintf(err->why, sizeof err->why, "cannot read: %s", why);
        return false;
    }
    m->path = xstrdup(path);
    parse ps = { .path = path, .version = 1, .err = err };
    bool ok = true;
    char *l;
    while (ok && (l = line_reader_try_next(r, NULL)) != NULL) {
        ps.lineno = line_reader_lineno(r);
        ok = load_line(m, &ps, l);
    }
    if (ok && line_reader_error(r)) {
        snprintf(err->why, sizeof err->why, "%s", line_reader_error(r));
        ok = false;
    }
    if (ok && ps.version >= 3 && !ps.end_line)
        ok = bad(&ps, "address map is cut: no '%s' line after line %" PRIu64 " (a map of format version %u"
                 " ends with one: was the program killed while it wrote the map, or the disk full?)",
                 AM_END_LINE, ps.lineno, ps.version);
    line_reader_close(r);
    if (!ok) am_free(m);
    return ok;
}

void am_free(addr_map *m)
{
    for (int k = 0; k < AM_KINDS; k++) {
        for (size_t i = 0; i < m->n[k]; i++) {
            free(m->e[k][i].a);
            free(m->e[k][i].b);
            free(m->e[k][i].sites);
        }
        free(m->e[k]);
    }
    free(m->path);
    memset(m, 0, sizeof *m);
}

const am_entry *am_find(const addr_map *m, int kind, uint32_t addr)
{
    const am_entry *e = m->e[kind];
    size_t lo = 0, hi = m->n[kind];           /* the last entry with start <= addr is below hi */
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (e[mid].start <= addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0 || addr >= e[lo - 1].end) return NULL;
    return &e[lo - 1];
}

am_data_kind am_data(const addr_map *m, uint32_t addr, const am_entry **e)
{
    static const int order[] = { AM_OBJECT, AM_HEAP, AM_DATA };
    for (int i = 0; i < 3; i++)
        if ((*e = am_find(m, order[i], addr)) != NULL) return (am_data_kind)i;
    return AMD_NONE;
}
