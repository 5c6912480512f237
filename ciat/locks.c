/* locks.c — per lock, lock pair and marker interval: where the time goes
 * (locks.h; the rules are docs/ciat-report.md's, L52–L56, L61–L62).
 *
 * A lock is a key in one of two spaces: critical sections (06/07, every
 * kind) and objects (20/21, the lock kinds only). Each thread keeps the
 * locks it holds, innermost last, with the clock and recorded time each was
 * taken at, and whether its last call was a lock acquisition (a stop for a
 * lock comes right after that call: the stop and the resume that ends it
 * belong to it). An acquisition's site (its call's pc, L61) is known at the
 * thread's next fetch (locks_site), after the stop and resume its wait
 * made: until then the thread keeps the acquisition's lock, whether it
 * waited and how long. */
#include "locks.h"
#include "../base/diag.h"
#include "../common/attribution.h"
#include "code_sites.h"
#include "index_map.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SPACE_CRITICAL, SPACE_OBJECT };
enum { BUCKETS = 65 };          /* locks_bucket: 0 … 64 */
enum { SITES_PER_LOCK = 4 };    /* L61: the top sites of each ranked lock */

/* The kinds of formats/SMAIT.md §5.1 that are locks. */
bool locks_lock_kind(uint32_t kind) { return kind == 1 || kind == 2 || kind == 3 || kind == 7 || kind == 8; }

static const char *const kind_names[] = { "none", "mutex", "spin_lock", "rwlock", "condvar", "semaphore",
                                          "atomic", "omp_lock", "omp_critical", "omp_ordered", "omp_task",
                                          "once", "runtime_barrier" };

/* A time's count, sum, max and log2 histogram. */
typedef struct spread {
    uint64_t n, sum, max;
    uint64_t hist[BUCKETS];
} spread;

typedef struct lock {
    uint64_t key;               /* space << 32 | address */
    uint32_t index;             /* its own index in the table (ranking sorts a copy) */
    uint32_t kind;              /* the first non-zero kind its acquisitions gave */
    int last_owner;             /* the thread of the last acquisition, -1 before the first */
    uint64_t acquisitions, contended, contended_rec, handoffs;
    uint64_t wait_us;           /* Σ recorded durations of its acquisitions */
    uint64_t hold_us, hold_us_max;
    spread wait, hold;          /* pseudo cycles */
} lock;

typedef struct held {
    uint32_t lock;
    uint64_t clock;             /* granted at (the call's clock, or the resume's) */
    uint32_t end_us;            /* the acquisition's recorded end time */
} held;

typedef struct pair {
    uint64_t key;               /* outer lock index << 32 | inner lock index */
    uint64_t count;
} pair;

/* An acquisition site of a lock: lock index << 33 | pc (or ATTR_UNKNOWN). */
typedef struct site {
    uint64_t key;
    uint64_t acquisitions, contended, wait;
} site;

typedef struct interval {
    uint64_t key;               /* from << 32 | to */
    uint64_t count, cycles, min_cycles, max_cycles, us, min_us, max_us;
} interval;

typedef struct thread_state {
    held *held;
    size_t nheld, cap;
    int64_t last_acq;           /* index of the lock its last call acquired, -1 otherwise */
    int64_t waiting;            /* index of the lock it is stopped for, -1 otherwise */
    int64_t site_lock;          /* the acquisition whose site is not known yet: its lock, -1: none */
    bool site_contended;        /* … it stopped for the lock */
    uint64_t site_wait;         /* … its wait */
    int64_t released;           /* the lock it let go last since its last acquisition, -1: none */
    bool marker;                /* a marker seen: the last one's number, clock and start time */
    uint32_t marker_num, marker_us;
    uint64_t marker_clock;
} thread_state;

struct locks {
    int n;
    uint32_t top;
    bool intervals;
    thread_state *ts;
    lock *lk;
    size_t nlk, lkcap;
    pair *pr;
    size_t npr, prcap;
    pair *fo;                   /* L62: (lock let go, the next one taken) */
    size_t nfo, focap;
    site *st;
    size_t nst, stcap;
    interval *iv;
    size_t niv, ivcap;
    index_map lkmap, prmap, fomap, stmap, ivmap;
};

unsigned locks_bucket(uint64_t v) { return v ? 64u - (unsigned)__builtin_clzll(v) : 0u; }

static void spread_add(spread *s, uint64_t v)
{
    s->n++;
    s->sum += v;
    if (v > s->max) s->max = v;
    s->hist[locks_bucket(v)]++;
}

locks *locks_new(int nthreads, uint32_t top, bool intervals)
{
    locks *l = xcalloc(1, sizeof *l);
    l->n = nthreads;
    l->top = top;
    l->intervals = intervals;
    l->ts = xcalloc((size_t)nthreads, sizeof *l->ts);
    for (int t = 0; t < nthreads; t++)
        l->ts[t].last_acq = l->ts[t].waiting = l->ts[t].site_lock = l->ts[t].released = -1;
    return l;
}

void locks_free(locks *l)
{
    if (!l) return;
    for (int t = 0; t < l->n; t++) free(l->ts[t].held);
    free(l->ts);
    free(l->lk);
    free(l->pr);
    free(l->fo);
    free(l->st);
    free(l->iv);
    index_map_free(&l->lkmap);
    index_map_free(&l->prmap);
    index_map_free(&l->fomap);
    index_map_free(&l->stmap);
    index_map_free(&l->ivmap);
    free(l);
}

static uint32_t lock_of(locks *l, unsigned space, uint32_t addr, uint32_t kind)
{
    bool fresh;
    uint64_t key = (uint64_t)space << 32 | addr;
    uint32_t i = index_map_entry(&l->lkmap, key, (void **)&l->lk, &l->nlk, &l->lkcap, sizeof *l->lk, &fresh,
                                 "--locks");
    if (fresh) {
        l->lk[i].key = key;
        l->lk[i].index = i;
        l->lk[i].last_owner = -1;
    }
    if (!l->lk[i].kind) l->lk[i].kind = kind;
    return i;
}

/* One more of pair key in the table of p (nesting or follows). */
static void pair_add(index_map *map, pair **p, size_t *n, size_t *cap, uint64_t key)
{
    bool fresh;
    uint32_t k = index_map_entry(map, key, (void **)p, n, cap, sizeof **p, &fresh, "--locks");
    if (fresh) (*p)[k].key = key;
    (*p)[k].count++;
}

/* Thread t's acquisition waiting for its site gets pc (ATTR_UNKNOWN: none). */
static void site_book(locks *l, int t, uint64_t pc)
{
    thread_state *s = &l->ts[t];
    if (s->site_lock < 0) return;
    bool fresh;
    uint64_t key = (uint64_t)s->site_lock << 33 | pc;
    uint32_t i = index_map_entry(&l->stmap, key, (void **)&l->st, &l->nst, &l->stcap, sizeof *l->st, &fresh,
                                 "--locks");
    if (fresh) l->st[i].key = key;
    l->st[i].acquisitions++;
    l->st[i].contended += s->site_contended;
    l->st[i].wait += s->site_wait;
    s->site_lock = -1;
}

void locks_site(locks *l, int t, uint32_t pc) { site_book(l, t, pc); }

/* Thread t takes lock i at clock, its call recorded from start_us to end_us. */
static void acquire(locks *l, int t, uint32_t i, uint64_t clock, uint32_t start_us, uint32_t end_us)
{
    thread_state *s = &l->ts[t];
    lock *k = &l->lk[i];
    uint32_t dur = end_us - start_us;           /* modulo 2^32 (formats/SMAIT.md §5) */
    k->acquisitions++;
    k->wait_us += dur;
    if (dur > 0) k->contended_rec++;
    if (k->last_owner >= 0 && k->last_owner != t) k->handoffs++;
    k->last_owner = t;
    /* nesting: every lock held, outermost first, once per distinct outer lock */
    for (size_t h = 0; h < s->nheld; h++) {
        uint32_t o = s->held[h].lock;
        bool seen = o == i;
        for (size_t g = 0; g < h && !seen; g++) seen = s->held[g].lock == o;
        if (seen) continue;
        pair_add(&l->prmap, &l->pr, &l->npr, &l->prcap, (uint64_t)o << 32 | i);
    }
    /* which follows which: the lock it let go last, then this one */
    if (s->released >= 0) pair_add(&l->fomap, &l->fo, &l->nfo, &l->focap, (uint64_t)s->released << 32 | i);
    s->released = -1;
    s->site_lock = i;
    s->site_contended = false;
    s->site_wait = 0;
    s->cap = xgrow((void **)&s->held, s->cap, s->nheld + 1, sizeof *s->held);
    s->held[s->nheld++] = (held){ i, clock, end_us };
    s->last_acq = i;
}

/* Thread t lets lock i go at clock, its call recorded from start_us: its
 * innermost hold of i ends. A release of a lock t does not hold (a bad
 * unlock --lenient ignores) counts nothing. */
static void release(locks *l, int t, uint32_t i, uint64_t clock, uint32_t start_us)
{
    thread_state *s = &l->ts[t];
    size_t h = s->nheld;
    while (h > 0 && s->held[h - 1].lock != i) h--;
    if (!h) return;
    held x = s->held[h - 1];
    s->released = i;
    memmove(&s->held[h - 1], &s->held[h], (s->nheld - h) * sizeof *s->held);
    s->nheld--;
    lock *k = &l->lk[i];
    spread_add(&k->hold, clock > x.clock ? clock - x.clock : 0);
    uint32_t us = start_us - x.end_us;
    k->hold_us += us;
    if (us > k->hold_us_max) k->hold_us_max = us;
}

static void marker(locks *l, int t, uint64_t clock, uint32_t num, uint32_t start_us)
{
    thread_state *s = &l->ts[t];
    if (s->marker) {
        bool fresh;
        uint64_t key = (uint64_t)s->marker_num << 32 | num;
        uint32_t i = index_map_entry(&l->ivmap, key, (void **)&l->iv, &l->niv, &l->ivcap, sizeof *l->iv, &fresh,
                                     "--intervals");
        if (fresh) l->iv[i] = (interval){ .key = key, .min_cycles = UINT64_MAX, .min_us = UINT64_MAX };
        interval *v = &l->iv[i];
        uint64_t cycles = clock > s->marker_clock ? clock - s->marker_clock : 0;
        uint32_t us = start_us - s->marker_us;
        v->count++;
        v->cycles += cycles;
        v->us += us;
        if (cycles < v->min_cycles) v->min_cycles = cycles;
        if (cycles > v->max_cycles) v->max_cycles = cycles;
        if (us < v->min_us) v->min_us = us;
        if (us > v->max_us) v->max_us = us;
    }
    s->marker = true;
    s->marker_num = num;
    s->marker_clock = clock;
    s->marker_us = start_us;
}

void locks_call(locks *l, int t, uint64_t clock, const smait_raw *rec)
{
    unsigned type = smait_call_type(rec->f1);
    uint32_t start = rec[SMAIT_CALL_START].f2, end = rec[SMAIT_CALL_END].f2;
    uint32_t arg1 = rec[SMAIT_CALL_ARG1].f2, arg2 = rec[SMAIT_CALL_ARG1 + 1].f2, kind = rec[SMAIT_CALL_ARG1 + 2].f2;
    l->ts[t].last_acq = -1;
    site_book(l, t, ATTR_UNKNOWN);      /* no fetch since the last acquisition */
    if (type == SMAIT_CT_MARKER) {
        if (l->intervals) marker(l, t, clock, arg2, start);
        return;
    }
    if (!l->top) return;
    bool object = type == SMAIT_CT_ACQUIRE || type == SMAIT_CT_RELEASE;
    if (object && !locks_lock_kind(kind)) return;
    if (type == SMAIT_CT_BEGIN_CRITICAL || type == SMAIT_CT_ACQUIRE)
        acquire(l, t, lock_of(l, object ? SPACE_OBJECT : SPACE_CRITICAL, arg1, kind), clock, start, end);
    else if (type == SMAIT_CT_END_CRITICAL || type == SMAIT_CT_RELEASE) {
        /* a lock never taken is no lock of the report */
        int64_t i = index_map_find(&l->lkmap, (uint64_t)(object ? SPACE_OBJECT : SPACE_CRITICAL) << 32 | arg1);
        if (i >= 0) release(l, t, (uint32_t)i, clock, start);
    }
}

void locks_stop(locks *l, int t, sched_wait why)
{
    thread_state *s = &l->ts[t];
    if ((why == WAIT_CRITICAL || why == WAIT_ACQUIRE) && s->last_acq >= 0) {
        s->waiting = s->last_acq;
        l->lk[s->waiting].contended++;
        s->site_contended = s->site_lock == s->waiting;
    }
    s->last_acq = -1;
}

void locks_resume(locks *l, int t, uint64_t clock, uint64_t idle)
{
    thread_state *s = &l->ts[t];
    if (s->waiting < 0) return;
    spread_add(&l->lk[s->waiting].wait, idle);
    if (s->site_lock == s->waiting) s->site_wait += idle;
    /* the lock is the thread's from now: its hold begins here */
    for (size_t h = s->nheld; h > 0; h--)
        if (s->held[h - 1].lock == (uint32_t)s->waiting) {
            s->held[h - 1].clock = clock;
            break;
        }
    s->waiting = -1;
}

/* ---- the report ---- */

static int key_cmp(uint64_t a, uint64_t b)
{
    /* by address, then space (critical sections first) */
    uint32_t x = (uint32_t)a, y = (uint32_t)b;
    if (x != y) return x < y ? -1 : 1;
    return (a >> 32) < (b >> 32) ? -1 : (a >> 32) > (b >> 32);
}

static int by_wait(const void *pa, const void *pb)
{
    const lock *a = pa, *b = pb;
    if (a->wait.sum != b->wait.sum) return a->wait.sum > b->wait.sum ? -1 : 1;
    return key_cmp(a->key, b->key);
}

static const lock *sorted_locks;       /* the lock table of by_count (qsort has no context) */
static int by_count(const void *pa, const void *pb)
{
    const pair *a = pa, *b = pb;
    if (a->count != b->count) return a->count > b->count ? -1 : 1;
    int c = key_cmp(sorted_locks[a->key >> 32].key, sorted_locks[b->key >> 32].key);
    return c ? c : key_cmp(sorted_locks[(uint32_t)a->key].key, sorted_locks[(uint32_t)b->key].key);
}

static int by_numbers(const void *pa, const void *pb)
{
    const interval *a = pa, *b = pb;
    return a->key < b->key ? -1 : a->key > b->key;
}

static const char *space_name(uint64_t key) { return key >> 32 == SPACE_CRITICAL ? "critical" : "object"; }

/* " 0:3 1:1 2-3:2 …": the non-zero buckets, each with a leading blank
 * (none: empty, and the line ends after its keys). */
static void hist_text(char *buf, size_t cap, const spread *s)
{
    size_t k = 0;
    buf[0] = '\0';
    for (unsigned b = 0; b < BUCKETS && k < cap; b++) {
        if (!s->hist[b]) continue;
        if (b <= 1) k += (size_t)snprintf(buf + k, cap - k, " %u:%" PRIu64, b, s->hist[b]);
        else
            k += (size_t)snprintf(buf + k, cap - k, " %" PRIu64 "-%" PRIu64 ":%" PRIu64, (uint64_t)1 << (b - 1),
                                  b == 64 ? UINT64_MAX : ((uint64_t)1 << b) - 1, s->hist[b]);
    }
}

/* The lines go to an emitter: the report, or a part's partial result. */
typedef struct out {
    locks_emit emit;
    void *ctx;
} out;

void locks_emitf(locks_emit emit, void *ctx, int ll, const char *name, const char *fmt, ...)
{
    char text[8192];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    emit(ctx, ll, name, text);
}

#define line(o, ...) locks_emitf((o)->emit, (o)->ctx, __VA_ARGS__)

/* The locks ranked by wait (a copy: the pairs and sites name locks by their
 * index in l->lk); *n: those L52 lists. */
static lock *ranked(const locks *l, size_t *n)
{
    lock *v = xcalloc(l->nlk + 1, sizeof *v);
    if (l->nlk) memcpy(v, l->lk, l->nlk * sizeof *v);
    if (l->nlk) qsort(v, l->nlk, sizeof *v, by_wait);
    *n = l->nlk < l->top ? l->nlk : l->top;
    return v;
}

static void lock_lines(locks *l, const out *r, const addr_map *m)
{
    size_t n;
    lock *v = ranked(l, &n);
    char name[2600], hist[BUCKETS * 48];
    for (size_t i = 0; i < n; i++) {
        const lock *k = &v[i];
        attr_data_name(name, sizeof name, m, (uint32_t)k->key);
        const char *label = strchr(name, ' ');
        int kl = label ? (int)(label - name) : (int)strlen(name);
        char kind[32];
        if (k->kind < sizeof kind_names / sizeof *kind_names) snprintf(kind, sizeof kind, "%s", kind_names[k->kind]);
        else snprintf(kind, sizeof kind, "kind_%" PRIu32, k->kind);
        line(r, 52, "lock",
                    "rank %zu addr 0x%08" PRIx32 " space %s lock_kind %s kind %.*s name %s acquisitions %" PRIu64
                    " contended %" PRIu64 " contended_recorded %" PRIu64 " handoffs %" PRIu64 " waits %" PRIu64
                    " wait_cycles %" PRIu64 " wait_max %" PRIu64 " holds %" PRIu64 " hold_cycles %" PRIu64
                    " hold_max %" PRIu64 " wait_us %" PRIu64 " hold_us %" PRIu64 " hold_us_max %" PRIu64,
                    i + 1, (uint32_t)k->key, space_name(k->key), kind, kl, name, label ? label + 1 : "-",
                    k->acquisitions, k->contended, k->contended_rec, k->handoffs, k->wait.n, k->wait.sum, k->wait.max,
                    k->hold.n, k->hold.sum, k->hold.max, k->wait_us, k->hold_us, k->hold_us_max);
    }
    for (int which = 0; which < 2; which++)
        for (size_t i = 0; i < n; i++) {
            hist_text(hist, sizeof hist, which ? &v[i].hold : &v[i].wait);
            line(r, which ? 54 : 53,
                        which ? "lock_hold_hist" : "lock_wait_hist", "rank %zu addr 0x%08" PRIx32 " space %s%s", i + 1,
                        (uint32_t)v[i].key, space_name(v[i].key), hist);
        }
    free(v);
    sorted_locks = l->lk;
    if (l->npr) qsort(l->pr, l->npr, sizeof *l->pr, by_count);
    for (size_t i = 0; i < l->npr && i < l->top; i++) {
        uint64_t o = l->lk[l->pr[i].key >> 32].key, in = l->lk[(uint32_t)l->pr[i].key].key;
        line(r, 55, "lock_nesting",
                    "rank %zu outer 0x%08" PRIx32 " outer_space %s inner 0x%08" PRIx32 " inner_space %s count %" PRIu64,
                    i + 1, (uint32_t)o, space_name(o), (uint32_t)in, space_name(in), l->pr[i].count);
    }
}

static int by_key(const void *pa, const void *pb)
{
    const site *a = pa, *b = pb;
    return a->key < b->key ? -1 : a->key > b->key;
}

void locks_more_lines(locks *l, const addr_map *m, locks_emit emit, void *ctx)
{
    if (!l->top) return;
    out o = { emit, ctx }, *r = &o;
    for (int t = 0; t < l->n; t++) site_book(l, t, ATTR_UNKNOWN);     /* no fetch after it, ever */
    size_t n;
    lock *v = ranked(l, &n);
    /* L61: the sites, grouped by lock (key: lock index << 33 | pc) */
    if (l->nst) qsort(l->st, l->nst, sizeof *l->st, by_key);
    size_t *first = xcalloc(l->nlk + 1, sizeof *first);
    for (size_t i = 0; i < l->nst; i++) first[(l->st[i].key >> 33) + 1]++;
    for (size_t i = 0; i < l->nlk; i++) first[i + 1] += first[i];
    code_site *cs = xcalloc(l->nst + 1, sizeof *cs);
    char text[2700];
    for (size_t i = 0; i < n; i++) {
        uint32_t x = v[i].index;
        size_t k = 0;
        for (size_t j = first[x]; j < first[x + 1]; j++, k++)
            cs[k] = (code_site){ .pc = l->st[j].key & (((uint64_t)1 << 33) - 1),
                                 .n = { l->st[j].wait, l->st[j].acquisitions, l->st[j].contended } };
        k = code_sites_rank(cs, k, m);
        for (size_t j = 0; j < k && j < SITES_PER_LOCK; j++) {
            code_site_text(text, sizeof text, &cs[j]);
            line(r, 61, "lock_site",
                 "rank %zu addr 0x%08" PRIx32 " space %s site %zu %s acquisitions %" PRIu64 " contended %" PRIu64
                 " wait_cycles %" PRIu64, i + 1, (uint32_t)v[i].key, space_name(v[i].key), j + 1, text, cs[j].n[1],
                 cs[j].n[2], cs[j].n[0]);
        }
        code_sites_free(cs, k);
    }
    free(cs);
    free(first);
    free(v);
    /* L62: which follows which */
    sorted_locks = l->lk;
    if (l->nfo) qsort(l->fo, l->nfo, sizeof *l->fo, by_count);
    for (size_t i = 0; i < l->nfo && i < l->top; i++) {
        uint64_t a = l->lk[l->fo[i].key >> 32].key, b = l->lk[(uint32_t)l->fo[i].key].key;
        line(r, 62, "lock_follows",
             "rank %zu from 0x%08" PRIx32 " from_space %s to 0x%08" PRIx32 " to_space %s count %" PRIu64, i + 1,
             (uint32_t)a, space_name(a), (uint32_t)b, space_name(b), l->fo[i].count);
    }
}

void locks_lines(locks *l, const addr_map *m, locks_emit emit, void *ctx)
{
    out o = { emit, ctx }, *r = &o;
    if (l->top) lock_lines(l, r, m);
    if (!l->intervals) return;
    if (l->niv) qsort(l->iv, l->niv, sizeof *l->iv, by_numbers);
    for (size_t i = 0; i < l->niv; i++) {
        const interval *v = &l->iv[i];
        char mc[REPORT_NUM], mu[REPORT_NUM];
        line(r, 56, "interval",
                    "from %" PRIu32 " to %" PRIu32 " count %" PRIu64 " cycles %" PRIu64 " mean_cycles %s min_cycles %"
                    PRIu64 " max_cycles %" PRIu64 " us %" PRIu64 " mean_us %s min_us %" PRIu64 " max_us %" PRIu64,
                    (uint32_t)(v->key >> 32), (uint32_t)v->key, v->count, v->cycles,
                    report_ratio(mc, (double)v->cycles, (double)v->count), v->min_cycles, v->max_cycles, v->us,
                    report_ratio(mu, (double)v->us, (double)v->count), v->min_us, v->max_us);
    }
}

static void to_report(void *ctx, int ll, const char *name, const char *text)
{
    report_line(ctx, REPORT_ALL_PHASES, REPORT_ALL_THREADS, ll, name, "%s", text);
}

void locks_report(locks *l, report *r, const addr_map *m)
{
    locks_lines(l, m, to_report, r);
    locks_more_lines(l, m, to_report, r);
}
