/* scheduler_sync.c — which releases of each key the replay has processed
 * (recorded synchronisation, docs/scheduler.md §6.1). */
#include "scheduler_sync.h"
#include "../base/diag.h"

#include <stdio.h>
#include <stdlib.h>

/* ---- the table: open addressing by key ---- */

static uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

sync_key *sync_find(sync_table *t, uint64_t key, bool create)
{
    if (create && 2 * (t->used + 1) > t->cap) {
        size_t old_cap = t->cap;
        sync_key *old = t->k;
        t->cap = old_cap ? 2 * old_cap : 64;
        t->k = xcalloc(t->cap, sizeof *t->k);
        t->used = 0;
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].used) *sync_find(t, old[i].key, true) = old[i];
        free(old);
    }
    if (!t->cap) return NULL;
    size_t i = hash64(key) & (t->cap - 1);
    while (t->k[i].used) {
        if (t->k[i].key == key) return &t->k[i];
        i = (i + 1) & (t->cap - 1);
    }
    if (!create) return NULL;
    t->k[i] = (sync_key){ .key = key, .used = true, .holder = -1 };
    t->used++;
    return &t->k[i];
}

void sync_table_free(sync_table *t)
{
    for (size_t i = 0; i < t->cap; i++) free(t->k[i].pending);
    free(t->k);
    *t = (sync_table){ 0 };
}

/* ---- releases replayed out of order: a min-heap by distance from done ----
 * Every pending number lies after done (distance 1 .. 2^31-1), and done moves
 * one step at a time over the heap's minimum, so the distances keep their
 * order as done grows. */

static uint32_t dist(const sync_key *k, uint32_t seq) { return seq - k->done; }

static void heap_push(sync_key *k, sync_release r)
{
    if (k->npending == k->cap) {
        size_t cap = xgrow((void **)&k->pending, k->cap, (size_t)k->npending + 1, sizeof *k->pending);
        k->cap = cap > UINT32_MAX ? UINT32_MAX : (uint32_t)cap;
    }
    uint32_t i = k->npending++;
    while (i > 0) {
        uint32_t up = (i - 1) / 2;
        if (dist(k, k->pending[up].seq) <= dist(k, r.seq)) break;
        k->pending[i] = k->pending[up];
        i = up;
    }
    k->pending[i] = r;
}

static sync_release heap_pop(sync_key *k)
{
    sync_release top = k->pending[0], last = k->pending[--k->npending];
    uint32_t i = 0, n = k->npending;
    for (;;) {
        uint32_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && dist(k, k->pending[c + 1].seq) < dist(k, k->pending[c].seq)) c++;
        if (dist(k, last.seq) <= dist(k, k->pending[c].seq)) break;
        k->pending[i] = k->pending[c];
        i = c;
    }
    if (n) k->pending[i] = last;
    return top;
}

/* Move done over the pending releases that follow it; a pending number equal
 * to done (a second release with that number) goes to dup. */
static void absorb(sync_key *k, sync_dup_fn *dup, void *ctx)
{
    while (k->npending) {
        uint32_t d = dist(k, k->pending[0].seq);
        if (d > 1) break;
        sync_release r = heap_pop(k);
        if (d == 1) k->done++;
        else if (dup) dup(ctx, &r);
    }
}

bool sync_mark(sync_key *k, uint32_t r, int thread, uint64_t index, sync_dup_fn *dup, void *ctx)
{
    uint32_t d = dist(k, r);
    if (d == 0 || d >= 0x80000000u) {       /* at or before done: replayed already */
        sync_release again = { r, thread, index };
        if (dup) dup(ctx, &again);
        return false;
    }
    if (d > 1) {
        heap_push(k, (sync_release){ r, thread, index });
        return false;
    }
    k->done++;
    absorb(k, dup, ctx);
    return true;
}

void sync_force(sync_key *k, uint32_t seq)
{
    if (sync_ready(k, seq)) return;
    k->done = seq;
    /* Pending numbers now at or before done are taken in: keep the rest (all
     * after done) and restore the heap order for the new distances. */
    uint32_t n = 0;
    for (uint32_t i = 0; i < k->npending; i++) {
        uint32_t d = dist(k, k->pending[i].seq);
        if (d != 0 && d < 0x80000000u) k->pending[n++] = k->pending[i];
    }
    sync_release *keep = k->pending;
    k->npending = 0;
    for (uint32_t i = 0; i < n; i++) heap_push(k, keep[i]);
    absorb(k, NULL, NULL);
}

void sync_done_text(const sync_key *k, char *buf, size_t n)
{
    uint32_t done = k ? k->done : 0;
    int len;
    if (done == 0) len = snprintf(buf, n, "no release replayed");
    else if (done == 1) len = snprintf(buf, n, "release 1 replayed");
    else len = snprintf(buf, n, "releases 1..%u replayed", done);
    uint32_t later = k ? k->npending : 0;
    if (later && len >= 0 && (size_t)len < n)
        snprintf(buf + len, n - (size_t)len, ", %u later one%s out of order", later, later == 1 ? "" : "s");
}
