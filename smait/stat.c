/* stat.c — `smait stat`: record counts per kind and call type, and validation. */
#include "smait_cmd.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

typedef struct counts {
    uint64_t simple, records;
    uint64_t kind[SMAIT_KIND_COUNT];
    uint64_t access[3];
    uint64_t size[16];
    uint64_t regtype[3];
    uint64_t call[256];
} counts;

static void count_trace(trace_reader *r, counts *c)
{
    const smait_raw *p;
    while ((p = trace_reader_next(r)) != NULL) {
        smait_kind k = smait_classify(p->f1);
        c->records++;
        c->kind[k]++;
        if (k == SMAIT_MEM) {
            c->simple++;
            c->access[smait_mem_access(p->f1)]++;
            c->size[smait_mem_size_code(p->f1)]++;
            c->regtype[smait_mem_regtype(p->f1)]++;
        } else if (k == SMAIT_CALL_PART) {
            c->simple += SMAIT_CALL_PARTS;
            c->call[smait_call_type(p->f1)]++;
        } else {
            c->simple++;
        }
    }
}

static void print_counts(const char *path, trace_reader *r, const counts *c)
{
    printf("file %s\n", path);
    printf("byte_order %s\n", smait_order_name(trace_reader_order(r)));
    printf("compressed %s\n", trace_reader_compressed(r) ? trace_reader_format(r) : "no");
    if (trace_reader_compressed(r)) {
        /* ratio = data bytes per file byte, as zstd -l and gzip -l count it */
        uint64_t file_bytes, data_bytes;
        trace_reader_bytes(r, &file_bytes, &data_bytes);
        printf("compressed_bytes %" PRIu64 "\n", file_bytes);
        printf("data_bytes %" PRIu64 "\n", data_bytes);
        if (file_bytes) printf("ratio %.2f\n", (double)data_bytes / (double)file_bytes);
    }
    if (trace_reader_delta_coded(r)) printf("coding delta\n");     /* formats/SMAIT.md §11.1 */
    printf("simple_records %" PRIu64 "\n", c->simple);
    printf("records %" PRIu64 "\n", c->records);
    printf("memory %" PRIu64 " load %" PRIu64 " store %" PRIu64 " atomic %" PRIu64 "\n",
           c->kind[SMAIT_MEM], c->access[0], c->access[1], c->access[2]);
    printf("memory_size");
    for (unsigned s = 0; s < 12; s++)
        if (c->size[s]) printf(" %u:%" PRIu64, smait_size_bytes(s), c->size[s]);
    printf("\n");
    printf("memory_register fixed %" PRIu64 " float %" PRIu64 " vector %" PRIu64 "\n",
           c->regtype[0], c->regtype[1], c->regtype[2]);
    printf("proc_start %" PRIu64 "\n", c->kind[SMAIT_PROC_START]);
    printf("branch %" PRIu64 "\n", c->kind[SMAIT_BRANCH]);
    printf("proc_call %" PRIu64 "\n", c->kind[SMAIT_PROC_CALL]);
    printf("call %" PRIu64 "\n", c->kind[SMAIT_CALL_PART]);
    for (unsigned t = 0; t < 256; t++) {
        if (!c->call[t]) continue;
        const char *name = smait_call_name(t);
        if (name) printf("call %s %" PRIu64 "\n", name, c->call[t]);
        else printf("call type_0x%02x %" PRIu64 "\n", t, c->call[t]);
    }
    trace_reader_problems pr = trace_reader_problem_counts(r);
    printf("skipped_records %" PRIu64 "\n", pr.skipped_records);
    printf("truncated_bytes %" PRIu64 "\n", pr.truncated_bytes);
    printf("corrupt_streams %" PRIu64 "\n", pr.corrupt_streams);
    printf("cut_traces %" PRIu64 "\n", pr.cut_traces);
    printf("valid %s\n", trace_reader_problems_any(&pr) ? "no" : "yes");
}

int smait_stat(char **paths, int n, const trace_reader_opts *opts)
{
    int status = EXIT_OK;
    for (int i = 0; i < n; i++) {
        counts c;
        memset(&c, 0, sizeof c);
        trace_reader *r = trace_reader_open(paths[i], opts);
        count_trace(r, &c);
        if (i) printf("\n");
        print_counts(paths[i], r, &c);
        trace_reader_problems pr = trace_reader_problem_counts(r);
        if (trace_reader_problems_any(&pr)) status = EXIT_DATA;
        trace_reader_close(r);
    }
    if (fflush(stdout) != 0) diag_data_error("(standard output)", DIAG_NO_OFFSET, "write failed");
    return status;
}
