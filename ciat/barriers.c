/* barriers.c — per barrier and thread: episodes, arrival spreads and waits
 * (barriers.h; the rules are docs/ciat-report.md's, L57–L58).
 *
 * A thread's barrier call notes the barrier, its clock and start time; the
 * stop that follows it (stop barrier) makes it an arrival of the barrier's
 * open episode; the resume that ends that stop is its departure, with its
 * wait. When the last waiting thread of a barrier has departed, the episode
 * is closed and summed into the barrier's figures. */
#include "barriers.h"
#include "../base/diag.h"
#include "../common/attribution.h"
#include "index_map.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct barrier {
    uint32_t addr;
    uint64_t episodes, arrivals, wait_cycles, wait_max;
    uint64_t spread_sum, spread_max, spread_us_sum, spread_us_max;
    uint64_t *last;             /* per thread: episodes it arrived last in (NULL before the first) */
    /* the open episode */
    uint32_t waiting;           /* arrived, not yet departed */
    uint64_t first_clock, last_clock;
    uint32_t ref_us;            /* the first arrival's start time */
    int64_t min_us, max_us;     /* start times relative to ref_us */
    int last_thread;            /* the latest arrival in the replay */
} barrier;

typedef struct thread_state {
    int64_t pending;            /* the barrier of its last call, -1 otherwise */
    int64_t waiting;            /* the barrier it is stopped at, -1 otherwise */
    uint64_t clock;             /* the pending call's clock and start time */
    uint32_t start_us;
    uint64_t arrivals, wait_cycles, wait_max, arrived_last;
} thread_state;

struct barriers {
    int n;
    uint32_t top;
    thread_state *ts;
    barrier *br;
    size_t nbr, brcap;
    index_map map;
};

barriers *barriers_new(int nthreads, uint32_t top)
{
    barriers *b = xcalloc(1, sizeof *b);
    b->n = nthreads;
    b->top = top;
    b->ts = xcalloc((size_t)nthreads, sizeof *b->ts);
    for (int t = 0; t < nthreads; t++) b->ts[t].pending = b->ts[t].waiting = -1;
    return b;
}

void barriers_free(barriers *b)
{
    if (!b) return;
    for (size_t i = 0; i < b->nbr; i++) free(b->br[i].last);
    free(b->br);
    free(b->ts);
    index_map_free(&b->map);
    free(b);
}

void barriers_call(barriers *b, int t, uint64_t clock, const smait_raw *rec)
{
    thread_state *s = &b->ts[t];
    s->pending = -1;
    if (smait_call_type(rec->f1) != SMAIT_CT_BARRIER) return;
    uint32_t addr = rec[SMAIT_CALL_ARG1].f2;
    bool fresh;
    uint32_t i = index_map_entry(&b->map, addr, (void **)&b->br, &b->nbr, &b->brcap, sizeof *b->br, &fresh,
                                 "--barriers");
    if (fresh) {
        b->br[i].addr = addr;
        b->br[i].last_thread = -1;
    }
    s->pending = i;
    s->clock = clock;
    s->start_us = rec[SMAIT_CALL_START].f2;
}

void barriers_stop(barriers *b, int t, sched_wait why)
{
    thread_state *s = &b->ts[t];
    if (why == WAIT_BARRIER && s->pending >= 0) {
        barrier *k = &b->br[s->pending];
        if (!k->waiting) {                      /* the first arrival opens an episode */
            k->first_clock = k->last_clock = s->clock;
            k->ref_us = s->start_us;
            k->min_us = k->max_us = 0;
        }
        int64_t us = (int32_t)(s->start_us - k->ref_us);   /* modulo 2^32, either side of the first */
        if (s->clock < k->first_clock) k->first_clock = s->clock;
        if (s->clock > k->last_clock) k->last_clock = s->clock;
        if (us < k->min_us) k->min_us = us;
        if (us > k->max_us) k->max_us = us;
        k->last_thread = t;
        k->waiting++;
        k->arrivals++;
        s->arrivals++;
        s->waiting = s->pending;
    }
    s->pending = -1;
}

void barriers_resume(barriers *b, int t, uint64_t idle)
{
    thread_state *s = &b->ts[t];
    if (s->waiting < 0) return;
    barrier *k = &b->br[s->waiting];
    s->waiting = -1;
    k->wait_cycles += idle;
    if (idle > k->wait_max) k->wait_max = idle;
    s->wait_cycles += idle;
    if (idle > s->wait_max) s->wait_max = idle;
    if (--k->waiting) return;
    /* the last departure closes the episode */
    uint64_t spread = k->last_clock - k->first_clock, spread_us = (uint64_t)(k->max_us - k->min_us);
    k->episodes++;
    k->spread_sum += spread;
    if (spread > k->spread_max) k->spread_max = spread;
    k->spread_us_sum += spread_us;
    if (spread_us > k->spread_us_max) k->spread_us_max = spread_us;
    if (!k->last) k->last = xcalloc((size_t)b->n, sizeof *k->last);
    k->last[k->last_thread]++;
    b->ts[k->last_thread].arrived_last++;
}

/* ---- the lines ---- */

static int by_wait(const void *pa, const void *pb)
{
    const barrier *a = pa, *b = pb;
    if (a->wait_cycles != b->wait_cycles) return a->wait_cycles > b->wait_cycles ? -1 : 1;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void barriers_lines(barriers *b, const addr_map *m, locks_emit emit, void *ctx)
{
    if (b->nbr) qsort(b->br, b->nbr, sizeof *b->br, by_wait);
    char name[2600];
    for (size_t i = 0; i < b->nbr && i < b->top; i++) {
        const barrier *k = &b->br[i];
        attr_data_name(name, sizeof name, m, k->addr);
        const char *label = strchr(name, ' ');
        int kl = label ? (int)(label - name) : (int)strlen(name);
        int last = -1;                          /* most often last; ties: the lowest thread */
        for (int t = 0; k->last && t < b->n; t++)
            if (k->last[t] && (last < 0 || k->last[t] > k->last[last])) last = t;
        char sm[REPORT_NUM], su[REPORT_NUM], lt[24];
        if (last >= 0) snprintf(lt, sizeof lt, "%d", last);
        else snprintf(lt, sizeof lt, "-");
        locks_emitf(emit, ctx, 57, "barrier",
                    "rank %zu addr 0x%08" PRIx32 " kind %.*s name %s episodes %" PRIu64 " arrivals %" PRIu64
                    " wait_cycles %" PRIu64 " wait_max %" PRIu64 " spread_max %" PRIu64 " spread_mean %s"
                    " spread_us_max %" PRIu64 " spread_us_mean %s last_thread %s last_count %" PRIu64,
                    i + 1, k->addr, kl, name, label ? label + 1 : "-", k->episodes, k->arrivals, k->wait_cycles,
                    k->wait_max, k->spread_max, report_ratio(sm, (double)k->spread_sum, (double)k->episodes),
                    k->spread_us_max, report_ratio(su, (double)k->spread_us_sum, (double)k->episodes), lt,
                    last >= 0 ? k->last[last] : 0);
    }
    for (int t = 0; t < b->n; t++) {
        const thread_state *s = &b->ts[t];
        locks_emitf(emit, ctx, 58, "barrier_thread",
                    "thread %d arrivals %" PRIu64 " wait_cycles %" PRIu64 " wait_max %" PRIu64
                    " arrived_last %" PRIu64, t, s->arrivals, s->wait_cycles, s->wait_max, s->arrived_last);
    }
}
