/* report_fields.c — tokens and tags of report lines. */
#include "report_fields.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Digits from s, at most end: their count. */
static size_t digits(const char *s, const char *end)
{
    size_t n = 0;
    while (s + n < end && s[n] >= '0' && s[n] <= '9') n++;
    return n;
}

rf_kind rf_classify(const char *tok, size_t len)
{
    const char *p = tok, *end = tok + len;
    size_t d = digits(p, end);
    if (d && d == len) return RF_INT;
    if (d) {                /* a bin: digits[-digits]:digits */
        const char *q = p + d;
        if (q < end && *q == '-') {
            size_t e = digits(q + 1, end);
            q = e ? q + 1 + e : end;
        }
        if (q < end && *q == ':') {
            size_t e = digits(q + 1, end);
            if (e && q + 1 + e == end) return RF_BIN;
        }
    }
    if (p < end && *p == '-') p++;
    d = digits(p, end);
    if (!d) return RF_WORD;
    p += d;
    if (p == end) return RF_INT;
    if (*p != '.') return RF_WORD;
    size_t f = digits(p + 1, end);
    if (!f) return RF_WORD;
    p += 1 + f;
    if (p == end) return RF_DEC;
    if (*p == '%' && p + 1 == end) return RF_PCT;
    return RF_WORD;
}

/* A decimal field of the tag, or "x" (then *v = x). */
static const char *tag_number(const char *p, int x, int *v)
{
    if (*p == 'x') {
        *v = x;
        return p + 1;
    }
    const char *s = p;
    if (*p == '-') p++;
    size_t d = digits(p, p + 12);
    if (!d || d > 10) return NULL;
    errno = 0;
    long n = strtol(s, NULL, 10);
    if (errno || n > INT_MAX || n < INT_MIN + 1) return NULL;
    *v = (int)n;
    return p + d;
}

bool rf_parse_tag(const char *line, rf_tag *tag, const char **rest)
{
    const char *p = line;
    if (*p++ != 'R') return false;
    if (!(p = tag_number(p, REPORT_ALL_PHASES, &tag->phase)) || *p++ != 'T') return false;
    if (!(p = tag_number(p, REPORT_ALL_THREADS, &tag->thread)) || *p++ != 'L') return false;
    if (digits(p, p + 3) != 2) return false;
    tag->level = (p[0] - '0') * 10 + (p[1] - '0');
    p += 2;
    if (p[0] != ':' || p[1] != ' ') return false;
    tag->len = (size_t)(p - line);
    *rest = p + 2;
    return true;
}

bool rf_next(const char **p, const char **tok, size_t *len)
{
    const char *s = *p;
    while (*s == ' ') s++;
    if (!*s) {
        *p = s;
        return false;
    }
    const char *e = s;
    while (*e && *e != ' ') e++;
    *tok = s;
    *len = (size_t)(e - s);
    *p = e;
    return true;
}
