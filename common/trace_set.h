/* trace_set.h — the P traces of one run and the names of its outputs (docs/trace-sets.md).
 *
 * A set comes from a prefix "trace.P" (files trace.P.0 … trace.P.(P-1), P the
 * number after the last dot, each also found as trace.P.k.gz or trace.P.k.zst
 * but refused when it exists under two names) or from a list file (-t), one path per line, blank
 * lines and '#' comments ignored, relative paths taken relative to the list
 * file's directory. Call traces (-c or a calls.P prefix) pair with it thread by
 * thread. Outputs are named "<prefix>.<suffix>", where prefix is the trace
 * prefix or the list file's path, and go into -o DIR when given. */
#ifndef DSM_COMMON_TRACE_SET_H
#define DSM_COMMON_TRACE_SET_H

#include <stdbool.h>

#include "trace_reader.h"

typedef struct trace_set {
    int count;              /* P */
    char **paths;           /* detailed traces, thread order */
    char **call_paths;      /* call traces, or NULL */
    char *name;             /* prefix or list path: outputs are named after it */
} trace_set;

/* Number after the last dot of prefix, or -1 when there is none (or it is 0). */
int trace_set_prefix_count(const char *prefix);

/* For a file of a set given where the set's name belongs (pc.4.0,
 * pc.4.0.gz, pc.4.3.zst): the set's name pc.4 into buf, else "". */
void trace_set_of_file(const char *arg, char *buf, size_t size);

/* Fill ts from a prefix or a list file; usage errors exit 1, unreadable lists,
 * a prefix's missing or ambiguous files 2. */
void trace_set_from_prefix(trace_set *ts, const char *prefix);
void trace_set_from_list(trace_set *ts, const char *list_path);
/* Add call traces from a prefix or list; their count must equal ts->count. */
void trace_set_calls_from_prefix(trace_set *ts, const char *prefix);
void trace_set_calls_from_list(trace_set *ts, const char *list_path);

/* "<name>.<suffix>", or "<dir>/<basename(name)>.<suffix>" with out_dir. Caller frees. */
char *trace_set_output_path(const trace_set *ts, const char *out_dir, const char *suffix);

/* Open every trace (and pair its call trace). Returns an array of count readers. */
trace_reader **trace_set_open(const trace_set *ts, const trace_reader_opts *opts);
void trace_set_close_readers(const trace_set *ts, trace_reader **readers);

/* Whether a trace or call trace of the set is standard input ('-'), which
 * can be read only once. */
bool trace_set_reads_stdin(const trace_set *ts);

void trace_set_free(trace_set *ts);

#endif
