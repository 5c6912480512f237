/* test_huge_arena.c — common/huge_arena: bump allocations and buddy blocks.
 *
 * Random sequences of block allocations and releases (fixed seed) fill every
 * live block with a pattern of its own and check it when the block goes:
 * two live blocks that overlap, or a split or merge that hands out memory
 * still in use, change some block's pattern. Blocks must be aligned to their
 * size within a 2 MiB chunk (what the buddy arithmetic relies on), and once
 * everything is released the buddies must have merged: a second round of
 * the same sequence takes no chunk more from the kernel. Bump allocations
 * behave the same in an arena that asks for huge pages from its first chunk
 * (huge_arena_init_eager), which stays so after huge_arena_free. One large
 * array of huge_map is zeroed, aligned to a chunk and apart from others. */
#include "suites.h"
#include "../../common/huge_arena.h"

#include <string.h>

#define REQUIRE(cond, ...) do { if (!(cond)) ck_abort_msg(__VA_ARGS__); } while (0)

static uint64_t next(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

START_TEST(bump_is_zeroed_and_aligned)
{
    huge_arena a;
    bool eager = _i == 1;
    if (eager) huge_arena_init_eager(&a);
    else huge_arena_init(&a);
    unsigned char *prev = NULL;
    for (int i = 0; i < 400; i++) {
        size_t n = 1 + (size_t)i * 97 % 50000;
        unsigned char *p = huge_arena_bump(&a, n);
        REQUIRE(((uintptr_t)p & 63) == 0, "bump %d not 64-byte aligned", i);
        for (size_t k = 0; k < n; k++) REQUIRE(p[k] == 0, "bump %d byte %zu not zero", i, k);
        memset(p, 0xA5, n);
        REQUIRE(p != prev, "bump %d handed out twice", i);
        prev = p;
    }
    /* 400 allocations of about 25 KB on average: about 10 MB, in 2 MiB chunks */
    ck_assert_uint_ge(huge_arena_bytes(&a), 8u << 20);
    ck_assert_uint_le(huge_arena_bytes(&a), 16u << 20);
    huge_arena_free(&a);
    ck_assert_uint_eq(huge_arena_bytes(&a), 0);
    ck_assert_uint_eq(a.ordinary, eager ? 0 : HUGE_ARENA_SMALL);     /* the kind outlives a free */
    unsigned char *p = huge_arena_bump(&a, 100);
    for (int k = 0; k < 100; k++) REQUIRE(p[k] == 0, "after a free: byte %d not zero", k);
    huge_arena_free(&a);
}
END_TEST

enum { LIVE = 3000 };
typedef struct live { unsigned char *p; unsigned order; uint8_t fill; } live;

static void check_fill(const live *l, int i)
{
    size_t n = (size_t)64 << l->order;
    for (size_t k = 0; k < n; k += 8) REQUIRE(l->p[k] == l->fill, "block %d (order %u) overwritten at %zu", i, l->order, k);
}

/* One round: 60 000 random steps over LIVE slots, then release all. */
static void round_of(huge_arena *a, uint64_t seed)
{
    static live slot[LIVE];
    memset(slot, 0, sizeof slot);
    for (int step = 0; step < 60000; step++) {
        uint64_t r = next(&seed);
        int i = (int)(r % LIVE);
        if (slot[i].p) {
            check_fill(&slot[i], i);
            huge_arena_release(a, slot[i].p, slot[i].order);
            slot[i].p = NULL;
            continue;
        }
        unsigned order = (unsigned)(r >> 32) % HUGE_ARENA_ORDERS;
        if ((r >> 40) % 4) order %= 4;          /* mostly small, as sparse tables are */
        unsigned char *p = huge_arena_block(a, order);
        size_t n = (size_t)64 << order;
        uintptr_t in_chunk = (uintptr_t)p & (HUGE_ARENA_CHUNK - 1);
        REQUIRE(in_chunk % n == 0, "order %u block at chunk offset %zu", order, (size_t)in_chunk);
        REQUIRE(in_chunk >= HUGE_ARENA_MAX_BLOCK, "a block over the chunk's tags");
        slot[i] = (live){ p, order, (uint8_t)(r >> 48) };
        memset(p, slot[i].fill, n);
    }
    for (int i = 0; i < LIVE; i++)
        if (slot[i].p) {
            check_fill(&slot[i], i);
            huge_arena_release(a, slot[i].p, slot[i].order);
        }
}

START_TEST(blocks_do_not_overlap_and_merge)
{
    huge_arena a;
    huge_arena_init(&a);
    round_of(&a, 1);
    uint64_t after_first = huge_arena_bytes(&a);
    ck_assert_uint_gt(after_first, 0);
    round_of(&a, 1);
    ck_assert_uint_eq(huge_arena_bytes(&a), after_first);   /* everything merged back: reused */
    /* all free: top-order blocks come from the merged memory, none from the kernel */
    unsigned char *p[40];
    for (int i = 0; i < 40; i++) p[i] = huge_arena_block(&a, HUGE_ARENA_ORDERS - 1);
    ck_assert_uint_eq(huge_arena_bytes(&a), after_first);
    for (int i = 0; i < 40; i++) huge_arena_release(&a, p[i], HUGE_ARENA_ORDERS - 1);
    huge_arena_free(&a);
}
END_TEST

/* huge_map: aligned to a chunk, zeroed, every byte writable, distinct
 * arrays apart; then unmapped (ASan would catch a later use). */
START_TEST(map_is_zeroed_and_aligned)
{
    const size_t sizes[] = { 1, 4096, HUGE_ARENA_CHUNK, HUGE_ARENA_CHUNK + 1, 5 * (size_t)HUGE_ARENA_CHUNK / 2 };
    unsigned char *p[5];
    for (int i = 0; i < 5; i++) {
        p[i] = huge_map(sizes[i]);
        ck_assert_uint_eq((uintptr_t)p[i] % HUGE_ARENA_CHUNK, 0);
        for (size_t k = 0; k < sizes[i]; k++) REQUIRE(p[i][k] == 0, "array %d byte %zu not zero", i, k);
        memset(p[i], 0x30 + i, sizes[i]);
    }
    for (int i = 0; i < 5; i++) {
        for (size_t k = 0; k < sizes[i]; k++) REQUIRE(p[i][k] == 0x30 + i, "array %d byte %zu overwritten", i, k);
        huge_unmap(p[i], sizes[i]);
    }
    huge_unmap(NULL, 10);       /* nothing */
}
END_TEST

START_TEST(order_of_sizes)
{
    ck_assert_uint_eq(huge_arena_order(1), 0);
    ck_assert_uint_eq(huge_arena_order(64), 0);
    ck_assert_uint_eq(huge_arena_order(65), 1);
    ck_assert_uint_eq(huge_arena_order(4 * 16), 0);
    ck_assert_uint_eq(huge_arena_order(2048 * 16), HUGE_ARENA_ORDERS - 1);
    ck_assert_uint_eq((size_t)64 << huge_arena_order(HUGE_ARENA_MAX_BLOCK), HUGE_ARENA_MAX_BLOCK);
}
END_TEST

Suite *huge_arena_suite(void)
{
    Suite *s = suite_create("huge_arena");
    TCase *tc = tcase_create("core");
    tcase_add_loop_test(tc, bump_is_zeroed_and_aligned, 0, 2);     /* 1: eager */
    tcase_add_test(tc, blocks_do_not_overlap_and_merge);
    tcase_add_test(tc, order_of_sizes);
    tcase_add_test(tc, map_is_zeroed_and_aligned);
    suite_add_tcase(s, tc);
    return s;
}
