/* report_json.c — a report's text lines as one JSON document. */
#include "report_json.h"
#include "../base/diag.h"
#include "report_fields.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A header line's name and fields, kept for "header_fields". */
typedef struct hfield {
    char *name, *fields;
} hfield;

struct report_json {
    out_file *f;
    size_t nheader, nlines;
    hfield *hf;
    size_t nhf, hf_cap;
};

/* Length of the UTF-8 sequence at s (at most n bytes), 0 if it is not one. */
static size_t utf8_len(const unsigned char *s, size_t n)
{
    size_t k;
    unsigned min;
    unsigned c = s[0];
    if (c >= 0xC2 && c <= 0xDF) k = 2, min = 0x80;
    else if (c >= 0xE0 && c <= 0xEF) k = 3, min = 0x800;
    else if (c >= 0xF0 && c <= 0xF4) k = 4, min = 0x10000;
    else return 0;
    if (k > n) return 0;
    unsigned v = c & (0x3F >> (k - 1));
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        v = v << 6 | (s[i] & 0x3F);
    }
    if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
    return k;
}

void report_json_string(out_file *f, const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    out_file_write(f, "\"", 1);
    size_t run = 0;         /* bytes copied as they are, not yet written */
    for (size_t i = 0; i < len;) {
        unsigned c = u[i];
        size_t k = 1;
        const char *esc = NULL;
        char buf[8];
        if (c == '"') esc = "\\\"";
        else if (c == '\\') esc = "\\\\";
        else if (c == '\n') esc = "\\n";
        else if (c == '\t') esc = "\\t";
        else if (c < 0x20 || c == 0x7F) esc = buf;
        else if (c >= 0x80 && !(k = utf8_len(u + i, len - i))) esc = buf, k = 1;
        if (esc == buf) snprintf(buf, sizeof buf, "\\u%04x", c);
        if (esc) {
            out_file_write(f, s + i - run, run);
            run = 0;
            out_file_write(f, esc, strlen(esc));
        } else {
            run += k;
        }
        i += k;
    }
    out_file_write(f, s + len - run, run);
    out_file_write(f, "\"", 1);
}

report_json *report_json_begin(out_file *f, const char *tool)
{
    report_json *j = xcalloc(1, sizeof *j);
    j->f = f;
    out_file_printf(f, "{\n  \"format\": \"dsmtrace-report\",\n  \"version\": %d,\n  \"tool\": ",
                    REPORT_JSON_VERSION);
    report_json_string(f, tool, strlen(tool));
    out_file_printf(f, ",\n  \"header\": [");
    return j;
}

/* "NAME: FIELDS" where NAME is one word of [a-z_] and FIELDS keys with
 * values ("summary: records 17 threads 4", "machine: nodes 4 ...", "options:
 * grain 4 hpux no"): the fields; else NULL. A key is a word (no parentheses)
 * followed by numbers or by one word. "set: KEY=VALUE" lines (cdat's
 * --set and --sweep) count too, as "KEY VALUE". Caller frees. */
static char *header_kv(const char *text, size_t *name_len)
{
    const char *colon = strstr(text, ": ");
    if (!colon || colon == text) return NULL;
    for (const char *c = text; c < colon; c++)
        if (!((*c >= 'a' && *c <= 'z') || *c == '_')) return NULL;
    *name_len = (size_t)(colon - text);
    const char *rest = colon + 2;
    if (*name_len == 3 && memcmp(text, "set", 3) == 0) {
        const char *eq = strchr(rest, '=');
        if (!eq || eq == rest || strchr(rest, ' ') || !eq[1]) return NULL;
        char *kv = xstrdup(rest);
        kv[eq - rest] = ' ';
        return kv;
    }
    const char *p = rest, *tok;
    size_t len, n = 0;
    bool want_key = true, after_key = false;
    while (rf_next(&p, &tok, &len)) {
        rf_kind k = rf_classify(tok, len);
        if (memchr(tok, '(', len) || memchr(tok, ')', len) || k == RF_BIN) return NULL;
        if (want_key) {
            if (k != RF_WORD) return NULL;
            want_key = false;
            after_key = true;
        } else if (after_key) {         /* the key's first value: numbers, or one word */
            after_key = false;
            if (k == RF_WORD) want_key = true;
        } else if (k == RF_WORD) {      /* after numbers: the next key */
            after_key = true;
        }
        n++;
    }
    if (n < 2 || after_key) return NULL;
    return xstrdup(rest);
}

void report_json_header(report_json *j, const char *text)
{
    if (*text == ' ') text++;
    out_file_printf(j->f, "%s\n    ", j->nheader++ ? "," : "");
    report_json_string(j->f, text, strlen(text));
    size_t nl;
    char *fields = header_kv(text, &nl);
    if (!fields) return;
    for (size_t i = 0; i < j->nhf; i++)         /* another line of a name seen: its fields join */
        if (strlen(j->hf[i].name) == nl && memcmp(j->hf[i].name, text, nl) == 0) {
            size_t a = strlen(j->hf[i].fields), b = strlen(fields);
            j->hf[i].fields = xrealloc(j->hf[i].fields, a + b + 2);
            j->hf[i].fields[a] = ' ';
            memcpy(j->hf[i].fields + a + 1, fields, b + 1);
            free(fields);
            return;
        }
    j->hf_cap = xgrow((void **)&j->hf, j->hf_cap, j->nhf + 1, sizeof *j->hf);
    char *name = xmalloc(nl + 1);
    memcpy(name, text, nl);
    name[nl] = '\0';
    j->hf[j->nhf++] = (hfield){ name, fields };
}

/* A number token as JSON: the same digits, an integer without leading zeros
 * (the text's txn codes are "05"). */
static void put_number(out_file *f, const char *t, size_t n, rf_kind k)
{
    if (k == RF_PCT) n--;
    size_t sign = t[0] == '-';
    size_t i = sign;
    while (i + 1 < n && t[i] == '0' && t[i + 1] >= '0' && t[i + 1] <= '9') i++;
    if (sign) out_file_write(f, "-", 1);
    out_file_write(f, t + i, n - i);
}

/* The keys of one line's fields: a key met again is written KEY_2, KEY_3... */
typedef struct keyset {
    struct { const char *s; size_t n; } *k;
    size_t count, cap;
    bool first;
} keyset;

static void put_key(out_file *f, keyset *ks, const char *s, size_t n, const char *suffix)
{
    size_t sl = strlen(suffix);
    char *name = xmalloc(n + sl + 24);
    memcpy(name, s, n);
    memcpy(name + n, suffix, sl + 1);
    size_t len = n + sl;
    for (unsigned dup = 2;; dup++) {
        bool seen = false;
        for (size_t i = 0; i < ks->count && !seen; i++)
            seen = ks->k[i].n == len && memcmp(ks->k[i].s, name, len) == 0;
        if (!seen) break;
        len = n + sl + (size_t)snprintf(name + n + sl, 24, "_%u", dup);
    }
    ks->cap = xgrow((void **)&ks->k, ks->cap, ks->count + 1, sizeof *ks->k);
    ks->k[ks->count].s = name;
    ks->k[ks->count++].n = len;
    out_file_write(f, ks->first ? "" : ", ", ks->first ? 0 : 2);
    ks->first = false;
    report_json_string(f, name, len);
    out_file_write(f, ": ", 2);
}

typedef struct token {
    const char *s;
    size_t n;
    rf_kind k;
} token;

/* Values tok[0..n) of key (or "value"): one number as it is; a number and a
 * percentage as key and key_pct; a percentage alone as key_pct; else an array. */
static void put_values(out_file *f, keyset *ks, const char *key, size_t kn, const token *tok, size_t n)
{
    if (n == 1 && tok[0].k == RF_PCT) {
        put_key(f, ks, key, kn, "_pct");
        put_number(f, tok[0].s, tok[0].n, tok[0].k);
    } else if (n == 1) {
        put_key(f, ks, key, kn, "");
        put_number(f, tok[0].s, tok[0].n, tok[0].k);
    } else if (n == 2 && tok[0].k != RF_PCT && tok[1].k == RF_PCT) {
        put_key(f, ks, key, kn, "");
        put_number(f, tok[0].s, tok[0].n, tok[0].k);
        put_key(f, ks, key, kn, "_pct");
        put_number(f, tok[1].s, tok[1].n, tok[1].k);
    } else {
        put_key(f, ks, key, kn, "");
        out_file_write(f, "[", 1);
        for (size_t i = 0; i < n; i++) {
            if (i) out_file_write(f, ", ", 2);
            put_number(f, tok[i].s, tok[i].n, tok[i].k);
        }
        out_file_write(f, "]", 1);
    }
}

/* The fields grammar of docs/json.md, "Fields". */
static void put_fields(out_file *f, const char *fields)
{
    size_t n = 0, cap = 0;
    token *tok = NULL;
    const char *p = fields, *s;
    size_t len;
    while (rf_next(&p, &s, &len)) {
        cap = xgrow((void **)&tok, cap, n + 1, sizeof *tok);
        tok[n++] = (token){ s, len, rf_classify(s, len) };
    }
    keyset ks = { .first = true };
    out_file_write(f, "{", 1);
    size_t i = 0, v = 0;
    while (v < n && rf_is_value(tok[v].k)) v++;
    if (v) put_values(f, &ks, "value", 5, tok, v);
    i = v;
    if (i + 2 < n && tok[i].k == RF_WORD && tok[i + 1].k == RF_WORD && rf_is_value(tok[i + 2].k)) {
        put_key(f, &ks, "label", 5, "");
        report_json_string(f, tok[i].s, tok[i].n);
        i++;
    }
    bool hist = false;
    for (size_t b = i; b < n && !hist; b++) hist = tok[b].k == RF_BIN;
    while (i < n) {
        if (tok[i].k == RF_BIN) {
            i++;        /* below, all together */
        } else if (tok[i].k == RF_WORD) {
            size_t e = i + 1;
            while (e < n && rf_is_value(tok[e].k)) e++;
            if (e > i + 1) {
                put_values(f, &ks, tok[i].s, tok[i].n, tok + i + 1, e - i - 1);
                i = e;
            } else if (i + 1 < n && tok[i + 1].k == RF_WORD) {
                put_key(f, &ks, tok[i].s, tok[i].n, "");
                report_json_string(f, tok[i + 1].s, tok[i + 1].n);
                i += 2;
            } else {
                put_key(f, &ks, tok[i].s, tok[i].n, "");
                out_file_write(f, "null", 4);
                i++;
            }
        } else {        /* a value after a bin */
            size_t e = i;
            while (e < n && rf_is_value(tok[e].k)) e++;
            put_values(f, &ks, "value", 5, tok + i, e - i);
            i = e;
        }
    }
    if (hist) {
        put_key(f, &ks, "hist", 4, "");
        out_file_write(f, "{", 1);
        bool first = true;
        for (size_t b = 0; b < n; b++) {
            if (tok[b].k != RF_BIN) continue;
            const char *colon = memchr(tok[b].s, ':', tok[b].n);
            size_t ln = (size_t)(colon - tok[b].s);
            if (!first) out_file_write(f, ", ", 2);
            first = false;
            report_json_string(f, tok[b].s, ln);
            out_file_write(f, ": ", 2);
            put_number(f, colon + 1, tok[b].n - ln - 1, RF_INT);
        }
        out_file_write(f, "}", 1);
    }
    out_file_write(f, "}", 1);
    for (size_t k = 0; k < ks.count; k++) free((char *)ks.k[k].s);
    free(ks.k);
    free(tok);
}

/* After the header: "header_fields", the key-value header lines by name. */
static void header_fields(report_json *j)
{
    out_file *f = j->f;
    out_file_printf(f, "\n  ],\n  \"header_fields\": {");
    for (size_t i = 0; i < j->nhf; i++) {
        out_file_printf(f, "%s\n    ", i ? "," : "");
        report_json_string(f, j->hf[i].name, strlen(j->hf[i].name));
        out_file_write(f, ": ", 2);
        put_fields(f, j->hf[i].fields);
        free(j->hf[i].name);
        free(j->hf[i].fields);
    }
    out_file_printf(f, "%s},", j->nhf ? "\n  " : "");
    free(j->hf);
    j->hf = NULL;
    j->nhf = j->hf_cap = 0;
}

void report_json_line(report_json *j, const char *line)
{
    out_file *f = j->f;
    if (j->nlines++ == 0) {
        header_fields(j);
        out_file_printf(f, "\n  \"lines\": [\n    ");
    } else {
        out_file_printf(f, ",\n    ");
    }
    rf_tag tag;
    const char *rest;
    out_file_write(f, "{", 1);
    if (rf_parse_tag(line, &tag, &rest)) {
        out_file_write(f, "\"tag\": ", 7);
        report_json_string(f, line, tag.len);
        if (tag.phase == REPORT_ALL_PHASES) out_file_printf(f, ", \"phase\": \"x\"");
        else out_file_printf(f, ", \"phase\": %d", tag.phase);
        if (tag.thread == REPORT_ALL_THREADS) out_file_printf(f, ", \"thread\": \"x\"");
        else out_file_printf(f, ", \"thread\": %d", tag.thread);
        out_file_printf(f, ", \"level\": %d, ", tag.level);
    } else {
        rest = line;
    }
    const char *sp = strchr(rest, ' ');
    size_t nl = sp ? (size_t)(sp - rest) : strlen(rest);
    const char *fields = sp ? sp + 1 : rest + nl;
    out_file_write(f, "\"name\": ", 8);
    report_json_string(f, rest, nl);
    out_file_write(f, ", \"text\": ", 10);
    report_json_string(f, fields, strlen(fields));
    out_file_write(f, ", \"fields\": ", 12);
    put_fields(f, fields);
    out_file_write(f, "}", 1);
}

void report_json_end(report_json *j)
{
    if (j->nlines == 0) {
        header_fields(j);
        out_file_printf(j->f, "\n  \"lines\": [");
    }
    out_file_printf(j->f, "\n  ]\n}\n");
    free(j);
}

void report_json_text(out_file *f, const char *tool, const char *text, size_t len)
{
    report_json *j = report_json_begin(f, tool);
    char *line = NULL;
    size_t cap = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t n = nl ? (size_t)(nl - text - i) : len - i;
        cap = xgrow((void **)&line, cap, n + 1, 1);
        memcpy(line, text + i, n);
        line[n] = '\0';
        if (line[0] == '#') report_json_header(j, line + 1);
        else report_json_line(j, line);
        i += n + 1;
    }
    free(line);
    report_json_end(j);
}
