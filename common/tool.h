/* tool.h — the driver the trace-reading tools (ciat, cdat) share: one option
 * table (the run options of run_options.h, then the tool's own), the trace
 * set and its readers, the scheduler's options, the report's header lines
 * (the "# options:" line is written from the same table that parses the
 * options and prints --help: every row with a header key is listed), the
 * phase lines both tools write, and the commit of the outputs.
 *
 * A tool's main keeps only its own parts:
 *
 *     tool t;
 *     tool_parse(&t, "ciat", own, argc, argv, usage_text);
 *     ... check own options; tool_open(&t, t.ops, n) for the trace operands
 *     ... set up; sched_create(&t.ts, t.readers, &t.so, &hooks); run
 *     tool_header_begin(&t, rep); own header lines; tool_header_options(...);
 *     tool_header_end(&t, rep, s); report_finish(rep);
 *     tool_commit(&t); tool_free(&t); */
#ifndef DSM_COMMON_TOOL_H
#define DSM_COMMON_TOOL_H

#include "options.h"
#include "private_ranges.h"
#include "report.h"
#include "run_options.h"
#include "scheduler.h"
#include "trace_set.h"

/* A row of a tool's own option table: the option, and its key in the
 * report's "# options:" line (NULL: not listed there); an OPT_CALL option
 * listed there needs show, which writes its value. when_set: listed only
 * when given (a flag that is set, a string that is not NULL, an OPT_CALL
 * value other than "no"), so options added later leave the reports of runs
 * without them as they were. */
typedef struct tool_option {
    option_spec o;
    const char *header;
    void (*show)(const void *target, char *buf, size_t cap);
    bool when_set;
} tool_option;

/* --workers N (ciat, cdat): threads the run may use (common/fanout.h); 0, the
 * default: fanout_pipeline's and fanout_create's choice. Not in the report
 * header: the outputs are the same whatever it is. */
#define TOOL_WORKERS_OPTION_ROW(target)                                                                       \
    { { "workers", 0, NULL, OPT_UINT, "N", (target), NULL, 1, 4096,                                           \
        "threads to use: 1 reads, schedules and analyses on one thread; 2 or more analyse on threads of"      \
        " their own beside the reading and scheduling, with the same outputs (default: one per processor"     \
        " the process may run on; one for a single trace)" }, NULL, NULL, false }

typedef struct tool {
    run_options ro;
    option_spec *specs;         /* run options, then the tool's own; ends with { 0 } */
    const tool_option *own;
    char **ops;                 /* the operands, in order */
    int nops;
    int argc;
    char **argv;
    trace_set ts;
    trace_reader **readers;     /* after tool_open */
    sched_options so;
} tool;

/* Sets the tool's name for messages, builds the option table (own ends with
 * a { { 0 } } row and must outlive t) and parses argv: --help and usage
 * errors end the process. */
void tool_parse(tool *t, const char *name, const tool_option *own, int argc, char **argv, const char *usage);

/* The trace set from the trace operands (ops[0..n-1]), its readers and the
 * scheduler's options. Usage errors exit 1, unreadable traces 2. */
void tool_open(tool *t, char **ops, int n);

/* An output's path: <prefix>.<suffix>, beside the traces or in -o DIR.
 * Caller frees. */
char *tool_output_path(const tool *t, const char *suffix);

/* Checks before the run that every output can be written: -o DIR must be an
 * existing, writable directory (it is not created: a mistyped name would
 * otherwise collect outputs unnoticed), and so must the traces' directory when
 * there is no -o. Exits 2 with the reason, before the first record is read. */
void tool_check_output_dir(const tool *t);

/* The header lines every report starts with: tool and version, command
 * line, the tool's summary block (summary(ctx, r) writes "# summary: …"
 * lines: the whole-run figures a reader looks for first; NULL: none), the
 * traces. */
void tool_header_begin(const tool *t, report *r, void (*summary)(void *ctx, report *r), void *ctx);
/* "# options: key value …": gap_limit, parallel_start and lenient, then
 * every own option with a header key, in table order, then extra (printf format, may be NULL) as more "key value" pairs. */
void tool_header_options(const tool *t, report *r, const char *extra, ...) __attribute__((format(printf, 3, 4)));
/* The closing header lines: slice mode, reader problems, scheduler
 * problems, the synchronisation rule. */
void tool_header_end(const tool *t, report *r, const scheduler *s);
/* One "private_range LO:HI" header line per range. */
void tool_header_ranges(report *r, const private_ranges *ranges);

/* The L00 phase line of one phase, and of the whole run (Rx). */
void tool_phase_line(report *r, const sched_phase *ph);
void tool_run_line(report *r, int phases, uint64_t end_clock, int threads);

/* Make every output appear (all or none), then close the readers and free
 * what tool_parse and tool_open made. */
void tool_commit(tool *t);
void tool_free(tool *t);

#endif
