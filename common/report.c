/* report.c — tagged report lines, header composed at the end, atomic output. */
#include "report.h"
#include "../base/diag.h"
#include "options.h"
#include "out_file.h"
#include "report_json.h"
#include "version.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct report {
    char *path;
    out_file *out;
    out_file *json;             /* "<path>.json", or NULL */
    FILE *body;
    int body_errno;             /* the first failed write to body, or 0 */
    char **header;
    size_t nheader, cap;
};

/* vsnprintf into a fresh allocation. */
static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    if (n < 0) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "bad report format");
    char *s = xmalloc((size_t)n + 1);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    return s;
}

report *report_open(const char *path)
{
    report *r = xcalloc(1, sizeof *r);
    r->path = xstrdup(path);
    r->out = out_file_open(path, false);
    r->body = tmpfile();
    if (!r->body)
        diag_data_error(path, DIAG_NO_OFFSET, "cannot create a temporary file: %s", strerror(errno));
    return r;
}

report *report_open_detached(void)
{
    report *r = xcalloc(1, sizeof *r);
    r->path = xstrdup("(detached report)");
    r->body = tmpfile();
    if (!r->body) diag_data_error(NULL, DIAG_NO_OFFSET, "cannot create a temporary file: %s", strerror(errno));
    return r;
}

size_t report_header_count(const report *r) { return r->nheader; }
const char *report_header_at(const report *r, size_t i) { return r->header[i]; }

void report_add_json(report *r)
{
    if (r->json) return;
    size_t n = strlen(r->path);
    char *jp = xmalloc(n + 6);
    memcpy(jp, r->path, n);
    memcpy(jp + n, ".json", 6);
    r->json = out_file_open(jp, false);
    free(jp);
}

/* The JSON document from the header and the body written so far. */
static void write_json(report *r)
{
    report_json *j = report_json_begin(r->json, diag_tool());
    for (size_t i = 0; i < r->nheader; i++) report_json_header(j, r->header[i]);
    rewind(r->body);
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, r->body)) > 0) {
        if (line[n - 1] == '\n') line[n - 1] = '\0';
        report_json_line(j, line);
    }
    free(line);
    if (ferror(r->body))
        diag_data_error(r->path, DIAG_NO_OFFSET, "cannot read back the report body");
    report_json_end(j);
}

void report_header(report *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *line = vformat(fmt, ap);
    va_end(ap);
    r->cap = xgrow((void **)&r->header, r->cap, r->nheader + 1, sizeof *r->header);
    r->header[r->nheader++] = line;
}

void report_standard_header(report *r, int argc, char **argv, const trace_set *ts,
                            trace_reader *const *readers)
{
    report_tool_header(r, argc, argv);
    report_traces_header(r, ts, readers);
}

void report_tool_header(report *r, int argc, char **argv)
{
    char *cmd = options_command_line(argc, argv);
    report_tool_header_command(r, cmd);
    free(cmd);
}

void report_tool_header_command(report *r, const char *command)
{
    report_header(r, " %s (dsmtrace) %s", diag_tool(), DSMTRACE_VERSION);
    report_header(r, " command: %s", command);
}

void report_traces_header(report *r, const trace_set *ts, trace_reader *const *readers)
{
    report_header(r, " traces: %d (%s)", ts->count, ts->name);
    for (int t = 0; t < ts->count; t++) {
        report_header(r, " trace %d: %s (%s-endian%s%s)", t, ts->paths[t],
                      smait_order_name(trace_reader_order(readers[t])),
                      trace_reader_compressed(readers[t]) ? ", " : "",
                      trace_reader_compressed(readers[t]) ? trace_reader_format(readers[t]) : "");
        if (ts->call_paths) report_header(r, " calls %d: %s", t, ts->call_paths[t]);
    }
}

/* " cut_traces N", only when N is not 0: the reports of whole traces stay as they were. */
static void cut_text(char *buf, size_t n, uint64_t cut)
{
    if (cut) snprintf(buf, n, " cut_traces %" PRIu64, cut);
    else buf[0] = '\0';
}

void report_reader_problems(report *r, const trace_set *ts, trace_reader *const *readers)
{
    char cut[48];
    for (int t = 0; t < ts->count; t++) {
        trace_reader_problems p = trace_reader_problem_counts(readers[t]);
        cut_text(cut, sizeof cut, p.cut_traces);
        if (trace_reader_problems_any(&p))
            report_header(r, " lenient: trace %d: skipped_records %" PRIu64 " truncated_bytes %"
                          PRIu64 " unpaired_calls %" PRIu64 " corrupt_streams %" PRIu64 "%s", t,
                          p.skipped_records, p.truncated_bytes, p.unpaired_calls, p.corrupt_streams, cut);
    }
    trace_reader_problems sum = trace_readers_problem_sum(readers, ts->count);
    cut_text(cut, sizeof cut, sum.cut_traces);
    report_header(r, " bad_input: skipped_records %" PRIu64 " truncated_bytes %" PRIu64
                  " unpaired_calls %" PRIu64 " corrupt_streams %" PRIu64 "%s", sum.skipped_records,
                  sum.truncated_bytes, sum.unpaired_calls, sum.corrupt_streams, cut);
}

void report_line(report *r, int phase, int thread, int ll, const char *name, const char *fmt, ...)
{
    char rt[16], tt[16];
    if (phase == REPORT_ALL_PHASES) snprintf(rt, sizeof rt, "x");
    else snprintf(rt, sizeof rt, "%d", phase);
    if (thread == REPORT_ALL_THREADS) snprintf(tt, sizeof tt, "x");
    else snprintf(tt, sizeof tt, "%d", thread);
    bool ok = fprintf(r->body, "R%sT%sL%02d: %s", rt, tt, ll, name) >= 0;
    if (fmt && *fmt) {
        va_list ap;
        va_start(ap, fmt);
        char *fields = vformat(fmt, ap);
        va_end(ap);
        if (*fields) ok &= fprintf(r->body, " %s", fields) >= 0;     /* no trailing blank when empty */
        free(fields);
    }
    ok &= fputc('\n', r->body) != EOF;
    if (!ok && !r->body_errno) r->body_errno = errno;
}

void report_slice_header(report *r, const sched_options *so)
{
    if (so->turn_length)
        report_header(r, " turns: one processor, round robin, turn_length %" PRIu64, so->turn_length);
    if (so->slice_cpus <= 0) return;
    uint64_t len = sched_slice_length(so);
    if (so->rr_interleaving)
        report_header(r, " slice_mode: processors %d interleaving round_robin slice_length %" PRIu64,
                      so->slice_cpus, len);
    else if (so->keep_slices)
        report_header(r, " slice_mode: processors %d interleaving slices affinity %s slice_length unlimited",
                      so->slice_cpus, so->affinity ? "yes" : "no");
    else
        report_header(r, " slice_mode: processors %d interleaving slices affinity %s slice_length %" PRIu64,
                      so->slice_cpus, so->affinity ? "yes" : "no", len);
}

void report_sync_header(report *r, const scheduler *s)
{
    report_header(r, " sync: %s", sched_sync_mode(s));
    char text[1024];
    for (unsigned c = 1; c <= SMAIT_UM_COUNT; c++)     /* the unnamed causes (0) last */
        if (sched_unmodelled_warning(s, c % SMAIT_UM_COUNT, text, sizeof text))
            report_header(r, " warning: %s", text);
    if (sched_tracing_summary(s, text, sizeof text)) report_header(r, " tracing: %s", text);
    if (sched_tracing_warning(s, text, sizeof text)) report_header(r, " warning: %s", text);
}

void report_cpu_line(report *r, int phase, int t, int ll, uint64_t active, uint64_t idle)
{
    char pct[REPORT_NUM];
    report_line(r, phase, t, ll, "cpu", "active %" PRIu64 " idle %" PRIu64 " utilization %s", active, idle,
                report_pct(pct, active, active + idle));
}

const char *report_pct(char *buf, uint64_t n, uint64_t d)
{
    snprintf(buf, REPORT_NUM, "%.2f%%", d ? 100.0 * (double)n / (double)d : 0.0);
    return buf;
}

const char *report_ratio(char *buf, double n, double d)
{
    snprintf(buf, REPORT_NUM, "%.4f", d != 0 ? n / d : 0.0);
    return buf;
}

/* Reports finished without JSON: their "<path>.json", if an earlier run
 * left one, is removed once the outputs are committed (report_drop_stale_json);
 * a run that fails forgets them (nothing earlier is touched). */
static char **stale;
static size_t nstale, stale_cap;

static void forget_stale(void)
{
    for (size_t i = 0; i < nstale; i++) free(stale[i]);
    free(stale);
    stale = NULL;
    nstale = stale_cap = 0;
}

static void on_fatal(diag_cleanup how)
{
    if (how == DIAG_CLEANUP_UNWIND) forget_stale();
}

void report_drop_stale_json(void)
{
    for (size_t i = 0; i < nstale; i++)
        if (unlink(stale[i]) != 0 && errno != ENOENT)
            diag_warn(stale[i], DIAG_NO_OFFSET, "cannot remove this JSON of an earlier report: %s", strerror(errno));
    forget_stale();
}

void report_finish(report *r)
{
    if (!r->json) {
        static bool hooked;
        if (!hooked) diag_on_fatal(on_fatal);
        hooked = true;
        size_t n = strlen(r->path) + 6;
        char *jp = xmalloc(n);
        snprintf(jp, n, "%s.json", r->path);
        stale_cap = xgrow((void **)&stale, stale_cap, nstale + 1, sizeof *stale);
        stale[nstale++] = jp;
    }
    if (!r->body_errno && fflush(r->body) != 0) r->body_errno = errno;
    if (r->body_errno || ferror(r->body))
        diag_data_error(r->path, DIAG_NO_OFFSET, "cannot write the report body (a temporary file): %s",
                        strerror(r->body_errno ? r->body_errno : EIO));
    out_file *f = r->out;
    for (size_t i = 0; i < r->nheader; i++) out_file_printf(f, "#%s\n", r->header[i]);
    rewind(r->body);
    char buf[1 << 16];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, r->body)) > 0) out_file_write(f, buf, k);
    if (ferror(r->body))
        diag_data_error(r->path, DIAG_NO_OFFSET, "cannot read back the report body");
    r->out = NULL;              /* out_file_commit_all's now */
    if (r->json) {
        write_json(r);
        r->json = NULL;
    }
    report_free(r);
}

void report_free(report *r)
{
    if (!r) return;
    if (r->out) out_file_abort(r->out);
    if (r->json) out_file_abort(r->json);
    if (r->body) fclose(r->body);
    for (size_t i = 0; i < r->nheader; i++) free(r->header[i]);
    free(r->header);
    free(r->path);
    free(r);
}
