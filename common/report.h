/* report.h — the report files of ciat and cdat (docs/reports.md).
 *
 * Header lines start with '#': tool, version, command line, inputs, byte
 * order, options in force and (at the end of the run) problem counts; never
 * times or host names, so reports are byte-identical for identical runs.
 * Every other line is "R<r>T<t>L<ll>: <name> <fields>".
 *
 * The body streams to an anonymous temporary file; report_finish writes the
 * header (which may include counts known only at the end) and the body to the
 * report's out_file, which appears with the run's other outputs at
 * out_file_commit_all, so a failed run leaves no report behind. With
 * report_add_json, the same report also goes to "<path>.json" (report_json.h,
 * docs/json.md), made from the text lines and committed with them. */
#ifndef DSM_COMMON_REPORT_H
#define DSM_COMMON_REPORT_H

#include <limits.h>
#include <stdint.h>

#include "report_fields.h"
#include "scheduler.h"
#include "trace_set.h"

typedef struct report report;

/* Opens the report's out_file at once (an unwritable place fails before
 * the run). */
report *report_open(const char *path);
/* A report that writes nothing (report_free only): its header lines are
 * read back with report_header_count and report_header_at (ciat --shard
 * keeps them in its partial result). */
report *report_open_detached(void);
size_t report_header_count(const report *r);
const char *report_header_at(const report *r, size_t i);

/* Also write the report as JSON to "<path>.json" (opened at once, as the
 * report). */
void report_add_json(report *r);

/* A '#' header line (without the '#'); lines keep their order. */
void report_header(report *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Standard header: tool and version, command line (argv[0] reduced to its
 * base name), the traces with their byte order and compression. */
void report_standard_header(report *r, int argc, char **argv, const trace_set *ts,
                            trace_reader *const *readers);
/* Its two parts: the tool and command lines; the trace lines. */
void report_tool_header(report *r, int argc, char **argv);
/* The same with the command line given as text (ciat --merge: the whole run's). */
void report_tool_header_command(report *r, const char *command);
void report_traces_header(report *r, const trace_set *ts, trace_reader *const *readers);
/* Reader problem counts (--lenient) of every trace, as header lines. */
void report_reader_problems(report *r, const trace_set *ts, trace_reader *const *readers);

/* One tagged line: phase from 1 or REPORT_ALL_PHASES, thread (or processor,
 * negative for I/O processors) or REPORT_ALL_THREADS, ll 0..99. */
void report_line(report *r, int phase, int thread, int ll, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 6, 7)));

/* Number formats of docs/reports.md: "P%" as %.2f of n/d, ratios %.4f; a zero
 * denominator gives 0. buf must hold REPORT_NUM bytes. */
enum { REPORT_NUM = 48 };
const char *report_pct(char *buf, uint64_t n, uint64_t d);
const char *report_ratio(char *buf, double n, double d);

/* The order's header line: slice mode's options (docs/scheduler.md §13), or
 * --turns' "# turns: …" (§14); nothing for the pseudo-clock rule. */
void report_slice_header(report *r, const sched_options *so);

/* The synchronisation rule in force ("# sync: recorded" or "# sync: simulated
 * (REASON)", docs/scheduler.md §6.1) and one "# warning: unmodelled …" line
 * per cause of unmodelled synchronisation. */
void report_sync_header(report *r, const scheduler *s);

/* The processor line of both tools: "cpu active N idle N utilization P%"
 * (utilization = active / (active + idle)). ciat tags it L09 (slice mode),
 * cdat L14. */
void report_cpu_line(report *r, int phase, int t, int ll, uint64_t active, uint64_t idle);

/* Write header + body to the report's out_file and free r (the file appears
 * with out_file_commit_all); exits 2 on a write error. */
void report_finish(report *r);
/* After the outputs are committed (tool_commit): remove the "<path>.json"
 * an earlier run left beside each report finished without JSON, so that a
 * JSON file never stands beside another report than its own. */
void report_drop_stale_json(void);
/* Drop r and its output (NULL: nothing). */
void report_free(report *r);

#endif
