/* contention.c — the home banks and links as FIFO servers (contention.h). */
#include "contention.h"
#include "stats.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void contention_init(contention *ct, const cdat_config *cfg)
{
    *ct = (contention){ .nodes = cfg->nodes, .banks = cfg->banks_per_node, .bank_busy = cfg->timing.bank_busy,
                        .link_busy = cfg->timing.link_busy };
    while ((1u << ct->line_shift) < cfg->line_size) ct->line_shift++;
    ct->res = xcalloc((size_t)ct->nodes * (ct->banks + 1), sizeof *ct->res);
    ct->nprocs = cfg->nodes * cfg->procs_per_node;
    ct->last = xcalloc(ct->nprocs, sizeof *ct->last);
}

void contention_free(contention *ct)
{
    for (unsigned i = 0; ct->res && i < ct->nodes * (ct->banks + 1); i++) free(ct->res[i].p);
    free(ct->last);
    ct->last = NULL;
    free(ct->res);
    ct->res = NULL;
}

/* Forget r's periods that end by the floor: no arrival can reach them. */
static void forget(cont_resource *r, uint64_t floor, unsigned busy)
{
    size_t k = 0;
    while (k < r->n && r->p[k].start + r->p[k].count * busy <= floor) k++;
    if (!k) return;
    memmove(r->p, r->p + k, (r->n - k) * sizeof *r->p);
    r->n -= k;
}

/* A sequence arriving at a joins r's periods (contention.h); returns the
 * cycles it adds to r's total wait: its own wait plus what it pushes later
 * arrivals back. */
static uint64_t place(cont_resource *r, uint64_t a, unsigned busy)
{
    size_t lo = 0, hi = r->n;                   /* the first period starting after a */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (r->p[mid].start > a) hi = mid;
        else lo = mid + 1;
    }
    uint64_t charge;
    size_t j;
    if (lo > 0 && a < r->p[lo - 1].start + r->p[lo - 1].count * busy) {
        j = lo - 1;                             /* in period j: served after its count sequences */
        charge = r->p[j].start + r->p[j].count * busy - a;
        r->p[j].count++;
    } else {                                    /* in the gap before period lo: served at once */
        if (r->n == r->cap) {
            r->cap = r->cap ? 2 * r->cap : 16;
            r->p = xrealloc(r->p, r->cap * sizeof *r->p);
        }
        j = lo;
        memmove(r->p + j + 1, r->p + j, (r->n - j) * sizeof *r->p);
        r->p[j] = (cont_period){ a, 1 };
        r->n++;
        charge = 0;
    }
    /* The periods it now reaches: their sequences pushed back, joined to j. */
    size_t k = j + 1;
    uint64_t end = r->p[j].start + r->p[j].count * busy;
    while (k < r->n && r->p[k].start < end) {
        charge += r->p[k].count * (end - r->p[k].start);
        r->p[j].count += r->p[k].count;
        end = r->p[j].start + r->p[j].count * busy;
        k++;
    }
    if (k > j + 1) {
        memmove(r->p + j + 1, r->p + k, (r->n - k) * sizeof *r->p);
        r->n -= k - j - 1;
    }
    if (r->n > CONT_PERIODS_MAX) {              /* the oldest forgotten */
        memmove(r->p, r->p + 1, (r->n - 1) * sizeof *r->p);
        r->n--;
    }
    return charge;
}

/* One server: arriving at t, busy cycles; returns the charge, and t moves
 * on by it (a server's busy time is its occupancy, the latency keys price
 * the trip). */
static inline uint64_t serve(contention *ct, cont_resource *r, uint64_t *t, unsigned busy, bool request)
{
    forget(r, ct->floor, busy);
    uint64_t w = place(r, *t, busy);
    r->busy += busy;
    if (request) {
        r->requests++;
        r->wait += w;
        if (w > r->max_wait) r->max_wait = w;
    } else {
        r->returns++;
    }
    *t += w;
    return w;
}

void contention_phase(contention *ct, uint64_t start)
{
    for (unsigned p = 0; p < ct->nprocs; p++) ct->last[p] = start;
    if (start > ct->floor) ct->floor = start;
}

uint64_t contention_seq(contention *ct, const mach_seq *q, uint64_t arrival)
{
    /* A local snoop is answered inside the requester's node. */
    if (q->n >= 2 && q->tx[1].code == TX_UPDATE_DATA) return 0;
    bool request = (stats_code_class[q->code] & STATS_REQUEST) != 0;
    bool remote = q->home != q->req_node;
    cont_resource *links = ct->res + (size_t)ct->nodes * ct->banks;
    uint64_t t = arrival, w = 0;
    /* Every processor's arrivals only grow within a phase: the earliest of
     * their latest bounds every arrival to come. */
    if (q->requester >= 0 && (unsigned)q->requester < ct->nprocs) ct->last[q->requester] = arrival;
    if (++ct->since_floor == CONT_FLOOR_EVERY) {
        ct->since_floor = 0;
        uint64_t m = UINT64_MAX;
        for (unsigned p = 0; p < ct->nprocs; p++)
            if (ct->last[p] < m) m = ct->last[p];
        if (m != UINT64_MAX && m > ct->floor) ct->floor = m;
    }
    if (remote && ct->link_busy) w += serve(ct, &links[q->req_node], &t, ct->link_busy, request);
    if (ct->bank_busy) {
        unsigned bank = (unsigned)((q->addr >> ct->line_shift) % ct->banks);
        w += serve(ct, &ct->res[(size_t)q->home * ct->banks + bank], &t, ct->bank_busy, request);
    }
    if (remote && request && ct->link_busy) w += serve(ct, &links[q->home], &t, ct->link_busy, true);
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
