/* test_cache.c — cdat/cache (docs/cdat-protocol.md): geometry, hit/miss/eviction order by
 * hand for direct-mapped, 2-way, 8-way and fully associative caches (both the
 * per-set array layout and the hashed layout), LRU order after hits, victims'
 * states, set_state and invalidate; then long random operation sequences
 * against a deliberately plain reference LRU model (one MRU-first array per
 * set, linear search) for several geometries: every access, probe, fill,
 * state change and victim must agree, and so must the whole contents at
 * regular checkpoints. */
#include "suites.h"
#include "../../cdat/cache.h"
#include "../../common/huge_arena.h"

#include <stdio.h>
#include <string.h>

/* As in test_clock_queue.c: ck_assert is slow when called millions of times. */
#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

/* splitmix64: small, fast, the same on every machine. */
typedef struct rng { uint64_t s; } rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t rng_below(rng *r, uint64_t n) { return rng_next(r) % n; }

/* Assert the lines of one set, MRU first ("4 0" style, states left out). */
static void assert_set(const cache *c, unsigned set, const char *want)
{
    uint32_t lines[4096];
    ck_assert_uint_le(cache_ways(c), 4096);
    unsigned n = cache_set_contents(c, set, lines, NULL);
    char got[8192] = "";
    size_t len = 0;
    for (unsigned i = 0; i < n; i++)
        len += (size_t)snprintf(got + len, sizeof got - len, "%s%u", i ? " " : "", lines[i]);
    ck_assert_str_eq(got, want);
}

/* Fill that must not evict. */
static void fill_new(cache *c, uint32_t line, cache_state st)
{
    uint32_t v = 12345;
    cache_state vs = CS_DIRTY;
    ck_assert(!cache_fill(c, line, st, &v, &vs));
    ck_assert_uint_eq(v, 12345);        /* untouched */
    ck_assert_int_eq(vs, CS_DIRTY);
}

/* Fill that must evict victim in state vst. */
static void fill_evict(cache *c, uint32_t line, cache_state st, uint32_t victim, cache_state vst)
{
    uint32_t v = UINT32_MAX;
    cache_state vs = CS_INVALID;
    ck_assert(cache_fill(c, line, st, &v, &vs));
    ck_assert_uint_eq(v, victim);
    ck_assert_int_eq(vs, vst);
}

/* ---- geometry -------------------------------------------------------------------------- */

START_TEST(geometry_checks)
{
    cache c;
    ck_assert(cache_init(&c, 64 * 1024, 2, 64));
    ck_assert_uint_eq(cache_sets(&c), 512);
    ck_assert_uint_eq(cache_ways(&c), 2);
    ck_assert_uint_eq(cache_set_of(&c, 513), 1);
    ck_assert_uint_eq(cache_count(&c), 0);
    cache_free(&c);

    ck_assert(cache_init(&c, 64 * 1024, 0, 64));       /* full, 1024 lines: hashed */
    ck_assert_uint_eq(cache_sets(&c), 1);
    ck_assert_uint_eq(cache_ways(&c), 1024);
    ck_assert_uint_eq(cache_set_of(&c, 777), 0);
    ck_assert(c.hashed);
    cache_free(&c);

    ck_assert(cache_init(&c, 4096, 0, 64));            /* full, 64 lines: one array set */
    ck_assert_uint_eq(cache_sets(&c), 1);
    ck_assert_uint_eq(cache_ways(&c), 64);
    ck_assert(!c.hashed);
    cache_free(&c);

    ck_assert(cache_init(&c, 3 * 1024, 3, 64));        /* 48 lines, 3 ways: 16 sets */
    ck_assert_uint_eq(cache_sets(&c), 16);
    cache_free(&c);

    ck_assert(cache_init(&c, 3 * 1024, 0, 64));        /* full needs no power of two */
    ck_assert_uint_eq(cache_ways(&c), 48);
    cache_free(&c);

    ck_assert(cache_init(&c, 64, 1, 64));              /* one line */
    ck_assert_uint_eq(cache_sets(&c), 1);
    cache_free(&c);

    ck_assert(!cache_init(&c, 0, 1, 64));
    ck_assert(!cache_init(&c, 100, 1, 64));            /* not whole lines */
    ck_assert(!cache_init(&c, 3 * 1024, 1, 64));       /* 48 sets */
    ck_assert(!cache_init(&c, 64 * 1024, 65, 64));     /* too many ways */
    ck_assert(!cache_init(&c, 64, 2, 64));             /* more ways than lines */
    ck_assert(!cache_init(&c, 1024, 1, 48));           /* line size not a power of two */
    ck_assert(!cache_init(&c, 1024, 1, 2));            /* line size below 4 */
    ck_assert(!cache_init(&c, 1024, 1, 0));
    ck_assert_ptr_null(c.entries);
}
END_TEST

/* ---- by hand --------------------------------------------------------------------------- */

START_TEST(direct_mapped)
{
    cache c;
    ck_assert(cache_init(&c, 4 * 64, 1, 64));          /* 4 sets of 1 */
    ck_assert_int_eq(cache_access(&c, 0), CS_INVALID);  /* line 0 vs empty entries */
    fill_new(&c, 0, CS_SHARED);
    ck_assert_int_eq(cache_access(&c, 0), CS_SHARED);
    fill_new(&c, 1, CS_DIRTY);                          /* another set */
    fill_evict(&c, 4, CS_EXCLUSIVE, 0, CS_SHARED);      /* 4 maps to set 0 */
    ck_assert_int_eq(cache_access(&c, 0), CS_INVALID);
    ck_assert_int_eq(cache_access(&c, 4), CS_EXCLUSIVE);
    ck_assert_int_eq(cache_access(&c, 1), CS_DIRTY);
    fill_evict(&c, 5, CS_SHARED, 1, CS_DIRTY);
    fill_evict(&c, 1, CS_SHARED, 5, CS_SHARED);
    fill_new(&c, 2, CS_SHARED);
    fill_new(&c, 3, CS_SHARED);
    ck_assert_uint_eq(cache_count(&c), 4);
    assert_set(&c, 0, "4");
    assert_set(&c, 3, "3");
    ck_assert_int_eq(cache_invalidate(&c, 4), CS_EXCLUSIVE);
    assert_set(&c, 0, "");
    fill_new(&c, 8, CS_DIRTY);
    cache_free(&c);
}
END_TEST

START_TEST(two_way)
{
    cache c;
    ck_assert(cache_init(&c, 4 * 64, 2, 64));          /* 2 sets of 2; even lines in set 0 */
    fill_new(&c, 0, CS_SHARED);
    fill_new(&c, 2, CS_EXCLUSIVE);
    assert_set(&c, 0, "2 0");
    ck_assert_int_eq(cache_access(&c, 0), CS_SHARED);   /* hit: 0 becomes MRU */
    assert_set(&c, 0, "0 2");
    fill_evict(&c, 4, CS_DIRTY, 2, CS_EXCLUSIVE);
    assert_set(&c, 0, "4 0");
    ck_assert_int_eq(cache_access(&c, 0), CS_SHARED);
    fill_evict(&c, 6, CS_SHARED, 4, CS_DIRTY);
    assert_set(&c, 0, "6 0");
    fill_new(&c, 1, CS_SHARED);                         /* set 1 is independent */
    fill_new(&c, 3, CS_SHARED);
    assert_set(&c, 1, "3 1");
    assert_set(&c, 0, "6 0");
    /* probe leaves the order alone */
    ck_assert_int_eq(cache_probe(&c, 0), CS_SHARED);
    assert_set(&c, 0, "6 0");
    fill_evict(&c, 8, CS_SHARED, 0, CS_SHARED);
    cache_free(&c);
}
END_TEST

START_TEST(eight_way)
{
    static const cache_state st[] = { CS_SHARED, CS_EXCLUSIVE, CS_DIRTY };
    cache c;
    ck_assert(cache_init(&c, 16 * 64, 8, 64));
    for (uint32_t l = 0; l < 16; l += 2) fill_new(&c, l, st[(l / 2) % 3]);
    /* states: 0 S, 2 E, 4 D, 6 S, 8 E, 10 D, 12 S, 14 E */
    assert_set(&c, 0, "14 12 10 8 6 4 2 0");
    ck_assert_int_eq(cache_access(&c, 0), CS_SHARED);
    ck_assert_int_eq(cache_access(&c, 4), CS_DIRTY);
    ck_assert_int_eq(cache_access(&c, 14), CS_EXCLUSIVE);
    assert_set(&c, 0, "14 4 0 12 10 8 6 2");
    ck_assert_int_eq(cache_access(&c, 14), CS_EXCLUSIVE);   /* MRU hit: no change */
    assert_set(&c, 0, "14 4 0 12 10 8 6 2");
    fill_evict(&c, 16, CS_DIRTY, 2, CS_EXCLUSIVE);
    fill_evict(&c, 18, CS_SHARED, 6, CS_SHARED);
    fill_evict(&c, 20, CS_SHARED, 8, CS_EXCLUSIVE);
    assert_set(&c, 0, "20 18 16 14 4 0 12 10");
    ck_assert_int_eq(cache_access(&c, 10), CS_DIRTY);
    fill_evict(&c, 22, CS_SHARED, 12, CS_SHARED);
    assert_set(&c, 0, "22 10 20 18 16 14 4 0");
    assert_set(&c, 1, "");
    ck_assert_uint_eq(cache_count(&c), 8);
    cache_free(&c);
}
END_TEST

/* Fully associative, n lines: both layouts (n <= 64 array, n > 64 hashed). */
static void full_assoc_by_hand(unsigned n)
{
    cache c;
    ck_assert(cache_init(&c, (uint64_t)n * 32, 0, 32));
    ck_assert_uint_eq(cache_sets(&c), 1);
    ck_assert_uint_eq(cache_ways(&c), n);
    /* Lines far apart and in all residues: a set index would not separate them. */
    for (uint32_t i = 0; i < n; i++) fill_new(&c, i * 1000 + 7, (cache_state)(i % 3 + 1));
    ck_assert_uint_eq(cache_count(&c), n);
    for (uint32_t i = 0; i < n; i++)
        ck_assert_int_eq(cache_probe(&c, i * 1000 + 7), (cache_state)(i % 3 + 1));
    /* Touch the even-numbered lines, oldest first: the odd ones are now the LRU end. */
    for (uint32_t i = 0; i < n; i += 2)
        ck_assert_int_eq(cache_access(&c, i * 1000 + 7), (cache_state)(i % 3 + 1));
    /* MRU first: the evens, last touched first; then the odds, last filled first. */
    uint32_t *lines = malloc(n * sizeof *lines);
    cache_state *states = malloc(n * sizeof *states);
    ck_assert_uint_eq(cache_set_contents(&c, 0, lines, states), n);
    unsigned k = 0;
    for (unsigned parity = 0; parity < 2; parity++) {
        for (uint32_t i = n; i-- > 0;) {
            if (i % 2 != parity) continue;
            ck_assert_uint_eq(lines[k], i * 1000 + 7);
            ck_assert_int_eq(states[k], (cache_state)(i % 3 + 1));
            k++;
        }
    }
    /* New lines evict the odd ones, oldest (1) first, with their states. */
    for (uint32_t i = 1; i < n; i += 2)
        fill_evict(&c, 5000000 + i, CS_DIRTY, i * 1000 + 7, (cache_state)(i % 3 + 1));
    /* then the evens, in the order they were touched */
    for (uint32_t i = 0; i < n; i += 2)
        fill_evict(&c, 6000000 + i, CS_SHARED, i * 1000 + 7, (cache_state)(i % 3 + 1));
    ck_assert_uint_eq(cache_count(&c), n);
    free(lines);
    free(states);
    cache_free(&c);
}

START_TEST(full_assoc_array) { full_assoc_by_hand(8); full_assoc_by_hand(64); full_assoc_by_hand(5); }
END_TEST

START_TEST(full_assoc_hashed) { full_assoc_by_hand(256); full_assoc_by_hand(65); full_assoc_by_hand(3000); }
END_TEST

/* set_state and invalidate keep the LRU order of the others; freed ways fill first. */
static void states_and_invalidation(uint64_t size, unsigned assoc)
{
    cache c;
    ck_assert(cache_init(&c, size, assoc, 64));
    uint32_t stride = cache_sets(&c);           /* every line below lands in set 0 */
    for (uint32_t i = 0; i < 4; i++) fill_new(&c, i * stride, CS_SHARED);
    char want[256];
    snprintf(want, sizeof want, "%u %u %u 0", 3 * stride, 2 * stride, stride);
    assert_set(&c, 0, want);

    ck_assert_int_eq(cache_set_state(&c, stride, CS_DIRTY), CS_SHARED);
    ck_assert_int_eq(cache_set_state(&c, 0, CS_EXCLUSIVE), CS_SHARED);
    assert_set(&c, 0, want);                    /* order unchanged */
    ck_assert_int_eq(cache_probe(&c, stride), CS_DIRTY);
    ck_assert_int_eq(cache_set_state(&c, 99 * stride, CS_DIRTY), CS_INVALID);  /* absent: nothing */
    ck_assert_int_eq(cache_probe(&c, 99 * stride), CS_INVALID);
    ck_assert_uint_eq(cache_count(&c), 4);

    ck_assert_int_eq(cache_invalidate(&c, 2 * stride), CS_SHARED);
    ck_assert_int_eq(cache_invalidate(&c, 2 * stride), CS_INVALID);
    snprintf(want, sizeof want, "%u %u 0", 3 * stride, stride);
    assert_set(&c, 0, want);
    ck_assert_int_eq(cache_set_state(&c, 3 * stride, CS_INVALID), CS_SHARED);  /* = invalidate */
    snprintf(want, sizeof want, "%u 0", stride);
    assert_set(&c, 0, want);
    ck_assert_uint_eq(cache_count(&c), 2);

    /* Two free ways: two fills evict nothing, the third evicts the LRU (line 0, exclusive). */
    fill_new(&c, 10 * stride, CS_SHARED);
    fill_new(&c, 11 * stride, CS_SHARED);
    fill_evict(&c, 12 * stride, CS_SHARED, 0, CS_EXCLUSIVE);
    fill_evict(&c, 13 * stride, CS_SHARED, stride, CS_DIRTY);

    /* A fill of a present line only changes its state and makes it MRU. */
    fill_new(&c, 10 * stride, CS_DIRTY);
    snprintf(want, sizeof want, "%u %u %u %u", 10 * stride, 13 * stride, 12 * stride, 11 * stride);
    assert_set(&c, 0, want);
    ck_assert_int_eq(cache_probe(&c, 10 * stride), CS_DIRTY);

    /* Invalidate everything: empty, and fills start over without victims. */
    for (uint32_t i = 10; i < 14; i++) ck_assert_int_ne(cache_invalidate(&c, i * stride), CS_INVALID);
    ck_assert_uint_eq(cache_count(&c), 0);
    assert_set(&c, 0, "");
    for (uint32_t i = 0; i < 4; i++) fill_new(&c, i * stride, CS_SHARED);
    cache_free(&c);
}

START_TEST(set_state_and_invalidate)
{
    states_and_invalidation(4 * 64, 4);         /* one set, 4 ways, array */
    states_and_invalidation(64 * 64, 4);        /* 16 sets of 4 */
    states_and_invalidation(4 * 64, 0);         /* full, 4 lines, array */
}
END_TEST

START_TEST(set_state_and_invalidate_hashed)
{
    /* The same operations on a 100-line fully associative cache, filled to the brim. */
    cache c;
    ck_assert(cache_init(&c, 100 * 64, 0, 64));
    ck_assert(c.hashed);
    for (uint32_t i = 0; i < 100; i++) fill_new(&c, i, CS_SHARED);
    ck_assert_int_eq(cache_set_state(&c, 0, CS_DIRTY), CS_SHARED);     /* LRU stays LRU */
    ck_assert_int_eq(cache_invalidate(&c, 50), CS_SHARED);
    ck_assert_int_eq(cache_invalidate(&c, 99), CS_SHARED);              /* the MRU end */
    ck_assert_int_eq(cache_invalidate(&c, 99), CS_INVALID);
    ck_assert_uint_eq(cache_count(&c), 98);
    fill_new(&c, 1000, CS_SHARED);
    fill_new(&c, 1001, CS_SHARED);
    fill_evict(&c, 1002, CS_SHARED, 0, CS_DIRTY);
    fill_evict(&c, 1003, CS_SHARED, 1, CS_SHARED);
    ck_assert_int_eq(cache_access(&c, 2), CS_SHARED);
    fill_evict(&c, 1004, CS_SHARED, 3, CS_SHARED);
    for (uint32_t i = 0; i < 2000; i++) cache_invalidate(&c, i);
    ck_assert_uint_eq(cache_count(&c), 0);
    assert_set(&c, 0, "");
    fill_new(&c, 7, CS_EXCLUSIVE);
    assert_set(&c, 0, "7");
    cache_free(&c);
}
END_TEST

/* The three policies on one set of 4 ways, lines 1..4 filled in order and 1
 * used again. LRU: 1 moved to the front, 2 goes. FIFO: nothing moves, 1
 * (filled first) goes; a refill and a state change keep the line's place.
 * Random: the way of splitmix64's finaliser of (line << 32 | front line)
 * mod 4, worked out for these lines: (5, 4) -> 3, (6, 5) -> 2, (7, 6) -> 2,
 * (8, 7) -> 3. The hashed layout (65 lines, fully associative) evicts a line
 * it held, the one cache_lru foretells, the same in two caches. */
START_TEST(replacement_policies)
{
    cache c;
    for (int p = 0; p < 3; p++) {
        ck_assert(cache_init(&c, 4 * 64, 4, 64));
        cache_set_replacement(&c, (cache_replacement)p);
        for (uint32_t l = 1; l <= 4; l++) fill_new(&c, l, CS_SHARED);
        ck_assert_int_eq(cache_access(&c, 1), CS_SHARED);
        if (p == CACHE_LRU) {
            assert_set(&c, 0, "1 4 3 2");
            fill_evict(&c, 5, CS_SHARED, 2, CS_SHARED);
            assert_set(&c, 0, "5 1 4 3");
        } else if (p == CACHE_FIFO) {
            assert_set(&c, 0, "4 3 2 1");
            fill_evict(&c, 5, CS_SHARED, 1, CS_SHARED);
            fill_new(&c, 3, CS_DIRTY);                  /* a refill */
            ck_assert_int_eq(cache_access(&c, 4), CS_SHARED);
            cache_set_mru_state(&c, 4, CS_EXCLUSIVE);   /* 4 is not at the front */
            assert_set(&c, 0, "5 4 3 2");
            ck_assert_int_eq(cache_probe(&c, 3), CS_DIRTY);
            ck_assert_int_eq(cache_probe(&c, 4), CS_EXCLUSIVE);
            ck_assert_int_eq(cache_probe(&c, 5), CS_SHARED);
        } else {
            assert_set(&c, 0, "4 3 2 1");
            uint32_t v;
            ck_assert_int_eq(cache_lru(&c, 5, &v), CS_SHARED);
            ck_assert_uint_eq(v, 1);
            fill_evict(&c, 5, CS_SHARED, 1, CS_SHARED);     /* way 3 */
            fill_evict(&c, 6, CS_SHARED, 3, CS_SHARED);     /* way 2 of 5 4 3 2 */
            fill_evict(&c, 7, CS_SHARED, 4, CS_SHARED);     /* way 2 of 6 5 4 2 */
            fill_evict(&c, 8, CS_SHARED, 2, CS_SHARED);     /* way 3 of 7 6 5 2 */
            assert_set(&c, 0, "8 7 6 5");
        }
        cache_free(&c);
    }
    uint32_t victim[2];
    for (int k = 0; k < 2; k++) {
        ck_assert(cache_init(&c, 65 * 64, 0, 64));
        cache_set_replacement(&c, CACHE_RANDOM);
        for (uint32_t l = 0; l < 65; l++) fill_new(&c, l, CS_SHARED);
        ck_assert_int_eq(cache_access(&c, 7), CS_SHARED);
        uint32_t v;
        ck_assert_int_eq(cache_lru(&c, 100, &v), CS_SHARED);
        ck_assert_uint_lt(v, 65);
        fill_evict(&c, 100, CS_DIRTY, v, CS_SHARED);
        ck_assert_int_eq(cache_probe(&c, v), CS_INVALID);
        ck_assert_int_eq(cache_probe(&c, 100), CS_DIRTY);
        ck_assert_uint_eq(cache_count(&c), 65);
        victim[k] = v;
        cache_free(&c);
    }
    ck_assert_uint_eq(victim[0], victim[1]);
}
END_TEST

/* An L3's tag array of 2 MiB and more goes on huge pages (huge_map): empty
 * at the start, its first and last sets usable, LRU in each, and freed. */
START_TEST(huge_tag_array)
{
    for (int k = 0; k < 2; k++) {
        cache c;
        uint64_t size = k ? 40u << 20 : 32u << 20;  /* tags 2 MiB, and 2.5 MiB: a partial huge page */
        ck_assert(cache_init(&c, size, k ? 20 : 16, 64));
        ck_assert_uint_eq(((uintptr_t)c.entries) % HUGE_ARENA_CHUNK, 0);
        ck_assert_uint_eq(cache_count(&c), 0);
        unsigned sets = cache_sets(&c), ways = cache_ways(&c);
        for (uint32_t set = 0; set < sets; set += sets - 1) {
            for (unsigned w = 0; w < ways; w++) fill_new(&c, set + w * sets, CS_SHARED);
            fill_evict(&c, set + ways * sets, CS_DIRTY, set, CS_SHARED);
            ck_assert_int_eq(cache_probe(&c, set + ways * sets), CS_DIRTY);
            ck_assert_int_eq(cache_probe(&c, set + sets), CS_SHARED);
        }
        ck_assert_uint_eq(cache_count(&c), 2 * ways);
        cache_free(&c);
        ck_assert_ptr_null(c.entries);
    }
}
END_TEST

START_TEST(large_line_addresses)
{
    /* line_size 4: line addresses go up to 2^30 - 1 and must not alias each other. */
    const uint32_t top = (1u << 30) - 1;
    cache c;
    ck_assert(cache_init(&c, 8 * 4, 2, 4));            /* 4 sets of 2 */
    fill_new(&c, top, CS_DIRTY);
    fill_new(&c, top - 4, CS_SHARED);
    ck_assert_int_eq(cache_probe(&c, top), CS_DIRTY);
    ck_assert_int_eq(cache_probe(&c, top - 4), CS_SHARED);
    ck_assert_int_eq(cache_probe(&c, top - 8), CS_INVALID);
    ck_assert_int_eq(cache_probe(&c, 3), CS_INVALID);
    fill_evict(&c, 3, CS_EXCLUSIVE, top, CS_DIRTY);
    cache_free(&c);

    ck_assert(cache_init(&c, 128 * 4, 0, 4));          /* hashed */
    fill_new(&c, top, CS_DIRTY);
    fill_new(&c, 0, CS_SHARED);
    ck_assert_int_eq(cache_access(&c, top), CS_DIRTY);
    ck_assert_int_eq(cache_probe(&c, top - 1), CS_INVALID);
    cache_free(&c);
}
END_TEST

/* ---- the reference model --------------------------------------------------------------- */

/* One list per set in the policy's order (LRU: most recently used first;
 * FIFO and random: filled last first), searched from the front. Nothing
 * clever. Random's victim is the way cache.h specifies: splitmix64's
 * finaliser of (line filled << 32 | the line at the front), modulo the ways. */
typedef struct ref_cache {
    unsigned sets, ways;
    cache_replacement repl;
    uint32_t *line;         /* sets * ways */
    cache_state *st;
    unsigned *n;            /* lines in each set */
} ref_cache;

static void ref_init(ref_cache *r, unsigned sets, unsigned ways)
{
    r->sets = sets;
    r->ways = ways;
    r->line = calloc((size_t)sets * ways, sizeof *r->line);
    r->st = calloc((size_t)sets * ways, sizeof *r->st);
    r->n = calloc(sets, sizeof *r->n);
}

static void ref_free(ref_cache *r)
{
    free(r->line);
    free(r->st);
    free(r->n);
}

static int ref_find(const ref_cache *r, uint32_t line, unsigned *set)
{
    *set = line % r->sets;
    for (unsigned i = 0; i < r->n[*set]; i++)
        if (r->line[*set * r->ways + i] == line) return (int)i;
    return -1;
}

static void ref_remove(ref_cache *r, unsigned set, unsigned i)
{
    uint32_t *l = r->line + set * r->ways;
    cache_state *s = r->st + set * r->ways;
    for (unsigned j = i; j + 1 < r->n[set]; j++) {
        l[j] = l[j + 1];
        s[j] = s[j + 1];
    }
    r->n[set]--;
}

static void ref_push_front(ref_cache *r, unsigned set, uint32_t line, cache_state st)
{
    uint32_t *l = r->line + set * r->ways;
    cache_state *s = r->st + set * r->ways;
    for (unsigned j = r->n[set]; j > 0; j--) {
        l[j] = l[j - 1];
        s[j] = s[j - 1];
    }
    l[0] = line;
    s[0] = st;
    r->n[set]++;
}

static cache_state ref_access(ref_cache *r, uint32_t line, bool touch)
{
    unsigned set;
    int i = ref_find(r, line, &set);
    if (i < 0) return CS_INVALID;
    cache_state st = r->st[set * r->ways + (unsigned)i];
    if (touch && r->repl == CACHE_LRU) {
        ref_remove(r, set, (unsigned)i);
        ref_push_front(r, set, line, st);
    }
    return st;
}

static bool ref_fill(ref_cache *r, uint32_t line, cache_state st, uint32_t *victim, cache_state *vst)
{
    unsigned set;
    int i = ref_find(r, line, &set);
    bool evicted = false;
    if (i >= 0 && r->repl != CACHE_LRU) {
        r->st[set * r->ways + (unsigned)i] = st;        /* a refill keeps its place */
        return false;
    }
    if (i >= 0) {
        ref_remove(r, set, (unsigned)i);
    } else if (r->n[set] == r->ways) {
        unsigned v = r->ways - 1;
        if (r->repl == CACHE_RANDOM) {
            uint64_t z = ((uint64_t)line << 32 | r->line[set * r->ways]) + 0x9E3779B97F4A7C15ull;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
            v = (unsigned)((z ^ (z >> 31)) % r->ways);
        }
        *victim = r->line[set * r->ways + v];
        *vst = r->st[set * r->ways + v];
        ref_remove(r, set, v);
        evicted = true;
    }
    ref_push_front(r, set, line, st);
    return evicted;
}

static cache_state ref_set_state(ref_cache *r, uint32_t line, cache_state st)
{
    unsigned set;
    int i = ref_find(r, line, &set);
    if (i < 0) return CS_INVALID;
    cache_state old = r->st[set * r->ways + (unsigned)i];
    if (st == CS_INVALID) ref_remove(r, set, (unsigned)i);
    else r->st[set * r->ways + (unsigned)i] = st;
    return old;
}

static void compare_contents(const cache *c, const ref_cache *r, uint32_t *lines, cache_state *states,
                             long step)
{
    unsigned total = 0;
    for (unsigned s = 0; s < r->sets; s++) {
        unsigned n = cache_set_contents(c, s, lines, states);
        REQUIRE(n == r->n[s], "step %ld set %u: %u lines, reference %u", step, s, n, r->n[s]);
        for (unsigned i = 0; i < n; i++) {
            REQUIRE(lines[i] == r->line[s * r->ways + i] && states[i] == r->st[s * r->ways + i],
                    "step %ld set %u way %u: line %u state %d, reference %u %d", step, s, i,
                    lines[i], states[i], r->line[s * r->ways + i], r->st[s * r->ways + i]);
        }
        total += n;
    }
    REQUIRE(cache_count(c) == total, "step %ld: count %u, reference %u", step, cache_count(c), total);
}

typedef struct geometry {
    unsigned lines, assoc;      /* assoc 0 = fully associative */
    unsigned line_size;
    long steps;
} geometry;

static const geometry geometries[] = {
    { 64, 1, 64, 200000 },      /* direct-mapped */
    { 128, 2, 32, 200000 },
    { 48, 3, 64, 200000 },      /* odd associativity */
    { 256, 8, 64, 200000 },
    { 64, 16, 64, 200000 },     /* 4 sets of 16 (an L2's or L3's), lines from 0: line 0's compare */
    { 128, 64, 16, 200000 },    /* 2 sets of 64 */
    { 8, 0, 64, 200000 },       /* fully associative, array layout */
    { 64, 0, 4, 200000 },       /* the largest array layout; line size 4 */
    { 65, 0, 64, 200000 },      /* the smallest hashed layout */
    { 256, 0, 64, 200000 },     /* fully associative 256 lines */
    { 1000, 0, 128, 100000 },   /* hashed, not a power of two */
};

/* Line addresses with some locality: recently used lines, a sliding window of
 * about three times the cache, and now and then anything (up to 2^30 - 1). */
typedef struct line_gen {
    uint32_t recent[8];
    uint32_t base, window;
} line_gen;

static uint32_t next_line(line_gen *g, rng *r)
{
    uint64_t k = rng_below(r, 100);
    uint32_t line;
    if (k < 40) line = g->recent[rng_below(r, 8)];
    else if (k < 97) line = g->base + (uint32_t)rng_below(r, g->window);
    else line = (uint32_t)rng_below(r, 1u << 30);
    if (rng_below(r, 1000) == 0) g->base = (uint32_t)rng_below(r, (1u << 30) - g->window);
    g->recent[rng_below(r, 8)] = line;
    return line;
}

/* Each geometry under each policy (test _i: geometry _i / 3, policy _i % 3),
 * but random in the hashed layout, whose victim is a slot (an inner
 * detail): checked by hand in replacement_policies. */
START_TEST(random_against_reference)
{
    const geometry *gm = &geometries[_i / 3];
    cache_replacement repl = (cache_replacement)(_i % 3);
    if (repl == CACHE_RANDOM && gm->assoc == 0 && gm->lines > CACHE_MAX_ARRAY_WAYS) return;
    cache c;
    ck_assert(cache_init(&c, (uint64_t)gm->lines * gm->line_size, gm->assoc, gm->line_size));
    cache_set_replacement(&c, repl);
    ref_cache r;
    ref_init(&r, cache_sets(&c), cache_ways(&c));
    r.repl = repl;
    ck_assert_uint_eq(cache_sets(&c) * cache_ways(&c), gm->lines);
    uint32_t *lines = malloc(cache_ways(&c) * sizeof *lines);
    cache_state *states = malloc(cache_ways(&c) * sizeof *states);

    rng g = { 0x5eed0000u + (uint64_t)_i };
    line_gen lg = { .base = gm->assoc == 16 ? 0 : 1000, .window = 3 * gm->lines };
    for (int i = 0; i < 8; i++) lg.recent[i] = lg.base + (uint32_t)i;
    long hits = 0, misses = 0, evictions = 0;
    uint32_t missed = UINT32_MAX;   /* a missed line whose fill was put off */
    for (long step = 0; step < gm->steps; step++) {
        uint32_t line = next_line(&lg, &g);
        uint64_t op = rng_below(&g, 100);
        if (op < 70) {          /* the owner's reference; a miss fills, mostly at once */
            /* cache_access, or its two halves as cdat's data path calls them */
            cache_state got = rng_below(&g, 2) ? cache_access(&c, line) : cache_hit(&c, line);
            if (got == CS_INVALID) got = cache_access_rest(&c, line);
            cache_state want = ref_access(&r, line, true);
            REQUIRE(got == want, "step %ld: access %u: %d, reference %d", step, line, got, want);
            if (got != CS_INVALID) {
                hits++;
                continue;
            }
            misses++;
            if (rng_below(&g, 5) == 0) {
                missed = line;  /* filled by a later fill step, after other operations */
                continue;
            }
            op = 99;            /* fall into the fill below */
        } else if (op >= 93 && missed != UINT32_MAX && rng_below(&g, 2) == 0) {
            line = missed;      /* the put-off fill (the line may have come in meanwhile) */
            missed = UINT32_MAX;
        }
        if (op < 80) {
            cache_state got = cache_probe(&c, line), want = ref_access(&r, line, false);
            REQUIRE(got == want, "step %ld: probe %u: %d, reference %d", step, line, got, want);
        } else if (op < 88) {
            cache_state st = (cache_state)rng_below(&g, 4);
            cache_state got = cache_set_state(&c, line, st), want = ref_set_state(&r, line, st);
            REQUIRE(got == want, "step %ld: set_state %u %d: %d, reference %d", step, line, st, got, want);
        } else if (op < 93) {
            cache_state got = cache_invalidate(&c, line), want = ref_set_state(&r, line, CS_INVALID);
            REQUIRE(got == want, "step %ld: invalidate %u: %d, reference %d", step, line, got, want);
        } else {                /* a fill (after a miss, or of any line: a refill if present) */
            cache_state st = (cache_state)(1 + rng_below(&g, 3));
            uint32_t v = 0, rv = 0, pv = 0;
            cache_state vs = CS_INVALID, rvs = CS_INVALID;
            unsigned set;
            bool absent = ref_find(&r, line, &set) < 0;
            cache_state pvs = absent ? cache_lru(&c, line, &pv) : CS_INVALID;   /* the victim foretold */
            bool got = cache_fill(&c, line, st, &v, &vs), want = ref_fill(&r, line, st, &rv, &rvs);
            if (absent)
                REQUIRE(got ? pv == v && pvs == vs : pvs == CS_INVALID,
                        "step %ld: fill %u: cache_lru said %u (%d), the fill evicted %u (%d, %d)", step, line, pv,
                        pvs, v, vs, got);
            REQUIRE(got == want, "step %ld: fill %u: evicted %d, reference %d", step, line, got, want);
            REQUIRE(v == rv && vs == rvs, "step %ld: fill %u: victim %u (%d), reference %u (%d)",
                    step, line, v, vs, rv, rvs);
            evictions += got;
        }
        if (step % 4096 == 0) compare_contents(&c, &r, lines, states, step);
    }
    compare_contents(&c, &r, lines, states, gm->steps);
    /* The sequence must exercise every path: hits, misses and evictions. */
    ck_assert_int_gt(hits, gm->steps / 10);
    ck_assert_int_gt(misses, gm->steps / 20);
    ck_assert_int_gt(evictions, gm->steps / 50);
    free(lines);
    free(states);
    ref_free(&r);
    cache_free(&c);
}
END_TEST

Suite *cache_suite(void)
{
    Suite *s = suite_create("cache");
    TCase *tc = tcase_create("by_hand");
    tcase_add_test(tc, geometry_checks);
    tcase_add_test(tc, direct_mapped);
    tcase_add_test(tc, two_way);
    tcase_add_test(tc, eight_way);
    tcase_add_test(tc, full_assoc_array);
    tcase_add_test(tc, full_assoc_hashed);
    tcase_add_test(tc, set_state_and_invalidate);
    tcase_add_test(tc, set_state_and_invalidate_hashed);
    tcase_add_test(tc, large_line_addresses);
    tcase_add_test(tc, huge_tag_array);
    tcase_add_test(tc, replacement_policies);
    suite_add_tcase(s, tc);

    tc = tcase_create("reference");
    tcase_set_timeout(tc, 120);
    tcase_add_loop_test(tc, random_against_reference, 0,
                        3 * (int)(sizeof geometries / sizeof geometries[0]));
    suite_add_tcase(s, tc);
    return s;
}
