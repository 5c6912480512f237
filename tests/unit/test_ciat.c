/* test_ciat.c — ciat's core pieces: the location map (ciat/locmap), reader
 * sets (ciat/reader_sets) and memory usage (ciat/usage), each against a plain
 * reference model written from the rules they implement, on random accesses;
 * the lock and marker figures (ciat/locks), event by event. */
#include "suites.h"
#include "../../ciat/locks.h"
#include "../../ciat/barriers.h"
#include "../../ciat/critpath.h"
#include "../../ciat/locmap.h"
#include "../../ciat/reader_sets.h"
#include "../../ciat/stats.h"
#include "../../ciat/usage.h"
#include "../../base/diag.h"

#include <stdio.h>
#include <string.h>

static uint64_t rng_state;
static uint32_t rnd(uint32_t k)         /* [0, k) */
{
    rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)((rng_state >> 33) % k);
}

/* ---- the reference model of the location map ----
 * Addresses come from three windows of 64 KiB (the last one ends at the top
 * of the address space, so spans are cut there); every byte, location, block
 * and page of a window has its own slot. */
enum { WIN = 64 << 10, NWIN = 3 };
static const uint32_t win_base[NWIN] = { 0x00010000u, 0x40000000u, 0xFFFF0000u };

typedef struct ref_loc {
    uint16_t owner, writer;
    uint32_t readers;
    uint64_t data, code;
} ref_loc;

typedef struct ref {
    uint32_t grain, block, page;
    uint8_t *touched;           /* per byte: 1 data, 2 code */
    ref_loc *locs;              /* per location */
    uint16_t *block_owner, *block_accessor;
    uint16_t *page_owner, *page_accessor;
} ref;

static size_t win_off(uint32_t addr)    /* the byte's slot; addr must lie in a window */
{
    for (int w = 0; w < NWIN; w++)
        if (addr - win_base[w] < WIN) return (size_t)w * WIN + (addr - win_base[w]);
    ck_abort_msg("address 0x%08x outside the windows", addr);
    return 0;
}

static void note(uint16_t *who, int t)
{
    if (*who != (uint16_t)t && *who != LOC_SHARED) *who = *who == LOC_NONE ? (uint16_t)t : LOC_SHARED;
}

static void ref_init(ref *r, uint32_t page, uint32_t grain)
{
    r->grain = grain;
    r->page = page;
    r->block = page < 4096 ? page : 4096;
    size_t bytes = (size_t)NWIN * WIN;
    r->touched = xcalloc(bytes, 1);
    r->locs = xcalloc(bytes / grain, sizeof *r->locs);
    for (size_t i = 0; i < bytes / grain; i++) r->locs[i] = (ref_loc){ LOC_NONE, LOC_NONE, 0, 0, 0 };
    r->block_owner = xmalloc(bytes / r->block * sizeof(uint16_t));
    r->block_accessor = xmalloc(bytes / r->block * sizeof(uint16_t));
    r->page_owner = xmalloc(bytes / page * sizeof(uint16_t));
    r->page_accessor = xmalloc(bytes / page * sizeof(uint16_t));
    memset(r->block_owner, 0xFF, bytes / r->block * sizeof(uint16_t));
    memset(r->block_accessor, 0xFF, bytes / r->block * sizeof(uint16_t));
    memset(r->page_owner, 0xFF, bytes / page * sizeof(uint16_t));
    memset(r->page_accessor, 0xFF, bytes / page * sizeof(uint16_t));
}

static void ref_free(ref *r)
{
    free(r->touched);
    free(r->locs);
    free(r->block_owner);
    free(r->block_accessor);
    free(r->page_owner);
    free(r->page_accessor);
}

/* Note that t accessed the location holding the byte at slot o. */
static ref_loc *ref_note(ref *r, size_t o, int t)
{
    note(&r->block_accessor[o / r->block], t);
    note(&r->page_accessor[o / r->page], t);
    ref_loc *l = &r->locs[o / r->grain];
    note(&l->owner, t);
    return l;
}

/* One access as ciat makes it: bytes touched (up to the top of the address
 * space), every location holding one of them (or, for zero bytes, addr)
 * accessed by t, the location of addr counted. */
static ref_loc *ref_access(ref *r, uint32_t addr, uint32_t size, bool code, int t)
{
    for (uint64_t a = addr; a < (uint64_t)addr + size && a <= UINT32_MAX; a++) {
        size_t o = win_off((uint32_t)a);
        r->touched[o] |= code ? 2 : 1;
        note(&r->block_owner[o / r->block], t);
        note(&r->page_owner[o / r->page], t);
        ref_note(r, o, t);
    }
    ref_loc *l = ref_note(r, win_off(addr), t);
    if (code) l->code++;
    else l->data++;
    return l;
}

/* A random address: mostly a few hot words, else anywhere in a window (but
 * 64 bytes from its end, unless the top of the address space ends it). */
static uint32_t random_addr(const uint32_t *hot, int nhot)
{
    int w = (int)rnd(NWIN);
    if (rnd(100) < 60) return hot[rnd((uint32_t)nhot)];
    return win_base[w] + rnd(w == NWIN - 1 ? WIN : WIN - 64);
}

static const unsigned sizes[] = { 0, 1, 2, 3, 4, 8, 16, 32, 64 };

/* locmap_each visits blocks in ascending order, each with the first address
 * of the block locmap_find gives for it. */
typedef struct each_check {
    const locmap *m;
    uint64_t next;              /* the least base the next block may have */
    uint32_t blocks;
} each_check;

static void check_each_block(void *ctx, const block *b, uint32_t base)
{
    each_check *e = ctx;
    ck_assert_uint_ge(base, e->next);
    ck_assert_uint_eq(base & (e->m->block_size - 1), 0);
    ck_assert_ptr_eq(locmap_find(e->m, base), b);
    ck_assert_ptr_eq(locmap_find(e->m, base + (e->m->block_size - 1)), b);
    e->next = (uint64_t)base + e->m->block_size;
    e->blocks++;
}

static void check_each(const locmap *m)
{
    each_check e = { m, 0, 0 };
    locmap_each(m, check_each_block, &e);
    ck_assert_uint_eq(e.blocks, m->nblocks);
}

/* Compare the map with the reference: every block, every location. */
static void check_map(const locmap *m, const ref *r)
{
    check_each(m);
    size_t bytes = (size_t)NWIN * WIN, nlocs = bytes / r->grain;
    uint8_t *seen = xcalloc(nlocs, 1);
    for (int w = 0; w < NWIN; w++)
        for (uint32_t off = 0; off < WIN; off += r->block) {
            uint32_t base = win_base[w] + off;
            const block *b = locmap_find(m, base);
            size_t bi = ((size_t)w * WIN + off) / r->block;
            if (!b) {
                for (uint32_t k = 0; k < r->block; k++)
                    ck_assert_int_eq(r->touched[(size_t)w * WIN + off + k], 0);
                ck_assert_int_eq(r->block_accessor[bi], LOC_NONE);
                continue;
            }
            ck_assert_int_eq(b->owner, r->block_owner[bi]);
            ck_assert_int_eq(b->accessor, r->block_accessor[bi]);
            for (uint32_t i = 0; i < locmap_slots(m, b); i++) {
                uint32_t index;
                uint64_t td, tc;
                const loc *l = locmap_slot(m, b, i, &index, &td, &tc);
                if (!l) continue;
                ck_assert_uint_lt(index, r->block / r->grain);
                size_t li = ((size_t)w * WIN + off) / r->grain + index;
                ck_assert_int_eq(seen[li], 0);
                seen[li] = 1;
                const ref_loc *e = &r->locs[li];
                ck_assert_int_eq(l->owner, e->owner);
                ck_assert_int_eq(l->writer, e->writer);
                ck_assert_uint_eq(l->readers, e->readers);
                uint64_t d, c;
                locmap_counts(m, l, base + index * r->grain, &d, &c);
                ck_assert_uint_eq(d, e->data);
                ck_assert_uint_eq(c, e->code);
                for (uint32_t k = 0; k < r->grain; k++) {
                    uint8_t f = r->touched[li * r->grain + k];
                    ck_assert_uint_eq(td >> k & 1, f & 1);
                    ck_assert_uint_eq(tc >> k & 1, f >> 1 & 1);
                }
            }
        }
    /* Every location touched or accessed was visited. */
    for (size_t li = 0; li < nlocs; li++) {
        if (seen[li]) continue;
        ck_assert_int_eq(r->locs[li].owner, LOC_NONE);
        for (uint32_t k = 0; k < r->grain; k++) ck_assert_int_eq(r->touched[li * r->grain + k], 0);
    }
    free(seen);
}

/* Memory usage from the reference, as usage_scan must compute it. */
static void check_usage(const locmap *m, const ref *r, const private_ranges *ranges)
{
    usage_totals want = { 0 }, got;
    size_t bytes = (size_t)NWIN * WIN;
    for (size_t p = 0; p < bytes / r->page; p++) {
        uint64_t touched = 0, data = 0, code = 0, shared = 0, da = 0, ca = 0, sda = 0, sca = 0;
        for (size_t o = p * r->page; o < (p + 1) * r->page; o++) {
            uint8_t f = r->touched[o];
            touched += f != 0;
            data += f & 1;
            code += f >> 1 & 1;
            shared += f != 0 && r->locs[o / r->grain].owner == LOC_SHARED;
        }
        for (size_t li = p * r->page / r->grain; li < (p + 1) * r->page / r->grain; li++) {
            da += r->locs[li].data;
            ca += r->locs[li].code;
            if (r->locs[li].owner == LOC_SHARED) {
                sda += r->locs[li].data;
                sca += r->locs[li].code;
            }
        }
        uint16_t owner = r->page_owner[p] != LOC_NONE ? r->page_owner[p] : r->page_accessor[p];
        if (owner == LOC_NONE) continue;        /* never made */
        uint32_t addr = win_base[p * r->page / WIN] + (uint32_t)(p * r->page % WIN);
        bool sh = owner == LOC_SHARED, rsh = sh || (ranges->n > 0 && !private_ranges_contain(ranges, addr));
        want.pages++;
        want.shared_pages += sh;
        want.range_shared_pages += rsh;
        want.touched_bytes += touched;
        want.data_bytes += data;
        want.code_bytes += code;
        want.shared_bytes += shared;
        want.data_accesses += da;
        want.code_accesses += ca;
        want.shared_data_accesses += sda;
        want.shared_code_accesses += sca;
        if (sh) {
            want.page_shared_bytes += touched;
            want.page_shared_data_accesses += da;
            want.page_shared_code_accesses += ca;
        }
        if (rsh) {
            want.range_shared_bytes += touched;
            want.range_shared_data_accesses += da;
            want.range_shared_code_accesses += ca;
        }
    }
    usage_scan(m, r->page, ranges, NULL, &got);
    ck_assert_mem_eq(&got, &want, sizeof want);
}

/* page size, grain, threads */
static const uint32_t map_cases[][3] = {
    { 4096, 4, 3 }, { 4096, 1, 2 }, { 4096, 2, 5 }, { 4096, 8, 4 }, { 4096, 16, 3 }, { 4096, 64, 2 },
    { 64, 4, 3 }, { 64, 1, 2 }, { 128, 8, 3 }, { 256, 2, 4 }, { 16384, 4, 3 }, { 8192, 32, 2 },
};

/* Random accesses through the paths ciat uses (the fast path first for data,
 * as on_mem does; the deferred counts of the fetch memo) against the model. */
START_TEST(locmap_random_against_reference)
{
    uint32_t page = map_cases[_i][0], grain = map_cases[_i][1];
    int threads = (int)map_cases[_i][2];
    rng_state = 1000u + (uint64_t)_i;
    locmap m;
    locmap_init(&m, page, grain, threads);
    ref r;
    ref_init(&r, page, grain);
    uint32_t hot[48];
    for (int i = 0; i < 48; i++) hot[i] = win_base[rnd(NWIN)] + rnd(WIN - 64);
    uint32_t last_fetch[8] = { 0 };
    uint64_t fast = 0, wide = 0;
    for (int step = 0; step < 30000; step++) {
        int t = (int)rnd((uint32_t)threads);
        uint32_t addr = random_addr(hot, 48);
        unsigned kind = rnd(10);
        if (kind == 0) {                        /* a fetch */
            addr &= ~3u;
            block *b = locmap_block(&m, addr, t);
            locmap_touch(&m, b, addr, 4, true, t);
            locmap_count_access(&m, b, locmap_loc(&m, b, addr), addr, true, t);
            locmap_note_covered(&m, b, addr, 4, true, t);
            ref_access(&r, addr, 4, true, t);
            last_fetch[t] = addr;
        } else if (kind == 1 && last_fetch[t]) {   /* the fetch memo's deferred repeats */
            uint32_t a = last_fetch[t], n = rnd(4) ? 1 + rnd(5) : 0x7FFFFFF0u;
            block *b = locmap_block(&m, a, t);
            locmap_count_add(&m, locmap_loc(&m, b, a), a, true, n);
            r.locs[win_off(a) / grain].code += n;
        } else {                                /* a data access */
            unsigned size = rnd(4) ? sizes[rnd(9)] : rnd(65);
            if (addr > UINT32_MAX - 64 && rnd(2)) addr = UINT32_MAX - rnd(8);   /* spans cut at the top */
            locmap_hit h;
            loc *l = locmap_fast_data(&m, addr, size, t, &h);
            /* the fast path needs every location covered noted already */
            for (uint32_t i = 1; l && i < locmap_locs_covered(&m, addr, size); i++)
                if (!locmap_noted(l + i, t)) l = NULL;
            if (l) {
                locmap_fast_commit(&h, l);
                fast++;
                wide += locmap_locs_covered(&m, addr, size) > 1;
            } else {
                block *b = locmap_block(&m, addr, t);
                if (size) locmap_touch(&m, b, addr, size, false, t);
                l = locmap_loc(&m, b, addr);
                locmap_count_access(&m, b, l, addr, false, t);
                locmap_note_covered(&m, b, addr, size, false, t);
                l = locmap_loc(&m, b, addr);    /* the notes may have moved records */
                if (size) locmap_cache_note(&m, b, addr, t);
            }
            ref_loc *e = ref_access(&r, addr, size, false, t);
            if (kind == 2) {                    /* a store: the record's other fields move with it */
                l->writer = e->writer = (uint16_t)t;
                l->readers = e->readers = rnd(1000);
            }
        }
    }
    if (FAST_PATHS) ck_assert_uint_gt(fast, 100);              /* the fast path was taken */
    if (FAST_PATHS && grain < 64) ck_assert_uint_gt(wide, 10);   /* also by accesses covering several locations */
    check_map(&m, &r);
    private_ranges none = { 0 };
    check_usage(&m, &r, &none);
    addr_range one = { 0x40000000u, 0x7FFFFFFFu };
    private_ranges hpux = { &one, 1 };
    check_usage(&m, &r, &hpux);
    locmap_free(&m);
    ref_free(&r);
}
END_TEST

/* Memory follows the locations touched: one word in each of 4096 pages costs
 * a small table each, not a block of records for the whole page; a page used
 * throughout is dense and costs no more than the dense form. */
START_TEST(locmap_memory_follows_locations)
{
    locmap m;
    locmap_init(&m, 4096, 4, 1);
    for (uint32_t p = 0; p < 4096; p++) {
        uint32_t addr = 0x10000000u + p * 4096 + (p * 52 % 4096 & ~3u);
        block *b = locmap_block(&m, addr, 0);
        locmap_touch(&m, b, addr, 4, false, 0);
        locmap_count_access(&m, b, locmap_loc(&m, b, addr), addr, false, 0);
    }
    /* 4 leaves of the radix table (1024 headers each) and a 4-entry table a page */
    uint64_t bound = 4 * 1024 * sizeof(block) + 4096 * 4 * sizeof(sloc);
    ck_assert_uint_le(locmap_bytes(&m), bound);
    ck_assert_uint_eq(m.ndense, 0);
    for (uint32_t a = 0x20000000u; a < 0x20001000u; a += 4) {
        block *b = locmap_block(&m, a, 0);
        locmap_touch(&m, b, a, 4, false, 0);
        locmap_count_access(&m, b, locmap_loc(&m, b, a), a, false, 0);
    }
    ck_assert(locmap_dense(locmap_find(&m, 0x20000000u)));
    ck_assert_uint_le(locmap_bytes(&m), bound + 1024 * sizeof(block) + m.dense_bytes);
    ck_assert_uint_eq(m.ndense, 1);
    locmap_free(&m);
}
END_TEST

/* A digest of the whole map: every block's header and data, the per-thread
 * block caches, the counts of blocks and bytes. */
static void digest_block(void *ctx, const block *b, uint32_t base)
{
    uint64_t *h = ctx;
    const locmap *m = (const locmap *)h[1];
    size_t n = locmap_dense(b) ? m->dense_bytes : locmap_cap(b) * sizeof(sloc);
    const unsigned char *p = b->data;
    h[0] = h[0] * 31 + base + ((uint64_t)b->owner << 32) + ((uint64_t)b->accessor << 48) + b->cap_shift +
           ((uint64_t)b->used << 4) + ((uint64_t)b->uses << 18);
    for (size_t i = 0; i < n; i++) h[0] = h[0] * 1099511628211ull + p[i];
}

static uint64_t map_digest(const locmap *m)
{
    uint64_t h[2] = { 14695981039346656037ull, (uint64_t)(uintptr_t)m };
    locmap_each(m, digest_block, h);
    const unsigned char *c = (const unsigned char *)m->cache;
    for (size_t i = 0; i < (size_t)m->nthreads * LOCMAP_CACHE * sizeof *m->cache; i++)
        h[0] = h[0] * 1099511628211ull + c[i];
    return h[0] ^ m->nblocks * 3 ^ m->ndense * 5 ^ locmap_bytes(m) * 7;
}

/* The prefetches a scheduler look-ahead may issue K records ahead change
 * nothing: addresses of dense and sparse blocks, of headers whose block is
 * not made, of 4 MiB regions never touched, anywhere in the address space
 * (ASan checks that they read only what the map owns). */
START_TEST(locmap_prefetch_is_harmless)
{
    rng_state = 77;
    locmap m;
    locmap_init(&m, 4096, 4, 2);
    for (uint32_t a = 0x20000000u; a < 0x20002000u; a += 4) {     /* dense blocks */
        block *b = locmap_block(&m, a, 0);
        locmap_touch(&m, b, a, 4, false, 0);
        locmap_count_access(&m, b, locmap_loc(&m, b, a), a, false, 0);
    }
    for (uint32_t p = 0; p < 64; p++) {                             /* sparse blocks */
        uint32_t a = 0x30000000u + p * 8192 + 4 * rnd(1024);
        block *b = locmap_block(&m, a, 1);
        locmap_touch(&m, b, a, 2, false, 1);
        locmap_count_access(&m, b, locmap_loc(&m, b, a), a, false, 1);
    }
    ck_assert_uint_gt(m.ndense, 0);
    ck_assert_uint_gt(m.nblocks, m.ndense);
    uint64_t before = map_digest(&m);
    for (int i = 0; i < 200000; i++) {
        uint32_t a = i % 4 == 0 ? rnd(UINT32_MAX) : i % 4 == 1 ? 0x20000000u + rnd(0x4000)
                   : 0x30000000u + rnd(1u << 20);
        locmap_prefetch_block(&m, a);
        locmap_prefetch(&m, a);
    }
    locmap_prefetch(&m, UINT32_MAX);
    locmap_prefetch(&m, 0);
    ck_assert_uint_eq(map_digest(&m), before);
    locmap_free(&m);
}
END_TEST

/* The block header (16 bytes) holds its fields' largest values: a table of
 * 2048 slots, used and uses up to the 4096 locations of a block with grain 1;
 * the switch to dense keeps the owner, accessor and used, and every record
 * and touched bit. */
START_TEST(locmap_header_limits)
{
    ck_assert_uint_eq(sizeof(block), 16);
    locmap m;
    locmap_init(&m, 4096, 1, 3);
    uint32_t base = 0x5000u;
    block *b = locmap_block(&m, base, 0);
    /* 1536 bytes touched, none accessed: the table grows to 2048 slots, 3/4 full */
    for (uint32_t i = 0; i < 1536; i++) locmap_touch(&m, b, base + 2 * i, 1, i & 1, (int)(i & 1));
    ck_assert(!locmap_dense(b));
    ck_assert_uint_eq(locmap_cap(b), 2048);
    ck_assert_uint_eq(locmap_slots(&m, b), 2048);
    ck_assert_uint_eq(b->used, 1536);
    ck_assert_uint_eq(b->uses, 0);
    ck_assert_int_eq(b->owner, LOC_SHARED);
    ck_assert_int_eq(b->accessor, LOC_NONE);
    for (uint32_t i = 0; i < 5; i++) {
        uint32_t a = base + 20 * i;
        locmap_count_access(&m, b, locmap_loc(&m, b, a), a, false, 2);
    }
    locmap_loc(&m, b, base + 40)->writer = 1;
    locmap_loc(&m, b, base + 40)->readers = 77;
    ck_assert_uint_eq(b->uses, 7);
    ck_assert_int_eq(b->accessor, 2);
    ck_assert(!locmap_dense(b));
    /* one more: dense */
    locmap_touch(&m, b, base + 3073, 1, false, 1);
    ck_assert(locmap_dense(b));
    ck_assert_uint_eq(locmap_slots(&m, b), 4096);
    ck_assert_uint_eq(b->used, 1536);
    ck_assert_uint_eq(b->uses, 0);
    ck_assert_int_eq(b->owner, LOC_SHARED);
    ck_assert_int_eq(b->accessor, 2);
    for (uint32_t i = 0; i < 4096; i++) {
        uint32_t index;
        uint64_t td, tc, d, c;
        const loc *l = locmap_slot(&m, b, i, &index, &td, &tc);
        ck_assert_uint_eq(index, i);
        bool even = i % 2 == 0 && i < 3072, counted = i % 20 == 0 && i < 100;
        ck_assert_uint_eq(td, (even && i % 4 == 0) || i == 3073);
        ck_assert_uint_eq(tc, even && i % 4 == 2);
        ck_assert_int_eq(l->owner, counted ? 2 : LOC_NONE);
        ck_assert_int_eq(l->writer, i == 40 ? 1 : LOC_NONE);
        ck_assert_uint_eq(l->readers, i == 40 ? 77 : 0);
        locmap_counts(&m, l, base + i, &d, &c);
        ck_assert_uint_eq(d, counted);
        ck_assert_uint_eq(c, 0);
    }

    /* a sparse block accessed 4095 times stays sparse; the 4096th makes it dense */
    base = 0x9000u;
    b = locmap_block(&m, base, 1);
    for (uint32_t i = 0; i < 4095; i++)
        locmap_count_access(&m, b, locmap_loc(&m, b, base + 7), base + 7, false, 1);
    ck_assert(!locmap_dense(b));
    ck_assert_uint_eq(b->uses, 4095);
    ck_assert_uint_eq(b->used, 1);
    locmap_count_access(&m, b, locmap_loc(&m, b, base + 7), base + 7, false, 1);
    ck_assert(locmap_dense(b));
    ck_assert_uint_eq(b->used, 1);
    ck_assert_uint_eq(locmap_loc(&m, b, base + 7)->count, 4096);

    /* every location accessed: used 4096, and the block above starts dense */
    base = 0xC000u;
    for (uint32_t a = base; a < base + 4096; a++) {
        b = locmap_block(&m, a, 0);
        locmap_count_access(&m, b, locmap_loc(&m, b, a), a, false, 0);
    }
    ck_assert(locmap_dense(b));
    ck_assert_uint_eq(b->used, 4096);
    ck_assert(locmap_dense(locmap_block(&m, base + 4096, 0)));
    ck_assert(!locmap_dense(locmap_block(&m, 0x20000u, 0)));
    locmap_free(&m);
}
END_TEST

/* Blocks at address 0 and at the top of the address space: found, visited
 * with their first addresses, their locations counted at the right address
 * (the header keeps no address: the radix table's position gives it). */
static void collect_bases(void *ctx, const block *b, uint32_t base)
{
    (void)b;
    uint32_t *v = ctx;
    v[1 + v[0]++] = base;
}

static const uint32_t end_pages[] = { 64, 4096, 16384 };

START_TEST(locmap_blocks_at_the_ends)
{
    locmap m;
    locmap_init(&m, end_pages[_i], 4, 2);
    uint32_t top = (uint32_t)(0x100000000ull - m.block_size);
    block *lo = locmap_block(&m, 0, 0);
    locmap_touch(&m, lo, 0, 4, false, 0);
    locmap_count_access(&m, lo, locmap_loc(&m, lo, 0), 0, false, 0);
    block *hi = locmap_block(&m, UINT32_MAX - 3, 1);
    locmap_touch(&m, hi, UINT32_MAX - 3, 8, false, 1);   /* cut at the top */
    locmap_count_access(&m, hi, locmap_loc(&m, hi, UINT32_MAX - 3), UINT32_MAX - 3, false, 1);
    locmap_count_access(&m, hi, locmap_loc(&m, hi, UINT32_MAX), UINT32_MAX, false, 0);
    ck_assert_ptr_ne(lo, hi);
    ck_assert_ptr_eq(locmap_find(&m, 0), lo);
    ck_assert_ptr_eq(locmap_find(&m, m.block_size - 1), lo);
    ck_assert_ptr_eq(locmap_find(&m, top), hi);
    ck_assert_ptr_null(locmap_find(&m, m.block_size));
    ck_assert_ptr_null(locmap_find(&m, top - 1));
    ck_assert_int_eq(lo->owner, 0);
    ck_assert_int_eq(hi->owner, 1);
    ck_assert_int_eq(hi->accessor, LOC_SHARED);
    uint32_t v[4] = { 0 };
    locmap_each(&m, collect_bases, v);
    ck_assert_uint_eq(v[0], 2);
    ck_assert_uint_eq(v[1], 0);
    ck_assert_uint_eq(v[2], top);
    check_each(&m);
    uint64_t d, c;
    const loc *l = locmap_loc(&m, hi, UINT32_MAX);
    ck_assert_int_eq(l->owner, LOC_SHARED);
    locmap_counts(&m, l, UINT32_MAX, &d, &c);
    ck_assert_uint_eq(d, 2);
    usage_totals u;
    private_ranges none = { 0 };
    usage_scan(&m, end_pages[_i], &none, NULL, &u);
    ck_assert_uint_eq(u.pages, 2);
    ck_assert_uint_eq(u.touched_bytes, 8);
    ck_assert_uint_eq(u.data_accesses, 3);
    ck_assert_uint_eq(u.shared_data_accesses, 2);
    locmap_free(&m);
}
END_TEST

/* Counts past 31 bits and locations used as data and code move to the
 * overflow table and come back whole. */
START_TEST(locmap_spilled_counts)
{
    locmap m;
    locmap_init(&m, 4096, 4, 2);
    uint32_t a = 0x1000u;
    block *b = locmap_block(&m, a, 0);
    locmap_count_access(&m, b, locmap_loc(&m, b, a), a, true, 0);
    locmap_count_add(&m, locmap_loc(&m, b, a), a, true, COUNT_MAX);
    locmap_count_access(&m, b, locmap_loc(&m, b, a), a, false, 1);
    uint64_t d, c;
    locmap_counts(&m, locmap_loc(&m, b, a), a, &d, &c);
    ck_assert_uint_eq(c, 1ull + COUNT_MAX);
    ck_assert_uint_eq(d, 1);
    ck_assert_int_eq(locmap_loc(&m, b, a)->owner, LOC_SHARED);
    locmap_free(&m);
}
END_TEST

/* ---- reader sets ---- */

static const int rs_threads[] = { 1, 2, 63, 64, 65, 256, 300 };

START_TEST(reader_sets_random_against_reference)
{
    int n = rs_threads[_i], words = (n + 63) / 64;
    enum { LOCS = 300 };
    rng_state = 77u + (uint64_t)_i;
    reader_sets rs;
    rs_init(&rs, n);
    uint32_t id[LOCS] = { 0 };
    uint64_t *want = xcalloc((size_t)LOCS * (size_t)words, sizeof *want);
    for (int step = 0; step < 40000; step++) {
        int i = (int)rnd(LOCS);
        uint64_t *w = want + (size_t)i * (size_t)words;
        if (rnd(8) == 0) {                      /* a store empties the set */
            rs_release(&rs, id[i]);
            id[i] = 0;
            memset(w, 0, (size_t)words * sizeof *w);
            continue;
        }
        /* few threads usually, so sets repeat and get shared */
        int t = (int)rnd(rnd(4) ? (uint32_t)(n < 6 ? n : 6) : (uint32_t)n);
        bool in = w[t >> 6] >> (t & 63) & 1;
        ck_assert_int_eq(rs_contains(&rs, id[i], t), in);
        if (in) continue;
        id[i] = rs_add(&rs, id[i], t);
        w[t >> 6] |= 1ull << (t & 63);
        if (step % 997 == 0) {                   /* the whole state, now and then */
            uint32_t live = 0;
            for (int a = 0; a < LOCS; a++) {
                const uint64_t *wa = want + (size_t)a * (size_t)words;
                uint32_t size = 0;
                for (int k = 0; k < words; k++) size += (uint32_t)__builtin_popcountll(wa[k]);
                ck_assert_uint_eq(rs_size(&rs, id[a]), size);
                for (int u = 0; u < n; u++) ck_assert_int_eq(rs_contains(&rs, id[a], u), wa[u >> 6] >> (u & 63) & 1);
                bool first = size >= 2;
                for (int b = 0; b < a; b++) {   /* equal members, equal id (interned) */
                    bool same = memcmp(wa, want + (size_t)b * (size_t)words, (size_t)words * sizeof *wa) == 0;
                    if (size >= 2) ck_assert_int_eq(id[a] == id[b], same);
                    if (same && size >= 2) first = false;
                }
                live += first;
            }
            ck_assert_uint_eq(rs_live(&rs), live);
        }
    }
    for (int i = 0; i < LOCS; i++) rs_release(&rs, id[i]);
    ck_assert_uint_eq(rs_live(&rs), 0);
    free(want);
    rs_free(&rs);
}
END_TEST

/* ---- statistics: the classes of the instruction mix ---- */

START_TEST(stats_classes)
{
    /* loads: byte half word long float double other; stores: zero byte half
     * three word long float double other (long: 8-byte fixed point) */
    ck_assert_int_eq(ciat_stats_load_class(1, SMAIT_REG_FIXED), 0);
    ck_assert_int_eq(ciat_stats_load_class(2, SMAIT_REG_FIXED), 1);
    ck_assert_int_eq(ciat_stats_load_class(4, SMAIT_REG_FIXED), 2);
    ck_assert_int_eq(ciat_stats_load_class(8, SMAIT_REG_FIXED), 3);
    ck_assert_int_eq(ciat_stats_load_class(4, SMAIT_REG_FLOAT), 4);
    ck_assert_int_eq(ciat_stats_load_class(8, SMAIT_REG_FLOAT), 5);
    ck_assert_int_eq(ciat_stats_load_class(9, SMAIT_REG_FIXED), 6);
    ck_assert_int_eq(ciat_stats_store_class(0, SMAIT_REG_FIXED), 0);
    ck_assert_int_eq(ciat_stats_store_class(3, SMAIT_REG_FIXED), 3);
    ck_assert_int_eq(ciat_stats_store_class(8, SMAIT_REG_FIXED), 5);
    ck_assert_int_eq(ciat_stats_store_class(8, SMAIT_REG_FLOAT), 7);
    thread_stats a = { 0 }, b = { 0 };
    ck_assert(!ciat_stats_any(&a));
    degree_add(&a.sharing, 5, 2);
    ciat_stats_call(&a, SMAIT_CT_READ, 10, 30, 100);
    ciat_stats_add(&b, &a);
    ciat_stats_add(&b, &a);
    ck_assert(ciat_stats_any(&b));
    ck_assert_uint_eq(b.sharing.n[5], 4);
    ck_assert_uint_eq(b.calls[SMAIT_CT_READ].count, 2);
    ck_assert_uint_eq(b.calls[SMAIT_CT_READ].bytes, 200);
    ciat_stats_clear(&b);
    ck_assert(!ciat_stats_any(&b));
    /* L01's totals are the class sums; an atomic access is one access, a load and a store */
    thread_stats c = { 0 };
    c.load_class[0] = 3;
    c.load_class[6] = 4;
    c.store_class[8] = 5;
    c.atomics = 2;
    ck_assert(ciat_stats_any(&c));
    ck_assert_uint_eq(stats_loads(&c), 7);
    ck_assert_uint_eq(stats_stores(&c), 5);
    ck_assert_uint_eq(stats_mem(&c), 10);
    ciat_stats_free(&a);
    ciat_stats_free(&b);
}
END_TEST

/* ---- ciat/locks: the rules of docs/ciat-report.md, L52-L56, L61-L62, event by event ---- */

/* A call record of type `type` (times start, end; arguments a1..a3). */
static void call_rec(smait_raw *r, unsigned type, uint32_t start, uint32_t end, uint32_t a1, uint32_t a2, uint32_t a3)
{
    uint32_t v[SMAIT_CALL_PARTS] = { start, end, a1, a2, a3, 0 };
    for (unsigned k = 0; k < SMAIT_CALL_PARTS; k++) r[k] = (smait_raw){ 0x1000u | type << 4 | k, v[k] };
}

static void feed(locks *l, int t, uint64_t clock, unsigned type, uint32_t start, uint32_t end, uint32_t a1,
                 uint32_t a2, uint32_t a3)
{
    smait_raw r[SMAIT_CALL_PARTS];
    call_rec(r, type, start, end, a1, a2, a3);
    locks_call(l, t, clock, r);
}

typedef struct captured {
    char text[8192];
    size_t n;
} captured;

static void capture(void *ctx, int ll, const char *name, const char *text)
{
    captured *c = ctx;
    c->n += (size_t)snprintf(c->text + c->n, sizeof c->text - c->n, "L%d %s %s\n", ll, name, text);
}

START_TEST(locks_buckets)
{
    ck_assert_uint_eq(locks_bucket(0), 0);
    ck_assert_uint_eq(locks_bucket(1), 1);
    ck_assert_uint_eq(locks_bucket(2), 2);
    ck_assert_uint_eq(locks_bucket(3), 2);
    ck_assert_uint_eq(locks_bucket(4), 3);
    ck_assert_uint_eq(locks_bucket(7), 3);
    ck_assert_uint_eq(locks_bucket((uint64_t)1 << 63), 64);
    ck_assert_uint_eq(locks_bucket(UINT64_MAX), 64);
}
END_TEST

/* T0 takes 0x10 at 5; T1 asks at 6 and stops; T0 lets go at 9, T1 resumes
 * there (idle 3) and lets go at 12; T0 takes 0x20 at 20 inside 0x10's second
 * hold (taken at 15), stops at a barrier (no wait of 0x20), lets both go.
 * A semaphore's acquire and stop count for no lock; a release of a lock
 * never taken makes no entry; recorded times wrap modulo 2^32. */
START_TEST(locks_events)
{
    locks *l = locks_new(2, 10, true);
    feed(l, 0, 5, SMAIT_CT_BEGIN_CRITICAL, 100, 100, 0x10, 0, 1);
    feed(l, 1, 6, SMAIT_CT_BEGIN_CRITICAL, 100, 103, 0x10, 0, 1);
    locks_stop(l, 1, WAIT_CRITICAL);
    feed(l, 0, 9, SMAIT_CT_END_CRITICAL, 110, 110, 0x10, 0, 1);
    locks_resume(l, 1, 9, 3);
    feed(l, 1, 12, SMAIT_CT_END_CRITICAL, 120, 120, 0x10, 0, 1);
    feed(l, 0, 15, SMAIT_CT_BEGIN_CRITICAL, 0xFFFFFFF0u, 0xFFFFFFF0u, 0x10, 0, 1);
    feed(l, 0, 20, SMAIT_CT_ACQUIRE, 5, 5, 0x20, 0, 3);
    locks_stop(l, 0, WAIT_BARRIER);
    locks_resume(l, 0, 25, 5);
    feed(l, 0, 30, SMAIT_CT_RELEASE, 6, 6, 0x20, 1, 3);
    feed(l, 0, 31, SMAIT_CT_END_CRITICAL, 0x10, 0x10, 0x10, 0, 1);   /* 0x10 - 0xFFFFFFF0 = 0x20 us */
    feed(l, 1, 40, SMAIT_CT_ACQUIRE, 0, 9, 0x30, 1, 5);               /* a semaphore */
    locks_stop(l, 1, WAIT_ACQUIRE);
    locks_resume(l, 1, 44, 4);
    feed(l, 1, 45, SMAIT_CT_END_CRITICAL, 0, 0, 0x40, 0, 0);           /* never taken */
    feed(l, 1, 50, SMAIT_CT_MARKER, 1000, 1000, 0, 7, 0);
    feed(l, 1, 58, SMAIT_CT_MARKER, 1010, 1010, 0, 7, 0);
    captured c = { .n = 0 };
    locks_lines(l, NULL, capture, &c);
    /* hand-derived: 0x10 held 9 - 5 = 4, 12 - 9 = 3 (from T1's resume), 31 - 15 = 16
     * cycles; 110 - 100 = 10, 120 - 103 = 17 and 0x10 - 0xFFFFFFF0 = 32 us; T1's
     * begin took 3 us. 0x20 held 30 - 20 = 10 cycles, 6 - 5 = 1 us; the barrier's
     * stop is no wait. Markers 7 and 7 of T1: 58 - 50 = 8 cycles, 10 us. */
    const char *want =
        "L52 lock rank 1 addr 0x00000010 space critical lock_kind mutex kind address name 0x00000010 where -"
        " acquisitions 3 contended 1 contended_recorded 1 handoffs 2 waits 1 wait_cycles 3 wait_max 3 holds 3"
        " hold_cycles 23 hold_max 16 wait_us 3 hold_us 59 hold_us_max 32\n"
        "L52 lock rank 2 addr 0x00000020 space object lock_kind rwlock kind address name 0x00000020 where -"
        " acquisitions 1 contended 0 contended_recorded 0 handoffs 0 waits 0 wait_cycles 0 wait_max 0 holds 1"
        " hold_cycles 10 hold_max 10 wait_us 0 hold_us 1 hold_us_max 1\n"
        "L53 lock_wait_hist rank 1 addr 0x00000010 space critical 2-3:1\n"
        "L53 lock_wait_hist rank 2 addr 0x00000020 space object\n"
        "L54 lock_hold_hist rank 1 addr 0x00000010 space critical 2-3:1 4-7:1 16-31:1\n"
        "L54 lock_hold_hist rank 2 addr 0x00000020 space object 8-15:1\n"
        "L55 lock_nesting rank 1 outer 0x00000010 outer_space critical inner 0x00000020 inner_space object count 1\n"
        "L56 interval from 7 to 7 count 1 cycles 8 mean_cycles 8.0000 min_cycles 8 max_cycles 8 us 10"
        " mean_us 10.0000 min_us 10 max_us 10\n";
    if (strcmp(c.text, want) != 0) fprintf(stderr, "locks_events: got\n%swanted\n%s", c.text, want);
    ck_assert(strcmp(c.text, want) == 0);
    locks_free(l);
}
END_TEST

/* L61, L62: a site is the first fetch after the call (locks_site); none
 * before the thread's next call: unknown. T0 takes 0x10 at 1 (site 0x100),
 * lets it go at 3 and takes 0x20 (site 0x200), lets that go at 4 and takes
 * 0x10 again at 5 with no fetch before its release at 6 (unknown). T1 asks
 * for 0x10 at 2, stops, resumes at 3 (idle 1) and fetches 0x100: one row
 * with T0's first, 2 acquisitions. Follows: T0 0x10 -> 0x20 -> 0x10; T1
 * took one lock. */
START_TEST(locks_sites_events)
{
    locks *l = locks_new(2, 10, false);
    feed(l, 0, 1, SMAIT_CT_BEGIN_CRITICAL, 0, 0, 0x10, 0, 1);
    locks_site(l, 0, 0x100);
    feed(l, 1, 2, SMAIT_CT_BEGIN_CRITICAL, 0, 0, 0x10, 0, 1);
    locks_stop(l, 1, WAIT_CRITICAL);
    feed(l, 0, 3, SMAIT_CT_END_CRITICAL, 0, 0, 0x10, 0, 1);
    locks_resume(l, 1, 3, 1);
    locks_site(l, 1, 0x100);
    locks_site(l, 1, 0x104);                                    /* not the first fetch: nothing */
    feed(l, 0, 3, SMAIT_CT_BEGIN_CRITICAL, 0, 0, 0x20, 0, 1);
    locks_site(l, 0, 0x200);
    feed(l, 0, 4, SMAIT_CT_END_CRITICAL, 0, 0, 0x20, 0, 1);
    feed(l, 1, 4, SMAIT_CT_END_CRITICAL, 0, 0, 0x10, 0, 1);
    feed(l, 0, 5, SMAIT_CT_BEGIN_CRITICAL, 0, 0, 0x10, 0, 1);
    feed(l, 0, 6, SMAIT_CT_END_CRITICAL, 0, 0, 0x10, 0, 1);
    captured c = { .n = 0 };
    locks_more_lines(l, NULL, capture, &c);
    const char *want =
        "L61 lock_site rank 1 addr 0x00000010 space critical site 1 pc 0x00000100 kind address name 0x00000100"
        " where - acquisitions 2 contended 1 wait_cycles 1\n"
        "L61 lock_site rank 1 addr 0x00000010 space critical site 2 pc - kind address name unknown where -"
        " acquisitions 1 contended 0 wait_cycles 0\n"
        "L61 lock_site rank 2 addr 0x00000020 space critical site 1 pc 0x00000200 kind address name 0x00000200"
        " where - acquisitions 1 contended 0 wait_cycles 0\n"
        "L62 lock_follows rank 1 from 0x00000010 from_space critical to 0x00000020 to_space critical count 1\n"
        "L62 lock_follows rank 2 from 0x00000020 from_space critical to 0x00000010 to_space critical count 1\n";
    if (strcmp(c.text, want) != 0) fprintf(stderr, "locks_sites_events: got\n%swanted\n%s", c.text, want);
    ck_assert(strcmp(c.text, want) == 0);
    locks_free(l);
}
END_TEST

/* ---- ciat/barriers: the rules of docs/ciat-report.md, L57-L58, event by event ---- */

static void bfeed(barriers *b, int t, uint64_t clock, unsigned type, uint32_t start, uint32_t a1)
{
    smait_raw r[SMAIT_CALL_PARTS];
    call_rec(r, type, start, start, a1, 0, 0);
    barriers_call(b, t, clock, r);
}

/* Barrier 0x40: T1 arrives at 10 (start 0xFFFFFFFE us), T0 at 14 (start 3:
 * 5 us later modulo 2^32), T2 at 20 (start 1); all resume (idle 10, 6, 0).
 * Then T2 at 30, T0 at 31, T1 at 33 (all start 50): idle 3, 2, 0 (T1 last).
 * A lock stop after a barrier call, or a barrier stop after another call,
 * makes no arrival; a resume without a barrier stop no wait. Barrier 0x80:
 * T0 alone (a serial phase) at 40, released at once. */
START_TEST(barriers_events)
{
    barriers *b = barriers_new(3, 10);
    bfeed(b, 1, 10, SMAIT_CT_BARRIER, 0xFFFFFFFEu, 0x40);
    barriers_stop(b, 1, WAIT_BARRIER);
    bfeed(b, 0, 14, SMAIT_CT_BARRIER, 3, 0x40);
    barriers_stop(b, 0, WAIT_BARRIER);
    bfeed(b, 2, 20, SMAIT_CT_BARRIER, 1, 0x40);
    barriers_stop(b, 2, WAIT_BARRIER);
    barriers_resume(b, 0, 6);
    barriers_resume(b, 1, 10);
    barriers_resume(b, 2, 0);
    bfeed(b, 2, 30, SMAIT_CT_BARRIER, 50, 0x40);
    barriers_stop(b, 2, WAIT_BARRIER);
    bfeed(b, 0, 31, SMAIT_CT_BARRIER, 50, 0x40);
    barriers_stop(b, 0, WAIT_BARRIER);
    bfeed(b, 1, 32, SMAIT_CT_BEGIN_CRITICAL, 50, 0x99);
    barriers_stop(b, 1, WAIT_CRITICAL);               /* no arrival */
    barriers_resume(b, 1, 7);                         /* no barrier wait */
    bfeed(b, 1, 33, SMAIT_CT_BARRIER, 50, 0x40);
    barriers_stop(b, 1, WAIT_BARRIER);
    barriers_resume(b, 0, 2);
    barriers_resume(b, 1, 0);
    barriers_resume(b, 2, 3);
    bfeed(b, 0, 40, SMAIT_CT_BARRIER, 60, 0x80);
    barriers_stop(b, 0, WAIT_BARRIER);
    barriers_resume(b, 0, 0);
    captured c = { .n = 0 };
    barriers_lines(b, NULL, capture, &c);
    /* hand-derived: 0x40 episode 1 spread 20 - 10 = 10 cycles, recorded
     * starts relative to the first (T1's, 2^32 - 2): 0, 5, 3 modulo 2^32:
     * 5 us; T2 last. Episode 2 spread 33 - 30 = 3, 0 us; T1 last. Waits
     * 6 + 10 + 0 + 2 + 0 + 3 = 21, max 10; spreads max 10, mean 6.5; us
     * max 5, mean 2.5; last T1 and T2 once each: T1. 0x80: one arrival. */
    const char *want =
        "L57 barrier rank 1 addr 0x00000040 kind address name 0x00000040 where - episodes 2 arrivals 6"
        " wait_cycles 21 wait_max 10 spread_max 10 spread_mean 6.5000 spread_us_max 5 spread_us_mean 2.5000"
        " last_thread 1 last_count 1\n"
        "L57 barrier rank 2 addr 0x00000080 kind address name 0x00000080 where - episodes 1 arrivals 1"
        " wait_cycles 0 wait_max 0 spread_max 0 spread_mean 0.0000 spread_us_max 0 spread_us_mean 0.0000"
        " last_thread 0 last_count 1\n"
        "L58 barrier_thread thread 0 arrivals 3 wait_cycles 8 wait_max 6 arrived_last 1\n"
        "L58 barrier_thread thread 1 arrivals 2 wait_cycles 10 wait_max 10 arrived_last 1\n"
        "L58 barrier_thread thread 2 arrivals 2 wait_cycles 3 wait_max 3 arrived_last 1\n";
    if (strcmp(c.text, want) != 0) fprintf(stderr, "barriers_events: got\n%swanted\n%s", c.text, want);
    ck_assert(strcmp(c.text, want) == 0);
    barriers_free(b);
}
END_TEST

/* ---- ciat/critpath: the rules of docs/ciat-report.md, L59-L60, L63, event by event ---- */

static void cfeed(critpath *p, int t, uint64_t clock, unsigned type, uint32_t a1, uint32_t a2)
{
    smait_raw r[SMAIT_CALL_PARTS];
    call_rec(r, type, 0, 0, a1, a2, 5);
    critpath_call(p, t, clock, r);
}

static void phase(critpath *p, sched_phase_cause by, sched_phase_kind kind, int active, uint64_t start)
{
    sched_phase ph = { .number = 1, .kind = kind, .by = by, .active = active, .start_clock = start };
    critpath_phase_begin(p, &ph);
}

/* Serial: T0 runs 3 + 2 instructions to its spawn at 5 (a marker at 3
 * makes a phase without clock synchronisation). Region: T1 starts at 5
 * with T0's 5 (spawn). T0 releases object 0x70 at 9 (chain 9); T1 acquires
 * it at 7 (chain 5 + 2 = 7 < 9: 9 through 0x70), an acquire of seq 0 at 8
 * (10, no edge); T0 begins ordered 0x90 at 10 and ends it at 30 (chain 30);
 * T1 asks at 11 (13), stops, resumes at 30 idle 19 (no instruction) and
 * takes 30 through 0x90; ends it at 32, joins at 34 (34). T0 joins at 31
 * (31). After the join T0 goes on with T1's 34 and ends at 40 (6 more).
 * Work: T0 3 + 2 + 4 + 1 + 20 + 1 + 6 = 37, T1 2 + 1 + 3 + 2 + 2 = 10: 47.
 * The chain back from T0's 40: T0 6 (join), T1 4 (ordered 0x90's
 * hand-over), T0 21 + 4 + 5 (start): span 40; 47 / 40 = 1.1750; on 2
 * processors max(23.5, 40) = 40. L63: T1 fetches 0x704 after its acquire
 * of 0x70 (off the chain) and 0x904 after the resume that gave it 0x90:
 * that site has 4 instructions and 1 hand-over; the start's and the join's
 * segments (30 + 6, 1 hand-over) have none. */
START_TEST(critpath_events)
{
    critpath *p = critpath_new(2, 10);
    critpath_objects(p, true);
    phase(p, PHASE_BY_START, PHASE_SERIAL, 1, 0);
    critpath_resume(p, 0, 0, 0);
    cfeed(p, 0, 3, SMAIT_CT_MARKER, 0, 1);
    phase(p, PHASE_BY_MARKER, PHASE_SERIAL, 1, 3);
    cfeed(p, 0, 5, SMAIT_CT_SPAWN, 1, 2);
    phase(p, PHASE_BY_SPAWN, PHASE_PARALLEL, 2, 5);
    critpath_resume(p, 1, 5, 0);
    cfeed(p, 0, 9, SMAIT_CT_RELEASE, 0x70, 1);
    cfeed(p, 1, 7, SMAIT_CT_ACQUIRE, 0x70, 1);
    critpath_site(p, 1, 0x704);
    cfeed(p, 1, 8, SMAIT_CT_ACQUIRE, 0x80, 0);
    cfeed(p, 0, 10, SMAIT_CT_BEGIN_ORDER, 0x90, 0);
    cfeed(p, 1, 11, SMAIT_CT_BEGIN_ORDER, 0x90, 0);
    critpath_stop(p, 1, 11, WAIT_ORDERED);
    cfeed(p, 0, 30, SMAIT_CT_END_ORDER, 0x90, 0);
    critpath_resume(p, 1, 30, 19);
    critpath_site(p, 1, 0x904);
    cfeed(p, 1, 32, SMAIT_CT_END_ORDER, 0x90, 0);
    cfeed(p, 1, 34, SMAIT_CT_JOIN, 0, 0);
    critpath_stop(p, 1, 34, WAIT_JOIN);
    cfeed(p, 0, 31, SMAIT_CT_JOIN, 0, 0);
    critpath_stop(p, 0, 31, WAIT_JOIN);
    phase(p, PHASE_BY_JOIN, PHASE_SERIAL, 1, 34);
    critpath_resume(p, 0, 34, 0);
    critpath_stop(p, 0, 40, WAIT_NONE);
    captured c = { .n = 0 };
    critpath_lines(p, NULL, capture, &c);
    const char *want =
        "L59 critical_path work 47 span 40 parallelism 1.1750 threads 2 speedup_bound 1.1750 handovers 2"
        " end_thread 0\n"
        "L60 critical_path_top rank 1 by object space start addr 0x00000000 kind none name - where - handovers 0"
        " instructions 30 share 75.00%\n"
        "L60 critical_path_top rank 2 by object space join addr 0x00000000 kind none name - where - handovers 1"
        " instructions 6 share 15.00%\n"
        "L60 critical_path_top rank 3 by object space ordered addr 0x00000090 kind address name 0x00000090"
        " where - handovers 1 instructions 4 share 10.00%\n"
        "L60 critical_path_top rank 1 by thread thread 0 handovers 1 instructions 36 share 90.00%\n"
        "L60 critical_path_top rank 2 by thread thread 1 handovers 1 instructions 4 share 10.00%\n";
    if (strcmp(c.text, want) != 0) fprintf(stderr, "critpath_events: got\n%swanted\n%s", c.text, want);
    ck_assert(strcmp(c.text, want) == 0);
    c.n = 0;
    critpath_site_lines(p, NULL, capture, &c);
    want = "L63 critical_path_site rank 1 pc - kind none name - where - handovers 1 instructions 36 share 90.00%\n"
           "L63 critical_path_site rank 2 pc 0x00000904 kind address name 0x00000904 where - handovers 1"
           " instructions 4 share 10.00%\n";
    if (strcmp(c.text, want) != 0) fprintf(stderr, "critpath_events L63: got\n%swanted\n%s", c.text, want);
    ck_assert(strcmp(c.text, want) == 0);
    critpath_free(p);
}
END_TEST

Suite *ciat_suite(void)
{
    Suite *s = suite_create("ciat");
    TCase *tc = tcase_create("locmap");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, locmap_random_against_reference, 0, (int)(sizeof map_cases / sizeof map_cases[0]));
    tcase_add_test(tc, locmap_memory_follows_locations);
    tcase_add_test(tc, locmap_spilled_counts);
    tcase_add_test(tc, locmap_prefetch_is_harmless);
    tcase_add_test(tc, locmap_header_limits);
    tcase_add_loop_test(tc, locmap_blocks_at_the_ends, 0, (int)(sizeof end_pages / sizeof end_pages[0]));
    suite_add_tcase(s, tc);
    tc = tcase_create("stats");
    tcase_add_test(tc, stats_classes);
    suite_add_tcase(s, tc);
    tc = tcase_create("locks");
    tcase_add_test(tc, locks_buckets);
    tcase_add_test(tc, locks_events);
    tcase_add_test(tc, locks_sites_events);
    suite_add_tcase(s, tc);
    tc = tcase_create("barriers");
    tcase_add_test(tc, barriers_events);
    suite_add_tcase(s, tc);
    tc = tcase_create("critpath");
    tcase_add_test(tc, critpath_events);
    suite_add_tcase(s, tc);
    return s;
}

/* The reader sets: a suite of their own, so that the runner can run it
 * beside the others. */
Suite *ciat_reader_sets_suite(void)
{
    Suite *s = suite_create("ciat_reader_sets");
    TCase *tc = tcase_create("reader_sets");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, reader_sets_random_against_reference, 0,
                        (int)(sizeof rs_threads / sizeof rs_threads[0]));
    suite_add_tcase(s, tc);
    return s;
}
