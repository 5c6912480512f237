/* run_options.c — shared option table and trace-set selection. */
#include "run_options.h"
#include "../base/diag.h"

#include <string.h>
#include <unistd.h>

static const char *parse_sync(void *target, const char *value)
{
    static const char *const names[] = { "auto", "recorded", "simulated", "handovers" };
    for (int i = 0; i < 4; i++)
        if (strcmp(value, names[i]) == 0) {
            *(sched_sync *)target = (sched_sync)i;
            return NULL;
        }
    return "must be auto, recorded, simulated or handovers";
}

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
          "longest gap filled before a branch (default 4096 bytes; docs/scheduler.md §2)" },
        { "byte-order", 0, "byte_order", OPT_CALL, "ORDER", &ro->order, options_byte_order, 0, 0,
          "byte order of the traces: little, big or auto (default auto)" },
        { "lenient", 0, NULL, OPT_FLAG, NULL, &ro->lenient, NULL, 0, 0,
          "skip and count bad records, release deadlocks, and go on (counts in the report header)" },
        { "quiet", 'q', NULL, OPT_FLAG, NULL, &ro->quiet, NULL, 0, 0,
          "no progress meter on a terminal" },
        { "sync", 0, NULL, OPT_CALL, "MODE", &ro->sync, parse_sync, 0, 0,
          "synchronisation: recorded (replay the order the traces record), simulated (locks in"
          " pseudo-clock order), handovers (the recorded order, but locks whose sections hand nothing"
          " over in pseudo-clock order) or auto (recorded when the traces record it; default)" },
        { "turns", 0, NULL, OPT_UINT, "V", &ro->turns, NULL, 1, 0,
          "one processor: run one thread at a time, round robin, each for at most V instructions a turn"
          " or until it blocks (docs/scheduler.md §14)" },
        { "slice-mode", 'i', NULL, OPT_UINT, "P", &ro->slice_cpus, NULL, 1, 4096,
          "slice mode: the traces are processes, interleaved on P processors by their time stamps" },
        { "affinity", 'a', NULL, OPT_FLAG, NULL, &ro->affinity, NULL, 0, 0,
          "slice mode: a process always runs on the processor it first ran on" },
        { "slice-length", 's', NULL, OPT_UINT, "V", &ro->slice_length, NULL, 1, 0,
          "slice mode: swap a slice out after V instructions (default 20000)" },
        { "keep-slices", 'k', NULL, OPT_FLAG, NULL, &ro->keep_slices, NULL, 0, 0,
          "slice mode: never swap a slice out" },
        { "rr-interleaving", 0, "rr_interleaving", OPT_FLAG, NULL, &ro->rr_interleaving, NULL, 0, 0,
          "slice mode: ignore time stamps; process i on processor i mod P, round robin, V instructions a turn" },
    };
    memcpy(specs, common, sizeof common);
}

static void select_set(const run_options *ro, char **operands, int n, trace_set *ts);

/* Slice-mode options only make sense together (docs/scheduler.md §13). */
static void check_slice_options(const run_options *ro)
{
    const char *needs_i = ro->affinity ? "-a" : ro->slice_length ? "-s" : ro->keep_slices ? "-k" :
                          ro->rr_interleaving ? "-rr_interleaving" : NULL;
    if (!ro->slice_cpus) {
        if (needs_i) diag_usage_error("%s is a slice-mode option: give -i P (the number of processors)", needs_i);
        return;
    }
    if (ro->parallel_start) diag_usage_error("-p is for thread mode; slice mode (-i) has no spawn or join");
    if (ro->turns)
        diag_usage_error("--turns is for thread mode; slice mode (-i) runs processes by their time stamps"
                         " (one processor, turns of V instructions: -i 1 -rr_interleaving -s V)");
    if (ro->sync == SCHED_SYNC_RECORDED || ro->sync == SCHED_SYNC_HANDOVERS)
        diag_usage_error("--sync=%s is for thread mode; slice mode (-i) orders processes by their"
                         " time stamps and does not replay recorded synchronisation",
                         ro->sync == SCHED_SYNC_RECORDED ? "recorded" : "handovers");
    if (ro->keep_slices && ro->slice_length)
        diag_usage_error("-k (never swap out) and -s (swap out after V instructions) contradict each other");
    if (ro->keep_slices && ro->rr_interleaving)
        diag_usage_error("-k has no effect with -rr_interleaving, which switches processes every -s instructions");
}

void run_options_check_operands(const run_options *ro, char **operands, int n, int after)
{
    /* The set's operands are the leading NAME.P ones (at most 2, none with
     * -t); then come the tool's own, and nothing after them. */
    int set = 0;
    if (ro->trace_list) {
        if (n > 0 && trace_set_prefix_count(operands[0]) > 0) return;  /* select_set: "with -t, ..." */
    } else {
        while (set < n - after && trace_set_prefix_count(operands[set]) > 0) set++;
        if (set == 0) return;       /* no set: select_set says what is wrong */
        if (set > 2) diag_usage_error("extra operand '%s'", operands[2]);
    }
    if (n <= set + after) return;
    char of[4096];
    trace_set_of_file(operands[set + after], of, sizeof of);
    if (!of[0]) diag_usage_error("extra operand '%s'", operands[set + after]);
    /* a set's file where its name belongs: select_set says "did you mean" */
}

void run_options_trace_set(const run_options *ro, char **operands, int n, trace_set *ts)
{
    check_slice_options(ro);
    select_set(ro, operands, n, ts);
    if (ro->slice_cpus && !ro->rr_interleaving && trace_set_reads_stdin(ts))
        diag_usage_error("slice mode reads each trace twice (once ahead, to find where its slices"
                         " end): standard input ('-') cannot be used with -i");
}

static void select_set(const run_options *ro, char **operands, int n, trace_set *ts)
{
    if (ro->trace_list) {
        if (n > 0) diag_usage_error("with -t, give no trace prefix ('%s')", operands[0]);
        trace_set_from_list(ts, ro->trace_list);
        if (ro->call_list) trace_set_calls_from_list(ts, ro->call_list);
        return;
    }
    if (ro->call_list) diag_usage_error("-c needs -t (or give calls.P before trace.P)");
    if (n < 1) diag_usage_error("missing the trace prefix (trace.P, or -t trace_list)");
    if (n > 2) diag_usage_error("extra operand '%s'", operands[2]);
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
        .slice_cpus = (int)ro->slice_cpus,
        .affinity = ro->affinity,
        .keep_slices = ro->keep_slices,
        .rr_interleaving = ro->rr_interleaving,
        .slice_length = ro->slice_length,
        .order = ro->order,
        .sync = ro->sync,
        .turn_length = ro->turns,
    };
}
