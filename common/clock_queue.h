/* clock_queue.h — runnable threads ordered by pseudo clock (docs/scheduler.md §3).
 *
 * cq_pick returns the thread with the smallest clock; among equal clocks, the
 * first one after `prev` in cyclic thread order. It is a calendar queue: one
 * bitset of threads per clock value for the W clocks from the current minimum
 * (`base`) on, plus a min-heap for clocks beyond that window. Clocks advance by
 * a few instructions per record, so a step is a couple of bit operations: pick
 * = find-first-set in the base bucket, move = clear one bit and set another. */
#ifndef DSM_COMMON_CLOCK_QUEUE_H
#define DSM_COMMON_CLOCK_QUEUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct cq_entry {
    uint64_t clock;
    int thread;
} cq_entry;

typedef struct clock_queue {
    int nthreads;
    int words;              /* 64-bit words per bitset */
    uint32_t window;        /* W, a power of two */
    uint64_t base;          /* clock of the lowest bucket (<= every queued clock) */
    uint64_t *bits;         /* window × words: bucket (clock mod W) */
    uint64_t occupied[4];   /* bucket non-empty, one bit per bucket (W <= 256) */
    int in_buckets;         /* threads in buckets */
    cq_entry *heap;         /* clocks >= base + W */
    int heap_len;
    uint64_t *clock;        /* queued clock per thread */
    uint8_t *queued;        /* 0 no, 1 in a bucket, 2 in the heap */
} clock_queue;

void cq_init(clock_queue *q, int nthreads);
void cq_free(clock_queue *q);

void cq_insert(clock_queue *q, int thread, uint64_t clock);
void cq_remove(clock_queue *q, int thread);
void cq_update_slow(clock_queue *q, int thread, uint64_t clock);
int cq_pick_slow(clock_queue *q, int prev);

static inline bool cq_contains(const clock_queue *q, int thread) { return q->queued[thread] != 0; }
static inline int cq_count(const clock_queue *q) { return q->in_buckets + q->heap_len; }

static inline uint64_t *cq_bucket(const clock_queue *q, uint64_t clock)
{
    return q->bits + (size_t)(clock & (q->window - 1)) * (size_t)q->words;
}

/* Mark clock c's bucket as holding threads (on) or as empty. */
static inline void cq_mark(clock_queue *q, uint64_t c, bool on)
{
    uint32_t i = (uint32_t)(c & (q->window - 1));
    if (on) q->occupied[i >> 6] |= 1ull << (i & 63);
    else q->occupied[i >> 6] &= ~(1ull << (i & 63));
}

static inline bool cq_bucket_empty(const clock_queue *q, const uint64_t *b)
{
    for (int w = 0; w < q->words; w++)
        if (b[w]) return false;
    return true;
}

/* Change a queued thread's clock (the hot path: one bit cleared, one set). */
static inline void cq_update(clock_queue *q, int thread, uint64_t clock)
{
    if (q->queued[thread] == 1 && clock >= q->base && clock - q->base < q->window) {
        uint64_t bit = 1ull << (thread & 63);
        uint64_t old = q->clock[thread];
        uint64_t *from = cq_bucket(q, old);
        from[thread >> 6] &= ~bit;
        if (cq_bucket_empty(q, from)) cq_mark(q, old, false);
        cq_bucket(q, clock)[thread >> 6] |= bit;
        cq_mark(q, clock, true);
        q->clock[thread] = clock;
        return;
    }
    cq_update_slow(q, thread, clock);
}

uint64_t cq_min_other_slow(clock_queue *q, int thread);
/* Move heap entries that now fall inside the window into their buckets. */
void cq_migrate(clock_queue *q);

/* The next occupied bucket strictly after base, as a clock; UINT64_MAX when
 * the buckets beyond base are empty. */
static inline uint64_t cq_next_level(const clock_queue *q)
{
    uint32_t i = (uint32_t)(q->base & (q->window - 1));
    uint32_t i1 = (i + 1) & (q->window - 1);
    if ((q->occupied[i1 >> 6] >> (i1 & 63)) & 1) return q->base + 1;    /* lockstep: the usual case */
    for (uint32_t k = 1; k <= 4; k++) {
        uint32_t w = ((i >> 6) + k - 1) & 3;
        uint64_t m = q->occupied[w];
        if (k == 1) m &= (i & 63) == 63 ? 0 : ~0ull << ((i & 63) + 1);
        if (m) {
            uint32_t j = (w << 6) + (uint32_t)__builtin_ctzll(m);
            return q->base + ((j - i) & (q->window - 1));
        }
    }
    uint64_t m = q->occupied[i >> 6] & ((1ull << (i & 63)) - 1);    /* wrapped around */
    if (m) {
        uint32_t j = ((i >> 6) << 6) + (uint32_t)__builtin_ctzll(m);
        return q->base + ((j - i) & (q->window - 1));
    }
    return UINT64_MAX;
}

/* The smallest clock of the queued threads other than `thread` (which must be
 * queued at the minimum clock), or UINT64_MAX when there are none. */
static inline uint64_t cq_min_other(clock_queue *q, int thread)
{
    if (q->words == 1 && (*cq_bucket(q, q->base) & ~(1ull << thread)) != 0) return q->base;
    return cq_min_other_slow(q, thread);
}

/* The first member of the non-empty single-word set `tied` after prev (-1:
 * none yet) in cyclic order: the tie rule. */
static inline int cq_first_after(uint64_t tied, int prev)
{
    uint64_t after = prev >= 0 && prev < 63 ? tied & (~0ull << (prev + 1)) : 0;
    return __builtin_ctzll(after ? after : tied);
}

/* The thread to run next: smallest clock, ties to the first thread after prev
 * (the thread processed last; -1 at the start) in cyclic order. -1 when the
 * queue is empty. Does not remove it. */
static inline int cq_pick(clock_queue *q, int prev)
{
    if (q->words == 1) {
        uint64_t b = *cq_bucket(q, q->base);
        if (b) return cq_first_after(b, prev);
    }
    return cq_pick_slow(q, prev);
}

/* ---- the lockstep loops (the scheduler's run_fast and its slice-mode twin)
 * walk the level at base with its set of tied entries in a register; these
 * keep the queue right around that. ---- */

/* The level at base is empty: move base to the next non-empty one. False
 * when the buckets hold nothing more (the heap may). */
static inline bool cq_level_next(clock_queue *q)
{
    uint64_t next = cq_next_level(q);
    if (next == UINT64_MAX) return false;
    q->base = next;
    if (q->heap_len) cq_migrate(q);
    return true;
}

/* How far an entry alone at base may run: the next queued clock (the level
 * word must hold the tied set, as cq_next_level reads the bitmaps). */
static inline uint64_t cq_level_alone_limit(const clock_queue *q)
{
    uint64_t limit = cq_next_level(q);
    if (limit == UINT64_MAX && q->heap_len) limit = q->heap[0].clock;
    return limit;
}

/* Entry e of the level at base went on to clock c > base: out of *tied (the
 * level's word holding e, at *level), into c's bucket (or, beyond the window,
 * through cq_update with the level word made exact first). */
static inline void cq_level_move(clock_queue *q, uint64_t *level, uint64_t *tied, int e, uint64_t c)
{
    uint64_t bit = 1ull << (e & 63);
    *tied &= ~bit;
    if (c - q->base < q->window) {
        cq_bucket(q, c)[e >> 6] |= bit;
        cq_mark(q, c, true);
        q->clock[e] = c;
    } else {
        *level = *tied | bit;
        cq_update(q, e, c);
        *tied = *level;
    }
}

/* Leave the level at base with `tied` still in it: the queue is exact again. */
static inline void cq_level_close(clock_queue *q, uint64_t *level, uint64_t tied)
{
    *level = tied;
    if (!tied) cq_mark(q, q->base, false);
}

/* ---- the same for queues of several words: the loop keeps one word of the
 * level (the one holding the entries it is going through) in a register, the
 * others stay in the bucket. ---- */

/* The first entry after prev (-1: none yet) in cyclic order among the level
 * at base, whose word w is `tied` (not yet written back); the level must not
 * be empty. */
int cq_level_first_slow(const clock_queue *q, const uint64_t *level, int w, uint64_t tied, int prev);

static inline int cq_level_first(const clock_queue *q, const uint64_t *level, int w, uint64_t tied, int prev)
{
    /* The usual case: the next entry is in the same word, after prev. */
    if (prev >= 0 && (prev >> 6) == w && (prev & 63) != 63) {
        uint64_t after = tied & (~0ull << ((prev & 63) + 1));
        if (after) return (w << 6) + __builtin_ctzll(after);
    }
    return cq_level_first_slow(q, level, w, tied, prev);
}

/* Leave a level of several words, its word w now `tied`: exact again. */
static inline void cq_level_close_words(clock_queue *q, uint64_t *level, int w, uint64_t tied)
{
    level[w] = tied;
    if (cq_bucket_empty(q, level)) cq_mark(q, q->base, false);
}

/* ---- lockstep rounds (the scheduler's run_rounds) move a whole level at a
 * time, many times in a row. ---- */

/* The whole level at base, `set` (its words words, as in its bucket), goes
 * on to clock c > base, nothing else being queued (the other buckets and the
 * heap are empty): base becomes c. The entries' queued clocks are left as
 * they were, for cq_level_clocks to write once the moves are over. */
static inline void cq_level_jump(clock_queue *q, const uint64_t *set, int words, uint64_t c)
{
    uint64_t *from = cq_bucket(q, q->base), *to = cq_bucket(q, c);
    for (int w = 0; w < words; w++) from[w] = 0;
    for (int w = 0; w < words; w++) to[w] = set[w];
    cq_mark(q, q->base, false);
    cq_mark(q, c, true);
    q->base = c;
}

/* Entries e[0..n), all in the level at base: base is their queued clock. */
static inline void cq_level_clocks(clock_queue *q, const int *e, int n)
{
    for (int i = 0; i < n; i++) q->clock[e[i]] = q->base;
}

#endif
