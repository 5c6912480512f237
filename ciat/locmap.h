/* locmap.h — ciat's per-location and per-page state (docs/ciat-report.md, L10–L15, L20–L39).
 *
 * The 32-bit address space is cut into blocks of B = min(page_size, 4096)
 * bytes, made on first touch and reached through a two-level radix table
 * whose leaves hold the blocks' 16-byte headers (no address: a block's place
 * in the table gives it), plus a direct-mapped block cache per thread. Per
 * location (grain g bytes) ciat keeps a 12-byte record: last writer, owner,
 * reader set and an access count kept while the location is private; per
 * byte, whether it was touched as data and as code; per block, its owner
 * (the first thread that touched it, or shared).
 *
 * A block starts sparse: a small open-addressing table with one 16-byte
 * entry per location touched or accessed (record, index, touched bits). It
 * becomes dense — touched-byte bitmaps and a record for every location, the
 * layout the per-access fast path below reads — when a doubled table would
 * take more memory than the dense form, or when it has been accessed as
 * often as it has locations (a few hot words: the dense form is faster, and
 * its cost is spread over that many accesses). A block made just above a
 * dense block with at least 3/8 of its locations accessed starts dense
 * (arrays and streams fill memory in address order). So a page with a few
 * scattered words costs a few entries, not a 13 KiB block, and a page used
 * throughout costs what it did. With g > 8 a location's touched bits do not
 * fit an entry and blocks are dense from the start.
 *
 * Block data, sparse tables and the header arrays come from the map's
 * arena (common/huge_arena.h: 2 MiB chunks, on huge pages past the first
 * 4 MiB; tables freed to a buddy allocator when they grow), not from
 * malloc's 4 KiB pages, which cost a TLB miss per random access and a page
 * fault per new page of state: that pays where the footprint is irregular
 * (bench/README.md E19; make bench's "ciat irregular irr.4" lines).
 *
 * Every access bumps only its location's record (and its touched bits):
 * per-page and shared-access totals are summed from the records at the end.
 * Counts that outgrow 31 bits, or a location used both as data and as code,
 * move to a small overflow table. Record pointers (loc *) stay valid until
 * the next access that may add a location to the block (locmap_loc,
 * locmap_touch); block pointers stay valid until locmap_free. */
#ifndef DSM_CIAT_LOCMAP_H
#define DSM_CIAT_LOCMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../common/fast_paths.h"
#include "../common/huge_arena.h"

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

/* An entry of a sparse block: a location's record, its index in the block
 * (SLOC_EMPTY: a free slot) and its touched bytes (bit i: byte i of the
 * location), as data and as code. */
typedef struct sloc {
    loc l;                      /* first: a sloc * is a loc * */
    uint16_t index;
    uint8_t touched_data, touched_code;
} sloc;

#define SLOC_EMPTY 0xFFFFu
enum { SPARSE_MAX_GRAIN = 8, SPARSE_FIRST_CAP = 4 };

/* A block's header, 16 bytes: a region touched at random has a header per
 * block (65536 for 256 MiB) and each of its accesses reads one, so the
 * smaller they are the more of them the L2 cache holds (1 MiB of them there,
 * not 1.5), and a header never straddles a cache line. The block's address
 * is not kept: its place in the radix table says it, and whoever needs it
 * has it (locmap_each passes it). Read cap through locmap_cap. */
typedef struct block {
    void *data;                 /* dense: touched_data[words], touched_code[words], loc[B / g];
                                   sparse: sloc[cap]; NULL: not made */
    uint16_t owner;             /* first thread touching a byte of it, or LOC_SHARED */
    uint16_t accessor;          /* the same for accesses: owner of a page whose only
                                   accesses touched no byte (zero-byte stores) */
    unsigned cap_shift : 4;     /* sparse: log2 of the table's slots (at least 2); 0: dense */
    unsigned used : 14;         /* sparse: entries in the table; dense: at least the
                                   locations accessed (see full_below in locmap.c) */
    unsigned uses : 14;         /* sparse: accesses through locmap_loc (see locmap_sparse_loc) */
} block;

/* used and uses count up to B / g <= 4096 locations; a table never has more
 * than 2^11 slots (a bigger one would outweigh a dense block of 4096 bytes). */
_Static_assert(sizeof(block) == 16, "a block header is 16 bytes");

/* Overflow counts of a location (mixed data and code, or huge counts). */
typedef struct spill {
    uint32_t key;               /* location number: address / g */
    uint64_t data, code;
} spill;

enum { LOCMAP_CACHE = 256 };  /* per-thread block cache entries, direct-mapped (24-byte entries: 6 KiB a thread) */

/* A block cache entry: tag = block number << 1 | fast, where fast says that
 * the block is dense and its owner already notes the thread (it is the thread
 * or shared, and stays so): a thread's further touches of the block change no
 * owner, and locmap_fast_data may use it. */
typedef struct block_ref {
    uint32_t tag;               /* UINT32_MAX: empty */
    block *b;
    uint64_t *dense;            /* b->data when fast (one load less on the fast path) */
} block_ref;

typedef struct locmap {
    uint32_t block_size, block_shift;   /* B = 1 << block_shift */
    uint32_t grain, grain_shift;
    uint32_t words;             /* 64-bit words of a dense touched bitmap */
    uint32_t nlocs;             /* locations of a block: B / g */
    size_t dense_bytes;         /* a dense block's data */
    bool sparse;                /* blocks start sparse (g <= SPARSE_MAX_GRAIN) */
    block **dir;                /* [addr >> top_shift][next 10 bits]: headers of blocks */
    uint32_t top_shift, top_entries;
    block_ref *cache;           /* per thread: LOCMAP_CACHE entries, direct-mapped */
    int nthreads;
    uint64_t nblocks, ndense;
    spill *spills;
    uint32_t spill_cap, spill_used;
    huge_arena arena;           /* block data, sparse tables, header arrays */
} locmap;

void locmap_init(locmap *m, uint32_t page_size, uint32_t grain, int nthreads);
void locmap_free(locmap *m);

/* ---- dense layout ---- */

static inline bool locmap_dense(const block *b) { return b->cap_shift == 0; }

/* Slots of a sparse block's table (a power of two). */
static inline uint32_t locmap_cap(const block *b) { return 1u << b->cap_shift; }

static inline uint64_t *locmap_dense_touched(const locmap *m, const block *b, bool code)
{
    return (uint64_t *)b->data + (code ? m->words : 0);
}

static inline loc *locmap_dense_locs(const locmap *m, const block *b)
{
    return (loc *)((uint64_t *)b->data + 2 * (size_t)m->words);
}

/* ---- blocks ---- */

block *locmap_block_slow(locmap *m, uint32_t addr, int thread);

/* The radix table: dir[addr >> top_shift] is an array of LOCMAP_MID_BLOCKS
 * block headers (made when one of them is first touched; data NULL: not
 * made), so a block's header is found without another pointer to follow. */
enum { LOCMAP_MID_BITS = 10, LOCMAP_MID_BLOCKS = 1 << LOCMAP_MID_BITS };

/* The header slot of the block holding addr (its data NULL: not made), or
 * NULL when none of its 4 MiB (with 4 KiB blocks) was touched. */
static inline block *locmap_header(const locmap *m, uint32_t addr)
{
    block *mid = m->dir[addr >> m->top_shift];
    return mid ? &mid[(addr >> m->block_shift) & (LOCMAP_MID_BLOCKS - 1)] : NULL;
}

/* The block holding addr (made on first touch). */
static inline block *locmap_block(locmap *m, uint32_t addr, int thread)
{
    uint32_t n = addr >> m->block_shift;
    const block_ref *r = &m->cache[(size_t)thread * LOCMAP_CACHE + (n & (LOCMAP_CACHE - 1))];
    if (FAST_PATHS && (r->tag >> 1) == n) return r->b;
    return locmap_block_slow(m, addr, thread);
}

/* The block holding addr, or NULL if nothing of it was touched yet (no cache). */
block *locmap_find(const locmap *m, uint32_t addr);

/* Mark b's cache entry fast when b (the block holding addr) is dense and its
 * owner notes thread (after a touch). */
static inline void locmap_cache_note(locmap *m, const block *b, uint32_t addr, int thread)
{
    if (!locmap_dense(b) || (b->owner != (uint16_t)thread && b->owner != LOC_SHARED)) return;
    uint32_t n = addr >> m->block_shift;
    block_ref *r = &m->cache[(size_t)thread * LOCMAP_CACHE + (n & (LOCMAP_CACHE - 1))];
    if (r->b == b) {
        r->tag = n << 1 | 1;
        r->dense = b->data;
    }
}

/* Note that thread touched (or, with who = &b->accessor, accessed) block b. */
static inline void locmap_note(uint16_t *who, int thread)
{
    if (*who != (uint16_t)thread && *who != LOC_SHARED)
        *who = *who == LOC_NONE ? (uint16_t)thread : LOC_SHARED;
}

static inline void locmap_block_owner(block *b, int thread) { locmap_note(&b->owner, thread); }

/* ---- locations ---- */

loc *locmap_sparse_loc(locmap *m, block *b, uint32_t index);

/* The record of the location holding addr in block b (made if new). */
static inline loc *locmap_loc(locmap *m, block *b, uint32_t addr)
{
    uint32_t index = (addr & (m->block_size - 1)) >> m->grain_shift;
    if (locmap_dense(b)) return &locmap_dense_locs(m, b)[index];
    return locmap_sparse_loc(m, b, index);
}

void locmap_touch_span_slow(locmap *m, uint32_t addr, uint32_t len, bool code, int thread);

/* Mark bytes [addr, addr+len) touched (code or data) by thread and update the
 * owners of the blocks they fall in. len may cross block boundaries. b is the
 * block of addr. */
static inline void locmap_touch(locmap *m, block *b, uint32_t addr, uint32_t len, bool code, int thread)
{
    uint32_t off = addr & (m->block_size - 1);
    if (FAST_PATHS && locmap_dense(b) && len <= 64 && off + len <= m->block_size && (off & 63) + len <= 64) {
        uint64_t mask = (len == 64 ? ~0ull : (1ull << len) - 1) << (off & 63);
        locmap_dense_touched(m, b, code)[off >> 6] |= mask;
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
    if (FAST_PATHS && (l->owner == (uint16_t)thread || l->owner == LOC_SHARED) && c != COUNT_SPILLED &&
        ((c & COUNT_CODE) != 0) == code && (c & ~COUNT_CODE) < COUNT_MAX) {
        l->count = c + 1;
        return;
    }
    locmap_count_slow(m, b, l, addr, code, thread);
}

void locmap_note_slow(block *b, loc *l, bool code, int thread);

/* Note that thread accessed the location l (in block b; data or code)
 * without counting an access: the further locations an access covers
 * (below). */
static inline void locmap_note_access(block *b, loc *l, bool code, int thread)
{
    if (FAST_PATHS && (l->owner == (uint16_t)thread || l->owner == LOC_SHARED)) return;
    locmap_note_slow(b, l, code, thread);
}

/* ---- the locations an access covers ----
 *
 * A data access of size bytes at addr covers every location holding one of
 * its bytes [addr, addr + size), cut at the top of the address space; a
 * zero-byte access covers the location holding addr; a fetch its 4 bytes
 * (more than one location only at grains 1 and 2). It is counted once, on
 * its first location (locmap_count_access: the usage lines count accesses as
 * the instruction mix does), and every further location notes its thread
 * (locmap_note_access), so owners, sharing and the communication analysis see
 * every byte the access moved, whatever the width the compiler chose
 * (docs/ciat-report.md, "Wide accesses"). */

/* The locations covered by an access whose bytes stay below 2^32 (as they do
 * in one touched-bitmap word of a dense block): 1 for most. */
static inline uint32_t locmap_locs_covered(const locmap *m, uint32_t addr, unsigned size)
{
    uint32_t span = (addr & (m->grain - 1)) + size;
    return span <= m->grain ? 1 : ((span - 1) >> m->grain_shift) + 1;
}

/* The first address of the last location an access covers. */
static inline uint32_t locmap_last_loc(const locmap *m, uint32_t addr, unsigned size)
{
    uint64_t end = size ? (uint64_t)addr + size - 1 : addr;
    if (end > UINT32_MAX) end = UINT32_MAX;
    return (uint32_t)end & ~(m->grain - 1);
}

/* The block of a further location at a of an access at addr, whose block is
 * b: b itself unless the access crosses into the next block. */
static inline block *locmap_block_near(locmap *m, block *b, uint32_t addr, uint32_t a, int thread)
{
    return (a >> m->block_shift) == (addr >> m->block_shift) ? b : locmap_block(m, a, thread);
}

/* Note thread in every location after the first that the access (data or
 * code) of size bytes at addr covers; b is the block of addr. */
void locmap_note_covered(locmap *m, block *b, uint32_t addr, uint32_t size, bool code, int thread);

/* Whether thread may count an access to l without noting it: it owns l or
 * l is shared. */
static inline bool locmap_noted(const loc *l, int thread)
{
    return l->owner == (uint16_t)thread || l->owner == LOC_SHARED;
}

/* Add n (> 0) accesses of one kind by thread to l, a location thread has
 * accessed before through locmap_count_access (so its owner and its block's
 * accessor already note thread): the deferred counts of ciat's fetch memo. */
void locmap_count_add(locmap *m, loc *l, uint32_t addr, bool code, uint32_t n);

/* ---- the per-access fast path ----
 *
 * A data access of size bytes at addr by thread whose bytes lie in one
 * touched-bitmap word of a dense block the thread's cache holds as fast, and
 * whose location has a data count the thread may bump (it owns the location
 * or it is shared; not spilled, not full): locmap_fast_data finds it without
 * changing anything; locmap_fast_commit then marks the bytes and counts the
 * access. Anything else returns NULL: the caller takes the general path
 * (locmap_block, locmap_touch, locmap_loc, locmap_count_access). */
typedef struct locmap_hit {
    uint64_t *word;             /* the touched-data bitmap word */
    uint64_t mask;              /* the access's bytes in it */
} locmap_hit;

static inline loc *locmap_fast_data(const locmap *m, uint32_t addr, unsigned size, int thread, locmap_hit *h)
{
    uint32_t n = addr >> m->block_shift;
    const block_ref *r = &m->cache[(size_t)thread * LOCMAP_CACHE + (n & (LOCMAP_CACHE - 1))];
    if (!FAST_PATHS || r->tag != (n << 1 | 1)) return NULL;    /* not cached, sparse, or its owner does not note thread */
    uint32_t off = addr & (m->block_size - 1);
    if ((off & 63) + size > 64) return NULL;    /* dense blocks are multiples of 64 bytes */
    uint64_t *touched = r->dense;
    loc *l = (loc *)(touched + 2 * (size_t)m->words) + (off >> m->grain_shift);
    if (l->count >= COUNT_MAX || (l->owner != (uint16_t)thread && l->owner != LOC_SHARED)) return NULL;
    h->word = touched + (off >> 6);
    h->mask = (size == 64 ? ~0ull : (1ull << size) - 1) << (off & 63);
    return l;
}

static inline void locmap_fast_commit(const locmap_hit *h, loc *l)
{
    *h->word |= h->mask;
    l->count++;
}

/* ---- prefetching (for a scheduler look-ahead: an access K records ahead) ----
 *
 * The state an access reads lies in memory the caches seldom hold when the
 * accesses are irregular or the threads many: the block header (an array of
 * them per 4 MiB of address space), then the block's data (the touched word
 * and record of a dense block, the table slot of a sparse one). Both only
 * hint at the caches: they change no state and read only memory the map
 * owns (a prefetch of any address is safe), so an address never touched, or
 * one touched before the access itself comes, is harmless.
 *
 * locmap_prefetch_block(m, addr): the header only (no load but the top
 * directory's, which is small and hot); for far ahead.
 * locmap_prefetch(m, addr): reads the header (so best after the first, or
 * when headers stay cached) and fetches the data line the access will read.
 * Both are always inlined: GCC finds a function whose only effect is a
 * prefetch pure and drops the call before it would inline it.
 *
 * ciat hooks locmap_prefetch_block to the replay's far hint (32 events
 * ahead) and locmap_prefetch to its near one (16), only with the analysis
 * beside the scheduler, where the replay times its batches with and
 * without each and keeps the faster (common/ahead_tuner.h): both pay on
 * irregular footprints, whose headers and records the caches do not hold,
 * and cost on dense ones, where they stay cached. Hooked to the scheduler's
 * own look-ahead instead, they saved on irregular sets about what they cost
 * dense ones, and even a hook that does nothing is a call on the
 * scheduler's thread for every record (bench/README.md E9 and E13). */
static inline __attribute__((always_inline)) void locmap_prefetch_block(const locmap *m, uint32_t addr)
{
    const block *b = locmap_header(m, addr);
    if (b) __builtin_prefetch(b);
}

/* Slot of location index in a sparse table of cap slots (a power of two). */
static inline uint32_t locmap_slot_of(uint32_t index, uint32_t cap)
{
    return (index * 0x9E3779B1u >> 16) & (cap - 1);
}

static inline __attribute__((always_inline)) void locmap_prefetch(const locmap *m, uint32_t addr)
{
    const block *b = locmap_header(m, addr);
    const void *data = b ? b->data : NULL;
    if (!data) return;
    uint32_t off = addr & (m->block_size - 1), index = off >> m->grain_shift;
    /* read prefetches: a write hint (rw 1) compiles to nothing without PREFETCHW */
    if (locmap_dense(b)) {
        __builtin_prefetch(&locmap_dense_locs(m, b)[index]);
        __builtin_prefetch((const uint64_t *)data + (off >> 6));
    } else {
        __builtin_prefetch(&((const sloc *)data)[locmap_slot_of(index, locmap_cap(b))]);
    }
}

/* ---- reading the state (usage, final sharing, tests) ---- */

/* Access counts of a location (from its count field or the overflow table). */
void locmap_counts(const locmap *m, const loc *l, uint32_t addr, uint64_t *data, uint64_t *code);

/* Slots of a block: its locations (dense) or table slots (sparse). */
static inline uint32_t locmap_slots(const locmap *m, const block *b)
{
    return locmap_dense(b) ? m->nlocs : locmap_cap(b);
}

/* Slot i of block b: the record, or NULL for a free sparse slot; *index is
 * the location's index in the block and *data, *code its touched bytes (bit
 * k: byte k of the location). Locations never touched nor accessed have
 * owner LOC_NONE and no touched bits. */
static inline const loc *locmap_slot(const locmap *m, const block *b, uint32_t i, uint32_t *index,
                                     uint64_t *data, uint64_t *code)
{
    if (!locmap_dense(b)) {
        const sloc *e = &((const sloc *)b->data)[i];
        if (e->index == SLOC_EMPTY) return NULL;
        *index = e->index;
        *data = e->touched_data;
        *code = e->touched_code;
        return &e->l;
    }
    *index = i;
    uint32_t from = i << m->grain_shift, w = from >> 6, off = from & 63;
    uint64_t mask = m->grain == 64 ? ~0ull : (1ull << m->grain) - 1;
    *data = locmap_dense_touched(m, b, false)[w] >> off & mask;
    *code = locmap_dense_touched(m, b, true)[w] >> off & mask;
    return &locmap_dense_locs(m, b)[i];
}

/* Visit every block in ascending address order; base: its first address. */
void locmap_each(const locmap *m, void (*fn)(void *ctx, const block *b, uint32_t base), void *ctx);

/* Bytes of location state allocated (blocks, tables, overflow; for tests). */
uint64_t locmap_bytes(const locmap *m);

#endif
