/* trace_reader.c — buffered, validated, byte-order-aware SMAIT record stream.
 *
 * The buffer holds whole simple records in host order. [cur, ready) has been
 * validated; [ready, fill) waits for more bytes (a call record cut by the
 * buffer end) or starts with a bad record, reported when the consumer gets
 * there, so every record before a bad one is still processed in order.
 *
 * A trace that begins with start_trace must end with end_trace (formats/
 * SMAIT.md §12, "Cut trace"). A plain file's last record is read when it is
 * opened (check_tail); any other input's end is only known when the reads
 * reach it (settle_end). */
#include "trace_reader.h"
#include "../base/byte_source.h"
#include "../base/diag.h"
#include "../formats/smait_delta.h"
#include "../formats/smait_text.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

enum { DEFAULT_RECORDS = 65536, DETECT_RECORDS = 16 };

struct trace_reader {
    struct trace_reader_view v;     /* must be first: the inline fast path */
    smait_raw *buf;
    size_t cap;                     /* buffer capacity in simple records */
    smait_raw *fill;                /* end of the records read */
    uint64_t base;                  /* simple-record index of buf[0] */
    unsigned char partial[8];       /* bytes of an incomplete final record */
    size_t partial_len;
    bool eof;
    char *path;
    byte_source *src;
    smait_order order;
    bool lenient;
    bool quiet;                     /* no warnings (a second reader of the same trace) */
    trace_reader *calls;            /* paired call trace, or NULL */
    uint64_t calls_paired;          /* call records paired so far */
    bool calls_broken;              /* lenient: pairing given up */
    char stream_error[256];         /* read error after the last byte read, or "" */
    bool text_like;                 /* the first bytes are printable text: the text form? */
    smait_delta *delta;             /* a delta-coded stream's decoder (formats/SMAIT.md §11.1), or NULL */
    bool started;                   /* record 0 is start_trace: the trace must end with end_trace */
    bool end_settled;               /* whether it does is known (and reported) */
    smait_raw last[SMAIT_CALL_PARTS];   /* the last logical record validated so far */
    uint64_t last_index;            /* its index; UINT64_MAX: none yet */
    uint64_t skip_end;              /* lenient: the index after a run of call parts skipped up to the
                                     * buffer's end (the same run goes on after it), or UINT64_MAX */
    trace_reader_problems problems;
};

static uint64_t index_of(const trace_reader *r, const smait_raw *p)
{
    return r->base + (uint64_t)(p - r->buf);
}

/* The start of a file that is printable text (the SMAIT text form, most
 * likely: binary traces start with a record whose bytes are mostly not). */
static bool looks_like_text(const unsigned char *p, size_t n)
{
    if (n > 64) n = 64;
    if (n < 4) return false;
    for (size_t i = 0; i < n; i++)
        if (!(p[i] == '\t' || p[i] == '\n' || p[i] == '\r' || (p[i] >= 0x20 && p[i] < 0x7f))) return false;
    return true;
}

/* What to add to a bad-record message for a file that is text. */
static const char *text_hint(const trace_reader *r)
{
    return r->text_like ? " (this file is text: the SMAIT text form? 'smait asm TEXT OUT' converts it to a"
                          " binary trace)" : "";
}

/* Report the read error met after the last byte read (see read_more). */
static void read_error(trace_reader *r, const char *why)
{
    uint64_t idx = index_of(r, r->fill), off = idx * 8 + r->partial_len;
    if (r->lenient && byte_source_compressed(r->src)) {
        if (!r->quiet) diag_lenient(DIAG_LENIENT_STREAM, r->path, off, "record %" PRIu64 ": %s; the trace is"
                                    " treated as ending here", idx, why);
        r->problems.corrupt_streams++;
        return;
    }
    diag_data_error(r->path, off, "record %" PRIu64 ": %s%s", idx, byte_source_compressed(r->src) ?
                    "corrupt compressed stream: " : "read error: ", why);
}

/* At the start of the stream (the have bytes at dst): a delta coding's
 * marker record, in the order asked or, with none asked, in either (which
 * then decides the order), is taken off and the decoder started. Record
 * indices and offsets are then those of the trace the stream codes, the
 * same as in its decoded copy. Returns the bytes left. */
static size_t take_delta_marker(trace_reader *r, unsigned char *dst, size_t have)
{
    if (have < 8) return have;
    smait_order found = SMAIT_ORDER_AUTO;
    const smait_order orders[2] = { SMAIT_ORDER_LITTLE, SMAIT_ORDER_BIG };
    for (int i = 0; i < 2; i++)
        if ((r->order == SMAIT_ORDER_AUTO || r->order == orders[i]) &&
            smait_load_raw(dst, orders[i]).f1 == SMAIT_DELTA_F1)
            found = orders[i];
    if (found == SMAIT_ORDER_AUTO) return have;
    uint32_t version = smait_load_raw(dst, found).f2;
    if (version != SMAIT_DELTA_VERSION)
        diag_data_error(r->path, 0, "record 0: delta-coded trace of coding version %" PRIu32
                        " (this reader knows version %d; formats/SMAIT.md §11.1)", version, SMAIT_DELTA_VERSION);
    r->order = found;
    r->delta = xmalloc(sizeof *r->delta);
    smait_delta_init(r->delta);
    memmove(dst, dst + 8, have - 8);
    return have - 8;
}

/* Read more bytes after fill; whole records go to the buffer, a trailing
 * fragment waits in partial. Sets eof at the end of input. */
static void read_more(trace_reader *r)
{
    size_t room = (size_t)(r->buf + r->cap - r->fill);
    if (room == 0 || r->eof) return;
    unsigned char *dst = (unsigned char *)r->fill;
    memcpy(dst, r->partial, r->partial_len);
    size_t have = r->partial_len, want = room * 8;
    while (have < want && !r->eof) {
        const char *why = NULL;
        long k = byte_source_read(r->src, dst + have, want - have, &why);
        if (k < 0) {
            /* The input ends here; the error is reported once the records
             * read before it have been handed out (refill_next). */
            snprintf(r->stream_error, sizeof r->stream_error, "%s", why);
            r->eof = true;
            break;
        }
        if (k == 0) r->eof = true;
        have += (size_t)k;
    }
    if (r->base == 0 && r->fill == r->buf) {
        r->text_like = looks_like_text(dst, have);
        have = take_delta_marker(r, dst, have);
    }
    size_t whole = have / 8;
    r->partial_len = have % 8;
    memcpy(r->partial, dst + whole * 8, r->partial_len);
    if (r->order == SMAIT_ORDER_AUTO)
        r->order = smait_detect_order(dst, whole * 8);
    smait_to_host(r->fill, whole, r->order);
    if (r->delta) smait_delta_decode(r->delta, r->fill, whole);
    r->fill += whole;
}

/* Pair the call record at p with the next call record of the call trace. */
static void pair_call(trace_reader *r, smait_raw *p)
{
    if (r->calls_broken) {          /* lenient, after a problem: own times */
        r->problems.unpaired_calls++;
        return;
    }
    const smait_raw *q;
    do {
        q = trace_reader_next(r->calls);
    } while (q && smait_classify(q->f1) != SMAIT_CALL_PART);
    uint64_t k = r->calls_paired++;
    const char *problem = NULL;
    char buf[512 + 4096];           /* room for the call trace's path */
    if (!q) {
        snprintf(buf, sizeof buf, "call record %" PRIu64 " has no partner: call trace %s ends"
                 " after %" PRIu64 " call records", k, trace_reader_path(r->calls), k);
        problem = buf;
    } else if (smait_call_type(q->f1) != smait_call_type(p->f1)) {
        snprintf(buf, sizeof buf, "call record %" PRIu64 " is of type 0x%02x but call record %"
                 PRIu64 " of call trace %s (record %" PRIu64 ") is of type 0x%02x",
                 k, smait_call_type(p->f1), k, trace_reader_path(r->calls),
                 trace_reader_index(r->calls), smait_call_type(q->f1));
        problem = buf;
    }
    if (problem) {
        if (!r->lenient)
            diag_data_error(r->path, index_of(r, p) * 8, "record %" PRIu64 ": %s",
                            index_of(r, p), problem);
        if (!r->quiet) diag_lenient(DIAG_LENIENT_CALLS, r->path, index_of(r, p) * 8, "record %" PRIu64 ": %s;"
                                    " using this trace's own times from here on", index_of(r, p), problem);
        r->calls_broken = true;
        r->problems.unpaired_calls++;
        return;
    }
    p[SMAIT_CALL_START].f2 = q[SMAIT_CALL_START].f2;
    p[SMAIT_CALL_END].f2 = q[SMAIT_CALL_END].f2;
}

/* 1 when f1 is a valid memory, procedure start, branch or procedure call
 * record (not a call part), computed without branches. */
static inline uint32_t simple_record_ok(uint32_t f1)
{
    uint32_t branchy = (0x1110u >> (f1 >> 28)) & 1;     /* top nibble 4, 8 or C */
    uint32_t mem = ((f1 >> 12) == 0) & ((f1 & 0xF) <= 2) & (((f1 >> 4) & 0xF) <= 11) &
                   (((f1 >> 8) & 0xF) <= 2);
    return branchy | mem;
}

#ifdef __SSE2__
/* The f1 fields of 4 records, all valid non-call records? (SSE2: x86-64 baseline) */
static inline __m128i block4_mask(const smait_raw *p)
{
    __m128i a = _mm_loadu_si128((const __m128i *)(const void *)p);
    __m128i b = _mm_loadu_si128((const __m128i *)(const void *)(p + 2));
    __m128i f1 = _mm_castps_si128(_mm_shuffle_ps(_mm_castsi128_ps(a), _mm_castsi128_ps(b),
                                                 _MM_SHUFFLE(2, 0, 2, 0)));
    const __m128i zero = _mm_setzero_si128();
    /* top nibble 4, 8 or C: bits 29..28 clear, bits 31..30 not both clear */
    __m128i low2 = _mm_cmpeq_epi32(_mm_and_si128(f1, _mm_set1_epi32(0x30000000)), zero);
    __m128i high2 = _mm_cmpeq_epi32(_mm_and_si128(f1, _mm_set1_epi32((int)0xC0000000u)), zero);
    __m128i branchy = _mm_andnot_si128(high2, low2);
    /* memory record: f1 < 0x1000 with access <= 2, size <= 11, register <= 2 */
    __m128i mem = _mm_cmpeq_epi32(_mm_and_si128(f1, _mm_set1_epi32((int)0xFFFFF000u)), zero);
    mem = _mm_and_si128(mem, _mm_cmplt_epi32(_mm_and_si128(f1, _mm_set1_epi32(0xF)), _mm_set1_epi32(3)));
    mem = _mm_and_si128(mem, _mm_cmplt_epi32(_mm_and_si128(f1, _mm_set1_epi32(0xF0)), _mm_set1_epi32(0xC0)));
    mem = _mm_and_si128(mem, _mm_cmplt_epi32(_mm_and_si128(f1, _mm_set1_epi32(0xF00)), _mm_set1_epi32(0x300)));
    return _mm_or_si128(branchy, mem);
}

static inline bool block8_ok(const smait_raw *p)
{
    return _mm_movemask_epi8(_mm_and_si128(block4_mask(p), block4_mask(p + 4))) == 0xFFFF;
}
#else
static inline bool block8_ok(const smait_raw *p)
{
    uint32_t ok = 1;
    for (int j = 0; j < 8; j++)
        ok &= simple_record_ok(p[j].f1);
    return ok;
}
#endif

/* Extend ready over every valid record in [ready, fill). Stops at a bad record
 * or at a call record whose parts are not all in the buffer yet. */
static void note_last(trace_reader *r, const smait_raw *end);

static void validate(trace_reader *r)
{
    smait_raw *p = (smait_raw *)r->v.ready, *end = r->fill;
    const smait_raw *from = p;
    for (;;) {
        /* Fast loops over memory and branch records: blocks of 8 without
         * branches (vectorised), then one by one up to the next call part. */
        while (end - p >= 8 && block8_ok(p))
            p += 8;
        while (p < end && simple_record_ok(p->f1))
            p++;
        if (p >= end || smait_classify(p->f1) != SMAIT_CALL_PART || smait_call_index(p->f1) != 0)
            break;
        /* A call record cut by the buffer end waits for more bytes; at the end
         * of input it is malformed (bad_record says so). */
        if (end - p < SMAIT_CALL_PARTS || !smait_call_group_ok(p)) break;
        if (r->calls) pair_call(r, p);
        p += SMAIT_CALL_PARTS;
    }
    r->v.ready = p;
    if (p != from) note_last(r, p);
}

/* Keep the last of the records just validated (they end at end; a call
 * record's parts are whole): the trace's last record, when the input ends. */
static void note_last(trace_reader *r, const smait_raw *end)
{
    const smait_raw *l = end - (smait_classify(end[-1].f1) == SMAIT_CALL_PART ? SMAIT_CALL_PARTS : 1);
    memcpy(r->last, l, (size_t)(end - l) * sizeof *l);
    r->last_index = index_of(r, l);
}

static bool is_call_of(const smait_raw *p, unsigned type)
{
    return smait_classify(p->f1) == SMAIT_CALL_PART && smait_call_index(p->f1) == 0 &&
           smait_call_type(p->f1) == type;
}

/* The trace began with start_trace, and its last record, at idx, is not
 * end_trace: stop, or (--lenient) warn and read it as ending there. */
static void report_cut(trace_reader *r, const smait_raw *last, uint64_t idx)
{
    char text[SMAIT_TEXT_MAX];
    smait_text_format(last, text, sizeof text);
    r->end_settled = true;
    if (!r->lenient)
        diag_data_error(r->path, idx * 8, "record %" PRIu64 ": trace is cut: no end_trace after the last record"
                        " (%s; a trace that begins with start_trace ends with end_trace: was the program"
                        " killed, or the disk full?)", idx, text);
    r->problems.cut_traces++;
    if (!r->quiet)
        diag_lenient(DIAG_LENIENT_CUT, r->path, idx * 8, "record %" PRIu64 ": trace is cut: no end_trace after"
                     " the last record (%s); the trace is read as ending there", idx, text);
}

/* The input has ended, every record handed out: a trace that began with
 * start_trace must have ended with end_trace. (A broken compressed stream
 * has said already that its trace ends early.) */
static void settle_end(trace_reader *r)
{
    r->end_settled = true;
    if (!r->started || r->problems.corrupt_streams || r->last_index == UINT64_MAX) return;
    if (!is_call_of(r->last, SMAIT_CT_END_TRACE)) report_cut(r, r->last, r->last_index);
}

/* At open, for a plain file: its last record, read from the end of the file,
 * settles the question before any record is handed out. Nothing is decided
 * when the file's size is not a multiple of 8 or its last record is bad: the
 * reads report that where they meet it, and settle_end the rest. Not for a
 * delta-coded file, whose last memory record cannot be decoded alone. */
static void check_tail(trace_reader *r)
{
    unsigned char bytes[8 * SMAIT_CALL_PARTS];
    uint64_t size;
    long k = byte_source_tail(r->src, bytes, sizeof bytes, &size);
    if (k < 8 * SMAIT_CALL_PARTS || size % 8) return;
    smait_raw t[SMAIT_CALL_PARTS];
    for (int i = 0; i < SMAIT_CALL_PARTS; i++) t[i] = smait_load_raw(bytes + 8 * i, r->order);
    const smait_raw *last = NULL;
    if (smait_classify(t[SMAIT_CALL_PARTS - 1].f1) != SMAIT_CALL_PART) {
        if (simple_record_ok(t[SMAIT_CALL_PARTS - 1].f1)) last = &t[SMAIT_CALL_PARTS - 1];
    } else if (smait_call_index(t[0].f1) == 0 && smait_call_group_ok(t)) {
        last = t;
    }
    if (!last) return;
    r->end_settled = true;
    if (!is_call_of(last, SMAIT_CT_END_TRACE))
        report_cut(r, last, size / 8 - (uint64_t)(t + SMAIT_CALL_PARTS - last));
}

/* Describe the bad record at p (it is not valid) and stop, or skip it. */
static void bad_record(trace_reader *r)
{
    smait_raw *p = (smait_raw *)r->v.ready;
    size_t avail = (size_t)(r->fill - p);
    uint64_t idx = index_of(r, p);
    size_t skip = 1;
    char why[320];
    if (smait_classify(p->f1) == SMAIT_CALL_PART) {
        /* Malformed call record: skip the run of call parts up to the next part 0
         * that begins a well-formed call record, or may begin one: its parts
         * are cut by the buffer end and more input is coming. */
        while (skip < avail && smait_classify(p[skip].f1) == SMAIT_CALL_PART) {
            if (smait_call_index(p[skip].f1) == 0 &&
                (avail - skip < SMAIT_CALL_PARTS ? !r->eof : smait_call_group_ok(p + skip)))
                break;
            skip++;
        }
        /* The first part that does not fit (parts after avail are unknown:
         * a part 0 is only bad with fewer than 6 parts at the end of input). */
        unsigned type = smait_call_type(p->f1);
        size_t have = avail < SMAIT_CALL_PARTS ? avail : SMAIT_CALL_PARTS, j = 1;
        while (j < have && p[j].f1 == smait_call_f1(type, (unsigned)j))
            j++;
        if (smait_call_index(p->f1) != 0)
            snprintf(why, sizeof why, "malformed call record: part %u of call type 0x%02x"
                     " without the parts before it (f1 %08x)", smait_call_index(p->f1),
                     type, p->f1);
        else if (j == have)
            snprintf(why, sizeof why, "malformed call record: the trace ends after %zu of"
                     " its 6 parts", have);
        else
            snprintf(why, sizeof why, "malformed call record of type 0x%02x: part %zu is"
                     " f1 %08x, expected %08x", type, j, p[j].f1,
                     smait_call_f1(type, (unsigned)j));
    } else {
        smait_order other = r->order == SMAIT_ORDER_BIG ? SMAIT_ORDER_LITTLE : SMAIT_ORDER_BIG;
        unsigned char bytes[8];
        smait_store_raw(bytes, *p, r->order);
        smait_raw alt = smait_load_raw(bytes, other);
        int n = snprintf(why, sizeof why, "invalid record kind: bytes %02x%02x%02x%02x"
                         " %02x%02x%02x%02x (f1 %08x as %s-endian)", bytes[0], bytes[1],
                         bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7], p->f1,
                         smait_order_name(r->order));
        if (smait_classify(alt.f1) != SMAIT_INVALID && n > 0 && (size_t)n < sizeof why)
            snprintf(why + n, sizeof why - (size_t)n, "; it is valid as %s-endian: try"
                     " --byte-order=%s", smait_order_name(other), smait_order_name(other));
    }
    if (!r->lenient)
        diag_data_error(r->path, idx * 8, "record %" PRIu64 ": %s%s", idx, why, text_hint(r));
    /* A run of call parts cut by the buffer's end and taken up again here is
     * the same bad record: one warning whatever the buffer's size. */
    bool same_run = idx == r->skip_end && smait_classify(p->f1) == SMAIT_CALL_PART;
    r->skip_end = smait_classify(p->f1) == SMAIT_CALL_PART && skip == avail && !r->eof ? idx + skip : UINT64_MAX;
    if (!r->quiet && !same_run)
        diag_lenient(DIAG_LENIENT_BAD_RECORD, r->path, idx * 8, "record %" PRIu64 ": %s%s; skipped%s", idx, why,
                     text_hint(r), smait_classify(p->f1) == SMAIT_CALL_PART ? " to the next good record" : "");
    r->problems.skipped_records += skip;
    r->v.ready = p + skip;
    r->v.cur = r->v.ready;
}

const smait_raw *trace_reader_refill_next(trace_reader *r)
{
    for (;;) {
        if (r->v.cur < r->v.ready)
            return trace_reader_next(r);
        if (r->v.ready < r->fill) {
            validate(r);
            if (r->v.cur < r->v.ready) continue;
            /* Nothing new became valid: a bad record, or a cut call record. */
            if (!(r->fill - r->v.ready < SMAIT_CALL_PARTS && !r->eof &&
                  smait_classify(r->v.ready->f1) == SMAIT_CALL_PART &&
                  smait_call_index(r->v.ready->f1) == 0)) {
                bad_record(r);
                continue;
            }
        }
        if (r->eof) {
            if (r->stream_error[0]) {
                read_error(r, r->stream_error);
                r->stream_error[0] = '\0';
            }
            if (r->partial_len) {
                uint64_t off = index_of(r, r->fill) * 8;
                if (!r->lenient)
                    diag_data_error(r->path, off, "record %" PRIu64 ": truncated final record"
                                    " (file size is not a multiple of 8; %zu bytes left over)%s",
                                    index_of(r, r->fill), r->partial_len, text_hint(r));
                if (!r->quiet && !r->problems.corrupt_streams)  /* a broken stream's cut record: said */
                    diag_lenient(DIAG_LENIENT_TRUNCATED, r->path, off, "record %" PRIu64 ": truncated final"
                                 " record (file size is not a multiple of 8; %zu bytes left over)%s; dropped",
                                 index_of(r, r->fill), r->partial_len, text_hint(r));
                r->problems.truncated_bytes += r->partial_len;
                r->partial_len = 0;
            }
            if (!r->end_settled) settle_end(r);
            if (r->calls && !r->calls_broken) {
                const smait_raw *q;
                do {
                    q = trace_reader_next(r->calls);
                } while (q && smait_classify(q->f1) != SMAIT_CALL_PART);
                if (q) {
                    if (!r->lenient)
                        diag_data_error(trace_reader_path(r->calls), trace_reader_index(r->calls) * 8,
                                        "record %" PRIu64 ": call trace has more call records than"
                                        " %s (which has %" PRIu64 ")", trace_reader_index(r->calls),
                                        r->path, r->calls_paired);
                    if (!r->quiet) diag_lenient(DIAG_LENIENT_CALLS, trace_reader_path(r->calls),
                                                trace_reader_index(r->calls) * 8, "call trace has more call"
                                                " records than %s (%" PRIu64 "); extra ones ignored", r->path,
                                                r->calls_paired);
                    for (; q; q = trace_reader_next(r->calls))
                        r->problems.unpaired_calls += smait_classify(q->f1) == SMAIT_CALL_PART;
                }
                r->calls_broken = true;
            }
            return NULL;
        }
        /* Move the unconsumed tail to the front and read more. */
        size_t keep = (size_t)(r->fill - r->v.cur);
        size_t vkeep = (size_t)(r->v.ready - r->v.cur);
        r->base += (uint64_t)(r->v.cur - r->buf);
        memmove(r->buf, r->v.cur, keep * sizeof *r->buf);
        r->v.cur = r->buf;
        r->v.last = NULL;
        r->v.ready = r->buf + vkeep;
        r->fill = r->buf + keep;
        read_more(r);
    }
}

bool trace_reader_at_end(trace_reader *r)
{
    if (r->v.cur < r->v.ready) return false;
    const smait_raw *p = trace_reader_refill_next(r);
    if (!p) return true;
    r->v.cur = p;           /* give it back: the next call hands it out again */
    r->v.last = NULL;
    return false;
}

const smait_raw *trace_reader_peek(trace_reader *r)
{
    return trace_reader_at_end(r) ? NULL : r->v.cur;
}

const smait_raw *trace_reader_next_run(trace_reader *r, const smait_raw **end)
{
    const smait_raw *first = trace_reader_next(r);
    if (!first) return NULL;
    *end = r->v.ready;
    r->v.cur = r->v.ready;
    r->v.last = NULL;
    return first;
}

uint64_t trace_reader_index_of(const trace_reader *r, const smait_raw *p)
{
    return index_of(r, p);
}

trace_reader *trace_reader_open(const char *path, const trace_reader_opts *opts)
{
    trace_reader_opts def = { 0 };
    if (!opts) opts = &def;
    const char *why = NULL;
    byte_source *src = byte_source_open(path, &why);
    if (!src)
        diag_data_error(path, DIAG_NO_OFFSET, "cannot read trace: %s", why);
    trace_reader *r = xcalloc_lines(1, sizeof *r);
    r->src = src;
    r->path = xstrdup(path);
    r->order = opts->order;
    r->lenient = opts->lenient;
    r->quiet = opts->quiet;
    r->cap = opts->buffer_records ? opts->buffer_records : DEFAULT_RECORDS;
    if (r->cap < 2 * SMAIT_CALL_PARTS) r->cap = 2 * SMAIT_CALL_PARTS;
    r->buf = xcalloc_lines(r->cap, sizeof *r->buf);
    r->fill = r->buf;
    r->v.cur = r->v.ready = r->buf;
    r->last_index = r->skip_end = UINT64_MAX;
    /* Read the first block now so the byte order and the coding are known
     * right away; then decompress ahead, unless the records are delta coded
     * (byte_source_read_ahead says why). */
    read_more(r);
    if (!r->delta) byte_source_read_ahead(src);
    if (r->order == SMAIT_ORDER_AUTO) r->order = SMAIT_ORDER_LITTLE;
    r->started = r->fill - r->buf >= SMAIT_CALL_PARTS && is_call_of(r->buf, SMAIT_CT_START_TRACE) &&
                 smait_call_group_ok(r->buf);
    if (r->started && !r->delta) check_tail(r);
    /* Every tool treats an empty trace the same way: a warning naming it,
     * then a report of what there is. */
    if (r->eof && r->fill == r->buf && !r->partial_len && !r->stream_error[0] && !r->quiet &&
        !opts->calls)
        diag_warn(path, DIAG_NO_OFFSET, "empty trace (no records)");
    return r;
}

void trace_reader_attach_calls(trace_reader *r, trace_reader *calls)
{
    r->calls = calls;
    /* Records already validated were read before pairing: re-validate them. */
    r->v.ready = r->v.cur;
}

void trace_reader_close(trace_reader *r)
{
    if (!r) return;
    trace_reader_close(r->calls);
    byte_source_close(r->src);
    free(r->delta);
    free(r->buf);
    free(r->path);
    free(r);
}

uint64_t trace_reader_index(const trace_reader *r)
{
    return r->v.last ? index_of(r, r->v.last) : index_of(r, r->v.cur);
}
const char *trace_reader_path(const trace_reader *r) { return r->path; }
smait_order trace_reader_order(const trace_reader *r) { return r->order; }
bool trace_reader_compressed(const trace_reader *r) { return byte_source_compressed(r->src); }
const char *trace_reader_format(const trace_reader *r) { return byte_source_format(r->src); }
bool trace_reader_delta_coded(const trace_reader *r) { return r->delta != NULL; }
void trace_reader_problems_add(trace_reader_problems *into, const trace_reader_problems *from)
{
    into->skipped_records += from->skipped_records;
    into->truncated_bytes += from->truncated_bytes;
    into->unpaired_calls += from->unpaired_calls;
    into->corrupt_streams += from->corrupt_streams;
    into->cut_traces += from->cut_traces;
}

trace_reader_problems trace_reader_problem_counts(const trace_reader *r)
{
    trace_reader_problems p = r->problems;
    if (r->calls) {     /* a paired call trace's problems belong to this trace */
        trace_reader_problems c = trace_reader_problem_counts(r->calls);
        trace_reader_problems_add(&p, &c);
    }
    return p;
}

trace_reader_problems trace_readers_problem_sum(trace_reader *const *readers, int n)
{
    trace_reader_problems sum = { 0 };
    for (int i = 0; i < n; i++) {
        trace_reader_problems p = trace_reader_problem_counts(readers[i]);
        trace_reader_problems_add(&sum, &p);
    }
    return sum;
}

void trace_reader_bytes(const trace_reader *r, uint64_t *file_bytes, uint64_t *data_bytes)
{
    *file_bytes = byte_source_consumed(r->src);
    *data_bytes = byte_source_produced(r->src);
}

void trace_reader_progress(const trace_reader *r, uint64_t *done, uint64_t *total)
{
    *done = byte_source_consumed(r->src);
    *total = byte_source_size(r->src);
}
