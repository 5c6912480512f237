/* partial.c — the framing of partial results: the part, the first records
 * that identify a part, records of numbers and text, and reading the parts
 * of a merge side by side (partial.h). */
#include "partial.h"
#include "options.h"
#include "version.h"
#include "../base/diag.h"
#include "../base/line_reader.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define PARTIAL_MAGIC "dsmtrace-partial"
#define PARTIAL_VERSION 1

/* ---- the part ---- */

/* A decimal number of at most 4 digits; p moves past it. */
static bool small_number(const char **p, uint32_t *v)
{
    const char *s = *p;
    uint32_t n = 0;
    int digits = 0;
    while (*s >= '0' && *s <= '9' && digits < 5) {
        n = n * 10 + (uint32_t)(*s++ - '0');
        digits++;
    }
    if (!digits || digits > 4) return false;
    *p = s;
    *v = n;
    return true;
}

const char *partial_part_parse(const char *value, uint32_t *pi, uint32_t *pn)
{
    const char *s = value;
    uint32_t i, n;
    if (!small_number(&s, &i) || *s++ != '/' || !small_number(&s, &n) || *s)
        return "give the part as I/N: part I (0..N-1) of N";
    if (n < 1 || n > PARTIAL_PART_MAX) return "N must be 1..4096";
    if (i >= n) return "I must be below N (parts are numbered from 0)";
    *pi = i;
    *pn = n;
    return NULL;
}

char *partial_whole_command(int argc, char **argv)
{
    char **keep = xcalloc((size_t)argc + 1, sizeof *keep);
    int k = 0;
    for (int a = 0; a < argc; a++) {
        if (a > 0 && strcmp(argv[a], "--") == 0) {         /* operands from here on */
            while (a < argc) keep[k++] = argv[a++];
            break;
        }
        /* --shard I/N, --shard=I/N, and the single-dash spelling options.c takes too */
        const char *w = a > 0 && argv[a][0] == '-' ? argv[a] + 1 + (argv[a][1] == '-') : "";
        if (strcmp(w, "shard") == 0) {
            a++;                                            /* and its value */
            continue;
        }
        if (strncmp(w, "shard=", 6) == 0) continue;
        keep[k++] = argv[a];
    }
    char *cmd = options_command_line(k, keep);
    free(keep);
    return cmd;
}

char *partial_file_path(const char *prefix_path, const char *tool, uint32_t i, uint32_t n)
{
    size_t len = strlen(prefix_path) + strlen(tool) + 64;
    char *s = xmalloc(len);
    snprintf(s, len, "%s.%s_partial.%" PRIu32 "-of-%" PRIu32, prefix_path, tool, i, n);
    return s;
}

char *partial_merge_prefix(const char *path, const char *tool, const char *out_dir)
{
    char mark[64];
    snprintf(mark, sizeof mark, ".%s_partial.", tool);
    const char *tail = strstr(path, mark);
    while (tail && strstr(tail + 1, mark)) tail = strstr(tail + 1, mark);
    if (!tail)
        diag_data_error(path, DIAG_NO_OFFSET, "not named <prefix>.%s_partial.I-of-N: the outputs are named after"
                        " the prefix", tool);
    char *prefix = strndup(path, (size_t)(tail - path));
    if (!prefix) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
    if (!out_dir) return prefix;
    const char *base = strrchr(prefix, '/');
    base = base ? base + 1 : prefix;
    size_t len = strlen(out_dir) + strlen(base) + 2;
    char *p = xmalloc(len);
    snprintf(p, len, "%s/%s", out_dir, base);
    free(prefix);
    return p;
}

void partial_merge_args(int argc, char **argv)
{
    for (int a = 1; a < argc; a++) {
        const char *w = argv[a];
        if (strcmp(w, "--") == 0) break;
        if (w[0] != '-' || strcmp(w, "--merge") == 0 || strcmp(w, "-q") == 0 || strcmp(w, "--quiet") == 0)
            continue;
        if (strcmp(w, "-o") == 0 || strcmp(w, "--output-dir") == 0) {
            a++;
            continue;
        }
        if (strncmp(w, "-o", 2) == 0 || strncmp(w, "--output-dir=", 13) == 0) continue;
        diag_usage_error("--merge takes the parts and -o DIR only, not %s: the run's options are in its parts", w);
    }
}

void partial_merge_out_dir(const char *out_dir)
{
    struct stat st;
    if (out_dir && (stat(out_dir, &st) != 0 || !S_ISDIR(st.st_mode)))
        diag_data_error(out_dir, DIAG_NO_OFFSET, "-o: not an existing directory");
}

/* ---- writing ---- */

void partial_begin(out_file *f, const char *tool, uint32_t i, uint32_t n, const char *command, bool json,
                   const char *const *paths, int ntraces)
{
    out_file_printf(f, "%s %d %s %s\n", PARTIAL_MAGIC, PARTIAL_VERSION, tool, DSMTRACE_VERSION);
    out_file_printf(f, "shard %" PRIu32 " %" PRIu32 "\n", i, n);
    out_file_printf(f, "command %s\n", command);
    out_file_printf(f, "json %s\n", json ? "yes" : "no");
    out_file_printf(f, "traces %d\n", ntraces);
    for (int t = 0; t < ntraces; t++) {
        struct stat st;
        uint64_t bytes = stat(paths[t], &st) == 0 ? (uint64_t)st.st_size : 0;
        out_file_printf(f, "trace %d %" PRIu64 "\n", t, bytes);
    }
}

void partial_u64s(out_file *f, const char *tag, long index, const uint64_t *v, size_t n)
{
    FILE *s = out_file_stream(f);
    fputs(tag, s);
    if (index >= 0) fprintf(s, " %ld", index);
    for (size_t i = 0; i < n; i++) fprintf(s, " %" PRIu64, v[i]);
    fputc('\n', s);
}

void partial_lines(out_file *f, FILE *src, const char *tag, const char *what)
{
    if (fflush(src) != 0) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "cannot write %s (a temporary file)", what);
    rewind(src);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, src)) > 0) {
        if (line[n - 1] == '\n') line[n - 1] = '\0';
        partial_text(f, tag, line);
    }
    free(line);
    if (ferror(src)) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "cannot read back %s", what);
    fclose(src);
}

void partial_text(out_file *f, const char *tag, const char *text)
{
    if (text) out_file_printf(f, "%s %s\n", tag, text);
    else out_file_printf(f, "%s\n", tag);
}

/* ---- reading ---- */

typedef struct part_file {
    line_reader *r;
    char *path;
} part_file;

struct partial_in {
    int n;
    part_file *p;
    char *command;
    bool json;
    int traces;
};

int partial_parts(const partial_in *in) { return in->n; }
const char *partial_path(const partial_in *in, int k) { return in->p[k].path; }
const char *partial_command(const partial_in *in) { return in->command; }
bool partial_json(const partial_in *in) { return in->json; }
int partial_traces(const partial_in *in) { return in->traces; }

_Noreturn void partial_fail(const partial_in *in, int k, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    diag_data_error(in->p[k].path, DIAG_NO_OFFSET, "line %" PRIu64 ": %s", line_reader_lineno(in->p[k].r), msg);
}

partial_rec partial_next(partial_in *in, int k)
{
    part_file *p = &in->p[k];
    char *line = line_reader_try_next(p->r, NULL);
    if (!line) {
        const char *why = line_reader_error(p->r);
        if (why) diag_data_error(p->path, DIAG_NO_OFFSET, "%s", why);
        diag_data_error(p->path, DIAG_NO_OFFSET, "line %" PRIu64 ": the partial result ends early (its run did"
                        " not finish, or the file was cut)", line_reader_lineno(p->r));
    }
    char *sp = strchr(line, ' ');
    if (sp) *sp = '\0';
    return (partial_rec){ line, sp ? sp + 1 : line + strlen(line) };
}

char *partial_expect(partial_in *in, int k, const char *tag)
{
    partial_rec r = partial_next(in, k);
    if (strcmp(r.tag, tag) != 0) partial_fail(in, k, "'%s' where a '%s' record belongs", r.tag, tag);
    return r.rest;
}

/* Whether part k's record (tag, rest) is the record t0 r0 of part 0. */
static void alike(const partial_in *in, int k, const char *tag, const char *rest, const char *tag0, const char *rest0)
{
    if (strcmp(tag, tag0) != 0 || strcmp(rest, rest0) != 0)
        partial_fail(in, k, "'%s %s' where %s has '%s %s': not a part of the same run (the same traces,"
                     " options and build)", tag, rest, partial_path(in, 0), tag0, rest0);
}

void partial_expect_alike(partial_in *in, const partial_rec *r0)
{
    for (int k = 1; k < partial_parts(in); k++) {
        partial_rec r = partial_next(in, k);
        alike(in, k, r.tag, r.rest, r0->tag, r0->rest);
    }
}

partial_rec partial_beside(partial_in *in, int k, const partial_rec *r)
{
    if (!k) return *r;
    partial_rec rk = partial_next(in, k);
    if (strcmp(rk.tag, r->tag) != 0) partial_fail(in, k, "'%s' where %s has '%s'", rk.tag, partial_path(in, 0), r->tag);
    return rk;
}

bool partial_u64(const char **s, uint64_t *v)
{
    const char *p = *s;
    if (*p < '0' || *p > '9') return false;
    errno = 0;
    char *end;
    unsigned long long x = strtoull(p, &end, 10);
    if (errno) return false;
    *v = x;
    *s = end;
    return true;
}

void partial_parse_u64s(const partial_in *in, int k, const char *text, uint64_t *v, size_t n)
{
    const char *s = text;
    for (size_t i = 0; i < n; i++) {
        if (i && *s++ != ' ') partial_fail(in, k, "%zu numbers expected", n);
        if (!partial_u64(&s, &v[i])) partial_fail(in, k, "%zu numbers expected", n);
    }
    if (*s) partial_fail(in, k, "%zu numbers expected", n);
}

const char *partial_lead_u64s(const partial_in *in, int k, const char *text, uint64_t *v, size_t n, const char *bad)
{
    const char *s = text;
    for (size_t i = 0; i < n; i++) {
        if (i) s++;                     /* the blank after the number before */
        if (!partial_u64(&s, &v[i]) || *s != ' ') partial_fail(in, k, "%s", bad);
    }
    return s;
}

partial_in *partial_open(const char *tool, char **paths, int n)
{
    if (n < 1)
        diag_usage_error("--merge: give the partial results of the shards (<prefix>.%s_partial.I-of-N)", tool);
    partial_in *in = xcalloc(1, sizeof *in);
    in->n = n;
    in->p = xcalloc((size_t)n, sizeof *in->p);
    int *at = NULL;                     /* at[i]: the operand holding part i */
    uint32_t parts = 0;
    char **trace0 = NULL;               /* part 0's trace records' fields */
    for (int k = 0; k < n; k++) {
        part_file *p = &in->p[k];
        p->path = xstrdup(paths[k]);
        const char *why;
        p->r = line_reader_try_open(p->path, &why);
        if (!p->r) diag_data_error(p->path, DIAG_NO_OFFSET, "cannot read: %s", why);
        char want[64];
        snprintf(want, sizeof want, "%d %s %s", PARTIAL_VERSION, tool, DSMTRACE_VERSION);
        partial_rec r = partial_next(in, k);
        if (strcmp(r.tag, PARTIAL_MAGIC) != 0)
            partial_fail(in, k, "not a partial result of a sharded run (%s --shard I/N writes them)", tool);
        if (strcmp(r.rest, want) != 0)
            partial_fail(in, k, "a partial result of '%s', not of this %s ('%s'): merge with the build that"
                         " wrote it", r.rest, tool, want);
        uint64_t sh[2];
        partial_parse_u64s(in, k, partial_expect(in, k, "shard"), sh, 2);
        if (sh[1] < 1 || sh[1] > PARTIAL_PART_MAX || sh[0] >= sh[1]) partial_fail(in, k, "no such part");
        if (k == 0) {
            parts = (uint32_t)sh[1];
            at = xmalloc(parts * sizeof *at);
            for (uint32_t i = 0; i < parts; i++) at[i] = -1;
        } else if (sh[1] != parts) {
            partial_fail(in, k, "part %" PRIu64 " of %" PRIu64 ", where %s is a part of %" PRIu32 ": not the same"
                         " split", sh[0], sh[1], in->p[0].path, parts);
        }
        if (at[sh[0]] >= 0)
            partial_fail(in, k, "part %" PRIu64 " of %" PRIu32 " again (%s is that part too)", sh[0], parts,
                         in->p[at[sh[0]]].path);
        at[sh[0]] = k;
        char *cmd = partial_expect(in, k, "command");
        if (k == 0) in->command = xstrdup(cmd);
        else if (strcmp(cmd, in->command) != 0)
            partial_fail(in, k, "a part of another run: its command is '%s', %s's '%s'", cmd, in->p[0].path,
                         in->command);
        char *json = partial_expect(in, k, "json");
        if (strcmp(json, "yes") != 0 && strcmp(json, "no") != 0) partial_fail(in, k, "json yes or no expected");
        if (k == 0) in->json = strcmp(json, "yes") == 0;
        else if (in->json != (strcmp(json, "yes") == 0)) partial_fail(in, k, "json differs from %s's", in->p[0].path);
        uint64_t traces;
        partial_parse_u64s(in, k, partial_expect(in, k, "traces"), &traces, 1);
        if (traces < 1 || traces > 65533) partial_fail(in, k, "no such number of traces");
        if (k == 0) {
            in->traces = (int)traces;
            trace0 = xcalloc((size_t)traces, sizeof *trace0);
        } else if (traces != (uint64_t)in->traces) {
            partial_fail(in, k, "traces differ from %s's", in->p[0].path);
        }
        /* The trace set: every trace's size, as part 0's. */
        for (int t = 0; t < in->traces; t++) {
            char *rest = partial_expect(in, k, "trace");
            uint64_t v[2];
            partial_parse_u64s(in, k, rest, v, 2);
            if (v[0] != (uint64_t)t) partial_fail(in, k, "trace %d expected", t);
            if (k == 0) trace0[t] = xstrdup(rest);
            else alike(in, k, "trace", rest, "trace", trace0[t]);
        }
    }
    for (int t = 0; t < in->traces; t++) free(trace0[t]);
    free(trace0);
    for (uint32_t i = 0; i < parts; i++)
        if (at[i] < 0)
            diag_data_error(in->p[0].path, DIAG_NO_OFFSET, "part %" PRIu32 " of %" PRIu32 " is missing: --merge"
                            " needs every part of the split, each once", i, parts);
    free(at);
    return in;
}

void partial_close(partial_in *in)
{
    if (!in) return;
    for (int k = 0; k < in->n; k++) {
        line_reader_close(in->p[k].r);
        free(in->p[k].path);
    }
    free(in->p);
    free(in->command);
    free(in);
}

/* The records of every part in the order of their keys (partial.h). */
void partial_merge_sorted(partial_in *in, const partial_sorted *sr, void (*put)(void *ctx, int part, const char *text),
                          void *ctx)
{
    int n = partial_parts(in);
    typedef struct { uint64_t key[2]; const char *text; bool done; } head;
    head *h = xcalloc((size_t)n, sizeof *h);
    uint64_t last[2] = { 0, 0 };
    bool any = false;
    for (int k = -1;;) {
        /* read the next record of part k (every part at the start) */
        for (int j = k < 0 ? 0 : k; j < (k < 0 ? n : k + 1); j++) {
            partial_rec r = partial_next(in, j);
            h[j].done = strcmp(r.tag, sr->end_tag) == 0;
            if (h[j].done) continue;
            if (strcmp(r.tag, sr->tag) != 0) partial_fail(in, j, "%s", sr->expected);
            const char *after = partial_lead_u64s(in, j, r.rest, h[j].key, (size_t)sr->nkey, sr->bad);
            h[j].text = sr->whole ? r.rest : after + 1;
        }
        k = -1;
        for (int j = 0; j < n; j++)
            if (!h[j].done && (k < 0 || h[j].key[0] < h[k].key[0] ||
                               (h[j].key[0] == h[k].key[0] && h[j].key[1] < h[k].key[1])))
                k = j;
        if (k < 0) break;
        bool before = any && (h[k].key[0] < last[0] || (h[k].key[0] == last[0] && h[k].key[1] < last[1]));
        bool again = any && h[k].key[0] == last[0] && h[k].key[1] == last[1];
        if (sr->key_name && (before || again))
            partial_fail(in, k, "%s %" PRIu64 " again, or out of order", sr->key_name, h[k].key[0]);
        if (before) partial_fail(in, k, "%s", sr->out_of_order);
        put(ctx, k, h[k].text);
        last[0] = h[k].key[0];
        last[1] = h[k].key[1];
        any = true;
    }
    free(h);
}
