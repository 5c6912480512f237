/* diff.c — `smait diff A B`: the figures that differ between two reports of
 * the same tool, text or JSON (docs/json.md, "Comparing reports: smait diff").
 *
 * Lines are matched by what they are, not by where they stand: a line's key
 * is its tag, name and words with its numbers left out (report_fields.h),
 * and the k-th line of a key in A goes with the k-th in B (tdat's density
 * lines share one key). Matched lines are compared number by number, their
 * histogram entries as maps (an entry missing on one side counts 0); the
 * other lines are in one report only. A JSON report is read back into its
 * text lines (tag, name and text of each line; the header strings). */
#include "smait_cmd.h"
#include "../base/diag.h"
#include "../base/line_reader.h"
#include "../common/report_fields.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdnoreturn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { DIFF_LINE_MAX = 1 << 24 };

typedef struct rline {
    char *text;             /* the whole line */
    char *key;              /* '#' first for a header line; numbers as '#', percentages '#%' */
    uint32_t occ, nocc;     /* the line is the occ-th of nocc with its key */
    uint32_t index;         /* position in the report */
    bool header, matched;
} rline;

typedef struct report_text {
    const char *path;
    char tool[8];
    bool tagged;            /* ciat, cdat: "R..T..L..: " lines; tdat: none */
    rline *l;
    size_t n, cap;
} report_text;

/* ---- reading ---- */

/* The key of text (a header line without its '#'). */
static char *line_key(const char *text, bool header)
{
    size_t len = strlen(text);
    char *k = xmalloc(2 * len + 3), *q = k;    /* a one-character number becomes "#%" at most */
    const char *p = text, *s, *rest;
    size_t n;
    rf_tag tag;
    if (header) *q++ = '#';
    else if (rf_parse_tag(text, &tag, &rest)) {
        memcpy(q, text, tag.len + 1);
        q += tag.len + 1;
        p = rest;
    }
    while (rf_next(&p, &s, &n)) {
        rf_kind kind = rf_classify(s, n);
        if (kind == RF_BIN) continue;
        if (q > k) *q++ = ' ';
        if (kind == RF_PCT) *q++ = '#', *q++ = '%';
        else if (rf_is_value(kind)) *q++ = '#';
        else memcpy(q, s, n), q += n;
    }
    *q = '\0';
    return k;
}

static int cmp_line_ptr(const void *a, const void *b)
{
    const rline *x = *(rline *const *)a, *y = *(rline *const *)b;
    int c = strcmp(x->key, y->key);
    if (c) return c;
    return x->index < y->index ? -1 : x->index > y->index;
}

static bool known_tool(const char *t)
{
    return strcmp(t, "ciat") == 0 || strcmp(t, "cdat") == 0 || strcmp(t, "tdat") == 0;
}

/* What a failed read leaves allocated, at file scope: a fatal error exits from
 * deep inside, and LeakSanitizer must find these reachable. */
static report_text reports[2];
static line_reader *volatile reader;
static char *volatile json_text;
static char *json_buf;          /* a decoded JSON string */
static size_t json_cap;

typedef struct bin_label {
    const char *s;
    size_t n;
} bin_label;

static int cmp_label(const void *a, const void *b)
{
    const bin_label *x = a, *y = b;
    int c = memcmp(x->s, y->s, x->n < y->n ? x->n : y->n);
    return c ? c : x->n < y->n ? -1 : x->n > y->n;
}

/* A histogram entry's label given twice in a line (a line compared with
 * itself would differ): the label, or NULL. */
static const bin_label *twice_binned(const char *text, bin_label *found)
{
    size_t n = 0, cap = 0;
    bin_label *v = NULL;
    const char *p = text, *s;
    size_t len;
    while (rf_next(&p, &s, &len)) {
        if (rf_classify(s, len) != RF_BIN) continue;
        cap = xgrow((void **)&v, cap, n + 1, sizeof *v);
        v[n++] = (bin_label){ s, (size_t)((const char *)memchr(s, ':', len) - s) };
    }
    const bin_label *twice = NULL;
    if (n > 1) qsort(v, n, sizeof *v, cmp_label);
    for (size_t i = 1; i < n && !twice; i++)
        if (cmp_label(&v[i - 1], &v[i]) == 0) {
            *found = v[i];
            twice = found;
        }
    free(v);
    return twice;
}

/* One line of the report (a header line starts with '#'); what names it in a
 * message: "line N" of a text report, "\"lines\" item N" of a JSON one. */
static void add_line(report_text *r, const char *line, const char *what, uint64_t no)
{
    bool header = line[0] == '#';
    rf_tag tag;
    const char *rest;
    if (!header) {
        bool tagged = rf_parse_tag(line, &tag, &rest);
        if (r->tagged && !tagged)
            diag_data_error(r->path, DIAG_NO_OFFSET, "%s %" PRIu64 ": not a line of a %s report (a '#'"
                            " header line or 'R<phase>T<thread>L<nn>: name fields')", what, no, r->tool);
        if (!r->tagged && (tagged || line[0] == '\0' || line[0] == ' '))
            diag_data_error(r->path, DIAG_NO_OFFSET, "%s %" PRIu64 ": not a line of a tdat frequency file"
                            " (a '#' header line or 'name fields')", what, no);
        bin_label b;
        if (twice_binned(line, &b))
            diag_data_error(r->path, DIAG_NO_OFFSET, "%s %" PRIu64 ": histogram entry %.*s: given twice", what, no,
                            (int)(b.n < 100 ? b.n : 100), b.s);
    }
    r->cap = xgrow((void **)&r->l, r->cap, r->n + 1, sizeof *r->l);
    rline *l = &r->l[r->n];
    *l = (rline){ .text = xstrdup(line), .index = (uint32_t)r->n, .header = header };
    l->key = line_key(header ? line + 1 : line, header);
    r->n++;
}

static void set_tool(report_text *r, const char *tool)
{
    snprintf(r->tool, sizeof r->tool, "%s", tool);
    r->tagged = strcmp(tool, "tdat") != 0;
}

/* ---- the JSON form (docs/json.md): only what makes the text lines ---- */

typedef struct jparse {
    const char *path, *start, *p, *end;
    int depth;
} jparse;

static noreturn void json_error(const jparse *j, const char *what)
{
    diag_data_error(j->path, (uint64_t)(j->p - j->start), "not a JSON report: %s", what);
}

static void json_space(jparse *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

static bool json_eat(jparse *j, char c)
{
    json_space(j);
    if (j->p < j->end && *j->p == c) {
        j->p++;
        return true;
    }
    return false;
}

static void json_expect(jparse *j, char c, const char *what)
{
    if (!json_eat(j, c)) json_error(j, what);
}

static void buf_put(size_t *n, char c)
{
    json_cap = xgrow((void **)&json_buf, json_cap, *n + 2, 1);
    json_buf[(*n)++] = c;
}

static unsigned json_hex4(jparse *j)
{
    unsigned v = 0;
    for (int i = 0; i < 4; i++) {
        char c = j->p < j->end ? *j->p++ : '\0';
        int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
              : c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
        if (d < 0) json_error(j, "a \\u escape without four hex digits");
        v = v << 4 | (unsigned)d;
    }
    return v;
}

/* A string into json_buf (NUL-terminated). \u0080-\u00ff give the byte itself,
 * as the tools write bytes that are not UTF-8; other escapes their UTF-8. */
static const char *json_string(jparse *j)
{
    json_expect(j, '"', "a string expected");
    size_t n = 0;
    for (;;) {
        if (j->p >= j->end) json_error(j, "a string without its closing quote");
        unsigned char c = (unsigned char)*j->p++;
        if (c == '"') break;
        if (c < 0x20) json_error(j, "a control character in a string");
        if (c != '\\') {
            buf_put(&n, (char)c);
            continue;
        }
        char e = j->p < j->end ? *j->p++ : '\0';
        const char *simple = strchr("\"\\/bfnrt", e);
        if (e && simple) {
            buf_put(&n, "\"\\/\b\f\n\r\t"[simple - "\"\\/bfnrt"]);
            continue;
        }
        if (e != 'u') json_error(j, "a bad escape in a string");
        unsigned u = json_hex4(j);
        if (u >= 0xD800 && u <= 0xDBFF) {
            if (j->end - j->p < 6 || j->p[0] != '\\' || j->p[1] != 'u')
                json_error(j, "a lone surrogate in a string");
            j->p += 2;
            unsigned lo = json_hex4(j);
            if (lo < 0xDC00 || lo > 0xDFFF) json_error(j, "a lone surrogate in a string");
            u = 0x10000 + ((u - 0xD800) << 10) + (lo - 0xDC00);
        } else if (u >= 0xDC00 && u <= 0xDFFF) {
            json_error(j, "a lone surrogate in a string");
        }
        if (u == 0) json_error(j, "a NUL character in a string");
        if (u < 0x100) {
            buf_put(&n, (char)u);
        } else if (u < 0x800) {
            buf_put(&n, (char)(0xC0 | u >> 6));
            buf_put(&n, (char)(0x80 | (u & 0x3F)));
        } else if (u < 0x10000) {
            buf_put(&n, (char)(0xE0 | u >> 12));
            buf_put(&n, (char)(0x80 | (u >> 6 & 0x3F)));
            buf_put(&n, (char)(0x80 | (u & 0x3F)));
        } else {
            buf_put(&n, (char)(0xF0 | u >> 18));
            buf_put(&n, (char)(0x80 | (u >> 12 & 0x3F)));
            buf_put(&n, (char)(0x80 | (u >> 6 & 0x3F)));
            buf_put(&n, (char)(0x80 | (u & 0x3F)));
        }
    }
    buf_put(&n, '\0');
    return json_buf;
}

static void json_skip(jparse *j);

/* The members of an object, each key given to member (which reads its
 * value); the '{' is read already. */
static void json_members(jparse *j, void (*member)(jparse *, const char *, void *), void *ctx)
{
    if (json_eat(j, '}')) return;
    do {
        char key[16] = "";      /* the names read here are shorter; a longer one is no match */
        const char *k = json_string(j);
        if (strlen(k) < sizeof key) strcpy(key, k);
        json_expect(j, ':', "':' expected after a member name");
        member(j, key, ctx);
    } while (json_eat(j, ','));
    json_expect(j, '}', "',' or '}' expected");
}

static void skip_member(jparse *j, const char *key, void *ctx)
{
    (void)key, (void)ctx;
    json_skip(j);
}

static void json_skip(jparse *j)
{
    json_space(j);
    if (j->p >= j->end) json_error(j, "a value expected");
    if (++j->depth > 256) json_error(j, "nested more than 256 deep");
    char c = *j->p;
    if (c == '{') {
        j->p++;
        json_members(j, skip_member, NULL);
    } else if (c == '[') {
        j->p++;
        if (!json_eat(j, ']')) {
            do json_skip(j); while (json_eat(j, ','));
            json_expect(j, ']', "',' or ']' expected");
        }
    } else if (c == '"') {
        json_string(j);
    } else {
        const char *s = j->p;
        while (j->p < j->end && strchr("+-.0123456789eEtrufalsn", *j->p)) j->p++;
        size_t n = (size_t)(j->p - s);
        if (!n || ((c == 't' || c == 'f' || c == 'n') && !(n == 4 && memcmp(s, "true", 4) == 0) &&
                   !(n == 5 && memcmp(s, "false", 5) == 0) && !(n == 4 && memcmp(s, "null", 4) == 0))) {
            j->p = s;
            json_error(j, "a value expected");
        }
    }
    j->depth--;
}

typedef struct json_line {
    char *tag, *name, *text;
} json_line;

static void line_member(jparse *j, const char *key, void *ctx)
{
    json_line *l = ctx;
    char **to = strcmp(key, "tag") == 0 ? &l->tag : strcmp(key, "name") == 0 ? &l->name
              : strcmp(key, "text") == 0 ? &l->text : NULL;
    if (!to) {
        json_skip(j);
        return;
    }
    const char *s = json_string(j);
    free(*to);
    *to = xstrdup(s);
}

typedef struct json_doc {
    report_text *r;
    bool format, lines;
    uint64_t nlines;
} json_doc;

static json_line cur_line;      /* at file scope, as above */
static char *volatile pending;  /* a line being added */

static void doc_member(jparse *j, const char *key, void *ctx)
{
    json_doc *d = ctx;
    report_text *r = d->r;
    if (strcmp(key, "format") == 0) {
        if (strcmp(json_string(j), "dsmtrace-report") != 0) json_error(j, "its format is not \"dsmtrace-report\"");
        d->format = true;
    } else if (strcmp(key, "version") == 0) {
        json_space(j);
        if (j->end - j->p < 2 || j->p[0] != '1' || strchr("0123456789.eE", j->p[1]))
            json_error(j, "version 1 expected (the layout this smait reads)");
        j->p++;
    } else if (strcmp(key, "tool") == 0) {
        const char *t = json_string(j);
        if (!known_tool(t)) json_error(j, "the tool is not ciat, cdat or tdat");
        if (r->n) json_error(j, "\"tool\" after \"header\" or \"lines\"");
        set_tool(r, t);
    } else if (strcmp(key, "header") == 0 || strcmp(key, "lines") == 0) {
        bool lines = key[0] == 'l';
        if (!*r->tool) json_error(j, "\"header\" or \"lines\" before \"tool\"");
        json_expect(j, '[', "an array expected");
        d->lines |= lines;
        if (json_eat(j, ']')) return;
        do {
            if (!lines) {
                const char *h = json_string(j);
                char *t = pending = xmalloc(strlen(h) + 3);
                sprintf(t, "# %s", h);
                add_line(r, t, "\"header\" item", (uint64_t)r->n + 1);
                free(t);
                pending = NULL;
                continue;
            }
            json_expect(j, '{', "a line object expected");
            json_members(j, line_member, &cur_line);
            json_line *l = &cur_line;
            d->nlines++;
            if (!l->name || !l->text) json_error(j, "a line without \"name\" or \"text\"");
            size_t n = (l->tag ? strlen(l->tag) + 2 : 0) + strlen(l->name) + strlen(l->text) + 2;
            char *t = pending = xmalloc(n);
            snprintf(t, n, "%s%s%s%s%s", l->tag ? l->tag : "", l->tag ? ": " : "", l->name,
                     *l->text ? " " : "", l->text);
            add_line(r, t, "\"lines\" item", d->nlines);
            free(t);
            pending = NULL;
            free(l->tag), free(l->name), free(l->text);
            *l = (json_line){ 0 };
        } while (json_eat(j, ','));
        json_expect(j, ']', "',' or ']' expected");
    } else {
        json_skip(j);
    }
}

/* A JSON report (text: the whole file). */
static void read_json(report_text *r, const char *text, size_t len)
{
    jparse j = { r->path, text, text, text + len, 0 };
    json_doc d = { .r = r };
    json_expect(&j, '{', "an object expected");
    json_members(&j, doc_member, &d);
    json_space(&j);
    if (j.p != j.end) json_error(&j, "something after the document");
    if (!d.format || !*r->tool || !d.lines) json_error(&j, "\"format\", \"tool\" or \"lines\" missing");
}

/* Reads a report whole: a text report, whose first line names the tool, or
 * its JSON form. */
static void read_report(const char *path, report_text *r)
{
    r->path = path;
    line_reader *lr = reader = line_reader_open(path);
    line_reader_set_max(lr, DIFF_LINE_MAX);
    char *line;
    size_t len, jlen = 0, jcap = 0;
    bool json = false;
    while ((line = line_reader_next(lr, &len)) != NULL) {
        uint64_t no = line_reader_lineno(lr);
        if (no == 1 && line[strspn(line, " \t")] == '{') json = true;
        if (json) {     /* the whole text, parsed at the end */
            char *t = json_text;
            jcap = xgrow((void **)&t, jcap, jlen + len + 2, 1);
            json_text = t;
            memcpy(t + jlen, line, len);
            jlen += len;
            t[jlen++] = '\n';
            continue;
        }
        if (no == 1) {
            char tool[8] = "";
            int end = 0;
            if (sscanf(line, "# %7[a-z] (dsmtrace) %*[^ ]%n", tool, &end) != 1 || end == 0 || !known_tool(tool))
                diag_data_error(path, DIAG_NO_OFFSET, "line 1: not a report of ciat, cdat or tdat (the first"
                                " line of one is '# ciat (dsmtrace) VERSION', or cdat or tdat, or '{' for"
                                " the JSON form)");
            set_tool(r, tool);
        }
        add_line(r, line, "line", no);
    }
    line_reader_close(lr);
    reader = NULL;
    if (json) {
        if (jlen) jlen--;       /* the newline added after the last line */
        read_json(r, json_text, jlen);
        free(json_text);
        json_text = NULL;
    }
    if (r->n == 0)
        diag_data_error(path, DIAG_NO_OFFSET, json ? "a JSON report without header or lines"
                        : "an empty file, not a report");
    /* Number the lines of each key in report order. */
    rline **by = xmalloc(r->n * sizeof *by);
    for (size_t i = 0; i < r->n; i++) by[i] = &r->l[i];
    qsort(by, r->n, sizeof *by, cmp_line_ptr);
    for (size_t i = 0; i < r->n;) {
        size_t j = i;
        while (j < r->n && strcmp(by[j]->key, by[i]->key) == 0) j++;
        for (size_t a = i; a < j; a++) {
            by[a]->occ = (uint32_t)(a - i + 1);
            by[a]->nocc = (uint32_t)(j - i);
        }
        i = j;
    }
    free(by);
}

/* --whole-run: keep the header and the RxTx lines (their keys and counts
 * per key stay as they were: a key is one tag's). */
static void keep_whole_run(report_text *r)
{
    if (!r->tagged)
        diag_usage_error("--whole-run is for ciat's and cdat's reports; %s is a %s report", r->path, r->tool);
    size_t m = 0;
    for (size_t i = 0; i < r->n; i++) {
        rf_tag tag;
        const char *rest;
        rline *l = &r->l[i];
        if (l->header || (rf_parse_tag(l->text, &tag, &rest) && tag.phase == REPORT_ALL_PHASES &&
                          tag.thread == REPORT_ALL_THREADS)) {
            r->l[m++] = *l;
            continue;
        }
        free(l->text);
        free(l->key);
    }
    r->n = m;
}

static void free_report(report_text *r)
{
    for (size_t i = 0; i < r->n; i++) {
        free(r->l[i].text);
        free(r->l[i].key);
    }
    free(r->l);
}

/* ---- shapes ---- */

typedef struct shape_item {
    char *s;                /* "R1T0" (ciat, cdat) or a line name (tdat) */
    size_t count;           /* tdat: lines of that name */
} shape_item;

static int cmp_str_ptr(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The shape of a report: of ciat's and cdat's, the phase-thread pairs that
 * have lines; of tdat's, how many lines of each name. Sorted by name. */
static shape_item *shape_of(const report_text *r, size_t *count)
{
    char **s = xmalloc((r->n + 1) * sizeof *s);
    size_t k = 0;
    for (size_t i = 0; i < r->n; i++) {
        const char *t = r->l[i].text;
        if (r->l[i].header) continue;
        size_t len = r->tagged ? strcspn(t, "L") : strcspn(t, " ");
        s[k] = xmalloc(len + 1);
        memcpy(s[k], t, len);
        s[k++][len] = '\0';
    }
    qsort(s, k, sizeof *s, cmp_str_ptr);
    shape_item *out = xmalloc((k + 1) * sizeof *out);
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m && strcmp(out[m - 1].s, s[i]) == 0) {
            out[m - 1].count++;
            free(s[i]);
        } else {
            out[m++] = (shape_item){ s[i], 1 };
        }
    }
    free(s);
    *count = m;
    return out;
}

static void check_shapes(const report_text *a, const report_text *b)
{
    size_t na, nb;
    shape_item *sa = shape_of(a, &na), *sb = shape_of(b, &nb);
    char why[512] = "";
    size_t i = 0, j = 0;
    while (!*why && (i < na || j < nb)) {
        int c = i == na ? 1 : j == nb ? -1 : strcmp(sa[i].s, sb[j].s);
        const char *what = a->tagged ? "lines for" : "lines named";
        if (c < 0) snprintf(why, sizeof why, "%s has %s %s, %s has none", a->path, what, sa[i].s, b->path);
        else if (c > 0) snprintf(why, sizeof why, "%s has %s %s, %s has none", b->path, what, sb[j].s, a->path);
        else if (!a->tagged && sa[i].count != sb[j].count)
            snprintf(why, sizeof why, "%s has %zu '%s' lines, %s has %zu", a->path, sa[i].count, sa[i].s,
                     b->path, sb[j].count);
        else i++, j++;
    }
    for (i = 0; i < na; i++) free(sa[i].s);
    for (j = 0; j < nb; j++) free(sb[j].s);
    free(sa);
    free(sb);
    if (*why)
        diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "the reports have different shapes: %s (%s)", why,
                   a->tagged ? "other phases or threads" : "another number of classes");
}

/* ---- comparing ---- */

typedef struct tok {
    const char *s;
    size_t n;
    rf_kind k;
} tok;

/* The tokens of a line after its tag (header: after the '#'). */
static tok *tokens(const rline *l, size_t *count)
{
    const char *p = l->text, *s, *rest;
    rf_tag tag;
    if (l->header) p++;
    else if (rf_parse_tag(p, &tag, &rest)) p = rest;
    size_t n = 0, cap = 0, len;
    tok *t = NULL;
    while (rf_next(&p, &s, &len)) {
        cap = xgrow((void **)&t, cap, n + 1, sizeof *t);
        t[n++] = (tok){ s, len, rf_classify(s, len) };
    }
    *count = n;
    return t;
}

/* A number token. Integers are compared by their digits (any length);
 * mag is exact when they fit 64 bits. */
typedef struct num {
    bool integer, exact, neg;
    const char *digits;     /* an integer's digits without sign and leading zeros */
    size_t ndigits;
    uint64_t mag;
    double v;
    int decimals;
} num;

static num parse_num(const char *s, size_t n)
{
    num x = { 0 };
    if (n && s[n - 1] == '%') n--;
    char small[64], *buf = n < sizeof small ? small : xmalloc(n + 1);
    memcpy(buf, s, n);
    buf[n] = '\0';
    const char *dot = strchr(buf, '.');
    x.decimals = dot ? (int)(n - (size_t)(dot - buf) - 1) : 0;
    x.v = strtod(buf, NULL);
    if (!dot) {
        x.integer = true;
        x.neg = s[0] == '-';
        size_t i = x.neg;
        while (i + 1 < n && s[i] == '0') i++;
        x.digits = s + i;
        x.ndigits = n - i;
        errno = 0;
        unsigned long long m = strtoull(buf + x.neg, NULL, 10);
        x.exact = errno == 0;
        x.mag = m;
    }
    if (buf != small) free(buf);
    return x;
}

static bool num_equal(const num *a, const num *b)
{
    if (a->integer && b->integer) {
        bool zero = a->ndigits == 1 && a->digits[0] == '0';
        return a->ndigits == b->ndigits && memcmp(a->digits, b->digits, a->ndigits) == 0 &&
               (a->neg == b->neg || zero);
    }
    return a->v == b->v;
}

typedef struct diff_state {
    const diff_options *o;
    const report_text *a, *b;
    uint64_t figures, differ, tolerated, only_a, only_b;
} diff_state;

/* "R1T0L01 mem", a header's first word, and the words that tell lines of
 * one tag and name apart (labels, words as values: "call acquire", "state
 * home local presence none status idle"); "(k of n)" when the key repeats. */
static void print_where(const rline *l, const tok *t, size_t n)
{
    rf_tag tag;
    const char *rest;
    bool any = true;
    if (l->header) printf("#");
    else if (rf_parse_tag(l->text, &tag, &rest)) printf("%.*s", (int)tag.len, l->text);
    else any = false;
    for (size_t i = 0; i < n; i++) {
        if (t[i].k != RF_WORD) continue;
        bool keyed = i + 1 < n && rf_is_value(t[i + 1].k);
        if (i > 0 && keyed) continue;
        printf("%s%.*s", any ? " " : "", (int)t[i].n, t[i].s);
        any = true;
    }
    if (l->nocc > 1) printf(" (%" PRIu32 " of %" PRIu32 ")", l->occ, l->nocc);
}

static void print_change(const num *x, const num *y)
{
    double change = y->v - x->v;
    if (x->integer && y->integer && (!x->exact || !y->exact)) {
        printf(" (integers past 2^64)");
        return;
    }
    if (x->exact && y->exact && !x->neg && !y->neg) {     /* counts: exact, also past 2^53 */
        uint64_t d = y->mag >= x->mag ? y->mag - x->mag : x->mag - y->mag;
        printf(" (%c%" PRIu64, y->mag >= x->mag ? '+' : '-', d);
        change = y->mag >= x->mag ? (double)d : -(double)d;
    } else {
        int d = x->decimals > y->decimals ? x->decimals : y->decimals;
        printf(" (%+.*f", d, change);
    }
    if (x->v != 0) printf(", %+.2f%%)", 100.0 * change / fabs(x->v));
    else printf(", new)");
}

/* One figure of a line: report it when it differs beyond the tolerance. */
static void figure(diff_state *st, bool *shown, const rline *l, const tok *t, size_t n, const char *name,
                   const char *s1, size_t n1, const char *s2, size_t n2)
{
    num x = parse_num(s1, n1), y = parse_num(s2, n2);
    st->figures++;
    if (num_equal(&x, &y)) return;
    double scale = fmax(fabs(x.v), fabs(y.v));
    if (st->o->rel_tol > 0 && fabs(y.v - x.v) <= st->o->rel_tol * scale) {
        st->tolerated++;
        return;
    }
    st->differ++;
    if (!*shown) {
        print_where(l, t, n);
        printf(":\n");
        *shown = true;
    }
    printf("  %s: %.*s -> %.*s", name, (int)n1, s1, (int)n2, s2);
    print_change(&x, &y);
    printf("\n");
}

/* The count of bin label in t, or "0". */
static const char *bin_count(const tok *t, size_t n, const char *label, size_t ln, size_t *len)
{
    for (size_t i = 0; i < n; i++) {
        if (t[i].k != RF_BIN) continue;
        const char *colon = memchr(t[i].s, ':', t[i].n);
        if ((size_t)(colon - t[i].s) == ln && memcmp(t[i].s, label, ln) == 0) {
            *len = t[i].n - ln - 1;
            return colon + 1;
        }
    }
    *len = 1;
    return "0";
}

static void compare_lines(diff_state *st, const rline *la, const rline *lb)
{
    size_t na, nb;
    tok *ta = tokens(la, &na), *tb = tokens(lb, &nb);
    bool shown = false;
    /* Numbers and words: the same sequence in both (same key), bins aside. */
    size_t i = 0, j = 0;
    const char *word = "value";
    size_t wlen = 5;
    unsigned run = 0;
    char name[160];
    while (i < na && j < nb) {
        if (ta[i].k == RF_BIN) { i++; continue; }
        if (tb[j].k == RF_BIN) { j++; continue; }
        if (ta[i].k == RF_WORD) {
            word = ta[i].s;
            wlen = ta[i].n;
            run = 0;
        } else {
            if (ta[i].k == RF_PCT || run == 0) snprintf(name, sizeof name, "%.*s", (int)(wlen < 100 ? wlen : 100), word);
            else snprintf(name, sizeof name, "%.*s[%u]", (int)(wlen < 100 ? wlen : 100), word, run);
            if (ta[i].k != RF_PCT) run++;
            figure(st, &shown, la, ta, na, name, ta[i].s, ta[i].n, tb[j].s, tb[j].n);
        }
        i++, j++;
    }
    /* Histogram entries: A's in order, then those only B has. */
    for (int side = 0; side < 2; side++) {
        const tok *t = side ? tb : ta, *u = side ? ta : tb;
        size_t n = side ? nb : na, m = side ? na : nb;
        for (size_t k = 0; k < n; k++) {
            if (t[k].k != RF_BIN) continue;
            const char *colon = memchr(t[k].s, ':', t[k].n);
            size_t ln = (size_t)(colon - t[k].s), ol;
            const char *other = bin_count(u, m, t[k].s, ln, &ol);
            if (side == 1) {
                bool in_a = false;
                for (size_t q = 0; q < m && !in_a; q++)
                    in_a = u[q].k == RF_BIN && memchr(u[q].s, ':', u[q].n) == u[q].s + ln &&
                           memcmp(u[q].s, t[k].s, ln) == 0;
                if (in_a) continue;
            }
            snprintf(name, sizeof name, "bin %.*s", (int)(ln < 100 ? ln : 100), t[k].s);
            if (side == 0) figure(st, &shown, la, ta, na, name, colon + 1, t[k].n - ln - 1, other, ol);
            else figure(st, &shown, la, ta, na, name, other, ol, colon + 1, t[k].n - ln - 1);
        }
    }
    free(ta);
    free(tb);
}

static int cmp_key_occ(const void *a, const void *b)
{
    const rline *x = *(rline *const *)a, *y = *(rline *const *)b;
    int c = strcmp(x->key, y->key);
    if (c) return c;
    return x->occ < y->occ ? -1 : x->occ > y->occ;
}

int smait_diff(const char *path_a, const char *path_b, const diff_options *o)
{
    /* A run starts from nothing: what an earlier run in this process left
     * (a failed one unwinds without freeing: fuzz/) is not touched. */
    memset(reports, 0, sizeof reports);
    cur_line = (json_line){ 0 };
    reader = NULL;
    json_text = NULL;
    pending = NULL;
    json_buf = NULL;
    json_cap = 0;
    report_text *ra = &reports[0], *rb = &reports[1];
    read_report(path_a, ra);
    read_report(path_b, rb);
    report_text a = *ra, b = *rb;
    if (strcmp(a.tool, b.tool) != 0)
        diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "%s is a %s report and %s a %s report: smait diff compares"
                   " reports of one tool", path_a, a.tool, path_b, b.tool);
    if (o->whole_run) {
        keep_whole_run(ra);
        keep_whole_run(rb);
        a = *ra;
        b = *rb;
    }
    check_shapes(&a, &b);

    rline **by = xmalloc(b.n * sizeof *by);
    for (size_t i = 0; i < b.n; i++) by[i] = &b.l[i];
    qsort(by, b.n, sizeof *by, cmp_key_occ);
    diff_state st = { .o = o, .a = &a, .b = &b };
    for (size_t i = 0; i < a.n; i++) {
        rline *la = &a.l[i], *key = la;
        if (la->header && o->ignore_header) continue;
        rline **m = bsearch(&key, by, b.n, sizeof *by, cmp_key_occ);
        if (m) {
            (*m)->matched = true;
            compare_lines(&st, la, *m);
        } else {
            printf("only in A: %s\n", la->text);
            st.only_a++;
        }
    }
    for (size_t i = 0; i < b.n; i++) {
        if (b.l[i].matched || (b.l[i].header && o->ignore_header)) continue;
        printf("only in B: %s\n", b.l[i].text);
        st.only_b++;
    }
    bool differ = st.differ || st.only_a || st.only_b;
    if (differ || st.tolerated) {
        printf("%" PRIu64 " of %" PRIu64 " figure%s differ", st.differ, st.figures, st.figures == 1 ? "" : "s");
        if (st.tolerated) printf(" (%" PRIu64 " more within --rel-tol)", st.tolerated);
        printf("; %" PRIu64 " line%s only in A, %" PRIu64 " only in B\n", st.only_a, st.only_a == 1 ? "" : "s",
               st.only_b);
    }
    if (fflush(stdout) != 0) diag_data_error("(standard output)", DIAG_NO_OFFSET, "write failed");
    free(by);
    free_report(ra);
    free_report(rb);
    free(json_buf);
    json_buf = NULL;
    json_cap = 0;
    return differ ? 1 : 0;
}
