/* huge_arena.c — 2 MiB chunks on huge pages; bump allocation and a buddy
 * allocator of 64 B .. 32 KiB blocks.
 *
 * A chunk is mapped as twice its size and used from its first 2 MiB
 * boundary: the mapping is unmapped whole in huge_arena_free (one mapping,
 * one munmap; the unused part is address space only). Buddy blocks come
 * from superblocks of HUGE_ARENA_MAX_BLOCK bytes, the first of each buddy
 * chunk holding the chunk's tags: one byte per 64-byte unit, order + 1 at
 * the first unit of a free block, else 0. A block's buddy is found by
 * flipping one bit of its offset in the chunk, its freedom by its tag. */
#define _DEFAULT_SOURCE     /* MAP_ANONYMOUS, MADV_HUGEPAGE */
#include "huge_arena.h"
#include "../base/diag.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define ARENA_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define ARENA_ASAN 1
#endif
#endif
#ifdef ARENA_ASAN
#include <sanitizer/asan_interface.h>
#define POISON(p, n) ASAN_POISON_MEMORY_REGION((p), (n))
#define UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define POISON(p, n) ((void)(p), (void)(n))
#define UNPOISON(p, n) ((void)(p), (void)(n))
#endif

struct huge_arena_free_block {
    huge_arena_free_block *next, *prev;
};

enum { UNIT = 1u << HUGE_ARENA_MIN_SHIFT, TOP = HUGE_ARENA_ORDERS - 1 };

void huge_arena_init(huge_arena *a)
{
    memset(a, 0, sizeof *a);
    a->ordinary = HUGE_ARENA_SMALL;
}

void huge_arena_init_eager(huge_arena *a)
{
    memset(a, 0, sizeof *a);
}

void huge_arena_free(huge_arena *a)
{
    for (size_t i = 0; i < a->nchunks; i++) {
        UNPOISON(a->chunks[i], 2 * (size_t)HUGE_ARENA_CHUNK);
        munmap(a->chunks[i], 2 * (size_t)HUGE_ARENA_CHUNK);
    }
    free(a->chunks);
    uint64_t ordinary = a->ordinary;
    memset(a, 0, sizeof *a);
    a->ordinary = ordinary;
}

/* x rounded up to a whole number of chunks. */
static uintptr_t chunk_up(uintptr_t x) { return (x + HUGE_ARENA_CHUNK - 1) & ~(uintptr_t)(HUGE_ARENA_CHUNK - 1); }

/* n zeroed bytes, freshly mapped (out of memory: fatal). */
static unsigned char *map_zeroed(size_t n)
{
    void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (m == MAP_FAILED) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory (mapping %zu bytes)", n);
    /* ASan keeps its poison across munmap: memory unmapped without
     * huge_arena_free (a run the fuzzing harness abandoned) and mapped
     * again here would still read as free blocks. */
    UNPOISON(m, n);
    return m;
}

/* A new zeroed chunk, 2 MiB aligned. */
static unsigned char *new_chunk(huge_arena *a)
{
    size_t span = 2 * (size_t)HUGE_ARENA_CHUNK;
    unsigned char *m = map_zeroed(span);
    if (a->nchunks == a->chunks_cap) {
        a->chunks_cap = a->chunks_cap ? 2 * a->chunks_cap : 16;
        void **c = realloc(a->chunks, a->chunks_cap * sizeof *c);
        if (!c) {
            munmap(m, span);
            diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "out of memory (allocating %zu bytes)",
                       a->chunks_cap * sizeof *c);
        }
        a->chunks = c;
    }
    a->chunks[a->nchunks++] = m;
    a->bytes += HUGE_ARENA_CHUNK;
    unsigned char *c = (unsigned char *)chunk_up((uintptr_t)m);
#ifdef MADV_HUGEPAGE
    /* A hint (ordinary pages if refused), and only past the first chunks
     * unless eager: a huge page is zeroed whole when first touched, which a
     * small run (a test, a fuzzing input) would pay for every chunk it
     * barely uses. */
    if (a->bytes > a->ordinary) madvise(c, HUGE_ARENA_CHUNK, MADV_HUGEPAGE);
#endif
    return c;
}

/* The mapping is the array rounded up to whole chunks, plus one chunk of
 * slack to align it; the slack before and after is unmapped at once. */
static size_t map_span(size_t n) { return (size_t)chunk_up(n); }

void *huge_map(size_t n)
{
    size_t span = map_span(n), whole = span + HUGE_ARENA_CHUNK;
    unsigned char *m = map_zeroed(whole);
    unsigned char *p = (unsigned char *)chunk_up((uintptr_t)m);
    if (p > m) munmap(m, (size_t)(p - m));
    if (m + whole > p + span) munmap(p + span, (size_t)(m + whole - (p + span)));
#ifdef MADV_HUGEPAGE
    madvise(p, span, MADV_HUGEPAGE);
#endif
    return p;
}

void huge_unmap(void *p, size_t n)
{
    if (p) munmap(p, map_span(n));
}

void *huge_arena_bump(huge_arena *a, size_t n)
{
    n = (n + UNIT - 1) & ~(size_t)(UNIT - 1);
    if (n > HUGE_ARENA_CHUNK / 2) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "huge_arena_bump: %zu bytes", n);
    if ((size_t)(a->bump_end - a->bump) < n) {
        a->bump = new_chunk(a);
        a->bump_end = a->bump + HUGE_ARENA_CHUNK;
    }
    void *p = a->bump;
    a->bump += n;
    return p;
}

/* ---- buddy blocks ---- */

static unsigned char *chunk_of(const void *p)
{
    return (unsigned char *)((uintptr_t)p & ~(uintptr_t)(HUGE_ARENA_CHUNK - 1));
}

static unsigned char *tag_of(const void *p)
{
    unsigned char *c = chunk_of(p);
    return c + (((const unsigned char *)p - c) >> HUGE_ARENA_MIN_SHIFT);   /* the tags fill the first superblock */
}

static void push(huge_arena *a, void *p, unsigned order)
{
    huge_arena_free_block *f = p;
    UNPOISON(f, sizeof *f);
    f->prev = NULL;
    f->next = a->free[order];
    if (f->next) f->next->prev = f;
    a->free[order] = f;
    *tag_of(p) = (unsigned char)(order + 1);
    POISON((unsigned char *)p + sizeof *f, ((size_t)UNIT << order) - sizeof *f);
}

static void unlink_block(huge_arena *a, huge_arena_free_block *f, unsigned order)
{
    if (f->prev) f->prev->next = f->next;
    else a->free[order] = f->next;
    if (f->next) f->next->prev = f->prev;
    *tag_of(f) = 0;
}

void *huge_arena_block(huge_arena *a, unsigned order)
{
    unsigned j = order;
    while (j <= TOP && !a->free[j]) j++;
    unsigned char *p;
    if (j <= TOP) {
        p = (unsigned char *)a->free[j];
        unlink_block(a, a->free[j], j);
    } else {
        if (a->sb == a->sb_end) {
            a->sb = new_chunk(a) + HUGE_ARENA_MAX_BLOCK;    /* the first superblock: tags */
            a->sb_end = a->sb - HUGE_ARENA_MAX_BLOCK + HUGE_ARENA_CHUNK;
        }
        p = a->sb;
        a->sb += HUGE_ARENA_MAX_BLOCK;
        j = TOP;
    }
    while (j > order) {                 /* split: the upper half is free */
        j--;
        push(a, p + ((size_t)UNIT << j), j);
    }
    UNPOISON(p, (size_t)UNIT << order);
    return p;
}

void huge_arena_release(huge_arena *a, void *p, unsigned order)
{
    unsigned char *b = p, *c = chunk_of(p);
    while (order < TOP) {
        unsigned char *buddy = c + ((size_t)(b - c) ^ ((size_t)UNIT << order));
        if (*tag_of(buddy) != order + 1) break;
        UNPOISON(buddy, sizeof(huge_arena_free_block));
        unlink_block(a, (huge_arena_free_block *)buddy, order);
        if (buddy < b) b = buddy;
        order++;
    }
    push(a, b, order);
}
