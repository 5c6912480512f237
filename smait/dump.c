/* dump.c — `smait dump`: binary traces to the text form, one line per record. */
#include "smait_cmd.h"
#include "../base/diag.h"
#include "../formats/smait_text.h"

#include <inttypes.h>
#include <stdio.h>

static void dump_one(trace_reader *r)
{
    char line[SMAIT_TEXT_MAX];
    const smait_raw *p;
    while ((p = trace_reader_next(r)) != NULL) {
        smait_text_format(p, line, sizeof line);
        printf("%" PRIu64 ": %s\n", trace_reader_index(r), line);
    }
    trace_reader_problems pr = trace_reader_problem_counts(r);
    if (pr.skipped_records || pr.truncated_bytes || pr.corrupt_streams)
        printf("# lenient: skipped %" PRIu64 " bad simple records, %" PRIu64
               " trailing bytes, %" PRIu64 " corrupt compressed streams\n",
               pr.skipped_records, pr.truncated_bytes, pr.corrupt_streams);
    if (pr.cut_traces) printf("# lenient: the trace is cut (no end_trace after its last record)\n");
}

int smait_dump(char **paths, int n, const trace_reader_opts *opts)
{
    smait_order first_order = SMAIT_ORDER_LITTLE;
    for (int i = 0; i < n; i++) {
        trace_reader *r = trace_reader_open(paths[i], opts);
        if (i == 0) {
            first_order = trace_reader_order(r);
            printf("# smait dump of %s\n", n == 1 ? paths[0] : "a trace set");
            printf("byteorder %s\n", smait_order_name(first_order));
            if (n > 1) printf("threads %d\n", n);
        } else if (trace_reader_order(r) != first_order) {
            /* One text holds one byte order. */
            smait_order order = trace_reader_order(r);
            trace_reader_close(r);      /* nothing left allocated at exit */
            diag_data_error(paths[i], DIAG_NO_OFFSET, "is %s-endian but %s is %s-endian; dump"
                            " them separately", smait_order_name(order),
                            paths[0], smait_order_name(first_order));
        }
        if (n > 1) printf("thread %d    # %s\n", i, paths[i]);
        dump_one(r);
        trace_reader_close(r);
    }
    if (fflush(stdout) != 0) diag_data_error("(standard output)", DIAG_NO_OFFSET, "write failed");
    return EXIT_OK;
}
