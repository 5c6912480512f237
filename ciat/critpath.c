/* critpath.c — the longest chain of the replay's happens-before graph and
 * what it is made of (critpath.h; the rules are docs/ciat-report.md's,
 * L59–L60, L63).
 *
 * Instructions: a thread's pseudo clock grows by one per executed
 * instruction, by the idle time of its resumes, and at the end of a phase
 * (not at a marker) by the clock synchronisation that sets every clock to
 * the phase's end clock (docs/scheduler.md §4, §7). So at each event the
 * instructions a thread executed since its previous event are its clock −
 * the idle of this event − its clock after the previous one; their sum is
 * the run's executed instructions (L06).
 *
 * Chains: thread t's longest chain ending at its current point is len[t]
 * instructions long: an open segment of len − base instructions on t,
 * entered from node prev through object via (handover: by an edge; else
 * t's own program order after a snapshot). A snapshot closes the open
 * segment into a node, which an edge (a release, a barrier arrival, a
 * spawn, a thread's end before the join) may later start from.
 *
 * Sites: a segment entered by a lock's or a barrier's edge carries the site
 * of the call that took it (its pc: the first instruction the thread
 * fetches after the call, critpath_site), and keeps it after snapshots, as
 * it keeps via; one entered otherwise (start, spawn, join) has none. The
 * site is not known when the edge is taken: the nodes closed before the
 * thread's next fetch wait for it in a short list of the thread's. */
#include "critpath.h"
#include "../base/diag.h"
#include "../common/attribution.h"
#include "code_sites.h"
#include "index_map.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SP_START, SP_CRITICAL, SP_ORDERED, SP_OBJECT, SP_BARRIER, SP_SPAWN, SP_JOIN };
static const char *const space_names[] = { "start", "critical", "ordered", "object", "barrier", "spawn", "join" };

/* A site not known yet (the thread has not fetched since the call). */
#define SITE_PENDING ((uint64_t)1 << 34)

typedef struct node {
    uint64_t insns;             /* on thread, after prev */
    uint64_t site;              /* the pc of the call whose edge began the segment (code_sites.h) */
    uint32_t prev;              /* node index + 1; 0: the chain begins here */
    uint32_t via;               /* the object whose hand-over the segment follows */
    int32_t thread;
    bool handover;              /* the segment began with via's edge (else: after a snapshot) */
} node;

typedef struct object {
    uint64_t key;               /* space << 32 | address */
    uint32_t release;           /* locks: the last release's node + 1 (0: none yet) */
    uint64_t release_len;
    uint32_t best;              /* barriers: the open episode's longest arrival, node + 1 */
    uint64_t best_len;
    uint32_t waiting;           /* barriers: arrived, not yet departed */
    uint64_t insns, handovers;  /* on the longest chain (the walk) */
} object;

typedef struct thread_state {
    uint64_t len, base, last_clock;
    uint32_t prev, via;
    uint64_t site;              /* of the open segment (SITE_PENDING: its call's pc comes with the next fetch) */
    uint32_t *wait_site;        /* nodes of its whose site is SITE_PENDING */
    size_t nwait, waitcap;
    bool handover;
    int64_t pending;            /* the object its last call acquires or arrives at, -1 otherwise */
    int64_t waiting;            /* the object it is stopped for, -1 otherwise */
    uint64_t insns, handovers;  /* on the longest chain (the walk) */
} thread_state;

struct critpath {
    int n;
    uint32_t top;
    bool objects;
    uint64_t work;
    thread_state *ts;
    node *nd;
    size_t nnd, ndcap;
    object *ob;
    size_t nob, obcap;
    index_map map;
    code_site *sites;           /* L63: the chain per site, made by critpath_lines */
    size_t nsites;
    uint64_t span;
};

static uint32_t object_of(critpath *p, unsigned space, uint32_t addr)
{
    bool fresh;
    uint64_t key = (uint64_t)space << 32 | addr;
    uint32_t i = index_map_entry(&p->map, key, (void **)&p->ob, &p->nob, &p->obcap, sizeof *p->ob, &fresh,
                                 "--critical-path");
    if (fresh) p->ob[i].key = key;
    return i;
}

critpath *critpath_new(int nthreads, uint32_t top)
{
    critpath *p = xcalloc(1, sizeof *p);
    p->n = nthreads;
    p->top = top;
    p->ts = xcalloc((size_t)nthreads, sizeof *p->ts);
    uint32_t start = object_of(p, SP_START, 0);
    for (int t = 0; t < nthreads; t++) {
        p->ts[t].via = start;
        p->ts[t].site = CODE_SITE_NONE;
        p->ts[t].pending = p->ts[t].waiting = -1;
    }
    return p;
}

void critpath_objects(critpath *p, bool objects) { p->objects = objects; }

void critpath_free(critpath *p)
{
    if (!p) return;
    for (int t = 0; t < p->n; t++) free(p->ts[t].wait_site);
    code_sites_free(p->sites, p->nsites);
    free(p->sites);
    free(p->ts);
    free(p->nd);
    free(p->ob);
    index_map_free(&p->map);
    free(p);
}

/* Thread t's instructions up to an event at clock, idle of which were no
 * instructions. */
static void advance(critpath *p, int t, uint64_t clock, uint64_t idle)
{
    thread_state *s = &p->ts[t];
    uint64_t at = clock - idle;
    if (at > s->last_clock) {
        s->len += at - s->last_clock;
        p->work += at - s->last_clock;
    }
    s->last_clock = clock;
}

/* Close t's open segment into a node; t goes on after it. Its index. */
static uint32_t snapshot(critpath *p, int t)
{
    thread_state *s = &p->ts[t];
    if (p->nnd >= UINT32_MAX - 1) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "--critical-path: too many events");
    p->ndcap = xgrow((void **)&p->nd, p->ndcap, p->nnd + 1, sizeof *p->nd);
    p->nd[p->nnd] = (node){ s->len - s->base, s->site, s->prev, s->via, t, s->handover };
    if (s->site == SITE_PENDING) {
        s->waitcap = xgrow((void **)&s->wait_site, s->waitcap, s->nwait + 1, sizeof *s->wait_site);
        s->wait_site[s->nwait++] = (uint32_t)p->nnd;
    }
    s->prev = (uint32_t)++p->nnd;
    s->base = s->len;
    s->handover = false;
    return (uint32_t)p->nnd - 1;
}

/* t's pending site is pc (ATTR_UNKNOWN: no fetch came before its next call). */
static void site_known(critpath *p, int t, uint64_t pc)
{
    thread_state *s = &p->ts[t];
    for (size_t k = 0; k < s->nwait; k++) p->nd[s->wait_site[k]].site = pc;
    s->nwait = 0;
    if (s->site == SITE_PENDING) s->site = pc;
}

void critpath_site(critpath *p, int t, uint32_t pc) { site_known(p, t, pc); }

/* An edge into t from node src + 1 (0: none) of chain length len through
 * object via; site: the call's (SITE_PENDING), or CODE_SITE_NONE. */
static void take(critpath *p, int t, uint32_t src, uint64_t len, uint32_t via, uint64_t site)
{
    thread_state *s = &p->ts[t];
    if (!src || len <= s->len) return;
    s->len = s->base = len;
    s->prev = src;
    s->via = via;
    s->site = site;
    s->handover = true;
}

void critpath_call(critpath *p, int t, uint64_t clock, const smait_raw *rec)
{
    advance(p, t, clock, 0);
    site_known(p, t, ATTR_UNKNOWN);             /* no fetch since the last call */
    thread_state *s = &p->ts[t];
    s->pending = -1;
    unsigned type = smait_call_type(rec->f1);
    uint32_t addr = rec[SMAIT_CALL_ARG1].f2, seq = rec[SMAIT_CALL_ARG1 + 1].f2;
    unsigned space = type == SMAIT_CT_BEGIN_CRITICAL || type == SMAIT_CT_END_CRITICAL ? SP_CRITICAL
                   : type == SMAIT_CT_BEGIN_ORDER || type == SMAIT_CT_END_ORDER     ? SP_ORDERED
                   : (type == SMAIT_CT_ACQUIRE || type == SMAIT_CT_RELEASE) && p->objects ? SP_OBJECT
                   : type == SMAIT_CT_BARRIER                                         ? SP_BARRIER
                                                                                      : SP_START;
    if (space == SP_START) return;
    uint32_t i = object_of(p, space, addr);
    switch (type) {
    case SMAIT_CT_ACQUIRE:
        if (!seq) return;                       /* waits for nothing */
        /* fall through */
    case SMAIT_CT_BEGIN_CRITICAL:
    case SMAIT_CT_BEGIN_ORDER:
        take(p, t, p->ob[i].release, p->ob[i].release_len, i, SITE_PENDING);
        s->pending = i;
        break;
    case SMAIT_CT_RELEASE:
    case SMAIT_CT_END_CRITICAL:
    case SMAIT_CT_END_ORDER:
        p->ob[i].release = snapshot(p, t) + 1;
        p->ob[i].release_len = s->len;
        break;
    default: {                                  /* a barrier: an arrival */
        object *o = &p->ob[i];
        uint32_t k = snapshot(p, t);
        if (!o->best || s->len > o->best_len) {
            o->best = k + 1;
            o->best_len = s->len;
        }
        s->pending = i;
    }
    }
}

void critpath_stop(critpath *p, int t, uint64_t clock, sched_wait why)
{
    advance(p, t, clock, 0);
    thread_state *s = &p->ts[t];
    bool barrier = s->pending >= 0 && p->ob[s->pending].key >> 32 == SP_BARRIER;
    if (s->pending >= 0 && (barrier ? why == WAIT_BARRIER
                                    : why == WAIT_CRITICAL || why == WAIT_ORDERED || why == WAIT_ACQUIRE)) {
        s->waiting = s->pending;
        if (barrier) p->ob[s->waiting].waiting++;
    }
    s->pending = -1;
}

void critpath_resume(critpath *p, int t, uint64_t clock, uint64_t idle)
{
    advance(p, t, clock, idle);
    thread_state *s = &p->ts[t];
    if (s->waiting < 0) return;
    object *o = &p->ob[s->waiting];
    uint32_t i = (uint32_t)s->waiting;
    s->waiting = -1;
    if (o->key >> 32 != SP_BARRIER) {           /* handed the lock by its last release */
        take(p, t, o->release, o->release_len, i, SITE_PENDING);
        return;
    }
    take(p, t, o->best, o->best_len, i, SITE_PENDING);        /* every arrival happened before every departure */
    if (!--o->waiting) o->best = 0;
}

void critpath_phase_begin(critpath *p, const sched_phase *ph)
{
    /* A phase that does not begin at a marker follows the clock
     * synchronisation (the first phase: all clocks 0), which set every
     * clock to its start clock and executed nothing. */
    if (ph->by != PHASE_BY_MARKER)
        for (int t = 0; t < p->n; t++)
            if (p->ts[t].last_clock < ph->start_clock) p->ts[t].last_clock = ph->start_clock;
    if (ph->by == PHASE_BY_SPAWN) {             /* thread 0's spawn → each thread of the region */
        uint32_t k = snapshot(p, 0) + 1, o = object_of(p, SP_SPAWN, 0);
        for (int t = 1; t < ph->active && t < p->n; t++) take(p, t, k, p->ts[0].len, o, CODE_SITE_NONE);
    } else if (ph->by == PHASE_BY_JOIN) {       /* every thread's end → thread 0 after the join */
        int best = 0;
        for (int t = 1; t < p->n; t++)
            if (p->ts[t].len > p->ts[best].len) best = t;
        if (best) take(p, 0, snapshot(p, best) + 1, p->ts[best].len, object_of(p, SP_JOIN, 0), CODE_SITE_NONE);
    }
}

/* ---- the lines ---- */

static const object *walked;    /* the object table of by_share (qsort has no context) */
static int by_share(const void *pa, const void *pb)
{
    const object *a = &walked[*(const uint32_t *)pa], *b = &walked[*(const uint32_t *)pb];
    if (a->insns != b->insns) return a->insns > b->insns ? -1 : 1;
    if (a->handovers != b->handovers) return a->handovers > b->handovers ? -1 : 1;
    return a->key < b->key ? -1 : a->key > b->key;
}

void critpath_lines(critpath *p, const addr_map *m, locks_emit emit, void *ctx)
{
    int end = 0;                                /* the longest chain ends on it (ties: the lowest) */
    for (int t = 1; t < p->n; t++)
        if (p->ts[t].len > p->ts[end].len) end = t;
    uint64_t span = p->n ? p->ts[end].len : 0, handovers = 0;
    for (int t = 0; t < p->n; t++) site_known(p, t, ATTR_UNKNOWN);        /* no fetch after it, ever */
    index_map sm = { 0 };
    size_t scap = 0;
    for (uint32_t k = p->n ? snapshot(p, end) + 1 : 0; k; k = p->nd[k - 1].prev) {
        const node *x = &p->nd[k - 1];
        p->ob[x->via].insns += x->insns;
        p->ts[x->thread].insns += x->insns;
        bool fresh;
        uint32_t j = index_map_entry(&sm, x->site, (void **)&p->sites, &p->nsites, &scap, sizeof *p->sites, &fresh,
                                     "--critical-path");
        if (fresh) p->sites[j] = (code_site){ .pc = x->site };
        p->sites[j].n[0] += x->insns;
        if (x->handover) {
            p->ob[x->via].handovers++;
            p->ts[x->thread].handovers++;
            p->sites[j].n[1]++;
            handovers++;
        }
    }
    index_map_free(&sm);
    p->span = span;
    char par[REPORT_NUM], bound[REPORT_NUM];
    double w = (double)p->work, per = p->n ? w / p->n : 0, d = per > (double)span ? per : (double)span;
    locks_emitf(emit, ctx, 59, "critical_path",
                "work %" PRIu64 " span %" PRIu64 " parallelism %s threads %d speedup_bound %s handovers %" PRIu64
                " end_thread %d", p->work, span, report_ratio(par, w, (double)span), p->n,
                report_ratio(bound, w, d), handovers, end);
    uint32_t *v = xcalloc(p->nob + 1, sizeof *v);
    size_t nv = 0;
    for (uint32_t i = 0; i < p->nob; i++)
        if (p->ob[i].insns || p->ob[i].handovers) v[nv++] = i;
    walked = p->ob;
    if (nv) qsort(v, nv, sizeof *v, by_share);
    char name[2600], pct[REPORT_NUM];
    for (size_t r = 0; r < nv && r < p->top; r++) {
        const object *o = &p->ob[v[r]];
        unsigned space = (unsigned)(o->key >> 32);
        uint32_t addr = (uint32_t)o->key;
        bool named = space != SP_START && space != SP_SPAWN && space != SP_JOIN;
        if (named) attr_data_name(name, sizeof name, m, addr);
        else snprintf(name, sizeof name, "none - where -");
        const char *label = strchr(name, ' ');
        int kl = label ? (int)(label - name) : (int)strlen(name);
        locks_emitf(emit, ctx, 60, "critical_path_top",
                    "rank %zu by object space %s addr 0x%08" PRIx32 " kind %.*s name %s handovers %" PRIu64
                    " instructions %" PRIu64 " share %s", r + 1, space_names[space], addr, kl, name,
                    label ? label + 1 : "-", o->handovers, o->insns, report_pct(pct, o->insns, span));
    }
    nv = 0;
    free(v);
    int *th = xcalloc((size_t)p->n + 1, sizeof *th);
    for (int t = 0; t < p->n; t++)
        if (p->ts[t].insns || p->ts[t].handovers) th[nv++] = t;
    /* by instructions, then thread: an insertion sort keeps it stable */
    for (size_t i = 1; i < nv; i++) {
        int x = th[i];
        size_t j = i;
        while (j > 0 && p->ts[th[j - 1]].insns < p->ts[x].insns) {
            th[j] = th[j - 1];
            j--;
        }
        th[j] = x;
    }
    for (size_t r = 0; r < nv && r < p->top; r++) {
        const thread_state *s = &p->ts[th[r]];
        locks_emitf(emit, ctx, 60, "critical_path_top",
                    "rank %zu by thread thread %d handovers %" PRIu64 " instructions %" PRIu64 " share %s", r + 1,
                    th[r], s->handovers, s->insns, report_pct(pct, s->insns, span));
    }
    free(th);
}

void critpath_site_lines(critpath *p, const addr_map *m, locks_emit emit, void *ctx)
{
    p->nsites = code_sites_rank(p->sites, p->nsites, m);
    char text[2700], pct[REPORT_NUM];
    for (size_t r = 0; r < p->nsites && r < p->top; r++) {
        const code_site *c = &p->sites[r];
        code_site_text(text, sizeof text, c);
        locks_emitf(emit, ctx, 63, "critical_path_site", "rank %zu %s handovers %" PRIu64 " instructions %" PRIu64
                    " share %s", r + 1, text, c->n[1], c->n[0], report_pct(pct, c->n[0], p->span));
    }
}
