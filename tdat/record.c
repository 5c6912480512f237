/* record.c — fields, the clock number and the -f filters of a trace line. */
#include "record.h"

#include <string.h>

static inline bool is_blank(char c) { return c == ' ' || c == '\t'; }

rec_num rec_parse_u64(const char *s, size_t n, uint64_t *out)
{
    if (n == 0) return REC_NUM_BAD;
    uint64_t v = 0;
    bool overflow = false;
    for (size_t i = 0; i < n; i++) {
        unsigned d = (unsigned)(unsigned char)s[i] - '0';
        if (d > 9) return REC_NUM_BAD;
        /* v * 10 + d > UINT64_MAX  <=>  v > (UINT64_MAX - d) / 10 */
        if (v > (UINT64_MAX - d) / 10) overflow = true;
        v = v * 10 + d;
    }
    if (overflow) return REC_NUM_OVERFLOW;
    *out = v;
    return REC_NUM_OK;
}

rec_kind rec_classify(const char *line, const char **first)
{
    while (is_blank(*line)) line++;
    if (first) *first = line;
    if (*line == '\0') return REC_BLANK;
    return *line == '#' ? REC_COMMENT : REC_FIELDS;
}

bool rec_field(const char *line, unsigned n, const char **start, size_t *len)
{
    const char *p = line;
    for (unsigned i = 1;; i++) {
        while (is_blank(*p)) p++;
        if (*p == '\0') return false;
        const char *b = p;
        while (*p && !is_blank(*p)) p++;
        if (i == n) {
            *start = b;
            *len = (size_t)(p - b);
            return true;
        }
    }
}

unsigned rec_field_count(const char *line)
{
    unsigned n = 0;
    const char *p = line;
    for (;;) {
        while (is_blank(*p)) p++;
        if (*p == '\0') return n;
        n++;
        while (*p && !is_blank(*p)) p++;
    }
}

const char *rec_filter_parse(const char *text, rec_filter *f)
{
    const char *eq = strchr(text, '=');
    if (!eq) return "expects N=VALUE (e.g. 2=WAR: field 2 equals WAR)";
    uint64_t n;
    if (rec_parse_u64(text, (size_t)(eq - text), &n) != REC_NUM_OK || n < 1 || n > REC_MAX_FIELD)
        return "N must be a field number from 1 to 65535 (N=VALUE)";
    const char *v = eq + 1;
    if (*v == '\0') return "VALUE is empty (a field is never empty)";
    if (strpbrk(v, " \t")) return "VALUE contains a blank or tab (a field never does)";
    f->field = (unsigned)n;
    f->value = v;
    f->len = strlen(v);
    return NULL;
}

bool rec_filters_match(const char *line, const rec_filter *f, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const char *s;
        size_t len;
        if (!rec_field(line, f[i].field, &s, &len) || len != f[i].len || memcmp(s, f[i].value, len) != 0)
            return false;
    }
    return true;
}
