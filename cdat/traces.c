/* traces.c — buffered writing of the general and detailed traces. */
#include "traces.h"
#include "../base/diag.h"

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
    trace_buf *b = &t->general[(int)t->nio + proc];
    int p = proc, node = 0;
    if (proc >= 0) {
        p = t->m->p[proc].proc;
        node = t->m->p[proc].node;
    }
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
    if (t->general)
        for (unsigned i = 0; i < t->nio + t->m->nprocs; i++) buf_done(&t->general[i], true);
    buf_done(&t->detailed, true);
}

void traces_free(cdat_traces *t)
{
    if (t->general)
        for (unsigned i = 0; i < t->nio + t->m->nprocs; i++) buf_done(&t->general[i], false);
    buf_done(&t->detailed, false);
    free(t->general);
    free(t->sharing);
    memset(t, 0, sizeof *t);
}
