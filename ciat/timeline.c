/* timeline.c — the --timeline picture: per thread the cycles per state in
 * binned columns, the hottest lock's hand-offs, the SVG (timeline.h; the
 * rules are docs/timeline.md's).
 *
 * A thread's states are counted from its first resume: at a stop, the
 * cycles since the last event are busy; at a resume, the cycles since the
 * stop are the stop's wait. So a thread's columns always hold exactly
 * (last stop − first resume) cycles. A lock acquisition (06, or 20 of a
 * lock kind) by a thread other than the lock's last owner is a hand-off, at
 * the clock the thread got the lock: the call's, or the resume's when a
 * lock wait follows the call (it comes right after it). */
#include "timeline.h"
#include "locks.h"
#include "../base/diag.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SPACE_CRITICAL, SPACE_OBJECT };

typedef struct mark {
    uint64_t col, clock, count;     /* column; the earliest hand-off in it and its threads */
    int from, to;
} mark;

typedef struct tl_lock {
    uint64_t key;                   /* space << 32 | address */
    int last_owner;                 /* -1: never taken */
    uint64_t wait;                  /* Σ lock waits in pseudo cycles (L52's wait_cycles) */
    unsigned shift;                 /* mark columns are 2^shift cycles wide */
    mark *m;                        /* occupied mark columns, by column */
    size_t nm, cap;
} tl_lock;

typedef struct tl_thread {
    uint64_t (*bin)[TL_STATES];     /* NULL until the first resume */
    bool started;
    uint64_t start, end;            /* first resume, last stop */
    uint64_t pos;                   /* counted up to here */
    int state;                      /* the current stop's state, -1 running */
    int64_t last_acq;               /* the lock its last call acquired, -1 none */
    int64_t waiting;                /* the lock it waits for, -1 none */
    int64_t pend;                   /* a hand-off to it not yet placed: the lock, -1 none */
    int pend_from;
    uint64_t pend_clock;
    bool pend_wait;                 /* ... placed at the resume */
} tl_thread;

struct timeline {
    int n;
    unsigned cols, shift;           /* columns per thread, each 2^shift cycles */
    tl_thread *th;
    tl_lock *lk;
    size_t nlk, lkcap;
    uint64_t *keys;                 /* open addressing: key -> lock index + 1 */
    uint32_t *at;
    size_t mcap, mused;
    int64_t hot;                    /* the hottest lock, -1 none */
    bool axis;                      /* timeline_load: the axis record was seen */
};

unsigned timeline_columns(int nthreads)
{
    unsigned c = 1024;
    while (c > 16 && (uint64_t)c * (uint64_t)(nthreads > 0 ? nthreads : 1) > 32768) c /= 2;
    return c;
}

timeline *timeline_new(int nthreads)
{
    timeline *tl = xcalloc(1, sizeof *tl);
    tl->n = nthreads;
    tl->cols = timeline_columns(nthreads);
    tl->th = xcalloc((size_t)nthreads, sizeof *tl->th);
    for (int t = 0; t < nthreads; t++) {
        tl_thread *x = &tl->th[t];
        x->state = -1;
        x->last_acq = x->waiting = x->pend = -1;
    }
    tl->hot = -1;
    return tl;
}

void timeline_free(timeline *tl)
{
    if (!tl) return;
    for (int t = 0; t < tl->n; t++) free(tl->th[t].bin);
    for (size_t i = 0; i < tl->nlk; i++) free(tl->lk[i].m);
    free(tl->th);
    free(tl->lk);
    free(tl->keys);
    free(tl->at);
    free(tl);
}

/* ---- locks ---- */

static size_t slot(const timeline *tl, uint64_t key)
{
    size_t j = (size_t)((key * 0x9E3779B97F4A7C15ull) >> 17) & (tl->mcap - 1);
    while (tl->at[j] && tl->keys[j] != key) j = (j + 1) & (tl->mcap - 1);
    return j;
}

static uint32_t lock_of(timeline *tl, uint64_t key)
{
    if (4 * (tl->mused + 1) > 3 * tl->mcap) {   /* at most 3/4 full */
        size_t ocap = tl->mcap;
        uint64_t *okeys = tl->keys;
        uint32_t *oat = tl->at;
        tl->mcap = ocap ? 2 * ocap : 64;
        tl->keys = xcalloc(tl->mcap, sizeof *tl->keys);
        tl->at = xcalloc(tl->mcap, sizeof *tl->at);
        for (size_t i = 0; i < ocap; i++)
            if (oat[i]) {
                size_t j = slot(tl, okeys[i]);
                tl->keys[j] = okeys[i];
                tl->at[j] = oat[i];
            }
        free(okeys);
        free(oat);
    }
    size_t j = slot(tl, key);
    if (!tl->at[j]) {
        if (tl->nlk >= UINT32_MAX - 1) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "--timeline: too many locks");
        tl->lkcap = xgrow((void **)&tl->lk, tl->lkcap, tl->nlk + 1, sizeof *tl->lk);
        tl->lk[tl->nlk] = (tl_lock){ .key = key, .last_owner = -1 };
        tl->keys[j] = key;
        tl->at[j] = (uint32_t)++tl->nlk;
        tl->mused++;
    }
    return tl->at[j] - 1;
}

/* Mark columns twice as wide: neighbours merge, keeping the earlier hand-off. */
static void coarsen(tl_lock *k)
{
    size_t o = 0;
    for (size_t i = 0; i < k->nm; i++) {
        mark m = k->m[i];
        m.col >>= 1;
        if (o && k->m[o - 1].col == m.col) {
            mark *p = &k->m[o - 1];
            p->count += m.count;
            if (m.clock < p->clock) {
                p->clock = m.clock;
                p->from = m.from;
                p->to = m.to;
            }
        } else {
            k->m[o++] = m;
        }
    }
    k->nm = o;
    k->shift++;
}

static void add_mark(tl_lock *k, uint64_t clock, uint64_t count, int from, int to)
{
    for (;;) {
        uint64_t col = clock >> k->shift;
        size_t i = k->nm;
        while (i > 0 && k->m[i - 1].col > col) i--;
        if (i > 0 && k->m[i - 1].col == col) {
            mark *p = &k->m[i - 1];
            p->count += count;
            if (clock < p->clock) {         /* ties: the first delivered stays */
                p->clock = clock;
                p->from = from;
                p->to = to;
            }
            return;
        }
        if (k->nm < TIMELINE_MARKS) {
            k->cap = xgrow((void **)&k->m, k->cap, k->nm + 1, sizeof *k->m);
            memmove(&k->m[i + 1], &k->m[i], (k->nm - i) * sizeof *k->m);
            k->m[i] = (mark){ col, clock, count, from, to };
            k->nm++;
            return;
        }
        coarsen(k);
    }
}

/* Place t's pending hand-off at clock. */
static void settle(timeline *tl, int t, uint64_t clock)
{
    tl_thread *x = &tl->th[t];
    if (x->pend < 0) return;
    add_mark(&tl->lk[x->pend], clock, 1, x->pend_from, t);
    x->pend = -1;
    x->pend_wait = false;
}

/* ---- the columns ---- */

static void alloc_bins(timeline *tl, tl_thread *x)
{
    if (!x->bin) x->bin = xcalloc(tl->cols, sizeof *x->bin);
}

/* Twice the column width: pairs merge into the lower half. */
static void widen(timeline *tl)
{
    unsigned h = tl->cols / 2;
    for (int t = 0; t < tl->n; t++) {
        uint64_t (*b)[TL_STATES] = tl->th[t].bin;
        if (!b) continue;
        for (unsigned i = 0; i < h; i++)
            for (int s = 0; s < TL_STATES; s++) b[i][s] = b[2 * i][s] + b[2 * i + 1][s];
        memset(b[h], 0, (size_t)h * sizeof *b);
    }
    tl->shift++;
}

/* Cycles [a, b) of thread x in state s. */
static void count(timeline *tl, tl_thread *x, int s, uint64_t a, uint64_t b)
{
    if (b <= a) return;
    while (b > (uint64_t)tl->cols << tl->shift) widen(tl);
    for (uint64_t i = a >> tl->shift; a < b; i++) {
        uint64_t e = (i + 1) << tl->shift;
        if (e > b) e = b;
        x->bin[i][s] += e - a;
        a = e;
    }
}

void timeline_call(timeline *tl, int t, uint64_t clock, const smait_raw *rec)
{
    tl_thread *x = &tl->th[t];
    settle(tl, t, x->pend_clock);
    x->last_acq = -1;
    unsigned type = smait_call_type(rec->f1);
    uint32_t arg1 = rec[SMAIT_CALL_ARG1].f2, kind = rec[SMAIT_CALL_ARG1 + 2].f2;
    bool object = type == SMAIT_CT_ACQUIRE;
    if (type != SMAIT_CT_BEGIN_CRITICAL && !(object && locks_lock_kind(kind))) return;
    uint32_t i = lock_of(tl, (uint64_t)(object ? SPACE_OBJECT : SPACE_CRITICAL) << 32 | arg1);
    tl_lock *k = &tl->lk[i];
    if (k->last_owner >= 0 && k->last_owner != t) {
        x->pend = i;
        x->pend_from = k->last_owner;
        x->pend_clock = clock;
    }
    k->last_owner = t;
    x->last_acq = i;
}

void timeline_stop(timeline *tl, int t, uint64_t clock, sched_wait why)
{
    tl_thread *x = &tl->th[t];
    bool lock = (why == WAIT_CRITICAL || why == WAIT_ACQUIRE) && x->last_acq >= 0;
    if (lock && x->pend == x->last_acq) x->pend_wait = true;
    else settle(tl, t, x->pend_clock);
    if (lock) x->waiting = x->last_acq;
    x->last_acq = -1;
    if (!x->started) {          /* not seen: a stop before any resume starts it */
        x->started = true;
        x->start = x->pos = clock;
        alloc_bins(tl, x);
    }
    count(tl, x, TL_BUSY, x->pos, clock);
    x->pos = x->end = clock;
    x->state = why == WAIT_CRITICAL || lock ? TL_LOCK : why == WAIT_BARRIER ? TL_BARRIER
             : why == WAIT_IO ? TL_IO : TL_SYNC;
}

void timeline_resume(timeline *tl, int t, uint64_t clock, uint64_t idle)
{
    tl_thread *x = &tl->th[t];
    if (!x->started) {
        x->started = true;
        x->start = x->pos = x->end = clock;
        alloc_bins(tl, x);
    } else if (x->state >= 0) {
        count(tl, x, x->state, x->pos, clock);
        x->pos = clock;
    }
    x->state = -1;
    if (x->waiting >= 0) tl->lk[x->waiting].wait += idle;
    x->waiting = -1;
    if (x->pend_wait) settle(tl, t, clock);
}

/* As L52 ranks: the most wait, then by address, then critical sections first. */
static bool hotter(const tl_lock *a, const tl_lock *b)
{
    if (a->wait != b->wait) return a->wait > b->wait;
    if ((uint32_t)a->key != (uint32_t)b->key) return (uint32_t)a->key < (uint32_t)b->key;
    return (a->key >> 32) < (b->key >> 32);
}

void timeline_finish(timeline *tl)
{
    for (int t = 0; t < tl->n; t++) settle(tl, t, tl->th[t].pend_clock);
    tl->hot = -1;
    for (size_t i = 0; i < tl->nlk; i++)
        if (tl->hot < 0 || hotter(&tl->lk[i], &tl->lk[tl->hot])) tl->hot = (int64_t)i;
}

/* ---- partial records ---- */

void timeline_records(const timeline *tl, timeline_emit emit, void *ctx)
{
    char s[256];
    snprintf(s, sizeof s, "%u %u", tl->cols, tl->shift);
    emit(ctx, "timeline-axis", s);
    for (int t = 0; t < tl->n; t++) {
        const tl_thread *x = &tl->th[t];
        if (!x->started) continue;
        snprintf(s, sizeof s, "%d %" PRIu64 " %" PRIu64, t, x->start, x->end);
        emit(ctx, "timeline-thread", s);
        for (unsigned i = 0; i < tl->cols; i++) {
            const uint64_t *b = x->bin[i];
            if (!(b[0] | b[1] | b[2] | b[3] | b[4])) continue;
            snprintf(s, sizeof s, "%d %u %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, t, i, b[0], b[1],
                     b[2], b[3], b[4]);
            emit(ctx, "timeline-bin", s);
        }
    }
    if (tl->hot < 0) return;
    const tl_lock *k = &tl->lk[tl->hot];
    snprintf(s, sizeof s, "%u %" PRIu32 " %u", (unsigned)(k->key >> 32), (uint32_t)k->key, k->shift);
    emit(ctx, "timeline-lock", s);
    for (size_t i = 0; i < k->nm; i++) {
        snprintf(s, sizeof s, "%" PRIu64 " %" PRIu64 " %d %d", k->m[i].clock, k->m[i].count, k->m[i].from, k->m[i].to);
        emit(ctx, "timeline-mark", s);
    }
}

/* n numbers of text into v; false when it is not exactly that. */
static bool numbers(const char *text, uint64_t *v, int n)
{
    const char *p = text;
    for (int i = 0; i < n; i++) {
        if (*p < '0' || *p > '9') return false;
        char *e;
        errno = 0;
        v[i] = strtoull(p, &e, 10);
        if (errno) return false;
        p = e;
        if (i + 1 < n && *p++ != ' ') return false;
    }
    return *p == '\0';
}

const char *timeline_load(timeline *tl, const char *tag, const char *text)
{
    uint64_t v[7];
    if (strcmp(tag, "timeline-axis") == 0) {
        if (tl->axis || !numbers(text, v, 2) || v[0] != tl->cols || v[1] > 52)
            return "timeline-axis COLUMNS SHIFT expected once, with the columns of this thread count";
        tl->shift = (unsigned)v[1];
        tl->axis = true;
        return NULL;
    }
    if (!tl->axis) return "timeline-axis expected first";
    uint64_t w = (uint64_t)1 << tl->shift, range = (uint64_t)tl->cols << tl->shift;
    if (strcmp(tag, "timeline-thread") == 0) {
        if (!numbers(text, v, 3) || v[0] >= (uint64_t)tl->n || tl->th[v[0]].started || v[1] > v[2] || v[2] > range)
            return "timeline-thread T START END expected, once per thread, START <= END within the columns";
        tl_thread *x = &tl->th[v[0]];
        x->started = true;
        x->start = x->pos = v[1];
        x->end = v[2];
        alloc_bins(tl, x);
        return NULL;
    }
    if (strcmp(tag, "timeline-bin") == 0) {
        if (!numbers(text, v, 7) || v[0] >= (uint64_t)tl->n || !tl->th[v[0]].started || v[1] >= tl->cols)
            return "timeline-bin T COLUMN BUSY LOCK BARRIER SYNC IO expected, of a thread given";
        uint64_t sum = 0;
        for (int s = 0; s < TL_STATES; s++) {
            if (v[2 + s] > w) return "timeline-bin: more cycles than its column holds";
            sum += v[2 + s];
            tl->th[v[0]].bin[v[1]][s] = v[2 + s];
        }
        if (sum > w) return "timeline-bin: more cycles than its column holds";
        return NULL;
    }
    if (strcmp(tag, "timeline-lock") == 0) {
        if (tl->hot >= 0 || !numbers(text, v, 3) || v[0] > SPACE_OBJECT || v[1] > UINT32_MAX || v[2] > 63)
            return "timeline-lock SPACE ADDRESS SHIFT expected, once";
        tl->hot = lock_of(tl, v[0] << 32 | v[1]);
        tl->lk[tl->hot].shift = (unsigned)v[2];
        return NULL;
    }
    if (strcmp(tag, "timeline-mark") == 0) {
        if (tl->hot < 0 || !numbers(text, v, 4) || !v[1] || v[2] >= (uint64_t)tl->n || v[3] >= (uint64_t)tl->n ||
            v[2] == v[3])
            return "timeline-mark CLOCK COUNT FROM TO expected after timeline-lock, two threads";
        tl_lock *k = &tl->lk[tl->hot];
        if (k->nm && (v[0] >> k->shift) <= k->m[k->nm - 1].col) return "timeline-mark: columns out of order";
        if (k->nm == TIMELINE_MARKS) return "timeline-mark: too many marks";
        add_mark(k, v[0], v[1], (int)v[2], (int)v[3]);
        return NULL;
    }
    if (strcmp(tag, "timeline-end") == 0) {     /* every thread's columns hold its span */
        for (int t = 0; t < tl->n; t++) {
            const tl_thread *x = &tl->th[t];
            if (!x->started) continue;
            uint64_t sum = 0;
            for (unsigned i = 0; i < tl->cols; i++)
                for (int s = 0; s < TL_STATES; s++) sum += x->bin[i][s];
            if (sum != x->end - x->start) return "timeline-end: a thread's columns do not hold its span";
        }
        return NULL;
    }
    return "a timeline record expected";
}

/* ---- the picture ---- */

static const char *const state_names[TL_STATES] = { "busy", "lock wait", "barrier wait", "other sync wait",
                                                     "I/O wait" };
/* Okabe-Ito colours, told apart with colour blindness and in grey. */
static const char *const state_fill[TL_STATES] = { "#009e73", "#d55e00", "#0072b2", "#cc79a7", "#e69f00" };

/* Geometry in points (the viewBox's units; 1 pt printed at the picture's size). */
enum { FONT = 7, TITLE_FONT = 8 };
#define CHAR_W 3.9              /* a generous mean width of a 7-point character */
#define PLOT_TOP 13.0
#define BELOW_PLOT 22.0         /* ticks, their labels, the axis title */
#define LEGEND_ROW 9.0
#define RIGHT 10.0
#define HANDOFF_CHARS 22        /* "hand-off of 0xffffffff" */

typedef struct layout {
    double w, h, left, pw, ph, pitch, rowh;
    int step;                   /* label every step-th thread */
    int legend_rows;
} layout;

static int digits(int v)
{
    int d = 1;
    while (v >= 10) {
        v /= 10;
        d++;
    }
    return d;
}

static double legend_item_w(int i)
{
    size_t chars = i < TL_STATES ? strlen(state_names[i]) : HANDOFF_CHARS;
    return 8 + CHAR_W * (double)chars + 6;
}

/* Legend rows at width w (items flow left to right from x = 2). */
static int legend_rows(double w)
{
    int rows = 1;
    double x = 2;
    for (int i = 0; i <= TL_STATES; i++) {
        if (x > 2 && x + legend_item_w(i) > w - 2) {
            rows++;
            x = 2;
        }
        x += legend_item_w(i);
    }
    return rows;
}

/* false when w x h is too small for n threads, why saying so */
static bool layout_make(layout *y, int n, unsigned w, unsigned h, char *why, size_t cap)
{
    if (n < 1) n = 1;
    y->w = w ? w : 245;
    y->left = 5 + CHAR_W * (1 + digits(n - 1));
    y->pw = y->w - y->left - RIGHT;
    if (y->pw < 40) {
        snprintf(why, cap, "the width leaves less than 40 points for the clock axis (W at least %.0f)",
                 ceil(y->left + RIGHT + 40));
        return false;
    }
    y->legend_rows = legend_rows(y->w);
    double fixed = PLOT_TOP + BELOW_PLOT + LEGEND_ROW * y->legend_rows + 1;
    if (h) {
        y->h = h;
        y->ph = h - fixed;
        if (y->ph < 10) {
            snprintf(why, cap, "the height leaves less than 10 points for the rows (H at least %.0f at this width)",
                     ceil(fixed + 10));
            return false;
        }
    } else {
        y->ph = n <= 16 ? 10.0 * n : 160;
        y->h = fixed + y->ph;
    }
    y->pitch = y->ph / n;
    y->rowh = y->pitch >= 3 ? y->pitch * 0.8 : y->pitch;
    y->step = 1;
    while (y->step * y->pitch < FONT + 1 && y->step < n) y->step *= 2;
    return true;
}

bool timeline_size_check(int nthreads, unsigned w, unsigned h, char *why, size_t cap)
{
    layout y;
    return layout_make(&y, nthreads, w, h, why, cap);
}

const char *timeline_size_parse(void *target, const char *value)
{
    unsigned *sz = target;
    const char *why = "WxH expected: the picture's width and height in points, W 100..5000, H 50..5000";
    if (!value || value[0] < '0' || value[0] > '9') return why;
    char *e;
    unsigned long long w = strtoull(value, &e, 10);
    if (*e != 'x' || e[1] < '0' || e[1] > '9') return why;
    unsigned long long h = strtoull(e + 1, &e, 10);
    if (*e || w < 100 || w > 5000 || h < 50 || h > 5000) return why;
    sz[0] = (unsigned)w;
    sz[1] = (unsigned)h;
    return NULL;
}

/* A tick label: v, in k, M or G when the step is a multiple of them. */
static void tick_text(char *buf, size_t n, uint64_t v, uint64_t step)
{
    if (step >= 1000000000) snprintf(buf, n, "%" PRIu64 "G", v / 1000000000);
    else if (step >= 1000000) snprintf(buf, n, "%" PRIu64 "M", v / 1000000);
    else if (step >= 1000) snprintf(buf, n, "%" PRIu64 "k", v / 1000);
    else snprintf(buf, n, "%" PRIu64, v);
}

/* The dominant state of a column of width w (TL_STATES: blank); ties go to
 * the state first in TL_BUSY ... TL_IO, blank last. */
static int dominant(const uint64_t *b, uint64_t w)
{
    uint64_t sum = 0, best = 0;
    int s = TL_STATES;
    for (int i = 0; i < TL_STATES; i++) {
        sum += b[i];
        if (b[i] > best) {
            best = b[i];
            s = i;
        }
    }
    return w - sum > best ? TL_STATES : s;
}

void timeline_write_svg(const timeline *tl, out_file *f, const char *title, unsigned w, unsigned h)
{
    layout y;
    char why[160];
    if (!layout_make(&y, tl->n, w, h, why, sizeof why)) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "--timeline: no layout");
    uint64_t end = 0;
    for (int t = 0; t < tl->n; t++)
        if (tl->th[t].started && tl->th[t].end > end) end = tl->th[t].end;
    uint64_t bw = (uint64_t)1 << tl->shift;
    uint64_t nb = (end + bw - 1) >> tl->shift;    /* the columns drawn */
    if (!nb) nb = 1;
    uint64_t axis = nb << tl->shift;
    double sx = y.pw / (double)nb;
    out_file_printf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0fpt\" height=\"%.2fpt\" viewBox=\"0 0 %.0f"
                    " %.2f\" font-family=\"Helvetica, Arial, sans-serif\" font-size=\"%d\">\n", y.w, y.h, y.w, y.h, FONT);
    out_file_printf(f, "<rect width=\"100%%\" height=\"100%%\" fill=\"white\"/>\n");
    out_file_printf(f, "<text x=\"2\" y=\"9\" font-size=\"%d\" font-weight=\"bold\">", TITLE_FONT);
    out_file_xml_text(f, title);
    out_file_printf(f, "</text>\n");
    /* the rows: one group per thread, x in columns (scaled), y in points */
    out_file_printf(f, "<g id=\"rows\">\n");
    for (int t = 0; t < tl->n; t++) {
        const tl_thread *x = &tl->th[t];
        double top = PLOT_TOP + t * y.pitch + (y.pitch - y.rowh) / 2;
        if (t % y.step == 0)
            out_file_printf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"end\">T%d</text>\n", y.left - 2,
                            PLOT_TOP + (t + 0.5) * y.pitch + 2.5, t);
        out_file_printf(f, "<g transform=\"translate(%.2f %.2f) scale(%.6g 1)\"><title>", y.left, top, sx);
        if (!x->started) {
            out_file_printf(f, "T%d: never ran</title></g>\n", t);
            continue;
        }
        uint64_t sum[TL_STATES] = { 0 };
        for (unsigned i = 0; i < tl->cols; i++)
            for (int s = 0; s < TL_STATES; s++) sum[s] += x->bin[i][s];
        out_file_printf(f, "T%d, clock %" PRIu64 " to %" PRIu64 ":", t, x->start, x->end);
        for (int s = 0; s < TL_STATES; s++)
            out_file_printf(f, "%s %s %" PRIu64, s ? "," : "", state_names[s], sum[s]);
        out_file_printf(f, " cycles</title>\n");
        for (uint64_t i = 0; i < nb;) {
            int s = dominant(x->bin[i], bw);
            uint64_t j = i + 1;
            while (j < nb && dominant(x->bin[j], bw) == s) j++;
            if (s < TL_STATES)
                out_file_printf(f, "<rect x=\"%" PRIu64 "\" width=\"%" PRIu64 "\" height=\"%.2f\" fill=\"%s\"/>\n", i,
                                j - i, y.rowh, state_fill[s]);
            i = j;
        }
        out_file_printf(f, "</g>\n");
    }
    out_file_printf(f, "</g>\n");
    out_file_printf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\" stroke=\"#888\""
                    " stroke-width=\"0.4\"/>\n", y.left, PLOT_TOP, y.pw, y.ph);
    /* the axis: ticks every 1, 2 or 5 x 10^k cycles, at most one per 32 points */
    uint64_t max_ticks = (uint64_t)(y.pw / 32) > 2 ? (uint64_t)(y.pw / 32) : 2, step = 1;
    for (int m = 0; axis / step > max_ticks; m = (m + 1) % 3) step = m == 1 ? step / 2 * 5 : step * 2;
    double base = PLOT_TOP + y.ph;
    for (uint64_t v = 0; v <= axis; v += step) {
        double xv = y.left + y.pw * (double)v / (double)axis;
        char label[32];
        tick_text(label, sizeof label, v, step);
        out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#000\" stroke-width=\"0.4\"/>"
                        "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">%s</text>\n",
                        xv, base, xv, base + 2, xv, base + 9.5, label);
        if (v > UINT64_MAX - step) break;
    }
    out_file_printf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"middle\">pseudo clock (cycles)</text>\n",
                    y.left + y.pw / 2, base + 18.5);
    /* the hottest lock's hand-offs: a line from the previous holder's row to
     * the new one's, a dot on the new holder's */
    char lockname[64] = "lock hand-off";
    if (tl->hot >= 0) {
        const tl_lock *k = &tl->lk[tl->hot];
        snprintf(lockname, sizeof lockname, "hand-off of 0x%" PRIx32, (uint32_t)k->key);
        out_file_printf(f, "<g id=\"handoffs\" stroke=\"#000\" stroke-width=\"0.5\">\n");
        for (size_t i = 0; i < k->nm; i++) {
            const mark *m = &k->m[i];
            double xv = y.left + y.pw * (double)m->clock / (double)axis;
            double y1 = PLOT_TOP + (m->from + 0.5) * y.pitch, y2 = PLOT_TOP + (m->to + 0.5) * y.pitch;
            out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\"/><circle cx=\"%.2f\" cy=\"%.2f\""
                            " r=\"1.2\"><title>%" PRIu64 " hand-off%s of %s 0x%08" PRIx32 " in clock %" PRIu64 " to %"
                            PRIu64 ", the first at %" PRIu64 ": T%d to T%d</title></circle>\n",
                            xv, y1, xv, y2, xv, y2, m->count, m->count == 1 ? "" : "s",
                            k->key >> 32 == SPACE_CRITICAL ? "critical section" : "lock", (uint32_t)k->key,
                            m->col << k->shift, ((m->col + 1) << k->shift) - 1, m->clock, m->from, m->to);
        }
        out_file_printf(f, "</g>\n");
    }
    /* the legend */
    double lx = 2, ly = base + BELOW_PLOT;
    for (int i = 0; i <= TL_STATES; i++) {
        if (lx > 2 && lx + legend_item_w(i) > y.w - 2) {
            lx = 2;
            ly += LEGEND_ROW;
        }
        if (i < TL_STATES)
            out_file_printf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"6\" height=\"6\" fill=\"%s\"/>", lx, ly,
                            state_fill[i]);
        else
            out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#000\" stroke-width=\"0.5\"/>"
                            "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"1.2\"/>", lx + 3, ly - 1, lx + 3, ly + 5, lx + 3, ly + 5);
        out_file_printf(f, "<text x=\"%.2f\" y=\"%.2f\">%s</text>\n", lx + 8, ly + 5.5,
                        i < TL_STATES ? state_names[i] : lockname);
        lx += legend_item_w(i);
    }
    out_file_printf(f, "</svg>\n");
}
