/* smait_cmd.h — the subcommands of the smait utility. */
#ifndef DSM_SMAIT_CMD_H
#define DSM_SMAIT_CMD_H

#include <stdbool.h>
#include "../common/scheduler.h"
#include "../common/trace_reader.h"

/* Dump traces as text; with several paths, as a trace set with thread sections. */
int smait_dump(char **paths, int n, const trace_reader_opts *opts);
/* Assemble a text file into OUT (or OUT.P.t for a trace set). */
int smait_asm(const char *text_path, const char *out, smait_order order);
/* Re-encode files as plain, gzip or zstd (zstd at the given level), each
 * output committed in turn, its input removed unless keep. */
typedef enum convert_to { CONVERT_PLAIN, CONVERT_GZIP, CONVERT_ZSTD } convert_to;
int smait_convert(char **paths, int n, convert_to to, int level, bool keep);

/* Count records per kind and call type; validate. */
int smait_stat(char **paths, int n, const trace_reader_opts *opts);

/* Print the scheduler's interleaving of a trace set (with fetches if asked). */
int smait_schedule(const trace_set *ts, const trace_reader_opts *ro, const sched_options *so,
                   bool fetches);

#endif
