/* fuzz_trace_reader.c — common/trace_reader on any bytes.
 *
 * Input: one flag byte, then the trace (plain, or gzip when it starts with
 * the gzip magic); with flag 0x10 a call trace follows after the separator
 * "\n#CALLS#\n". Flags: 0x03 byte order (auto, little, big), 0x04 --lenient,
 * 0x08 a small buffer (16 or 17 simple records, so call records straddle
 * refills; not fewer: byte-order detection looks at the first block, and
 * below 16 records it would see less than the 16 the format promises), 0x20 read with trace_reader_next_run (the second pass the other way).
 *
 * Checks: every record handed out is valid and whole (a call record's six
 * parts grouped); indices go up; for a plain trace without a call trace the
 * records handed out, the skipped ones, the truncated bytes and a delta
 * coding's marker (formats/SMAIT.md §11.1) add up to the file size; a second reader with another buffer size and access path hands
 * out the same records; an error is exit 2 naming the trace (or its call
 * trace) with the byte offset and record index. */
#include "fuzz_support.h"
#include "../base/diag.h"
#include "../common/trace_reader.h"

#include <string.h>

#define CALLS_SEP "\n#CALLS#\n"

typedef struct job {
    const char *path, *calls;
    trace_reader_opts o;
    bool bulk;
    uint64_t records, simple, sum;  /* what the pass handed out */
    bool delta;                     /* the records were delta coded (an 8-byte marker first) */
    trace_reader_problems problems;
} job;

static uint64_t mix(uint64_t h, const smait_raw *p)
{
    h ^= ((uint64_t)p->f1 << 32 | p->f2) + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h;
}

static void take(job *j, trace_reader *r, const smait_raw *p, uint64_t *last_index, uint64_t idx)
{
    smait_kind k = smait_classify(p->f1);
    FZ_CHECK(k != SMAIT_INVALID, "record %llu handed out is invalid (f1 %08x)", (unsigned long long)idx, p->f1);
    unsigned span = 1;
    if (k == SMAIT_CALL_PART) {
        FZ_CHECK(smait_call_index(p->f1) == 0 && smait_call_group_ok(p),
                 "call record %llu handed out is not six grouped parts", (unsigned long long)idx);
        span = SMAIT_CALL_PARTS;
    }
    FZ_CHECK(j->records == 0 || idx > *last_index, "record index went from %llu to %llu",
             (unsigned long long)*last_index, (unsigned long long)idx);
    *last_index = idx;
    (void)r;
    j->records++;
    j->simple += span;
    for (unsigned i = 0; i < span; i++) j->sum = mix(j->sum, p + i);
}

static int read_all(void *arg)
{
    job *j = arg;
    trace_reader *r = trace_reader_open(j->path, &j->o);
    if (j->calls) trace_reader_attach_calls(r, trace_reader_open(j->calls, &j->o));
    uint64_t last = 0;
    if (j->bulk) {
        const smait_raw *p, *end;
        while ((p = trace_reader_next_run(r, &end)) != NULL)
            for (; p < end; p += smait_record_span(p->f1)) take(j, r, p, &last, trace_reader_index_of(r, p));
    } else {
        const smait_raw *p;
        while (!trace_reader_at_end(r)) {
            p = trace_reader_next(r);
            FZ_CHECK(p != NULL, "trace_reader_at_end said more records, trace_reader_next none");
            take(j, r, p, &last, trace_reader_index(r));
        }
        FZ_CHECK(trace_reader_next(r) == NULL, "a record after trace_reader_at_end");
    }
    j->problems = trace_reader_problem_counts(r);
    j->delta = trace_reader_delta_coded(r);
    trace_reader_close(r);
    return 0;
}

static void check_error(const fz_result *res, const job *j, size_t size, bool gz)
{
    FZ_CHECK(res->status == EXIT_DATA, "%s", fz_describe(res));
    bool own = strcmp(res->file, j->path) == 0, calls = j->calls && strcmp(res->file, j->calls) == 0;
    FZ_CHECK(own || calls, "the error names neither trace: %s", fz_describe(res));
    /* A whole-file refusal (zstd) has no place; every other error has both. */
    if (strncmp(res->text, "cannot read trace: ", 19) == 0) return;
    FZ_CHECK(res->offset != DIAG_NO_OFFSET && strncmp(res->text, "record ", 7) == 0,
             "no offset and record index: %s", fz_describe(res));
    if (own && !gz)
        FZ_CHECK(res->offset <= size, "offset beyond the file: %s", fz_describe(res));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    uint8_t flags = data[0];
    const uint8_t *part[2];
    size_t len[2];
    int parts = flags & 0x10 ? fz_split(data + 1, size - 1, CALLS_SEP, sizeof CALLS_SEP - 1, 2, part, len) : 1;
    if (parts == 1) {
        part[0] = data + 1;
        len[0] = size - 1;
    }
    job j = { .path = fz_write("t.1.0", part[0], len[0]) };
    j.calls = parts == 2 ? fz_write("c.1.0", part[1], len[1]) : NULL;
    j.o.order = (smait_order)(flags & 3) % 3;
    j.o.lenient = flags & 0x04;
    j.o.quiet = true;
    j.o.buffer_records = flags & 0x08 ? 16 + (flags >> 7) : 0;
    j.bulk = flags & 0x20;
    /* Compressed (gzip, or a zstd or skippable frame): its sizes say nothing of the records. */
    const uint8_t *m = part[0];
    bool gz = (len[0] >= 2 && m[0] == 0x1f && m[1] == 0x8b) ||
              (len[0] >= 4 && ((m[0] == 0x28 && m[1] == 0xb5 && m[2] == 0x2f && m[3] == 0xfd) ||
                               ((m[0] & 0xf0) == 0x50 && m[1] == 0x2a && m[2] == 0x4d && m[3] == 0x18)));
    fz_result res;
    fz_run(read_all, &j, &res);
    if (res.status) {
        check_error(&res, &j, len[0], gz);
        return 0;
    }
    if (!gz && !j.calls) {
        uint64_t seen = j.simple + j.problems.skipped_records;
        FZ_CHECK((seen + j.delta) * 8 + j.problems.truncated_bytes == len[0],
                 "records %llu + skipped %llu (x 8) + truncated %llu bytes + marker %d != file size %zu",
                 (unsigned long long)j.simple, (unsigned long long)j.problems.skipped_records,
                 (unsigned long long)j.problems.truncated_bytes, j.delta ? 8 : 0, len[0]);
        FZ_CHECK(j.o.lenient || (seen == j.simple && !j.problems.truncated_bytes),
                 "problems counted without --lenient");
    }
    /* The same records through another buffer size and access path. */
    job again = j;
    again.records = again.simple = again.sum = 0;
    again.bulk = !j.bulk;
    again.o.buffer_records = j.o.buffer_records ? 0 : 17;
    fz_result res2;
    fz_run(read_all, &again, &res2);
    FZ_CHECK(res2.status == 0, "second pass failed: %s", fz_describe(&res2));
    FZ_CHECK(again.records == j.records && again.sum == j.sum,
             "second pass handed out %llu records (hash %016llx), first %llu (%016llx)",
             (unsigned long long)again.records, (unsigned long long)again.sum,
             (unsigned long long)j.records, (unsigned long long)j.sum);
    return 0;
}
