/* tool.c — the shared driver of ciat and cdat (tool.h). */
#include "tool.h"
#include "../base/diag.h"
#include "out_file.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void tool_parse(tool *t, const char *name, const tool_option *own, int argc, char **argv, const char *usage)
{
    diag_set_tool(name);
    memset(t, 0, sizeof *t);
    size_t nown = 0;
    while (own[nown].o.name || own[nown].o.short_name) nown++;
    t->specs = xcalloc(RUN_OPTION_COUNT + nown + 1, sizeof *t->specs);
    run_options_init(&t->ro, t->specs);
    for (size_t i = 0; i < nown; i++) t->specs[RUN_OPTION_COUNT + i] = own[i].o;
    t->own = own;
    t->argc = argc;
    t->argv = argv;
    t->ops = xcalloc((size_t)argc + 1, sizeof *t->ops);
    t->nops = options_parse(t->specs, argc, argv, usage, t->ops);
}

void tool_open(tool *t, char **ops, int n)
{
    if (t->ro.trace_list && strcmp(t->ro.trace_list, "-") == 0)
        diag_usage_error("-t -: the outputs are named after the trace list, and a list read from standard"
                         " input has no name; give the list as a file");
    run_options_check_operands(&t->ro, ops, n, 0);
    run_options_trace_set(&t->ro, ops, n, &t->ts);
    tool_check_output_dir(t);
    trace_reader_opts rdo = run_options_reader(&t->ro);
    t->readers = trace_set_open(&t->ts, &rdo);
    t->so = run_options_sched(&t->ro);
}

char *tool_output_path(const tool *t, const char *suffix)
{
    return trace_set_output_path(&t->ts, t->ro.out_dir, suffix);
}

void tool_check_output_dir(const tool *t)
{
    const char *dir = t->ro.out_dir;
    char *own = NULL;
    if (!dir) {             /* beside the traces: the directory of the set's name */
        const char *slash = strrchr(t->ts.name, '/');
        own = slash ? strndup(t->ts.name, (size_t)(slash - t->ts.name) + (slash == t->ts.name)) : xstrdup(".");
        if (!own) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory");
        dir = own;
    }
    struct stat st;
    const char *why = NULL;
    if (strcmp(dir, "-") == 0 && t->ro.out_dir)
        diag_usage_error("-o -: the outputs are several files, which cannot all go to one standard output;"
                         " give a directory");
    if (stat(dir, &st) != 0) why = errno == ENOENT ? "no such directory (it is not created)" : strerror(errno);
    else if (!S_ISDIR(st.st_mode)) why = "not a directory";
    else if (access(dir, W_OK | X_OK) != 0) why = "the directory is not writable";
    if (why) {
        char where[4200];
        snprintf(where, sizeof where, "%s%s", t->ro.out_dir ? "-o " : "output directory ", dir);
        free(own);
        diag_data_error(where, DIAG_NO_OFFSET, "%s", why);
    }
    free(own);
}

void tool_header_begin(const tool *t, report *r, void (*summary)(void *ctx, report *r), void *ctx)
{
    report_tool_header(r, t->argc, t->argv);
    if (summary) summary(ctx, r);
    report_traces_header(r, &t->ts, t->readers);
}

/* The run options listed in "# options:" (their rows are run_options.c's). */
static const struct { const char *name, *header; } run_header[] = {
    { "gap-limit", "gap_limit" }, { "parallel", "parallel_start" }, { "lenient", "lenient" },
};

static void option_value(const option_spec *s, void (*show)(const void *, char *, size_t), char *buf, size_t cap)
{
    switch (s->type) {
    case OPT_FLAG: snprintf(buf, cap, "%s", *(const bool *)s->target ? "yes" : "no"); break;
    case OPT_UINT: snprintf(buf, cap, "%" PRIu64, *(const uint64_t *)s->target); break;
    case OPT_STRING: {
        const char *v = *(const char *const *)s->target;
        snprintf(buf, cap, "%s", v ? v : "none");
        break;
    }
    case OPT_CALL:
        if (show) show(s->target, buf, cap);
        else snprintf(buf, cap, "?");
        break;
    }
}

/* A when_set row is listed when given: a flag set, a string not NULL, an
 * OPT_CALL value other than "no". */
static bool option_given(const option_spec *s, const char *value)
{
    switch (s->type) {
    case OPT_FLAG: return *(const bool *)s->target;
    case OPT_STRING: return *(const char *const *)s->target != NULL;
    default: return strcmp(value, "no") != 0;
    }
}

void tool_header_options(const tool *t, report *r, const char *extra, ...)
{
    char line[2048], value[256];
    size_t k = (size_t)snprintf(line, sizeof line, " options:");
    for (size_t i = 0; i < sizeof run_header / sizeof *run_header; i++)
        for (const option_spec *s = t->specs; s < t->specs + RUN_OPTION_COUNT; s++)
            if (s->name && strcmp(s->name, run_header[i].name) == 0) {
                option_value(s, NULL, value, sizeof value);
                k += (size_t)snprintf(line + k, sizeof line - k, " %s %s", run_header[i].header, value);
            }
    for (const tool_option *o = t->own; (o->o.name || o->o.short_name) && k < sizeof line; o++) {
        if (!o->header) continue;
        option_value(&o->o, o->show, value, sizeof value);
        if (o->when_set && !option_given(&o->o, value)) continue;
        k += (size_t)snprintf(line + k, sizeof line - k, " %s %s", o->header, value);
    }
    if (extra && k < sizeof line) {
        line[k++] = ' ';
        va_list ap;
        va_start(ap, extra);
        vsnprintf(line + k, sizeof line - k, extra, ap);
        va_end(ap);
    }
    report_header(r, "%s", line);
}

void tool_header_ranges(report *r, const private_ranges *ranges)
{
    for (int i = 0; i < ranges->n; i++)
        report_header(r, " private_range 0x%08" PRIx32 ":0x%08" PRIx32, ranges->r[i].lo, ranges->r[i].hi);
}

void tool_header_end(const tool *t, report *r, const scheduler *s)
{
    report_slice_header(r, &t->so);
    report_reader_problems(r, &t->ts, t->readers);
    sched_problems sp = sched_problem_counts(s);
    report_header(r, " scheduler: deadlocks_released %" PRIu64 " bad_unlocks %" PRIu64
                  " unprocessed_records %" PRIu64, sp.deadlocks, sp.bad_unlocks, sp.unprocessed);
    report_sync_header(r, s);
}

void tool_phase_line(report *r, const sched_phase *ph)
{
    report_line(r, ph->number, REPORT_ALL_THREADS, 0, "phase", "kind %s by %s start %" PRIu64
                " end %" PRIu64 " threads %d", sched_phase_kind_name(ph->kind),
                sched_phase_cause_name(ph->by), ph->start_clock, ph->end_clock, ph->active);
}

void tool_run_line(report *r, int phases, uint64_t end_clock, int threads)
{
    report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 0, "phase", "kind all phases %d start 0"
                " end %" PRIu64 " threads %d", phases, end_clock, threads);
}

void tool_commit(tool *t)
{
    (void)t;
    out_file_commit_all();
    report_drop_stale_json();
}

void tool_free(tool *t)
{
    if (t->readers) trace_set_close_readers(&t->ts, t->readers);
    trace_set_free(&t->ts);
    free(t->specs);
    free(t->ops);
    memset(t, 0, sizeof *t);
}
