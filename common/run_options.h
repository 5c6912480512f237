/* run_options.h — the options every trace-reading tool shares (ciat, cdat,
 * smait schedule), in one option table, and the trace set they select.
 *
 *   [calls.P] trace.P            or   [-c call_list] -t trace_list
 *   --byte-order, --lenient, -p, --gap-limit, -q, -o DIR, --sync, --turns
 *   slice mode: -i p, -a, -s v, -k, -rr_interleaving */
#ifndef DSM_COMMON_RUN_OPTIONS_H
#define DSM_COMMON_RUN_OPTIONS_H

#include "options.h"
#include "scheduler.h"
#include "trace_set.h"

typedef struct run_options {
    smait_order order;
    bool lenient;
    bool parallel_start;        /* -p */
    uint64_t gap_limit;
    bool quiet;                 /* -q */
    const char *trace_list;     /* -t */
    const char *call_list;      /* -c */
    const char *out_dir;        /* -o */
    uint64_t slice_cpus;        /* -i p: slice mode (docs/scheduler.md §13); 0 = thread mode */
    bool affinity;              /* -a */
    uint64_t slice_length;      /* -s v; 0 = not given */
    bool keep_slices;           /* -k */
    bool rr_interleaving;       /* -rr_interleaving */
    sched_sync sync;            /* --sync=auto|recorded|simulated */
    uint64_t turns;             /* --turns V: one processor (docs/scheduler.md §14); 0 = not given */
} run_options;

enum { RUN_OPTION_COUNT = 15 };

/* Defaults, and the option table entries that fill ro (RUN_OPTION_COUNT
 * entries written to specs). */
void run_options_init(run_options *ro, option_spec *specs);

/* operands[0..n) are the trace set's (-t list, or [calls.P] trace.P) and
 * then `after` operands of the tool's own (cdat's cfg_file: 1): a usage
 * error "extra operand 'X'" for an operand past them (cdat pc.4 4x4.ini
 * extra). Call before taking the tool's operands from the end. */
void run_options_check_operands(const run_options *ro, char **operands, int n, int after);

/* Build the trace set from the operands left for traces ([calls.P] trace.P,
 * or none with -t), and check the options that go together. Usage errors
 * exit 1. */
void run_options_trace_set(const run_options *ro, char **operands, int n, trace_set *ts);

/* Reader and scheduler options that follow from ro. */
trace_reader_opts run_options_reader(const run_options *ro);
sched_options run_options_sched(const run_options *ro);

#endif
