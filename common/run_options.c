/* run_options.c — shared option table and trace-set selection. */
#include "run_options.h"
#include "diag.h"

#include <string.h>
#include <unistd.h>

void run_options_init(run_options *ro, option_spec *specs)
{
    memset(ro, 0, sizeof *ro);
    ro->gap_limit = ISTREAM_DEFAULT_GAP_LIMIT;
    const option_spec common[RUN_OPTION_COUNT] = {
        { "trace-list", 't', NULL, OPT_STRING, "FILE", &ro->trace_list, NULL, 0, 0,
          "read the trace paths from FILE (one per line, thread order); outputs are named after FILE" },
        { "call-list", 'c', NULL, OPT_STRING, "FILE", &ro->call_list, NULL, 0, 0,
          "read the call-trace paths from FILE (pairs with -t)" },
        { "output-dir", 'o', NULL, OPT_STRING, "DIR", &ro->out_dir, NULL, 0, 0,
          "write the output files into DIR instead of beside the traces" },
        { "parallel", 'p', NULL, OPT_FLAG, NULL, &ro->parallel_start, NULL, 0, 0,
          "no spawn/join in the traces: one parallel phase of all threads" },
        { "gap-limit", 0, "gap_limit", OPT_UINT, "BYTES", &ro->gap_limit, NULL, 0, UINT32_MAX,
          "longest gap filled before a branch (default 4096 bytes; SPEC section 4)" },
        { "byte-order", 0, "byte_order", OPT_CALL, "ORDER", &ro->order, options_byte_order, 0, 0,
          "byte order of the traces: little, big or auto (default auto)" },
        { "lenient", 0, NULL, OPT_FLAG, NULL, &ro->lenient, NULL, 0, 0,
          "skip and count bad records, release deadlocks, and go on (counts in the report header)" },
        { "quiet", 'q', NULL, OPT_FLAG, NULL, &ro->quiet, NULL, 0, 0,
          "no progress meter on a terminal" },
    };
    memcpy(specs, common, sizeof common);
}

void run_options_trace_set(const run_options *ro, char **operands, int n, trace_set *ts)
{
    if (ro->trace_list) {
        if (n > 0) diag_usage_error("with -t, give no trace prefix ('%s')", operands[0]);
        trace_set_from_list(ts, ro->trace_list);
        if (ro->call_list) trace_set_calls_from_list(ts, ro->call_list);
        return;
    }
    if (ro->call_list) diag_usage_error("-c needs -t (or give calls.P before trace.P)");
    if (n < 1) diag_usage_error("missing the trace prefix (trace.P, or -t trace_list)");
    if (n > 2) diag_usage_error("too many operands ('%s')", operands[2]);
    trace_set_from_prefix(ts, operands[n - 1]);
    if (n == 2) trace_set_calls_from_prefix(ts, operands[0]);
}

trace_reader_opts run_options_reader(const run_options *ro)
{
    return (trace_reader_opts){ .order = ro->order, .lenient = ro->lenient };
}

sched_options run_options_sched(const run_options *ro)
{
    return (sched_options){
        .parallel_start = ro->parallel_start,
        .lenient = ro->lenient,
        .gap_limit = (uint32_t)ro->gap_limit,
        .progress = !ro->quiet && isatty(STDERR_FILENO),
    };
}
