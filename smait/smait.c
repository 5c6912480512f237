/* smait.c — the smait utility: inspect, assemble, validate, convert and
 * schedule SMAIT traces, and compare reports. Only parses the command line;
 * the work is in dump.c, asm.c, stat.c, convert.c, schedule.c and diff.c. */
#include "install_dirs.h"
#include "smait_cmd.h"
#include "../base/diag.h"
#include "../common/options.h"
#include "../common/run_options.h"
#include "../common/trace_set.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

static const char usage[] =
    "Usage: smait dump [options] FILE...      print records as text (several files: a trace set)\n"
    "       smait asm [options] TEXT OUT      text form to binary (thread sections: OUT.P.t;\n"
    "                                         OUT '-': one trace to standard output)\n"
    "       smait stat [options] FILE...      record counts per kind and call type; validation\n"
    "       smait convert --to FORMAT [options] FILE...\n"
    "                                         rewrite files as plain, gzip or zstd (FILE.gz,\n"
    "                                         FILE.zst; FILE without .gz/.zst for plain)\n"
    "       smait schedule [options] [calls.P] trace.P\n"
    "                                         print the interleaving ciat and cdat use\n"
    "       smait diff [options] A B          the figures that differ between two reports\n"
    "                                         of ciat, cdat or tdat (exit 0 same, 1 different,\n"
    "                                         2 trouble)\n"
    "       smait COMMAND --help              the options of one command\n"
    "\n"
    "FILE may be plain, gzip- or zstd-compressed or '-' (standard input; not\n"
    "for convert). The text form is described in smait-text(5) and\n"
    "" DSM_DOCDIR "/formats/SMAIT-TEXT.md; the binary format in\n"
    "smait(5) and " DSM_DOCDIR "/formats/SMAIT.md (formats/ in the source tree).\n"
    "Exit status: 0 ok, 1 usage error, 2 bad input, 3 internal error.\n";

static const char usage_schedule[] =
    "Usage: smait schedule [options] [calls.P] trace.P\n"
    "       smait schedule [options] [-c call_list] -t trace_list\n"
    "\n"
    "Prints, one line each, every record in the order the shared scheduler\n"
    "processes it ('CLOCK Tthread INDEX: record'; in slice mode, -i P,\n"
    "'CLOCK Pprocessor Tprocess INDEX: record'), phase begins and ends with\n"
    "per-thread (and per-processor) counts, and threads stopping and resuming\n"
    "(docs/scheduler.md).\n";

static const char usage_diff[] =
    "Usage: smait diff [options] A B\n"
    "\n"
    "Compares two reports of one tool (ciat's or cdat's report, tdat's frequency\n"
    "file; text or the JSON form, --json) figure by figure and prints, under each\n"
    "line that differs, 'NAME: A -> B (change, relative change)', the lines only\n"
    "one report has as 'only in A: LINE' or 'only in B: LINE', and last a count.\n"
    "Lines are matched by tag, name and words, so their order does not matter;\n"
    "histogram entries missing on one side count 0. Header ('#') lines are\n"
    "compared too unless --ignore-header. Details: docs/json.md.\n"
    "With --whole-run only the whole run's lines (RxTx) and the header are\n"
    "compared, so reports of runs with other thread counts or phases can be.\n"
    "Exit status: 0 the same, 1 different, 2 a usage error, bad input or reports\n"
    "of different tools or shapes (other phases, threads or classes), 3 internal\n"
    "error (as diff(1): 2 is trouble, never a difference).\n";

static const char *parse_rel_tol(void *target, const char *value)
{
    char *end;
    errno = 0;
    double v = strtod(value, &end);
    if (end == value || *end || errno || !(v >= 0 && v <= 1)) return "must be a number from 0 to 1 (0.01 = 1%)";
    *(double *)target = v;
    return NULL;
}

static int cmd_diff(int argc, char **argv)
{
    diff_options o = { 0 };
    const option_spec specs[] = {
        { "rel-tol", 0, NULL, OPT_CALL, "X", &o.rel_tol, parse_rel_tol, 0, 0,
          "figures whose difference is at most X times the larger are equal (0..1, default 0)" },
        { "ignore-header", 0, NULL, OPT_FLAG, NULL, &o.ignore_header, NULL, 0, 0,
          "leave the '#' header lines out (command line, paths, options)" },
        { "whole-run", 0, NULL, OPT_FLAG, NULL, &o.whole_run, NULL, 0, 0,
          "compare only the whole run's lines (RxTx) and the header: reports of other thread counts"
          " or phases (ciat, cdat)" },
        { 0 }
    };
    diag_set_usage_status(EXIT_DATA);       /* 1 is "different" */
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int n = options_parse(specs, argc, argv, usage_diff, ops);
    if (n != 2) diag_usage_error("diff needs two reports, A and B (%d given)", n);
    int status = smait_diff(ops[0], ops[1], &o);
    free(ops);
    return status;
}

static int cmd_schedule(int argc, char **argv)
{
    run_options ro;
    bool fetches = false;
    option_spec specs[RUN_OPTION_COUNT + 2];
    run_options_init(&ro, specs);
    specs[RUN_OPTION_COUNT] = (option_spec){ "fetches", 0, NULL, OPT_FLAG, NULL, &fetches, NULL,
                                             0, 0, "also print every instruction fetch" };
    specs[RUN_OPTION_COUNT + 1] = (option_spec){ 0 };
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int n = options_parse(specs, argc, argv, usage_schedule, ops);
    trace_set ts;
    run_options_trace_set(&ro, ops, n, &ts);
    trace_reader_opts rdo = run_options_reader(&ro);
    sched_options so = run_options_sched(&ro);
    int status = smait_schedule(&ts, &rdo, &so, fetches);
    trace_set_free(&ts);
    free(ops);
    return status;
}

static const char *parse_to(void *target, const char *value)
{
    int *to = target;
    if (strcmp(value, "plain") == 0) *to = CONVERT_PLAIN;
    else if (strcmp(value, "gzip") == 0) *to = CONVERT_GZIP;
    else if (strcmp(value, "zstd") == 0) *to = CONVERT_ZSTD;
    else return "must be plain, gzip or zstd";
    return NULL;
}

static const char *parse_records(void *target, const char *value)
{
    convert_records *r = target;
    if (strcmp(value, "plain") == 0) *r = RECORDS_PLAIN;
    else if (strcmp(value, "delta") == 0) *r = RECORDS_DELTA;
    else return "must be plain or delta";
    return NULL;
}

int main(int argc, char **argv)
{
    diag_set_tool("smait");
    if (argc >= 2 && strcmp(argv[1], "schedule") == 0)
        return cmd_schedule(argc - 1, argv + 1);
    if (argc >= 2 && strcmp(argv[1], "diff") == 0)
        return cmd_diff(argc - 1, argv + 1);
    smait_order order = SMAIT_ORDER_AUTO;
    bool lenient = false;
    const char *set_prefix = NULL;
    int to = -1;            /* a convert_to once --to is given */
    bool keep = false;
    uint64_t level = 0;
    convert_records records = RECORDS_AS_THEY_ARE;
    const option_spec specs[] = {
        { "byte-order", 0, "byte_order", OPT_CALL, "ORDER", &order, options_byte_order, 0, 0,
          "byte order of the traces: little, big or auto (default auto); for asm: of the output" },
        { "lenient", 0, NULL, OPT_FLAG, NULL, &lenient, NULL, 0, 0,
          "skip and count bad records instead of stopping (dump, stat)" },
        { "set", 0, NULL, OPT_STRING, "NAME.P", &set_prefix, NULL, 0, 0,
          "dump/stat/convert the trace set NAME.P, e.g. --set pc.4 (files pc.4.0 ... pc.4.3,"
          " each also found as pc.4.k.gz or pc.4.k.zst)" },
        { "to", 0, NULL, OPT_CALL, "FORMAT", &to, parse_to, 0, 0,
          "convert: the format to write, plain, gzip or zstd" },
        { "level", 0, NULL, OPT_UINT, "N", &level, NULL, 1, 19,
          "convert --to zstd: compression level 1..19 (default 3; gzip is written at level 6)" },
        { "keep", 0, NULL, OPT_FLAG, NULL, &keep, NULL, 0, 0,
          "convert: keep the input files (by default each is removed once its output is"
          " complete; a set with a file under two names is refused)" },
        { "records", 0, NULL, OPT_CALL, "CODING", &records, parse_records, 0, 0,
          "convert: also re-code the records, plain or delta (formats/SMAIT.md §11.1; the input"
          " must then be a valid trace); by default the bytes are copied as they are" },
        { 0 }
    };
    char **ops = xcalloc((size_t)argc + 1, sizeof *ops);
    int n = options_parse(specs, argc, argv, usage, ops);
    if (n < 1) diag_usage_error("missing command (dump, asm, stat, convert, schedule or diff)");
    const char *cmd = ops[0];
    bool convert = strcmp(cmd, "convert") == 0;
    if (!convert && (to >= 0 || level || keep || records != RECORDS_AS_THEY_ARE))
        diag_usage_error("--to, --level, --keep and --records are options of convert");
    if (convert && to < 0) diag_usage_error("convert needs --to plain, --to gzip or --to zstd");
    if (level && to != CONVERT_ZSTD) diag_usage_error("--level is for --to zstd");
    trace_reader_opts ro = { .order = order, .lenient = lenient };
    char **files = ops + 1;
    int nfiles = n - 1;
    trace_set ts = { 0 };
    if (set_prefix) {
        if (nfiles) diag_usage_error("--set and file operands do not go together");
        trace_set_from_prefix(&ts, set_prefix);
        files = ts.paths;
        nfiles = ts.count;
    }
    int status;
    if (strcmp(cmd, "dump") == 0) {
        if (nfiles < 1) diag_usage_error("dump needs a trace file");
        status = smait_dump(files, nfiles, &ro);
    } else if (strcmp(cmd, "stat") == 0) {
        if (nfiles < 1) diag_usage_error("stat needs a trace file");
        status = smait_stat(files, nfiles, &ro);
    } else if (convert) {
        if (nfiles < 1) diag_usage_error("convert needs a file (or --set PREFIX.P)");
        convert_opts co = { (convert_to)to, level ? (int)level : 3, keep, records, order };
        status = smait_convert(files, nfiles, &co);
    } else if (strcmp(cmd, "asm") == 0) {
        if (set_prefix || nfiles != 2) diag_usage_error("asm needs TEXT and OUT");
        status = smait_asm(files[0], files[1], order);
    } else {
        diag_usage_error("unknown command '%s' (dump, asm, stat, convert, schedule or diff)", cmd);
    }
    diag_lenient_summary();     /* dump, stat, convert: the --lenient warnings' counts */
    trace_set_free(&ts);
    free(ops);
    return status;
}
