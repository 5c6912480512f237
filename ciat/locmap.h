/* locmap.h — ciat's per-location and per-page state (docs/ciat-report.md, L10–L15, L20–L39).
 *
 * The 32-bit address space is cut into blocks of B = min(page_size, 4096)
 * bytes, allocated on first touch and reached through a two-level radix table
 * (plus a direct-mapped block cache per thread). A block holds:
 *   - touched-byte bitmaps for data and code (one bit per byte);
 *   - its owner (the first thread that touched it, or shared) and access counts;
 *   - one 12-byte record per location (grain g bytes): last writer, owner,
 *     reader set and an access count kept while the location is private.
 * Every access bumps only its location's record (and a touched-bitmap word):
 * per-page and shared-access totals are summed from the records at the end.
 * Counts that outgrow 31 bits, or a location used both as data and as code,
 * move to a small overflow table. Memory grows with the touched footprint only. */
#ifndef DSM_CIAT_LOCMAP_H
#define DSM_CIAT_LOCMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LOC_NONE 0xFFFFu        /* no writer / untouched */
#define LOC_SHARED 0xFFFEu      /* owner: accessed by more than one thread */
#define LOC_MAX_THREADS 0xFFFD  /* thread ids must stay below the markers */

#define COUNT_CODE 0x80000000u  /* count field: the private accesses were fetches */
#define COUNT_SPILLED 0xFFFFFFFFu   /* count field: counts live in the overflow table */
#define COUNT_MAX 0x7FFFFFFEu

typedef struct loc {
    uint16_t writer;            /* last writer w (docs/ciat-report.md L10), LOC_NONE if never written */
    uint16_t owner;             /* first accessor, LOC_SHARED, or LOC_NONE */
    uint32_t readers;           /* reader set (ciat/reader_sets.h) */
    uint32_t count;             /* accesses; COUNT_CODE: they were fetches; or COUNT_SPILLED */
} loc;

typedef struct block {
    uint32_t base;              /* first address */
    uint16_t owner;             /* first thread touching a byte of it, or LOC_SHARED */
    uint16_t accessor;          /* the same for accesses: owner of a page whose only
                                   accesses touched no byte (zero-byte stores) */
    uint64_t *touched_data;     /* B bits */
    uint64_t *touched_code;
    loc *locs;                  /* B / g records */
} block;

/* Overflow counts of a location (mixed data and code, or huge counts). */
typedef struct spill {
    uint32_t key;               /* location number: address / g */
    uint64_t data, code;
} spill;

enum { LOCMAP_CACHE = 256 };  /* per-thread block cache entries, direct-mapped (4 KiB a thread) */

/* A block cache entry: tag = block number << 1 | noted, where noted says that
 * the block's owner already notes the thread (it is the thread or shared, and
 * stays so): a thread's further touches of the block change no owner. */
typedef struct block_ref {
    uint32_t tag;               /* UINT32_MAX: empty */
    block *b;
} block_ref;

typedef struct locmap {
    uint32_t block_size, block_shift;   /* B = 1 << block_shift */
    uint32_t grain, grain_shift;
    block ***dir;               /* [addr >> 22][middle bits] */
    uint32_t mid_shift, mid_mask;
    block_ref *cache;           /* per thread: LOCMAP_CACHE entries, direct-mapped */
    uint32_t locs_offset;       /* bytes from a block to its location records */
    int nthreads;
    uint64_t nblocks;
    spill *spills;
    uint32_t spill_cap, spill_used;
} locmap;

void locmap_init(locmap *m, uint32_t page_size, uint32_t grain, int nthreads);
void locmap_free(locmap *m);

block *locmap_block_slow(locmap *m, uint32_t addr, int thread);

/* The block holding addr (allocated on first touch). */
static inline block *locmap_block(locmap *m, uint32_t addr, int thread)
{
    uint32_t n = addr >> m->block_shift;
    const block_ref *r = &m->cache[(size_t)thread * LOCMAP_CACHE + (n & (LOCMAP_CACHE - 1))];
    if ((r->tag >> 1) == n) return r->b;
    return locmap_block_slow(m, addr, thread);
}

/* Mark b's cache entry noted when b's owner notes thread (after a touch). */
static inline void locmap_cache_note(locmap *m, const block *b, int thread)
{
    if (b->owner != (uint16_t)thread && b->owner != LOC_SHARED) return;
    uint32_t n = b->base >> m->block_shift;
    block_ref *r = &m->cache[(size_t)thread * LOCMAP_CACHE + (n & (LOCMAP_CACHE - 1))];
    if (r->b == b) r->tag = n << 1 | 1;
}

/* Note that thread touched (or, with who = &b->accessor, accessed) block b. */
static inline void locmap_note(uint16_t *who, int thread)
{
    if (*who != (uint16_t)thread && *who != LOC_SHARED)
        *who = *who == LOC_NONE ? (uint16_t)thread : LOC_SHARED;
}

static inline void locmap_block_owner(block *b, int thread) { locmap_note(&b->owner, thread); }

void locmap_touch_span_slow(locmap *m, uint32_t addr, uint32_t len, bool code, int thread);

/* Mark bytes [addr, addr+len) touched (code or data) by thread and update the
 * owners of the blocks they fall in. len may cross block boundaries. b is the
 * block of addr. */
static inline void locmap_touch(locmap *m, block *b, uint32_t addr, uint32_t len, bool code, int thread)
{
    uint32_t off = addr & (m->block_size - 1);
    if (len <= 64 && off + len <= m->block_size && (off & 63) + len <= 64) {   /* one word */
        uint64_t mask = (len == 64 ? ~0ull : (1ull << len) - 1) << (off & 63);
        (code ? b->touched_code : b->touched_data)[off >> 6] |= mask;
        locmap_block_owner(b, thread);
        return;
    }
    locmap_touch_span_slow(m, addr, len, code, thread);
}

void locmap_count_slow(locmap *m, block *b, loc *l, uint32_t addr, bool code, int thread);

/* Count one access (data or fetch) by thread to the location l holding addr
 * in block b, and note who accessed it (its owner, or shared). */
static inline void locmap_count_access(locmap *m, block *b, loc *l, uint32_t addr, bool code, int thread)
{
    uint32_t c = l->count;
    if ((l->owner == (uint16_t)thread || l->owner == LOC_SHARED) && c != COUNT_SPILLED &&
        ((c & COUNT_CODE) != 0) == code && (c & ~COUNT_CODE) < COUNT_MAX) {
        l->count = c + 1;
        return;
    }
    locmap_count_slow(m, b, l, addr, code, thread);
}

/* Add n (> 0) accesses of one kind by thread to l, a location thread has
 * accessed before through locmap_count_access (so its owner and its block's
 * accessor already note thread): the deferred counts of ciat's fetch memo. */
void locmap_count_add(locmap *m, loc *l, uint32_t addr, bool code, uint32_t n);

static inline loc *locmap_loc(const locmap *m, block *b, uint32_t addr)
{
    return &b->locs[(addr & (m->block_size - 1)) >> m->grain_shift];
}

/* Access counts of a location (from its count field or the overflow table). */
void locmap_counts(const locmap *m, const loc *l, uint32_t addr, uint64_t *data, uint64_t *code);

/* Visit every block in ascending address order. */
void locmap_each(const locmap *m, void (*fn)(void *ctx, const block *b), void *ctx);

#endif
