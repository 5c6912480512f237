/* traces.h — cdat's general and detailed traces (formats/CDAT-TRACES.md; the records are
 * formats/cdat_trace.h, the files formats/CDAT-TRACES.md).
 *
 * General: <prefix>.general.<n>, one file per processor n (0 … P-1) and per
 * I/O processor (-1, -2, …). Detailed: <prefix>.detailed. Compressed, each
 * name gets ".zst" (zstd, -z) or ".gz" (gzip, --gzip). Records collect in a buffer per file; the files are
 * out_files, so they appear only when the whole run succeeds, together with
 * the report.
 *
 * A --shard part writes its records keyed instead (traces_open_keyed): one
 * line "EVENT LINE FILE RECORD" each into a temporary file, EVENT and LINE
 * the place of the reference that made it in the whole run's order (the
 * scheduler's event, counted alike in every part, and the line's index in
 * it; a status record: LINE 4294967295, after its event's lines), FILE `d`
 * (detailed) or the processor's number (general). The merge sorts the parts'
 * lines by the two keys and writes each record to its file (traces_put):
 * the whole run's traces, since each line's sequences are one part's, in
 * that part's order (docs/sharding.md §9). */
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
    FILE *keyed;                /* a --shard part's keyed records (above), or NULL */
    bool status;                /* keyed: write the status records too (part 0) */
    bool keyed_detailed;        /* keyed: the detailed trace's records too (general: general is set) */
    const uint64_t *event;      /* keyed: the key of the record being written */
    const uint32_t *line;
    char *scratch;              /* keyed: one record */
    uint8_t *sharing;           /* scratch: the sharing list of one record */
    unsigned sharing_len;       /* processors, plus one per node with interconnect caches */
} cdat_traces;

/* Open the traces the flags ask for; nio I/O processors. name_of(suffix)
 * gives an output path (caller's naming rules); the result is freed here. */
void traces_open(cdat_traces *t, const machine *m, unsigned nio, bool general, bool detailed, out_format format,
                 char *(*name_of)(void *ctx, const char *suffix), void *ctx);

/* A --shard part's keyed records into keyed (the caller's, which it closes
 * after traces_free): the key of each is *event and *line when it is made;
 * status: with the status records (the scheduler's, alike in every part:
 * one part writes them). */
void traces_open_keyed(cdat_traces *t, const machine *m, FILE *keyed, bool general, bool detailed, bool status,
                       const uint64_t *event, const uint32_t *line);
/* The merge: record (with its newline) to file `d` or a processor's general
 * trace (text: the FILE field of a keyed line); false when the traces
 * opened have no such file. */
bool traces_put(cdat_traces *t, const char *file, const char *record, size_t len);

/* --jobs: the n parts' keyed records (each file rewound here, not
 * closed), in key order, into t's files: what the merge of --shard parts
 * does with their records. */
void traces_merge_keyed(cdat_traces *t, FILE **parts, int n);

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
