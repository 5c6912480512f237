/* traces.c — buffered writing of the general and detailed traces. */
#include "traces.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <sys/types.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TRACE_BUF = 1 << 16 };

static void buf_open(trace_buf *b, char *path, out_format format)
{
    b->f = out_file_open_format(path, format);
    b->buf = xmalloc(TRACE_BUF);
    b->len = 0;
    free(path);
}

static void buf_flush(trace_buf *b)
{
    if (b->len) out_file_write(b->f, b->buf, b->len);
    b->len = 0;
}

/* Room for one more record. */
static inline char *buf_room(trace_buf *b)
{
    if (b->len + CDAT_RECORD_MAX > TRACE_BUF) buf_flush(b);
    return b->buf + b->len;
}

void traces_open(cdat_traces *t, const machine *m, unsigned nio, bool general, bool detailed, out_format format,
                 char *(*name_of)(void *ctx, const char *suffix), void *ctx)
{
    memset(t, 0, sizeof *t);
    t->m = m;
    t->nio = nio;
    t->sharing_len = m->nprocs + (m->icc ? m->nodes : 0);
    t->sharing = xcalloc(t->sharing_len, 1);
    const char *gz = format == OUT_ZSTD ? ".zst" : format == OUT_GZIP ? ".gz" : "";
    char suffix[64];
    if (general) {
        t->general = xcalloc(nio + m->nprocs, sizeof *t->general);
        for (int n = -(int)nio; n < (int)m->nprocs; n++) {
            snprintf(suffix, sizeof suffix, "general.%d%s", n, gz);
            buf_open(&t->general[(int)nio + n], name_of(ctx, suffix), format);
        }
    }
    if (detailed) {
        snprintf(suffix, sizeof suffix, "detailed%s", gz);
        buf_open(&t->detailed, name_of(ctx, suffix), format);
    }
}

void traces_open_keyed(cdat_traces *t, const machine *m, FILE *keyed, bool general, bool detailed, bool status,
                       const uint64_t *event, const uint32_t *line)
{
    memset(t, 0, sizeof *t);
    t->m = m;
    t->sharing_len = m->nprocs + (m->icc ? m->nodes : 0);
    t->sharing = xcalloc(t->sharing_len, 1);
    t->keyed = keyed;
    t->status = status && general;
    t->event = event;
    t->line = line;
    t->scratch = xmalloc(CDAT_RECORD_MAX);
    if (general) t->general = xcalloc(m->nprocs, sizeof *t->general);   /* only as the flag; no files */
    t->keyed_detailed = detailed;
}

/* A keyed line: the key, the file, the record (len bytes with its newline). */
static void keyed_line(cdat_traces *t, uint32_t line, int file, size_t len)
{
    if (file < 0) fprintf(t->keyed, "%" PRIu64 " %" PRIu32 " d ", *t->event, line);
    else fprintf(t->keyed, "%" PRIu64 " %" PRIu32 " %d ", *t->event, line, file);
    fwrite(t->scratch, 1, len, t->keyed);
}

static void keyed_seq(cdat_traces *t, const mach_seq *s)
{
    if (t->keyed_detailed)
        for (unsigned i = 0; i < s->n; i++) keyed_line(t, *t->line, -1, cdat_format_detailed(t->scratch, &s->tx[i]));
    if (t->general)
        keyed_line(t, *t->line, s->requester, cdat_format_general(t->scratch, &s->tx[0], s->status, t->sharing,
                                                                  t->sharing_len));
}

bool traces_put(cdat_traces *t, const char *file, const char *record, size_t len)
{
    trace_buf *b = NULL;
    if (strcmp(file, "d") == 0) {
        b = t->detailed.f ? &t->detailed : NULL;
    } else if (t->general && file[0] >= '0' && file[0] <= '9' && strlen(file) <= 9) {
        char *end;
        unsigned long n = strtoul(file, &end, 10);
        if (!*end && (file[0] != '0' || !file[1]) && n < t->m->nprocs) b = &t->general[t->nio + n];
    }
    if (!b || len + 1 > CDAT_RECORD_MAX) return false;
    char *room = buf_room(b);
    memcpy(room, record, len);
    room[len] = '\n';
    b->len += len + 1;
    return true;
}

/* One part's next keyed line: its keys and where its FILE field begins. */
typedef struct keyed_head {
    char *line;
    size_t cap;
    uint64_t ref;
    uint32_t idx;
    char *file;
    bool done;
} keyed_head;

static void keyed_next(keyed_head *h, FILE *f)
{
    ssize_t n = getline(&h->line, &h->cap, f);
    h->done = n <= 0;
    if (h->done) return;
    char *s = h->line, *end;
    h->ref = strtoull(s, &end, 10);
    h->idx = (uint32_t)strtoul(end, &end, 10);
    h->file = end + 1;
}

void traces_merge_keyed(cdat_traces *t, FILE **parts, int n)
{
    keyed_head *h = xcalloc((size_t)n, sizeof *h);
    for (int k = 0; k < n; k++) {
        rewind(parts[k]);
        keyed_next(&h[k], parts[k]);
    }
    for (;;) {
        int k = -1;                             /* the lowest key; equal keys: the lowest part's first */
        for (int j = 0; j < n; j++)
            if (!h[j].done && (k < 0 || h[j].ref < h[k].ref || (h[j].ref == h[k].ref && h[j].idx < h[k].idx)))
                k = j;
        if (k < 0) break;
        char *rec = strchr(h[k].file, ' ');
        if (!rec) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "a part's trace record without its file");
        *rec++ = 0;
        size_t len = strlen(rec);
        if (len && rec[len - 1] == '\n') len--;
        if (!traces_put(t, h[k].file, rec, len))
            diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "a part's trace record for no file: '%s'", h[k].file);
        keyed_next(&h[k], parts[k]);
    }
    for (int k = 0; k < n; k++) {
        if (ferror(parts[k])) diag_fatal(EXIT_DATA, NULL, DIAG_NO_OFFSET, "cannot read a part's trace records back");
        free(h[k].line);
    }
    free(h);
}

/* The sharing list: per node its processors, then its interconnect cache. */
static void sharing_list(cdat_traces *t, const holder_set *h)
{
    const machine *m = t->m;
    unsigned k = 0;
    for (unsigned n = 0; n < m->nodes; n++) {
        for (unsigned i = 0; i < m->ppn; i++) t->sharing[k++] = hs_has(h, n * m->ppn + i);
        if (m->icc) t->sharing[k++] = hs_has(h, DIR_ICC_SLOT + n);
    }
}

void traces_seq(cdat_traces *t, const mach_seq *s)
{
    if (t->keyed) {
        if (t->general) sharing_list(t, &s->holders);
        keyed_seq(t, s);
        return;
    }
    if (t->detailed.f) {
        trace_buf *b = &t->detailed;
        for (unsigned i = 0; i < s->n; i++) b->len += cdat_format_detailed(buf_room(b), &s->tx[i]);
    }
    if (t->general) {
        trace_buf *b = &t->general[(int)t->nio + s->requester];
        sharing_list(t, &s->holders);
        b->len += cdat_format_general(buf_room(b), &s->tx[0], s->status, t->sharing, t->sharing_len);
    }
}

void traces_status(cdat_traces *t, int proc, uint64_t clock, bool active)
{
    if (!t->general) return;
    int p = proc, node = 0;
    if (proc >= 0) {
        p = t->m->p[proc].proc;
        node = t->m->p[proc].node;
    }
    if (t->keyed) {
        if (t->status)
            keyed_line(t, UINT32_MAX, proc, cdat_format_status(t->scratch, clock, active ? TX_START_ACTIVE
                                                                                         : TX_START_IDLE, p, node));
        return;
    }
    trace_buf *b = &t->general[(int)t->nio + proc];
    b->len += cdat_format_status(buf_room(b), clock, active ? TX_START_ACTIVE : TX_START_IDLE, p, node);
}

/* finish: the buffered records go to the file, which out_file_commit_all
 * makes appear; otherwise the file is dropped. */
static void buf_done(trace_buf *b, bool finish)
{
    if (!b->f) return;
    if (finish) buf_flush(b);
    else out_file_abort(b->f);
    free(b->buf);
    memset(b, 0, sizeof *b);
}

void traces_finish(cdat_traces *t)
{
    if (t->keyed) return;
    if (t->general)
        for (unsigned i = 0; i < t->nio + t->m->nprocs; i++) buf_done(&t->general[i], true);
    buf_done(&t->detailed, true);
}

void traces_free(cdat_traces *t)
{
    if (t->general && !t->keyed)
        for (unsigned i = 0; i < t->nio + t->m->nprocs; i++) buf_done(&t->general[i], false);
    buf_done(&t->detailed, false);
    free(t->general);
    free(t->scratch);
    free(t->sharing);
    memset(t, 0, sizeof *t);
}
