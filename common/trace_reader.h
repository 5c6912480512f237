/* trace_reader.h — streaming reader of one SMAIT trace (formats/SMAIT.md), shared by all tools.
 *
 * Reads a plain file, a gzip or zstd file (detected by its magic bytes) or standard
 * input ("-"), decodes delta-coded records (formats/smait_delta.h), decides the byte order, converts records to host order and validates them
 * in bulk. trace_reader_next hands out one logical record at a time: a pointer to
 * its simple records in host order (6 contiguous ones for a call record), valid
 * until the next call. Bad input stops the run with exit status 2 and a message
 * naming the file, byte offset, record index and reason; with `lenient` bad
 * records are skipped and counted instead.
 *
 * Record indices count simple (8-byte) records from 0, so byte offset = 8 × index.
 * Memory is one fixed buffer per reader, whatever the trace length. */
#ifndef DSM_COMMON_TRACE_READER_H
#define DSM_COMMON_TRACE_READER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../formats/smait.h"

typedef struct trace_reader_opts {
    smait_order order;      /* AUTO (default), LITTLE or BIG */
    bool lenient;           /* skip and count bad records instead of stopping */
    size_t buffer_records;  /* 0: default (65536 simple records = 512 KiB) */
    bool quiet;             /* no --lenient warnings (a second reader of a trace) */
    bool calls;             /* a call trace (calls.P): being empty is no news */
} trace_reader_opts;

typedef struct trace_reader trace_reader;

/* Opens path ("-" = standard input). Exits with status 2 when it cannot be read. */
trace_reader *trace_reader_open(const char *path, const trace_reader_opts *opts);
void trace_reader_close(trace_reader *r);

/* Pairs r with a call trace (docs/trace-sets.md §3): each call record of r gets its start and
 * end time from the matching call record of calls; r owns calls afterwards. */
void trace_reader_attach_calls(trace_reader *r, trace_reader *calls);

/* Slow path of trace_reader_next; do not call directly. */
const smait_raw *trace_reader_refill_next(trace_reader *r);

/* Fields read by the inline fast path. The rest of the reader is private. */
struct trace_reader_view {
    const smait_raw *cur;       /* next record to hand out */
    const smait_raw *ready;     /* end of the validated records */
    const smait_raw *last;      /* record handed out last */
};

/* Next logical record, or NULL at the end of the trace. */
static inline const smait_raw *trace_reader_next(trace_reader *r)
{
    struct trace_reader_view *v = (struct trace_reader_view *)r;
    const smait_raw *p = v->cur;
    if (p < v->ready) {
        v->cur = p + ((p->f1 >> 12) == 1 ? SMAIT_CALL_PARTS : 1);
        v->last = p;
        return p;
    }
    return trace_reader_refill_next(r);
}

/* Ask the cache for the records `ahead` bytes past the next one: a caller
 * that takes one record at a time from many readers in turn (the scheduler
 * with threads in lockstep) would otherwise miss the cache on each new line,
 * as no hardware prefetcher follows hundreds of streams. A hint only. */
static inline void trace_reader_prefetch(trace_reader *r, size_t ahead)
{
    __builtin_prefetch((const char *)((struct trace_reader_view *)r)->cur + ahead);
}

/* The simple record k places after the next one (k = 0: the next one), when
 * it is already validated in the buffer; else NULL (nothing is read). A
 * look-ahead for hints: a call record's parts show as they are. */
static inline const smait_raw *trace_reader_ahead(const trace_reader *r, size_t k)
{
    const struct trace_reader_view *v = (const struct trace_reader_view *)r;
    return (size_t)(v->ready - v->cur) > k ? v->cur + k : NULL;
}

/* True when the trace has no more records (reads ahead if needed; consumes
 * nothing). */
bool trace_reader_at_end(trace_reader *r);
/* The next logical record without consuming it (valid until the next call),
 * or NULL at the end of the trace. */
const smait_raw *trace_reader_peek(trace_reader *r);

/* Bulk access for whole-trace scans: the next run of validated records
 * [begin, *end) in host order, every logical record in it whole (step with
 * smait_record_span). They count as handed out; the pointers stay valid until
 * the next call. Returns NULL at the end of the trace. Faster than
 * trace_reader_next because the caller's cursor stays in a register. */
const smait_raw *trace_reader_next_run(trace_reader *r, const smait_raw **end);
/* Simple-record index of a record inside the run handed out last. */
uint64_t trace_reader_index_of(const trace_reader *r, const smait_raw *p);

/* Simple-record index of the record trace_reader_next returned last. */
uint64_t trace_reader_index(const trace_reader *r);
const char *trace_reader_path(const trace_reader *r);
smait_order trace_reader_order(const trace_reader *r);   /* decided order */
bool trace_reader_compressed(const trace_reader *r);
/* "gzip" or "zstd", or NULL for a plain trace. */
const char *trace_reader_format(const trace_reader *r);
/* The records are delta coded (formats/SMAIT.md §11.1; decoded as they are read). */
bool trace_reader_delta_coded(const trace_reader *r);

/* Counts for --lenient: simple records skipped as invalid or malformed, trailing
 * bytes of a truncated final record, and call records that could not be paired
 * with the call trace (those of this trace from a type mismatch or a missing
 * partner on, which keep their own times, and extra ones of the call trace). */
typedef struct trace_reader_problems {
    uint64_t skipped_records;
    uint64_t truncated_bytes;
    uint64_t unpaired_calls;
    uint64_t corrupt_streams;   /* compressed streams cut short */
    uint64_t cut_traces;        /* traces that begin with start_trace but do not end with end_trace */
} trace_reader_problems;
/* Includes the problems of a paired call trace. */
trace_reader_problems trace_reader_problem_counts(const trace_reader *r);
/* into += from, field by field; and the sum over n readers. */
void trace_reader_problems_add(trace_reader_problems *into, const trace_reader_problems *from);
trace_reader_problems trace_readers_problem_sum(trace_reader *const *readers, int n);
static inline bool trace_reader_problems_any(const trace_reader_problems *p)
{
    return p->skipped_records || p->truncated_bytes || p->unpaired_calls || p->corrupt_streams || p->cut_traces;
}

/* Bytes of the file read so far, and the bytes they gave (decompressed, for a
 * compressed trace); at the end of a trace, its compressed and data sizes. */
void trace_reader_bytes(const trace_reader *r, uint64_t *file_bytes, uint64_t *data_bytes);
/* Bytes of the file read so far and the file size (0 when unknown, e.g. a pipe). */
void trace_reader_progress(const trace_reader *r, uint64_t *done, uint64_t *total);

#endif
