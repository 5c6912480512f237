/* locmap.c — radix table of blocks, sparse and dense blocks, touched bytes,
 * location sharing. */
#include "locmap.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

/* Block data, sparse tables and the radix table's header arrays live in the
 * map's huge-page arena (common/huge_arena.h): a footprint touched at random
 * reaches a header and a table per access, and with 4 KiB pages each of those
 * was a TLB miss and each new page of them a page fault. */

enum { MID_BITS = LOCMAP_MID_BITS, MID_BLOCKS = LOCMAP_MID_BLOCKS };

void locmap_init(locmap *m, uint32_t page_size, uint32_t grain, int nthreads)
{
    memset(m, 0, sizeof *m);
    m->block_size = page_size < 4096 ? page_size : 4096;
    m->block_shift = (uint32_t)__builtin_ctz(m->block_size);
    m->grain = grain;
    m->grain_shift = (uint32_t)__builtin_ctz(grain);
    m->words = m->block_size / 64 ? m->block_size / 64 : 1;
    m->nlocs = m->block_size >> m->grain_shift;
    m->dense_bytes = 2 * (size_t)m->words * sizeof(uint64_t) + (size_t)m->nlocs * sizeof(loc);
    m->sparse = grain <= SPARSE_MAX_GRAIN && SPARSE_FIRST_CAP * sizeof(sloc) < m->dense_bytes;
    m->top_shift = m->block_shift + MID_BITS;
    m->top_entries = 1u << (32 - m->top_shift);
    m->dir = xcalloc(m->top_entries, sizeof *m->dir);
    m->nthreads = nthreads;
    m->cache = xcalloc((size_t)nthreads * LOCMAP_CACHE, sizeof *m->cache);
    huge_arena_init(&m->arena);
    for (size_t i = 0; i < (size_t)nthreads * LOCMAP_CACHE; i++) m->cache[i].tag = UINT32_MAX;
}

void locmap_free(locmap *m)
{
    huge_arena_free(&m->arena);
    free(m->dir);
    free(m->cache);
    free(m->spills);
    memset(m, 0, sizeof *m);
}

static void *new_dense(locmap *m)
{
    uint64_t *data = huge_arena_bump(&m->arena, m->dense_bytes);   /* zeroed */
    loc *locs = (loc *)(data + 2 * (size_t)m->words);
    for (uint32_t i = 0; i < m->nlocs; i++) {
        locs[i].writer = LOC_NONE;
        locs[i].owner = LOC_NONE;
    }
    return data;
}

static unsigned table_order(uint32_t cap) { return huge_arena_order(cap * sizeof(sloc)); }

static sloc *new_table(locmap *m, uint32_t cap)
{
    sloc *t = huge_arena_block(&m->arena, table_order(cap));
    for (uint32_t i = 0; i < cap; i++)
        t[i] = (sloc){ .l = { LOC_NONE, LOC_NONE, 0, 0 }, .index = SLOC_EMPTY };
    return t;
}

/* The block below base is dense with at least 3/8 of its locations
 * accessed: whatever fills memory in address order (arrays, streams) will
 * likely fill the next block too. */
static bool full_below(const locmap *m, uint32_t base)
{
    const block *b = base ? locmap_find(m, base - m->block_size) : NULL;
    return b && locmap_dense(b) && 8 * (uint32_t)b->used >= 3 * m->nlocs;
}

static void new_block(locmap *m, block *b, uint32_t base)
{
    b->owner = LOC_NONE;
    b->accessor = LOC_NONE;
    if (m->sparse && !full_below(m, base)) {
        b->cap_shift = (unsigned)__builtin_ctz(SPARSE_FIRST_CAP);
        b->data = new_table(m, SPARSE_FIRST_CAP);
    } else {
        b->data = new_dense(m);
        m->ndense++;
    }
    m->nblocks++;
}

block *locmap_find(const locmap *m, uint32_t addr)
{
    block *b = locmap_header(m, addr);
    return b && b->data ? b : NULL;
}

block *locmap_block_slow(locmap *m, uint32_t addr, int thread)
{
    block *mid = m->dir[addr >> m->top_shift];
    if (!mid) mid = m->dir[addr >> m->top_shift] = huge_arena_bump(&m->arena, MID_BLOCKS * sizeof *mid);
    block *b = &mid[(addr >> m->block_shift) & (MID_BLOCKS - 1)];
    if (!b->data) new_block(m, b, addr & ~(m->block_size - 1));
    uint32_t n = addr >> m->block_shift;
    bool fast = locmap_dense(b) && (b->owner == (uint16_t)thread || b->owner == LOC_SHARED);
    m->cache[(size_t)thread * LOCMAP_CACHE + (n & (LOCMAP_CACHE - 1))] =
        (block_ref){ n << 1 | fast, b, fast ? b->data : NULL };
    return b;
}

/* ---- sparse blocks ---- */

static void set_bits(uint64_t *bits, uint32_t from, uint32_t n)
{
    while (n) {
        uint32_t w = from >> 6, off = from & 63, k = 64 - off < n ? 64 - off : n;
        uint64_t mask = k == 64 ? ~0ull : ((1ull << k) - 1) << off;
        bits[w] |= mask;
        from += k;
        n -= k;
    }
}

/* The sparse table has grown past what the dense form costs: switch. */
static void make_dense(locmap *m, block *b)
{
    sloc *t = b->data;
    uint64_t *data = new_dense(m);
    loc *locs = (loc *)(data + 2 * (size_t)m->words);
    for (uint32_t i = 0, cap = locmap_cap(b); i < cap; i++) {
        if (t[i].index == SLOC_EMPTY) continue;
        uint32_t from = (uint32_t)t[i].index << m->grain_shift;
        locs[t[i].index] = t[i].l;
        for (uint32_t k = 0; k < m->grain; k++) {
            if (t[i].touched_data >> k & 1) set_bits(data, from + k, 1);
            if (t[i].touched_code >> k & 1) set_bits(data + m->words, from + k, 1);
        }
    }
    huge_arena_release(&m->arena, t, table_order(locmap_cap(b)));
    b->data = data;
    b->cap_shift = 0;
    b->uses = 0;                        /* used stays: the locations accessed so far */
    m->ndense++;
}

static void grow_table(locmap *m, block *b)
{
    sloc *old = b->data;
    uint32_t old_cap = locmap_cap(b), cap = 2 * old_cap;
    b->cap_shift++;
    sloc *t = b->data = new_table(m, cap);
    for (uint32_t i = 0; i < old_cap; i++) {
        if (old[i].index == SLOC_EMPTY) continue;
        uint32_t j = locmap_slot_of(old[i].index, cap);
        while (t[j].index != SLOC_EMPTY) j = (j + 1) & (cap - 1);
        t[j] = old[i];
    }
    huge_arena_release(&m->arena, old, table_order(old_cap));
}

/* The entry of location index in sparse block b, made if new; NULL if b
 * became dense on the way. Tables stay at most 3/4 full. */
static sloc *sparse_entry(locmap *m, block *b, uint32_t index)
{
    sloc *t = b->data;
    uint32_t cap = locmap_cap(b), j = locmap_slot_of(index, cap);
    for (; t[j].index != SLOC_EMPTY; j = (j + 1) & (cap - 1))
        if (t[j].index == index) return &t[j];
    if (4 * ((uint32_t)b->used + 1) > 3 * cap) {
        if (2 * (size_t)cap * sizeof(sloc) > m->dense_bytes) {
            make_dense(m, b);
            return NULL;
        }
        grow_table(m, b);
        return sparse_entry(m, b, index);
    }
    t[j].index = (uint16_t)index;
    b->used++;
    return &t[j];
}

loc *locmap_sparse_loc(locmap *m, block *b, uint32_t index)
{
    /* A sparse block accessed as often as it has locations is hot: dense. */
    if (++b->uses >= m->nlocs) {
        make_dense(m, b);
        return &locmap_dense_locs(m, b)[index];
    }
    sloc *e = sparse_entry(m, b, index);
    return e ? &e->l : &locmap_dense_locs(m, b)[index];
}

/* Mark n bytes from offset off of block b touched. */
static void touch_bytes(locmap *m, block *b, uint32_t off, uint32_t n, bool code)
{
    while (!locmap_dense(b) && n) {
        uint32_t index = off >> m->grain_shift, k = off & (m->grain - 1);
        uint32_t take = m->grain - k < n ? m->grain - k : n;
        sloc *e = sparse_entry(m, b, index);
        if (!e) break;                  /* now dense: the rest below */
        uint8_t mask = (uint8_t)(((1u << take) - 1) << k);
        if (code) e->touched_code |= mask;
        else e->touched_data |= mask;
        off += take;
        n -= take;
    }
    if (n) set_bits(locmap_dense_touched(m, b, code), off, n);
}

void locmap_touch_span_slow(locmap *m, uint32_t addr, uint32_t len, bool code, int thread)
{
    uint64_t a = addr, end = (uint64_t)addr + len;
    if (end > 0x100000000ull) end = 0x100000000ull;     /* no wrap past the top */
    while (a < end) {
        block *b = locmap_block(m, (uint32_t)a, thread);
        uint32_t off = (uint32_t)a & (m->block_size - 1);
        uint64_t n = end - a < m->block_size - off ? end - a : m->block_size - off;
        touch_bytes(m, b, off, (uint32_t)n, code);
        locmap_block_owner(b, thread);
        a += n;
    }
}

uint64_t locmap_bytes(const locmap *m)
{
    uint64_t bytes = (uint64_t)m->spill_cap * sizeof(spill);
    for (uint32_t i = 0; i < m->top_entries; i++) {
        if (!m->dir[i]) continue;
        bytes += MID_BLOCKS * sizeof(block);
        for (uint32_t j = 0; j < MID_BLOCKS; j++) {
            const block *b = &m->dir[i][j];
            if (b->data) bytes += locmap_dense(b) ? m->dense_bytes : locmap_cap(b) * sizeof(sloc);
        }
    }
    return bytes;
}

/* ---- overflow counts ---- */

static uint32_t hash32(uint32_t x)
{
    x ^= x >> 16;
    x *= 0x7feb352du;
    x ^= x >> 15;
    x *= 0x846ca68bu;
    x ^= x >> 16;
    return x;
}

static spill *spill_find(const locmap *m, uint32_t key)
{
    if (!m->spill_cap) return NULL;
    for (uint32_t i = hash32(key) & (m->spill_cap - 1); ; i = (i + 1) & (m->spill_cap - 1)) {
        spill *s = &m->spills[i];
        if (s->key == key && (s->data || s->code)) return s;
        if (!s->data && !s->code) return NULL;
    }
}

static spill *spill_get(locmap *m, uint32_t key)
{
    spill *s = spill_find(m, key);
    if (s) return s;
    if (2 * (m->spill_used + 1) > m->spill_cap) {
        uint32_t old_cap = m->spill_cap;
        spill *old = m->spills;
        m->spill_cap = old_cap ? 2 * old_cap : 64;
        m->spills = xcalloc(m->spill_cap, sizeof *m->spills);
        m->spill_used = 0;
        for (uint32_t i = 0; i < old_cap; i++)
            if (old[i].data || old[i].code) *spill_get(m, old[i].key) = old[i];
        free(old);
    }
    uint32_t i = hash32(key) & (m->spill_cap - 1);
    while (m->spills[i].data || m->spills[i].code) i = (i + 1) & (m->spill_cap - 1);
    m->spills[i].key = key;
    m->spill_used++;
    return &m->spills[i];
}

void locmap_counts(const locmap *m, const loc *l, uint32_t addr, uint64_t *data, uint64_t *code)
{
    *data = *code = 0;
    if (l->owner == LOC_NONE) return;
    if (l->count == COUNT_SPILLED) {
        const spill *s = spill_find(m, addr >> m->grain_shift);
        if (s) {
            *data = s->data;
            *code = s->code;
        }
        return;
    }
    if (l->count & COUNT_CODE) *code = l->count & ~COUNT_CODE;
    else *data = l->count;
}

/* Move a location's counts to the overflow table, then add one. */
static void spill_count(locmap *m, loc *l, uint32_t addr, bool code)
{
    uint32_t key = addr >> m->grain_shift;
    if (l->count != COUNT_SPILLED) {
        uint64_t d, c;
        locmap_counts(m, l, addr, &d, &c);
        /* the new entry must be non-empty before it is inserted: count this access too */
        spill *s = spill_get(m, key);
        s->data = d + !code;
        s->code = c + code;
        l->count = COUNT_SPILLED;
        return;
    }
    spill *s = spill_get(m, key);
    if (code) s->code++;
    else s->data++;
}

/* The cases locmap_count_access does not handle inline: a first access, a
 * second thread, mixed kinds or a huge count. */
void locmap_count_slow(locmap *m, block *b, loc *l, uint32_t addr, bool code, int thread)
{
    locmap_note(&b->accessor, thread);  /* a new accessor of a location of b */
    if (l->owner == LOC_NONE) {
        if (locmap_dense(b)) b->used++;
        l->owner = (uint16_t)thread;
        l->count = code ? COUNT_CODE | 1 : 1;
        return;
    }
    if (l->owner != (uint16_t)thread) l->owner = LOC_SHARED;
    uint32_t c = l->count;
    if (c != COUNT_SPILLED && ((c & COUNT_CODE) != 0) == code && (c & ~COUNT_CODE) < COUNT_MAX)
        l->count = c + 1;
    else
        spill_count(m, l, addr, code);
}

void locmap_note_slow(block *b, loc *l, bool code, int thread)
{
    locmap_note(&b->accessor, thread);
    if (l->owner == LOC_NONE) {
        if (locmap_dense(b)) b->used++;
        l->owner = (uint16_t)thread;
        l->count = code ? COUNT_CODE : 0;   /* noted, not counted */
        return;
    }
    if (l->owner != (uint16_t)thread) l->owner = LOC_SHARED;
}

void locmap_note_covered(locmap *m, block *b, uint32_t addr, uint32_t size, bool code, int thread)
{
    uint32_t last = locmap_last_loc(m, addr, size);
    for (uint32_t a = addr & ~(m->grain - 1); a != last;) {
        a += m->grain;
        block *lb = locmap_block_near(m, b, addr, a, thread);
        locmap_note_access(lb, locmap_loc(m, lb, a), code, thread);
    }
}

void locmap_count_add(locmap *m, loc *l, uint32_t addr, bool code, uint32_t n)
{
    uint32_t c = l->count;
    if (c != COUNT_SPILLED && ((c & COUNT_CODE) != 0) == code && (uint64_t)(c & ~COUNT_CODE) + n <= COUNT_MAX) {
        l->count = c + n;
        return;
    }
    uint32_t key = addr >> m->grain_shift;
    if (c != COUNT_SPILLED) {
        uint64_t d, k;
        locmap_counts(m, l, addr, &d, &k);
        spill *s = spill_get(m, key);
        s->data = d + (code ? 0 : n);
        s->code = k + (code ? n : 0);
        l->count = COUNT_SPILLED;
        return;
    }
    spill *s = spill_get(m, key);
    if (code) s->code += n;
    else s->data += n;
}

void locmap_each(const locmap *m, void (*fn)(void *ctx, const block *b, uint32_t base), void *ctx)
{
    for (uint32_t i = 0; i < m->top_entries; i++) {
        if (!m->dir[i]) continue;
        for (uint32_t j = 0; j < MID_BLOCKS; j++)
            if (m->dir[i][j].data) fn(ctx, &m->dir[i][j], (i << m->top_shift) + (j << m->block_shift));
    }
}
