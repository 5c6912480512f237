/* contention.c — the home banks and links as FIFO servers (contention.h). */
#include "contention.h"
#include "stats.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

void contention_init(contention *ct, const cdat_config *cfg)
{
    *ct = (contention){ .nodes = cfg->nodes, .banks = cfg->banks_per_node, .bank_busy = cfg->timing.bank_busy,
                        .link_busy = cfg->timing.link_busy };
    while ((1u << ct->line_shift) < cfg->line_size) ct->line_shift++;
    ct->res = xcalloc((size_t)ct->nodes * (ct->banks + 1), sizeof *ct->res);
}

void contention_free(contention *ct)
{
    free(ct->res);
    ct->res = NULL;
}

/* One server: arriving at t, busy cycles; returns the wait, and t moves to
 * when the sequence leaves it (start + busy is when the server frees; the
 * sequence goes on after its wait only: a server's busy time is its
 * occupancy, the latency keys price the trip). */
static inline uint64_t serve(cont_resource *r, uint64_t *t, unsigned busy, bool request)
{
    uint64_t start = r->free_at > *t ? r->free_at : *t, w = start - *t;
    r->free_at = start + busy;
    r->busy += busy;
    if (request) {
        r->requests++;
        r->wait += w;
        if (w > r->max_wait) r->max_wait = w;
    } else {
        r->returns++;
    }
    *t = start;
    return w;
}

uint64_t contention_seq(contention *ct, const mach_seq *q, uint64_t arrival)
{
    /* A local snoop is answered inside the requester's node. */
    if (q->n >= 2 && q->tx[1].code == TX_UPDATE_DATA) return 0;
    bool request = (stats_code_class[q->code] & STATS_REQUEST) != 0;
    bool remote = q->home != q->req_node;
    cont_resource *links = ct->res + (size_t)ct->nodes * ct->banks;
    uint64_t t = arrival, w = 0;
    if (remote && ct->link_busy) w += serve(&links[q->req_node], &t, ct->link_busy, request);
    if (ct->bank_busy) {
        unsigned bank = (unsigned)((q->addr >> ct->line_shift) % ct->banks);
        w += serve(&ct->res[(size_t)q->home * ct->banks + bank], &t, ct->bank_busy, request);
    }
    if (remote && request && ct->link_busy) w += serve(&links[q->home], &t, ct->link_busy, true);
    return request ? w : 0;
}

/* Whether resource i goes before j in L24: more wait, then the lower number. */
static bool before(const cont_resource *res, unsigned i, unsigned j)
{
    return res[i].wait != res[j].wait ? res[i].wait > res[j].wait : i < j;
}

void contention_report(report *r, const contention *ct, uint64_t est_time)
{
    unsigned n = ct->nodes * (ct->banks + 1), k = 0;
    unsigned *order = xcalloc(n, sizeof *order);
    for (unsigned i = 0; i < n; i++)
        if (ct->res[i].requests + ct->res[i].returns) order[k++] = i;
    /* An insertion sort (at most 32 × 32 banks and 32 links): wait
     * descending, then number. */
    for (unsigned i = 1; i < k; i++)
        for (unsigned j = i; j > 0 && before(ct->res, order[j], order[j - 1]); j--) {
            unsigned x = order[j];
            order[j] = order[j - 1];
            order[j - 1] = x;
        }
    for (unsigned i = 0; i < k && i < CONT_REPORT_TOP; i++) {
        unsigned x = order[i];
        const cont_resource *s = &ct->res[x];
        char what[48], pct[REPORT_NUM];
        if (x < ct->nodes * ct->banks) snprintf(what, sizeof what, "bank node %u bank %u", x / ct->banks, x % ct->banks);
        else snprintf(what, sizeof what, "link node %u", x - ct->nodes * ct->banks);
        report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 24, "contention", "rank %u resource %s requests %" PRIu64
                    " returns %" PRIu64 " busy %" PRIu64 " wait %" PRIu64 " max_wait %" PRIu64 " utilization %s",
                    i + 1, what, s->requests, s->returns, s->busy, s->wait, s->max_wait,
                    report_pct(pct, s->busy, est_time));
    }
    free(order);
}
