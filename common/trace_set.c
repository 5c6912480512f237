/* trace_set.c — prefix and list-file trace sets, output naming. */
#include "trace_set.h"
#include "../base/diag.h"
#include "../base/line_reader.h"
#include "path.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

enum { MAX_TRACES = 1 << 16 };

int trace_set_prefix_count(const char *prefix)
{
    const char *dot = strrchr(prefix, '.');
    if (!dot || !dot[1]) return -1;
    long v = 0;
    for (const char *p = dot + 1; *p; p++) {
        if (!isdigit((unsigned char)*p)) return -1;
        v = v * 10 + (*p - '0');
        if (v > MAX_TRACES) return -1;
    }
    return v > 0 ? (int)v : -1;
}

void trace_set_of_file(const char *arg, char *buf, size_t size)
{
    buf[0] = '\0';
    size_t n = strlen(arg);
    if (n >= 3 && strcmp(arg + n - 3, ".gz") == 0) n -= 3;
    else if (n >= 4 && strcmp(arg + n - 4, ".zst") == 0) n -= 4;
    char *name = xmalloc(n + 1);
    memcpy(name, arg, n);
    name[n] = '\0';
    char *dot = strrchr(name, '.');
    if (dot && dot[1]) {
        char *end;
        unsigned long k = strtoul(dot + 1, &end, 10);
        if (!*end && isdigit((unsigned char)dot[1])) {
            *dot = '\0';
            int p = trace_set_prefix_count(name);
            if (p > 0 && k < (unsigned long)p) snprintf(buf, size, "%s", name);
        }
    }
    free(name);
}

/* The trace sets beside base whose names are base.P (a file base.P.0, plain
 * or compressed, in base's directory), as "base.P" or "base.P or base.Q",
 * the three smallest P; "" when there is none. For a "did you mean" after a
 * prefix without its P. */
static int cmp_ulong(const void *a, const void *b)
{
    unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
    return (x > y) - (x < y);
}

static void sets_named(const char *base, char *buf, size_t size)
{
    buf[0] = '\0';
    char *dir = xstrdup(base);
    char *slash = strrchr(dir, '/');
    const char *name = slash ? slash + 1 : dir;
    if (slash) *slash = '\0';
    DIR *d = opendir(slash ? (*dir ? dir : "/") : ".");
    unsigned long *found = NULL;
    size_t n = 0, cap = 0, nl = strlen(name);
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL) {
        const char *s = e->d_name;
        if (strncmp(s, name, nl) != 0 || s[nl] != '.' || !isdigit((unsigned char)s[nl + 1])) continue;
        char *end;
        unsigned long p = strtoul(s + nl + 1, &end, 10);
        if (p == 0 || p > MAX_TRACES || (strcmp(end, ".0") && strcmp(end, ".0.gz") && strcmp(end, ".0.zst")))
            continue;
        if (n == cap) found = xrealloc(found, (cap = cap ? 2 * cap : 8) * sizeof *found);
        found[n++] = p;
    }
    if (d) closedir(d);
    if (n) qsort(found, n, sizeof *found, cmp_ulong);     /* found is NULL when n is 0 */
    size_t at = 0;
    int shown = 0;
    for (size_t i = 0; i < n && shown < 3 && at < size; i++) {
        if (i && found[i] == found[i - 1]) continue;        /* one set under two names */
        at += (size_t)snprintf(buf + at, size - at, "%s%s.%lu", shown++ ? " or " : "", base, found[i]);
    }
    free(found);
    free(dir);
}

static char **paths_from_prefix(const char *prefix, int *count)
{
    int n = trace_set_prefix_count(prefix);
    char set[4096];
    if (n < 0) trace_set_of_file(prefix, set, sizeof set);
    if (n < 0 && set[0])
        diag_usage_error("'%s' is a file of a trace set; give the set: did you mean %s?", prefix, set);
    if (n < 0) {
        char sets[256];
        sets_named(prefix, sets, sizeof sets);
        if (sets[0])
            diag_usage_error("trace prefix '%s' must end in '.P', P = the number of traces: did you mean %s?",
                             prefix, sets);
        diag_usage_error("trace prefix '%s' must end in '.P', P = the number of traces"
                         " (1..%d), e.g. trace_level_3.4", prefix, MAX_TRACES);
    }
    char **paths = xcalloc((size_t)n, sizeof *paths);
    size_t len = strlen(prefix) + 16;
    for (int t = 0; t < n; t++) {
        paths[t] = xmalloc(len);
        snprintf(paths[t], len, "%s.%d", prefix, t);
    }
    *count = n;
    return paths;
}

/* The names file t of a prefix may have, in this order: plain, then the
 * names gzip and zstd give a file they compress. */
static const char *const NAME_SUFFIXES[] = { "", ".gz", ".zst" };
enum { NAME_KINDS = sizeof NAME_SUFFIXES / sizeof NAME_SUFFIXES[0] };

/* true unless path surely does not exist: a file that is there but cannot be
 * read is found, so that opening it reports the real reason. */
static bool name_taken(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 || (errno != ENOENT && errno != ENOTDIR);
}

/* Replace each "prefix.t" by the one of its names that exists. None is bad
 * input listing every name tried; more than one is refused as ambiguous (a
 * plain trace left beside its compressed copy may differ from it). */
static void resolve_names(char **paths, int n)
{
    for (int t = 0; t < n; t++) {
        char *name[NAME_KINDS];
        int found[NAME_KINDS], nfound = 0;
        size_t len = strlen(paths[t]) + 8;
        for (int k = 0; k < NAME_KINDS; k++) {
            name[k] = xmalloc(len);
            snprintf(name[k], len, "%s%s", paths[t], NAME_SUFFIXES[k]);
            if (name_taken(name[k])) found[nfound++] = k;
        }
        if (nfound == 0)
            diag_data_error(paths[t], DIAG_NO_OFFSET, "cannot read trace: %s (tried %s, %s and %s)",
                            strerror(ENOENT), name[0], name[1], name[2]);
        if (nfound > 1) {
            size_t cap = NAME_KINDS * (len + 8), at = 0;
            char *list = xmalloc(cap);      /* freed by the exit */
            for (int i = 0; i < nfound; i++)
                at += (size_t)snprintf(list + at, cap - at, "%s%s",
                                       i == 0 ? "" : i == nfound - 1 ? " and " : ", ", name[found[i]]);
            diag_data_error(paths[t], DIAG_NO_OFFSET, "ambiguous: %s exist; keep one of them, or"
                            " name the files in a trace list (-t)", list);
        }
        for (int k = 0; k < NAME_KINDS; k++)
            if (k != found[0]) free(name[k]);
        free(paths[t]);
        paths[t] = name[found[0]];
    }
}

enum { LIST_MAX_LINE = 65536 };

static char **paths_from_list(const char *list, int *count)
{
    line_reader *lr = line_reader_open(list);
    /* A path line is short; a huge line is a wrong file, refused before it is buffered. */
    line_reader_set_max(lr, LIST_MAX_LINE);
    char **paths = NULL;
    size_t cap = 0;
    int n = 0;
    char *line;
    while ((line = line_reader_next(lr, NULL)) != NULL) {
        while (isspace((unsigned char)*line)) line++;
        size_t k = strlen(line);
        while (k > 0 && isspace((unsigned char)line[k - 1])) line[--k] = '\0';
        if (k == 0 || line[0] == '#') continue;
        if (n >= MAX_TRACES)
            diag_data_error(list, DIAG_NO_OFFSET, "line %llu: more than %d traces",
                            (unsigned long long)line_reader_lineno(lr), MAX_TRACES);
        cap = xgrow((void **)&paths, cap, (size_t)n + 1, sizeof *paths);
        paths[n] = strcmp(line, "-") == 0 ? xstrdup(line) : path_beside(list, line);
        n++;
    }
    line_reader_close(lr);
    if (n == 0) diag_data_error(list, DIAG_NO_OFFSET, "trace list names no traces");
    int stdin_uses = 0;
    for (int t = 0; t < n; t++) stdin_uses += strcmp(paths[t], "-") == 0;
    if (stdin_uses && n > 1)
        diag_data_error(list, DIAG_NO_OFFSET, "'-' (standard input) is only allowed when the"
                        " list names exactly one trace");
    *count = n;
    return paths;
}

/* pc.4.1 is a set's name as well (P = 1): when it is a file of the set pc.4
 * and has no files of its own, the user meant pc.4. */
static void file_given_for_set(const char *prefix)
{
    struct stat st;
    if (stat(prefix, &st) != 0 || !S_ISREG(st.st_mode)) return;
    size_t len = strlen(prefix) + 8;
    char *first = xmalloc(len);
    bool any = false;
    for (int k = 0; k < NAME_KINDS && !any; k++) {
        snprintf(first, len, "%s.0%s", prefix, NAME_SUFFIXES[k]);
        any = name_taken(first);
    }
    free(first);
    char set[4096];
    trace_set_of_file(prefix, set, sizeof set);
    if (!any && set[0])
        diag_usage_error("'%s' is a file of a trace set; give the set: did you mean %s?", prefix, set);
}

void trace_set_from_prefix(trace_set *ts, const char *prefix)
{
    memset(ts, 0, sizeof *ts);
    file_given_for_set(prefix);
    ts->paths = paths_from_prefix(prefix, &ts->count);
    ts->name = xstrdup(prefix);
    resolve_names(ts->paths, ts->count);
}

void trace_set_from_list(trace_set *ts, const char *list_path)
{
    memset(ts, 0, sizeof *ts);
    ts->paths = paths_from_list(list_path, &ts->count);
    ts->name = xstrdup(list_path);
}

/* from_list: the count came from a file's contents, so a mismatch is bad
 * input (exit 2); from prefixes it is a bad command line (exit 1). */
static void set_calls(trace_set *ts, char **paths, int n, const char *from, bool from_list)
{
    if (n != ts->count) {
        for (int i = 0; i < n; i++) free(paths[i]);
        free(paths);
        if (from_list)
            diag_data_error(from, DIAG_NO_OFFSET, "names %d call traces but the detailed traces %s"
                            " name %d", n, ts->name, ts->count);
        diag_usage_error("call traces %s name %d traces but the detailed traces %s name %d",
                         from, n, ts->name, ts->count);
    }
    ts->call_paths = paths;
}

void trace_set_calls_from_prefix(trace_set *ts, const char *prefix)
{
    int n;
    file_given_for_set(prefix);
    char **p = paths_from_prefix(prefix, &n);
    set_calls(ts, p, n, prefix, false);
    resolve_names(ts->call_paths, n);
}

void trace_set_calls_from_list(trace_set *ts, const char *list_path)
{
    int n;
    char **p = paths_from_list(list_path, &n);
    set_calls(ts, p, n, list_path, true);
}

char *trace_set_output_path(const trace_set *ts, const char *out_dir, const char *suffix)
{
    const char *base = out_dir ? path_base(ts->name) : ts->name;
    size_t n = (out_dir ? strlen(out_dir) + 1 : 0) + strlen(base) + strlen(suffix) + 2;
    char *p = xmalloc(n);
    if (out_dir)
        snprintf(p, n, "%s/%s.%s", out_dir, base, suffix);
    else
        snprintf(p, n, "%s.%s", base, suffix);
    return p;
}

/* Read buffers of a whole set share this budget (simple records): 512 KiB
 * in all, 64 KiB at most and 8 KiB at least per reader (so 4 threads get
 * 4 x 64 KiB, 64 and more threads 8 KiB each). The replay takes records
 * from every reader in turn, so all the buffers are in use at once; kept
 * this small they stay in the second-level cache beside the tool's own
 * state, a record is read from cache instead of memory, and a set of
 * hundreds of traces keeps its memory small (compared with 32 MiB in all,
 * 64 KiB to 512 KiB each: bench/README.md E1; make bench's "scheduler (N
 * threads" lines measure it now). A refill
 * costs about as much as a few records, so 1024 records amortise it. */
enum { SET_BUFFER_BUDGET = 64 << 10, MIN_BUFFER = 1024, MAX_BUFFER = 8192 };

trace_reader **trace_set_open(const trace_set *ts, const trace_reader_opts *opts)
{
    trace_reader **r = xcalloc((size_t)ts->count, sizeof *r);
    trace_reader_opts o = { 0 };
    if (opts) o = *opts;            /* NULL: defaults, as for trace_reader_open */
    if (!o.buffer_records) {
        size_t share = SET_BUFFER_BUDGET / (size_t)(ts->call_paths ? 2 * ts->count : ts->count);
        o.buffer_records = share < MIN_BUFFER ? MIN_BUFFER : share > MAX_BUFFER ? MAX_BUFFER : share;
    }
    trace_reader_opts oc = o;
    oc.calls = true;
    for (int t = 0; t < ts->count; t++) {
        r[t] = trace_reader_open(ts->paths[t], &o);
        if (ts->call_paths)
            trace_reader_attach_calls(r[t], trace_reader_open(ts->call_paths[t], &oc));
    }
    return r;
}

bool trace_set_reads_stdin(const trace_set *ts)
{
    for (int t = 0; t < ts->count; t++)
        if (strcmp(ts->paths[t], "-") == 0 || (ts->call_paths && strcmp(ts->call_paths[t], "-") == 0)) return true;
    return false;
}

void trace_set_close_readers(const trace_set *ts, trace_reader **readers)
{
    if (!readers) return;
    for (int t = 0; t < ts->count; t++) trace_reader_close(readers[t]);
    free(readers);
}

static void free_paths(char **p, int n)
{
    if (!p) return;
    for (int i = 0; i < n; i++) free(p[i]);
    free(p);
}

void trace_set_free(trace_set *ts)
{
    free_paths(ts->paths, ts->count);
    free_paths(ts->call_paths, ts->count);
    free(ts->name);
    memset(ts, 0, sizeof *ts);
}
