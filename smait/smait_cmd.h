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
/* --records: copy the bytes, or re-code the records plain or delta (formats/SMAIT.md §11.1). */
typedef enum convert_records { RECORDS_AS_THEY_ARE, RECORDS_PLAIN, RECORDS_DELTA } convert_records;
typedef struct convert_opts {
    convert_to to;
    int level;
    bool keep;
    convert_records records;
    smait_order order;          /* of the input, when its records are read */
} convert_opts;
int smait_convert(char **paths, int n, const convert_opts *o);

/* Count records per kind and call type; validate. */
int smait_stat(char **paths, int n, const trace_reader_opts *opts);

/* Print the figures that differ between two reports of one tool; 0 when
 * none does, 1 when some do (exits 2 on bad input, other tools or shapes). */
typedef struct diff_options {
    double rel_tol;         /* figures within this fraction of the larger count as equal */
    bool ignore_header;     /* leave the '#' lines out */
    bool whole_run;         /* only RxTx lines and the header (ciat, cdat) */
} diff_options;
int smait_diff(const char *a, const char *b, const diff_options *o);

/* Print the scheduler's interleaving of a trace set (with fetches if asked). */
int smait_schedule(const trace_set *ts, const trace_reader_opts *ro, const sched_options *so,
                   bool fetches);

#endif
