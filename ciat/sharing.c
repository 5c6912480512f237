/* sharing.c — true and false sharing at a line size: lines L18 and L19. */
#include "sharing.h"
#include "locmap.h"
#include "../base/diag.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct fs_line {
    uint32_t number;            /* address / line size */
    uint32_t wblock;            /* index + 1 into wstamp/wwriter blocks; 0 = never written */
    uint16_t owner;             /* the thread holding it modified, LOC_NONE if none */
    uint16_t last_writer;       /* LOC_NONE if never written */
    uint32_t threads, writers;  /* threads that accessed it, that stored to it */
    uint64_t false_misses;
    uint64_t accesses;
    uint64_t handoffs;          /* stores by a thread other than the last writer */
    uint64_t migratory;         /* of those, stores to a line in exactly 2 caches, one the storer's */
};

struct fs_state {
    uint32_t line;              /* index into lines */
    uint16_t thread;
    bool pending;               /* a copy live whose miss is not yet known essential */
    bool wrote;                 /* the thread stored to the line */
    uint64_t last_essential;    /* clock of the last essential miss (cold included) */
    uint64_t miss;              /* clock of the pending miss */
    uint64_t touched;           /* locations of the line the thread accessed */
};

static uint32_t ctz64(uint64_t v) { return (uint32_t)__builtin_ctzll(v); }

void fs_init(sharing *s, int nthreads, uint32_t line_size, uint32_t grain)
{
    memset(s, 0, sizeof *s);
    s->n = nthreads;
    s->words = (nthreads + 63) / 64;
    s->line_size = line_size;
    s->grain = grain;
    s->locs = line_size / grain;
    s->line_shift = ctz64(line_size);
    s->grain_shift = ctz64(grain);
    s->phase = xcalloc((size_t)nthreads, sizeof *s->phase);
    s->total = xcalloc((size_t)nthreads, sizeof *s->total);
}

void fs_free(sharing *s)
{
    free(s->phase);
    free(s->total);
    free(s->line_table);
    free(s->lines);
    free(s->holders);
    free(s->wstamp);
    free(s->wwriter);
    free(s->state_table);
    free(s->states);
    free(s->miss_pc);
    free(s->miss_addr);
    free(s->touch_head);
    free(s->touches);
}

/* A pending miss of st ends useless: a false sharing miss. */
static void false_miss(sharing *s, fs_state *st)
{
    st->pending = false;
    s->phase[st->thread][FS_FALSE]++;
    s->lines[st->line].false_misses++;
    if (s->on_false) {
        uint32_t i = (uint32_t)(st - s->states);
        s->on_false(s->false_ctx, st->thread, s->miss_pc[i], s->miss_addr[i]);
    }
}

/* Where the pending miss of st happened (attribution only). */
static void note_miss(sharing *s, fs_state *st, uint32_t addr)
{
    uint32_t i = (uint32_t)(st - s->states);
    if (i >= s->miss_cap) {
        uint32_t cap = s->states_cap;
        s->miss_pc = xrealloc(s->miss_pc, (size_t)cap * sizeof *s->miss_pc);
        s->miss_addr = xrealloc(s->miss_addr, (size_t)cap * sizeof *s->miss_addr);
        s->miss_cap = cap;
    }
    s->miss_pc[i] = s->cur_pc;
    s->miss_addr[i] = addr;
}

static void *grow(void *p, uint32_t *cap, uint64_t need, size_t size);

/* An access of st from cur_pc to the locations `span` (attribution only):
 * counted under its pc while the state has fewer than FS_TOUCH_PCS, else
 * under FS_OTHER_PC. */
static void note_touch(sharing *s, fs_state *st, uint64_t span, bool store)
{
    uint32_t i = (uint32_t)(st - s->states);
    if (i >= s->touch_cap) {
        uint32_t cap = s->states_cap;
        s->touch_head = xrealloc(s->touch_head, (size_t)cap * sizeof *s->touch_head);
        memset(s->touch_head + s->touch_cap, 0, (size_t)(cap - s->touch_cap) * sizeof *s->touch_head);
        s->touch_cap = cap;
    }
    uint64_t pc = s->cur_pc;
    uint32_t cur = s->touch_head[i], last = 0, n = 0;   /* index + 1 of an entry, of the chain's last */
    while (cur && s->touches[cur - 1].pc != pc) {
        if (++n == FS_TOUCH_PCS) pc = FS_OTHER_PC;     /* FS_TOUCH_PCS pcs kept: the rest is "other" */
        last = cur;
        cur = s->touches[cur - 1].next;
    }
    if (!cur) {                                 /* a new entry, at the chain's end (the pool may move) */
        s->touches = grow(s->touches, &s->touches_cap, (uint64_t)s->ntouches + 1, sizeof *s->touches);
        s->touches[s->ntouches] = (fs_touch){ .pc = pc };
        cur = ++s->ntouches;
        if (last) s->touches[last - 1].next = cur;
        else s->touch_head[i] = cur;
    }
    fs_touch *e = &s->touches[cur - 1];
    e->mask |= span;
    e->loads += !store;
    e->stores += store;
}

static inline uint32_t mix(uint64_t k) { return (uint32_t)((k * 0x9E3779B97F4A7C15ull) >> 32); }

static void *grow(void *p, uint32_t *cap, uint64_t need, size_t size)
{
    if (need <= *cap) return p;
    uint64_t c = *cap ? *cap : 64;
    while (c < need) {
        if (c > UINT32_MAX / 2) diag_fatal(EXIT_INTERNAL, NULL, 0, "sharing: more than 2^31 lines or line states");
        c *= 2;
    }
    p = xrealloc(p, (size_t)c * size);
    memset((char *)p + (size_t)*cap * size, 0, (size_t)(c - *cap) * size);
    *cap = (uint32_t)c;
    return p;
}

static void line_rehash(sharing *s)
{
    uint32_t cap = s->line_cap ? s->line_cap * 2 : 1024;
    uint32_t *t = xcalloc(cap, sizeof *t);
    for (uint32_t i = 0; i < s->nlines; i++) {
        uint32_t j = mix(s->lines[i].number) & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = i + 1;
    }
    free(s->line_table);
    s->line_table = t;
    s->line_cap = cap;
}

static uint32_t line_get(sharing *s, uint32_t number)
{
    if (s->line_cap) {
        for (uint32_t j = mix(number) & (s->line_cap - 1);; j = (j + 1) & (s->line_cap - 1)) {
            uint32_t i = s->line_table[j];
            if (!i) break;
            if (s->lines[i - 1].number == number) return i - 1;
        }
    }
    if (2 * (s->nlines + 1) > s->line_cap) line_rehash(s);
    if (s->nlines == s->lines_cap) {
        uint32_t old = s->lines_cap;
        s->lines = grow(s->lines, &s->lines_cap, (uint64_t)s->nlines + 1, sizeof *s->lines);
        size_t w = (size_t)s->words * sizeof *s->holders;
        s->holders = xrealloc(s->holders, (size_t)s->lines_cap * w);
        memset((char *)s->holders + (size_t)old * w, 0, (size_t)(s->lines_cap - old) * w);
    }
    uint32_t i = s->nlines++;
    s->lines[i] = (fs_line){ .number = number, .owner = LOC_NONE, .last_writer = LOC_NONE };
    uint32_t j = mix(number) & (s->line_cap - 1);
    while (s->line_table[j]) j = (j + 1) & (s->line_cap - 1);
    s->line_table[j] = i + 1;
    return i;
}

static inline uint64_t state_key(uint32_t line, int t) { return ((uint64_t)line << 16) | (uint64_t)t; }

static void state_rehash(sharing *s)
{
    uint32_t cap = s->state_cap ? s->state_cap * 2 : 1024;
    uint32_t *t = xcalloc(cap, sizeof *t);
    for (uint32_t i = 0; i < s->nstates; i++) {
        uint32_t j = mix(state_key(s->states[i].line, s->states[i].thread)) & (cap - 1);
        while (t[j]) j = (j + 1) & (cap - 1);
        t[j] = i + 1;
    }
    free(s->state_table);
    s->state_table = t;
    s->state_cap = cap;
}

/* The state of (line, t); NULL if t never touched the line and !create. */
static fs_state *state_get(sharing *s, uint32_t line, int t, bool create)
{
    uint64_t key = state_key(line, t);
    if (s->state_cap) {
        for (uint32_t j = mix(key) & (s->state_cap - 1);; j = (j + 1) & (s->state_cap - 1)) {
            uint32_t i = s->state_table[j];
            if (!i) break;
            if (s->states[i - 1].line == line && s->states[i - 1].thread == (uint16_t)t) return &s->states[i - 1];
        }
    }
    if (!create) return NULL;
    if (2 * (s->nstates + 1) > s->state_cap) state_rehash(s);
    s->states = grow(s->states, &s->states_cap, s->nstates + 1, sizeof *s->states);
    uint32_t i = s->nstates++;
    s->states[i] = (fs_state){ .line = line, .thread = (uint16_t)t };
    uint32_t j = mix(key) & (s->state_cap - 1);
    while (s->state_table[j]) j = (j + 1) & (s->state_cap - 1);
    s->state_table[j] = i + 1;
    return &s->states[i];
}

/* Every copy of line li but t's is invalidated; a pending miss of its holder
 * ends useless. */
static void invalidate_others(sharing *s, uint32_t li, int t)
{
    uint64_t *h = s->holders + (uint64_t)li * (uint64_t)s->words;
    for (int w = 0; w < s->words; w++)
        for (uint64_t b = h[w]; b; b &= b - 1) {
            int u = w * 64 + (int)ctz64(b);
            if (u == t) continue;
            fs_state *st = state_get(s, li, u, false);
            if (st->pending) false_miss(s, st);
            h[w] &= ~((uint64_t)1 << (u & 63));
        }
}

/* One access of t to the locations lo..hi (indexes in the line) of line `number`. */
static void line_access(sharing *s, int t, uint32_t number, uint32_t lo, uint32_t hi, bool store)
{
    uint64_t now = ++s->clock;
    uint32_t li = line_get(s, number);
    fs_state *st = state_get(s, li, t, true);
    fs_line *ln = &s->lines[li];
    uint64_t *h = s->holders + (uint64_t)li * (uint64_t)s->words;
    uint64_t bit = (uint64_t)1 << (t & 63);
    bool holder = h[t >> 6] & bit;
    ln->accesses++;
    if (!st->touched) ln->threads++;
    if (store && ln->last_writer != (uint16_t)t) {
        /* Stenström et al.: migratory when the storer holds one of exactly two copies */
        ln->handoffs += ln->last_writer != LOC_NONE;
        if (ln->last_writer != LOC_NONE && holder) {
            uint32_t copies = 0;
            for (int w = 0; w < s->words; w++) copies += (uint32_t)__builtin_popcountll(h[w]);
            ln->migratory += copies == 2;
        }
    }
    if (store) {
        if (!st->wrote) ln->writers++;
        st->wrote = true;
        ln->last_writer = (uint16_t)t;
    }
    if (!holder) {
        if (!st->touched) {                     /* first access of t to the line */
            s->phase[t][FS_COLD]++;
            st->last_essential = now;
        } else {
            st->pending = true;
            st->miss = now;
            if (s->on_false) note_miss(s, st, (number << s->line_shift) + (lo << s->grain_shift));
        }
        if (store) {
            invalidate_others(s, li, t);
            ln->owner = (uint16_t)t;
        } else {
            /* alone it gets the line exclusive (MESI's E: a store later is
             * silent); else every copy, the owner's too, is shared */
            bool others = false;
            for (int w = 0; w < s->words && !others; w++) others = h[w] != 0;
            ln->owner = others ? LOC_NONE : (uint16_t)t;
        }
        h[t >> 6] |= bit;
    } else if (store && ln->owner != (uint16_t)t) {
        s->phase[t][FS_UPGRADE]++;
        invalidate_others(s, li, t);
        ln->owner = (uint16_t)t;
    }
    if (st->pending && ln->wblock) {            /* does this access make the miss essential? */
        const uint64_t *ws = s->wstamp + (uint64_t)(ln->wblock - 1) * s->locs;
        const uint16_t *ww = s->wwriter + (uint64_t)(ln->wblock - 1) * s->locs;
        for (uint32_t x = lo; x <= hi; x++)
            if (ww[x] != LOC_NONE && ww[x] != (uint16_t)t && ws[x] > st->last_essential) {
                st->pending = false;
                st->last_essential = st->miss;
                s->phase[t][FS_TRUE]++;
                break;
            }
    }
    uint64_t span = hi - lo == 63 ? ~(uint64_t)0 : (((uint64_t)1 << (hi - lo + 1)) - 1) << lo;
    st->touched |= span;
    if (s->keep_touches) note_touch(s, st, span, store);
    if (store) {
        if (!ln->wblock) {
            uint32_t cap = s->wblocks_cap;
            uint64_t need = ((uint64_t)s->nwblocks + 1) * s->locs;
            s->wstamp = grow(s->wstamp, &cap, need, sizeof *s->wstamp);
            cap = s->wblocks_cap;
            s->wwriter = grow(s->wwriter, &cap, need, sizeof *s->wwriter);
            s->wblocks_cap = cap;
            uint16_t *ww = s->wwriter + (uint64_t)s->nwblocks * s->locs;
            for (uint32_t x = 0; x < s->locs; x++) ww[x] = LOC_NONE;
            ln->wblock = ++s->nwblocks;
        }
        uint64_t *ws = s->wstamp + (uint64_t)(ln->wblock - 1) * s->locs;
        uint16_t *ww = s->wwriter + (uint64_t)(ln->wblock - 1) * s->locs;
        for (uint32_t x = lo; x <= hi; x++) {
            ws[x] = now;
            ww[x] = (uint16_t)t;
        }
    }
}

void fs_access(sharing *s, int t, uint32_t addr, unsigned size, bool store)
{
    uint64_t first = addr, last = (uint64_t)addr + (size ? size : 1) - 1;
    if (last > UINT32_MAX) last = UINT32_MAX;
    for (uint64_t a = first; a <= last;) {
        uint64_t line_end = ((a >> s->line_shift) + 1) << s->line_shift;
        uint64_t end = last < line_end - 1 ? last : line_end - 1;
        uint32_t lo = (uint32_t)((a & (s->line_size - 1)) >> s->grain_shift);
        uint32_t hi = (uint32_t)((end & (s->line_size - 1)) >> s->grain_shift);
        line_access(s, t, (uint32_t)(a >> s->line_shift), lo, hi, store);
        a = line_end;
    }
}

void fs_phase_begin(sharing *s)
{
    memset(s->phase, 0, (size_t)s->n * sizeof *s->phase);
}

void fs_end_of_run(sharing *s)
{
    for (uint32_t i = 0; i < s->nstates; i++) {
        fs_state *st = &s->states[i];
        if (st->pending) false_miss(s, st);
    }
}

void fs_phase_done(sharing *s, int t)
{
    for (int k = 0; k < FS_KINDS; k++) s->total[t][k] += s->phase[t][k];
}

bool fs_any(const sharing *s, int t)
{
    for (int k = 0; k < FS_KINDS; k++)
        if (s->phase[t][k]) return true;
    return false;
}

static void line18(report *r, int phase, int thread, const sharing *s, const uint64_t *c)
{
    report_line(r, phase, thread, 18, "line", "%" PRIu32 " cold %" PRIu64 " true_sharing %" PRIu64
                " false_sharing %" PRIu64 " upgrades %" PRIu64, s->line_size, c[FS_COLD], c[FS_TRUE],
                c[FS_FALSE], c[FS_UPGRADE]);
}

void fs_report(report *r, int phase, int thread, const sharing *s, int t, bool total)
{
    line18(r, phase, thread, s, total ? s->total[t] : s->phase[t]);
}

void fs_report_sum(report *r, int phase, const sharing *s, const bool *use, bool total)
{
    uint64_t sum[FS_KINDS] = { 0 };
    for (int t = 0; t < s->n; t++)
        if (use[t])
            for (int k = 0; k < FS_KINDS; k++) sum[k] += total ? s->total[t][k] : s->phase[t][k];
    line18(r, phase, REPORT_ALL_THREADS, s, sum);
}

static const sharing *sort_s;

static int by_false(const void *a, const void *b)
{
    const fs_line *x = &sort_s->lines[*(const uint32_t *)a], *y = &sort_s->lines[*(const uint32_t *)b];
    if (x->false_misses != y->false_misses) return x->false_misses > y->false_misses ? -1 : 1;
    return x->number < y->number ? -1 : x->number > y->number;
}

static int by_thread(const void *a, const void *b)
{
    const fs_state *x = &sort_s->states[*(const uint32_t *)a], *y = &sort_s->states[*(const uint32_t *)b];
    return x->thread < y->thread ? -1 : x->thread > y->thread;
}

/* The byte ranges of the locations in `touched`: "0-7,16-23". */
static size_t ranges(char *buf, size_t cap, const sharing *s, uint64_t touched)
{
    size_t len = 0;
    for (uint32_t x = 0; x < s->locs;) {
        if (!((touched >> x) & 1)) { x++; continue; }
        uint32_t y = x;
        while (y + 1 < s->locs && ((touched >> (y + 1)) & 1)) y++;
        len += (size_t)snprintf(buf + len, cap - len, "%s%" PRIu32 "-%" PRIu32, len ? "," : "",
                                x * s->grain, (y + 1) * s->grain - 1);
        x = y + 1;
    }
    return len;
}

void fs_line19(report *r, uint64_t addr, uint64_t false_misses, const char *threads)
{
    report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 19, "false_line", "0x%08" PRIx64 " false_sharing %"
                PRIu64 " threads%s", addr, false_misses, threads);
}

static void line19_to_report(void *ctx, uint64_t addr, uint64_t false_misses, const char *threads)
{
    fs_line19(ctx, addr, false_misses, threads);
}

void fs_report_top(report *r, const sharing *s, uint32_t top)
{
    fs_top_lines(s, top, line19_to_report, r);
}

/* The indexes of the `top` lines with the most false sharing misses, ranked;
 * *n their count. Caller frees. */
static uint32_t *top_index(const sharing *s, uint32_t top, uint32_t *n)
{
    uint32_t k = 0;
    uint32_t *idx = xcalloc((size_t)s->nlines + 1, sizeof *idx);
    for (uint32_t i = 0; i < s->nlines; i++)
        if (s->lines[i].false_misses) idx[k++] = i;
    sort_s = s;
    qsort(idx, k, sizeof *idx, by_false);
    *n = k > top ? top : k;
    return idx;
}

void fs_ranges(char *buf, size_t cap, const sharing *s, uint64_t mask)
{
    if (cap) buf[0] = '\0';
    ranges(buf, cap, s, mask);
}

/* The most accesses first, then by pc (FS_OTHER_PC, the largest, last of equals). */
static int by_accesses(const void *a, const void *b)
{
    const fs_touch *x = *(const fs_touch *const *)a, *y = *(const fs_touch *const *)b;
    if ((x->pc == FS_OTHER_PC) != (y->pc == FS_OTHER_PC)) return x->pc == FS_OTHER_PC ? 1 : -1;
    uint64_t nx = x->loads + x->stores, ny = y->loads + y->stores;
    if (nx != ny) return nx > ny ? -1 : 1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

void fs_top_threads(const sharing *s, uint32_t top, const fs_c2c_fns *fn, void *ctx)
{
    uint32_t n;
    uint32_t *idx = top_index(s, top, &n);
    uint32_t *members = xcalloc((size_t)s->nstates + 1, sizeof *members);
    for (uint32_t k = 0; k < n; k++) {
        const fs_line *ln = &s->lines[idx[k]];
        fn->line(ctx, (uint64_t)ln->number << s->line_shift, ln->false_misses);
        uint32_t m = 0;
        for (uint32_t i = 0; i < s->nstates; i++)
            if (s->states[i].line == idx[k]) members[m++] = i;
        sort_s = s;
        qsort(members, m, sizeof *members, by_thread);
        for (uint32_t j = 0; j < m; j++) {
            const fs_state *st = &s->states[members[j]];
            fn->thread(ctx, st->thread, st->touched);
            const fs_touch *list[FS_TOUCH_PCS + 1];
            size_t nl = 0;
            for (uint32_t e = members[j] < s->touch_cap ? s->touch_head[members[j]] : 0; e && nl <= FS_TOUCH_PCS;
                 e = s->touches[e - 1].next)
                list[nl++] = &s->touches[e - 1];
            qsort(list, nl, sizeof *list, by_accesses);
            for (size_t e = 0; e < nl; e++) fn->code(ctx, list[e]->pc, list[e]->loads, list[e]->stores, list[e]->mask);
        }
    }
    free(members);
    free(idx);
}

void fs_top_lines(const sharing *s, uint32_t top,
                  void (*fn)(void *ctx, uint64_t addr, uint64_t false_misses, const char *threads), void *ctx)
{
    uint32_t n;
    uint32_t *idx = top_index(s, top, &n);
    /* rank + 1 of the lines printed, to gather their states in one pass */
    uint32_t *rank = xcalloc((size_t)s->nlines + 1, sizeof *rank);
    uint32_t *count = xcalloc((size_t)n + 1, sizeof *count);
    for (uint32_t k = 0; k < n; k++) rank[idx[k]] = k + 1;
    for (uint32_t i = 0; i < s->nstates; i++)
        if (rank[s->states[i].line]) count[rank[s->states[i].line] - 1]++;
    uint32_t *start = xcalloc((size_t)n + 1, sizeof *start);
    for (uint32_t k = 0; k < n; k++) start[k + 1] = start[k] + count[k];
    uint32_t *members = xcalloc((size_t)start[n] + 1, sizeof *members), *fill = xcalloc((size_t)n + 1, sizeof *fill);
    for (uint32_t i = 0; i < s->nstates; i++) {
        uint32_t k = rank[s->states[i].line];
        if (k) members[start[k - 1] + fill[k - 1]++] = i;
    }
    for (uint32_t k = 0; k < n; k++) {
        qsort(members + start[k], count[k], sizeof *members, by_thread);
        size_t cap = (size_t)count[k] * (16 + (size_t)s->locs * 24) + 64, len = 0;
        char *b = xcalloc(cap, 1);
        for (uint32_t m = start[k]; m < start[k + 1]; m++) {
            const fs_state *st = &s->states[members[m]];
            len += (size_t)snprintf(b + len, cap - len, " %u:", (unsigned)st->thread);
            len += ranges(b + len, cap - len, s, st->touched);
        }
        const fs_line *ln = &s->lines[idx[k]];
        fn(ctx, (uint64_t)ln->number << s->line_shift, ln->false_misses, b);
        free(b);
    }
    free(idx);
    free(rank);
    free(count);
    free(start);
    free(members);
    free(fill);
}

/* ---- sharing patterns (L40-L44) ---- */

static const char *const pattern_name[FS_PATTERNS] = {
    "private", "read_only_shared", "migratory", "producer_consumer", "other_shared"
};

int fs_pattern(const sharing *s, uint32_t li, uint32_t migratory_pct)
{
    const fs_line *ln = &s->lines[li];
    if (ln->threads <= 1) return FS_PRIVATE;
    if (ln->writers == 0) return FS_READ_ONLY;
    if (ln->writers == 1) return FS_PRODUCER_CONSUMER;
    if (ln->handoffs && ln->migratory * 100 >= (uint64_t)migratory_pct * ln->handoffs) return FS_MIGRATORY;
    return FS_OTHER_SHARED;
}

void fs_pattern_sums(const sharing *s, uint32_t migratory_pct, uint64_t sums[FS_SUMS][FS_PATTERNS])
{
    memset(sums, 0, FS_SUMS * sizeof *sums);
    uint64_t *touched = xcalloc((size_t)s->nlines + 1, sizeof *touched);
    for (uint32_t i = 0; i < s->nstates; i++) touched[s->states[i].line] |= s->states[i].touched;
    for (uint32_t li = 0; li < s->nlines; li++) {
        int k = fs_pattern(s, li, migratory_pct);
        sums[0][k]++;
        sums[1][k] += (uint64_t)__builtin_popcountll(touched[li]) * s->grain;
        sums[2][k] += s->lines[li].accesses;
    }
    free(touched);
}

void fs_report_pattern_sums(report *r, uint64_t sums[FS_SUMS][FS_PATTERNS])
{
    for (int k = 0; k < FS_PATTERNS; k++)
        report_line(r, REPORT_ALL_PHASES, REPORT_ALL_THREADS, 40 + k, pattern_name[k], "lines %" PRIu64
                    " bytes %" PRIu64 " accesses %" PRIu64, sums[0][k], sums[1][k], sums[2][k]);
}

void fs_report_patterns(report *r, const sharing *s, uint32_t migratory_pct)
{
    uint64_t sums[FS_SUMS][FS_PATTERNS];
    fs_pattern_sums(s, migratory_pct, sums);
    fs_report_pattern_sums(r, sums);
}
