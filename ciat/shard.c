/* shard.c — ciat's partial results: the part analysed, writing a partial
 * result, and reading the parts side by side for --merge (docs/sharding.md). */
#include "shard.h"
#include "../base/diag.h"
#include "../base/line_reader.h"
#include "../common/options.h"
#include "../common/version.h"

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

const char *ciat_part_parse(void *target, const char *value)
{
    ciat_part *p = target;
    const char *s = value;
    uint32_t i, n;
    if (!small_number(&s, &i) || *s++ != '/' || !small_number(&s, &n) || *s)
        return "give the part as I/N: part I (0..N-1) of N";
    if (n < 1 || n > CIAT_PART_MAX) return "N must be 1..4096";
    if (i >= n) return "I must be below N (parts are numbered from 0)";
    p->i = i;
    p->n = n;
    return NULL;
}

char *shard_whole_command(int argc, char **argv)
{
    char **keep = xcalloc((size_t)argc + 1, sizeof *keep);
    int k = 0;
    for (int a = 0; a < argc; a++) {
        if (a > 0 && strcmp(argv[a], "--") == 0) {         /* operands from here on */
            while (a < argc) keep[k++] = argv[a++];
            break;
        }
        if (a > 0 && strcmp(argv[a], "--shard") == 0) {
            a++;                                            /* and its value */
            continue;
        }
        if (a > 0 && strncmp(argv[a], "--shard=", 8) == 0) continue;
        keep[k++] = argv[a];
    }
    char *cmd = options_command_line(k, keep);
    free(keep);
    return cmd;
}

char *shard_partial_path(const char *prefix_path, const ciat_part *p)
{
    size_t n = strlen(prefix_path) + 64;
    char *s = xmalloc(n);
    snprintf(s, n, "%s.ciat_partial.%" PRIu32 "-of-%" PRIu32, prefix_path, p->i, p->n);
    return s;
}

/* ---- writing ---- */

void partial_begin(out_file *f, const ciat_part *p, const char *command, bool json, const char *const *paths,
                   int ntraces)
{
    out_file_printf(f, "%s %d ciat %s\n", PARTIAL_MAGIC, PARTIAL_VERSION, DSMTRACE_VERSION);
    out_file_printf(f, "shard %" PRIu32 " %" PRIu32 "\n", p->i, p->n);
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

enum { COUNT_FIELDS = 10 };

static void counts_put(const sched_counts *sc, uint64_t *v)
{
    const uint64_t w[COUNT_FIELDS] = { sc->is.executed, sc->is.fetched, sc->is.branches, sc->is.calls,
                                       sc->is.instrumented, sc->is.discontinuities, sc->records, sc->sync_idle,
                                       sc->phase_end_idle, sc->io_idle };
    memcpy(v, w, sizeof w);
}

void partial_counts(out_file *f, const char *tag, int t, const sched_counts *sc)
{
    uint64_t v[COUNT_FIELDS];
    counts_put(sc, v);
    partial_u64s(f, tag, t, v, COUNT_FIELDS);
}

/* A thread's counters: the 21 fixed ones (atomics, the load and store
 * classes, raw war waw rar), then only what is not zero as tagged tokens:
 * ln/sn strings, le/se:LEN exact lengths, lb/sb:K buckets, c:TYPE calls
 * (count:time_us:bytes), s:K sharing and i:K invalidation degrees. */
enum { STATS_FIXED = 1 + LOAD_CLASSES + STORE_CLASSES + 4 };

static void strings_put(FILE *s, char k, const string_counts *c)
{
    if (c->strings) fprintf(s, " %cn:%" PRIu64, k, c->strings);
    for (int l = 0; l <= STRING_EXACT; l++)
        if (c->exact[l]) fprintf(s, " %ce:%d:%" PRIu64, k, l, c->exact[l]);
    for (int b = 0; b < STRING_BUCKETS; b++)
        if (c->bucket[b]) fprintf(s, " %cb:%d:%" PRIu64, k, b, c->bucket[b]);
}

static void degrees_put(FILE *s, char k, const degree_vec *v)
{
    for (uint32_t i = 0; i < v->len; i++)
        if (v->n[i]) fprintf(s, " %c:%" PRIu32 ":%" PRIu64, k, i, v->n[i]);
}

void partial_stats(out_file *f, int t, const thread_stats *st)
{
    uint64_t v[STATS_FIXED], *p = v;
    *p++ = st->atomics;
    for (int i = 0; i < LOAD_CLASSES; i++) *p++ = st->load_class[i];
    for (int i = 0; i < STORE_CLASSES; i++) *p++ = st->store_class[i];
    *p++ = st->raw;
    *p++ = st->war;
    *p++ = st->waw;
    *p++ = st->rar;
    FILE *s = out_file_stream(f);
    fprintf(s, "stats %d", t);
    for (int i = 0; i < STATS_FIXED; i++) fprintf(s, " %" PRIu64, v[i]);
    strings_put(s, 'l', &st->load_strings);
    strings_put(s, 's', &st->store_strings);
    if (st->calls)
        for (int c = 0; c < 256; c++)
            if (st->calls[c].count || st->calls[c].time_us || st->calls[c].bytes)
                fprintf(s, " c:%d:%" PRIu64 ":%" PRIu64 ":%" PRIu64, c, st->calls[c].count,
                        st->calls[c].time_us, st->calls[c].bytes);
    degrees_put(s, 's', &st->sharing);
    degrees_put(s, 'i', &st->invalidation);
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
    char *line;                 /* the current record's line (the reader's buffer) */
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
    p->line = line;
    char *sp = strchr(line, ' ');
    if (sp) *sp = '\0';
    return (partial_rec){ line, sp ? sp + 1 : line + strlen(line) };
}

/* The next record of part k, which must have the tag. */
static char *expect(partial_in *in, int k, const char *tag)
{
    partial_rec r = partial_next(in, k);
    if (strcmp(r.tag, tag) != 0) partial_fail(in, k, "'%s' where a '%s' record belongs", r.tag, tag);
    return r.rest;
}

static bool parse_u64(const char **s, uint64_t *v)
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

void partial_parse_u64s(const partial_in *in, int k, char *text, uint64_t *v, size_t n)
{
    const char *s = text;
    for (size_t i = 0; i < n; i++) {
        if (i && *s++ != ' ') partial_fail(in, k, "%zu numbers expected", n);
        if (!parse_u64(&s, &v[i])) partial_fail(in, k, "%zu numbers expected", n);
    }
    if (*s) partial_fail(in, k, "%zu numbers expected", n);
}

const char *partial_lead_u64s(const partial_in *in, int k, const char *text, uint64_t *v, size_t n, const char *bad)
{
    const char *s = text;
    for (size_t i = 0; i < n; i++) {
        if (i) s++;                     /* the blank after the number before */
        if (!parse_u64(&s, &v[i]) || *s != ' ') partial_fail(in, k, "%s", bad);
    }
    return s;
}

void partial_parse_counts(const partial_in *in, int k, char *text, int *t, sched_counts *sc)
{
    uint64_t v[1 + COUNT_FIELDS];
    partial_parse_u64s(in, k, text, v, 1 + COUNT_FIELDS);
    if (v[0] >= (uint64_t)in->traces) partial_fail(in, k, "thread %" PRIu64 " of %d", v[0], in->traces);
    *t = (int)v[0];
    *sc = (sched_counts){ .is = { .executed = v[1], .fetched = v[2], .branches = v[3], .calls = v[4],
                                  .instrumented = v[5], .discontinuities = v[6] },
                          .records = v[7], .sync_idle = v[8], .phase_end_idle = v[9], .io_idle = v[10] };
}

/* "KEY:A[:B…]" tokens of a stats record: the numbers after the key. */
static bool token_numbers(const char **s, uint64_t *v, int n)
{
    for (int i = 0; i < n; i++)
        if (*(*s)++ != ':' || !parse_u64(s, &v[i])) return false;
    return true;
}

void partial_add_stats(const partial_in *in, int k, char *text, thread_stats *all, int nthreads)
{
    const char *s = text;
    uint64_t t;
    if (!parse_u64(&s, &t) || t >= (uint64_t)nthreads) partial_fail(in, k, "a stats record of no thread");
    thread_stats *st = &all[t];
    uint64_t v[STATS_FIXED];
    for (int i = 0; i < STATS_FIXED; i++)
        if (*s++ != ' ' || !parse_u64(&s, &v[i])) partial_fail(in, k, "%d counters expected", STATS_FIXED);
    const uint64_t *p = v;
    st->atomics += *p++;
    for (int i = 0; i < LOAD_CLASSES; i++) st->load_class[i] += *p++;
    for (int i = 0; i < STORE_CLASSES; i++) st->store_class[i] += *p++;
    st->raw += *p++;
    st->war += *p++;
    st->waw += *p++;
    st->rar += *p++;
    while (*s) {
        if (*s++ != ' ') partial_fail(in, k, "a blank between fields expected");
        char key[3] = { s[0], s[0] && s[1] != ':' ? s[1] : '\0', '\0' };
        s += strlen(key);
        uint64_t a[4];
        string_counts *sc = key[0] == 'l' ? &st->load_strings : key[0] == 's' ? &st->store_strings : NULL;
        if (sc && key[1] == 'n' && token_numbers(&s, a, 1)) {
            sc->strings += a[0];
        } else if (sc && key[1] == 'e' && token_numbers(&s, a, 2) && a[0] <= STRING_EXACT) {
            sc->exact[a[0]] += a[1];
        } else if (sc && key[1] == 'b' && token_numbers(&s, a, 2) && a[0] < STRING_BUCKETS) {
            sc->bucket[a[0]] += a[1];
        } else if (strcmp(key, "c") == 0 && token_numbers(&s, a, 4) && a[0] < 256) {
            if (!st->calls) st->calls = xcalloc(256, sizeof *st->calls);
            st->calls[a[0]].count += a[1];
            st->calls[a[0]].time_us += a[2];
            st->calls[a[0]].bytes += a[3];
        } else if ((strcmp(key, "s") == 0 || strcmp(key, "i") == 0) && token_numbers(&s, a, 2) &&
                   a[0] < UINT32_MAX) {
            degree_add(key[0] == 's' ? &st->sharing : &st->invalidation, (uint32_t)a[0], a[1]);
        } else {
            partial_fail(in, k, "a counter that is not one of a thread's ('%s')", key);
        }
    }
}

partial_in *partial_open(char **paths, int n)
{
    if (n < 1) diag_usage_error("--merge: give the partial results of the shards (<prefix>.ciat_partial.I-of-N)");
    partial_in *in = xcalloc(1, sizeof *in);
    in->n = n;
    in->p = xcalloc((size_t)n, sizeof *in->p);
    int *at = NULL;                     /* at[i]: the operand holding part i */
    uint32_t parts = 0;
    for (int k = 0; k < n; k++) {
        part_file *p = &in->p[k];
        p->path = xstrdup(paths[k]);
        const char *why;
        p->r = line_reader_try_open(p->path, &why);
        if (!p->r) diag_data_error(p->path, DIAG_NO_OFFSET, "cannot read: %s", why);
        char want[64];
        snprintf(want, sizeof want, "%d ciat %s", PARTIAL_VERSION, DSMTRACE_VERSION);
        partial_rec r = partial_next(in, k);
        if (strcmp(r.tag, PARTIAL_MAGIC) != 0)
            partial_fail(in, k, "not a partial result of a sharded run (ciat --shard I/N writes them)");
        if (strcmp(r.rest, want) != 0)
            partial_fail(in, k, "a partial result of '%s', not of this ciat ('%s'): merge with the build that"
                         " wrote it", r.rest, want);
        uint64_t sh[2];
        partial_parse_u64s(in, k, expect(in, k, "shard"), sh, 2);
        if (sh[1] < 1 || sh[1] > CIAT_PART_MAX || sh[0] >= sh[1]) partial_fail(in, k, "no such part");
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
        char *cmd = expect(in, k, "command");
        if (k == 0) in->command = xstrdup(cmd);
        else if (strcmp(cmd, in->command) != 0)
            partial_fail(in, k, "a part of another run: its command is '%s', %s's '%s'", cmd, in->p[0].path,
                         in->command);
        char *json = expect(in, k, "json");
        if (strcmp(json, "yes") != 0 && strcmp(json, "no") != 0) partial_fail(in, k, "json yes or no expected");
        if (k == 0) in->json = strcmp(json, "yes") == 0;
        else if (in->json != (strcmp(json, "yes") == 0)) partial_fail(in, k, "json differs from %s's", in->p[0].path);
        uint64_t traces;
        partial_parse_u64s(in, k, expect(in, k, "traces"), &traces, 1);
        if (traces < 1 || traces > 65533) partial_fail(in, k, "no such number of traces");
        if (k == 0) in->traces = (int)traces;
        else if (traces != (uint64_t)in->traces) partial_fail(in, k, "traces differ from %s's", in->p[0].path);
    }
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
