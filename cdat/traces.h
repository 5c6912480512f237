/* traces.h — cdat's general and detailed traces (formats/CDAT-TRACES.md; the records are
 * formats/cdat_trace.h, the files formats/CDAT-TRACES.md).
 *
 * General: <prefix>.general.<n>, one file per processor n (0 … P-1) and per
 * I/O processor (-1, -2, …). Detailed: <prefix>.detailed. Compressed, each
 * name gets ".zst" (zstd, -z) or ".gz" (gzip, --gzip). Records collect in a buffer per file; the files are
 * out_files, so they appear only when the whole run succeeds, together with
 * the report. */
#ifndef DSM_CDAT_TRACES_H
#define DSM_CDAT_TRACES_H

#include <stdbool.h>
#include <stdint.h>

#include "machine.h"
#include "../common/out_file.h"

typedef struct trace_buf {
    out_file *f;
    char *buf;
    size_t len;
} trace_buf;

typedef struct cdat_traces {
    const machine *m;
    trace_buf *general;         /* [nio + n] for processor n, [nio - k] for I/O processor k; or NULL */
    unsigned nio;
    trace_buf detailed;         /* .f NULL when not written */
    uint8_t *sharing;           /* scratch: the sharing list of one record */
    unsigned sharing_len;       /* processors, plus one per node with interconnect caches */
} cdat_traces;

/* Open the traces the flags ask for; nio I/O processors. name_of(suffix)
 * gives an output path (caller's naming rules); the result is freed here. */
void traces_open(cdat_traces *t, const machine *m, unsigned nio, bool general, bool detailed, out_format format,
                 char *(*name_of)(void *ctx, const char *suffix), void *ctx);

/* Record a sequence (general: its request or return; detailed: every transaction). */
void traces_seq(cdat_traces *t, const mach_seq *s);
/* A processor's status change: 91 start active, 92 start idle. */
void traces_status(cdat_traces *t, int proc, uint64_t clock, bool active);

/* After a successful run: write what is buffered (the files appear with the
 * run's other outputs at out_file_commit_all). traces_free drops the files
 * not finished. */
void traces_finish(cdat_traces *t);
void traces_free(cdat_traces *t);

#endif
