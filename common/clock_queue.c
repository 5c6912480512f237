/* clock_queue.c — calendar queue of threads by clock, cyclic tie order. */
#include "clock_queue.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

enum { WINDOW = 256 };  /* clocks further ahead of the minimum go to the heap; <= 64 × occupied[] words */

void cq_init(clock_queue *q, int nthreads)
{
    memset(q, 0, sizeof *q);
    q->nthreads = nthreads;
    q->words = (nthreads + 63) / 64;
    q->window = WINDOW;
    q->bits = xcalloc_lines((size_t)WINDOW * (size_t)q->words, sizeof *q->bits);
    q->heap = xcalloc_lines((size_t)nthreads, sizeof *q->heap);
    q->clock = xcalloc_lines((size_t)nthreads, sizeof *q->clock);
    q->queued = xcalloc_lines((size_t)nthreads, sizeof *q->queued);
}

void cq_free(clock_queue *q)
{
    free(q->bits);
    free(q->heap);
    free(q->clock);
    free(q->queued);
    memset(q, 0, sizeof *q);
}

/* ---- min-heap on (clock, thread) for clocks beyond the window ---- */

static bool heap_less(const cq_entry *a, const cq_entry *b)
{
    return a->clock < b->clock || (a->clock == b->clock && a->thread < b->thread);
}

static void heap_sift_up(clock_queue *q, int i)
{
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!heap_less(&q->heap[i], &q->heap[parent])) break;
        cq_entry t = q->heap[i];
        q->heap[i] = q->heap[parent];
        q->heap[parent] = t;
        i = parent;
    }
}

static void heap_sift_down(clock_queue *q, int i)
{
    for (;;) {
        int l = 2 * i + 1, r = l + 1, m = i;
        if (l < q->heap_len && heap_less(&q->heap[l], &q->heap[m])) m = l;
        if (r < q->heap_len && heap_less(&q->heap[r], &q->heap[m])) m = r;
        if (m == i) return;
        cq_entry t = q->heap[i];
        q->heap[i] = q->heap[m];
        q->heap[m] = t;
        i = m;
    }
}

static void heap_push(clock_queue *q, int thread, uint64_t clock)
{
    q->heap[q->heap_len] = (cq_entry){ clock, thread };
    heap_sift_up(q, q->heap_len++);
}

/* Remove a thread from the heap (linear search: the heap holds only threads
 * far ahead of the rest, which is rare). */
static void heap_remove(clock_queue *q, int thread)
{
    for (int i = 0; i < q->heap_len; i++) {
        if (q->heap[i].thread != thread) continue;
        q->heap[i] = q->heap[--q->heap_len];
        if (i < q->heap_len) {
            heap_sift_down(q, i);
            heap_sift_up(q, i);
        }
        return;
    }
}

/* ---- buckets ---- */

static void bucket_add(clock_queue *q, int thread, uint64_t clock)
{
    cq_bucket(q, clock)[thread >> 6] |= 1ull << (thread & 63);
    cq_mark(q, clock, true);
    q->queued[thread] = 1;
    q->in_buckets++;
}

static void bucket_del(clock_queue *q, int thread, uint64_t clock)
{
    uint64_t *b = cq_bucket(q, clock);
    b[thread >> 6] &= ~(1ull << (thread & 63));
    if (cq_bucket_empty(q, b)) cq_mark(q, clock, false);
    q->in_buckets--;
}

static bool bucket_empty(const clock_queue *q, uint64_t clock)
{
    return cq_bucket_empty(q, cq_bucket(q, clock));
}

static void place(clock_queue *q, int thread, uint64_t clock)
{
    q->clock[thread] = clock;
    if (clock - q->base < q->window) {
        bucket_add(q, thread, clock);
    } else {
        heap_push(q, thread, clock);
        q->queued[thread] = 2;
    }
}

/* Move heap entries that now fall inside the window into their buckets. */
void cq_migrate(clock_queue *q)
{
    while (q->heap_len > 0 && q->heap[0].clock - q->base < q->window) {
        cq_entry e = q->heap[0];
        q->heap[0] = q->heap[--q->heap_len];
        heap_sift_down(q, 0);
        q->clock[e.thread] = e.clock;
        bucket_add(q, e.thread, e.clock);
    }
}

/* A clock below base arrived: rebuild around the new minimum (rare). */
static void rebase(clock_queue *q, uint64_t new_base)
{
    int n = 0;
    int *threads = xmalloc((size_t)q->nthreads * sizeof *threads);
    for (int t = 0; t < q->nthreads; t++)
        if (q->queued[t]) {
            threads[n++] = t;
            q->queued[t] = 0;
        }
    memset(q->bits, 0, (size_t)q->window * (size_t)q->words * sizeof *q->bits);
    memset(q->occupied, 0, sizeof q->occupied);
    q->heap_len = 0;
    q->in_buckets = 0;
    q->base = new_base;
    for (int i = 0; i < n; i++) place(q, threads[i], q->clock[threads[i]]);
    free(threads);
}

void cq_insert(clock_queue *q, int thread, uint64_t clock)
{
    if (q->queued[thread]) {
        cq_update(q, thread, clock);
        return;
    }
    if (cq_count(q) == 0) {
        q->base = clock;
        cq_migrate(q);
    } else if (clock < q->base) {
        rebase(q, clock);
    }
    place(q, thread, clock);
}

void cq_remove(clock_queue *q, int thread)
{
    if (q->queued[thread] == 1) bucket_del(q, thread, q->clock[thread]);
    else if (q->queued[thread] == 2) heap_remove(q, thread);
    q->queued[thread] = 0;
}

void cq_update_slow(clock_queue *q, int thread, uint64_t clock)
{
    cq_remove(q, thread);
    cq_insert(q, thread, clock);
}

/* First set bit at or after `start` in cyclic order over the words, or -1. */
static int first_cyclic(const uint64_t *bits, int words, int start)
{
    int w0 = start >> 6;
    uint64_t head = bits[w0] & (~0ull << (start & 63));
    if (head) return (w0 << 6) + __builtin_ctzll(head);
    for (int w = w0 + 1; w < words; w++)
        if (bits[w]) return (w << 6) + __builtin_ctzll(bits[w]);
    for (int w = 0; w <= w0; w++)
        if (bits[w]) return (w << 6) + __builtin_ctzll(bits[w]);
    return -1;
}

/* Advance base to the smallest queued clock: the next non-empty bucket, or
 * the heap's minimum when the buckets are empty. */
static void advance(clock_queue *q)
{
    if (q->in_buckets == 0) {
        q->base = q->heap[0].clock;
    } else {
        uint32_t b = (uint32_t)(q->base & (q->window - 1));
        int next = first_cyclic(q->occupied, (int)(q->window / 64), (int)b);
        q->base += ((uint32_t)next - b) & (q->window - 1);
    }
    cq_migrate(q);
}

int cq_pick_slow(clock_queue *q, int prev)
{
    if (cq_count(q) == 0) return -1;
    if (q->in_buckets == 0 || bucket_empty(q, q->base)) advance(q);
    int start = prev + 1 >= q->nthreads || prev < 0 ? 0 : prev + 1;
    return first_cyclic(cq_bucket(q, q->base), q->words, start);
}

uint64_t cq_min_other_slow(clock_queue *q, int thread)
{
    const uint64_t *b = cq_bucket(q, q->base);
    for (int w = 0; w < q->words; w++)
        if (b[w] & ~(w == thread >> 6 ? 1ull << (thread & 63) : 0)) return q->base;
    /* thread is alone at base: the next occupied bucket, else the heap */
    uint32_t i = (uint32_t)(q->base & (q->window - 1));
    uint32_t from = (i + 1) & (q->window - 1);
    int next = first_cyclic(q->occupied, (int)(q->window / 64), (int)from);
    if (next >= 0 && (uint32_t)next != i)
        return q->base + (((uint32_t)next - i) & (q->window - 1));
    return q->heap_len ? q->heap[0].clock : UINT64_MAX;
}

int cq_level_first_slow(const clock_queue *q, const uint64_t *level, int w, uint64_t tied, int prev)
{
    int start = prev + 1 >= q->nthreads || prev < 0 ? 0 : prev + 1;
    int w0 = start >> 6;
    uint64_t head = (w0 == w ? tied : level[w0]) & (~0ull << (start & 63));
    if (head) return (w0 << 6) + __builtin_ctzll(head);
    for (int k = 1; k <= q->words; k++) {
        int x = (w0 + k) % q->words;
        uint64_t b = x == w ? tied : level[x];
        if (b) return (x << 6) + __builtin_ctzll(b);
    }
    return -1;
}
