/* huge_arena.h — memory for large, long-lived analysis state, on huge pages.
 *
 * The analysers' per-location state (ciat's location map) is many small
 * allocations reached at random: on an irregular footprint every access can
 * miss the TLB, and every 4 KiB page of new state costs a page fault, which
 * on a virtual machine costs more than the analysis of the access. So the
 * arena takes memory from the kernel in 2 MiB chunks aligned to 2 MiB and
 * asks for transparent huge pages on them (madvise MADV_HUGEPAGE, where the
 * kernel has it: a hint; without it the chunks are ordinary pages) once the
 * arena holds more than HUGE_ARENA_SMALL bytes: a huge page is zeroed whole
 * when first touched, which small runs would pay for nothing. An arena whose
 * state fills its chunks in order and is reached at random from the start
 * (cdat's line map) asks for them from its first chunk instead
 * (huge_arena_init_eager): it pays for one huge page at most.
 *
 * Two kinds of allocation, both 64-byte aligned and zeroed:
 *  - huge_arena_bump: lives until huge_arena_free (state that only grows);
 *  - huge_arena_block / huge_arena_release: power-of-two blocks of 64 bytes
 *    to HUGE_ARENA_MAX_BLOCK, from a binary buddy allocator (a freed block
 *    merges with its free buddy, so tables that grow by doubling leave
 *    memory the next table of any size can use, as malloc would).
 * Memory goes back to the kernel only in huge_arena_free. Under
 * AddressSanitizer free blocks are poisoned but for their first 16 bytes
 * (the free list's links), so a use after release or a write past a block
 * into free memory is still caught there. */
#ifndef DSM_COMMON_HUGE_ARENA_H
#define DSM_COMMON_HUGE_ARENA_H

#include <stddef.h>
#include <stdint.h>

enum {
    HUGE_ARENA_CHUNK = 2u << 20,        /* bytes the kernel gives at a time (one huge page) */
    HUGE_ARENA_MIN_SHIFT = 6,           /* smallest block: 64 bytes (a cache line) */
    HUGE_ARENA_ORDERS = 10,             /* block orders 0..9: 64 B .. 32 KiB */
    HUGE_ARENA_MAX_BLOCK = 64u << (HUGE_ARENA_ORDERS - 1),
    HUGE_ARENA_SMALL = 2 * HUGE_ARENA_CHUNK,    /* the first chunks: ordinary pages */
};

typedef struct huge_arena_free_block huge_arena_free_block;

typedef struct huge_arena {
    void **chunks;                      /* every chunk, for huge_arena_free */
    size_t nchunks, chunks_cap;
    unsigned char *bump, *bump_end;     /* the bump allocations' chunk: its free part */
    unsigned char *sb, *sb_end;         /* the buddy blocks' chunk: its unused part */
    huge_arena_free_block *free[HUGE_ARENA_ORDERS];     /* free blocks of each order */
    uint64_t bytes;                     /* bytes taken from the kernel */
    uint64_t ordinary;                  /* bytes on ordinary pages before huge ones are asked for */
} huge_arena;

void huge_arena_init(huge_arena *a);
/* The same, with huge pages asked for from the first chunk on. */
void huge_arena_init_eager(huge_arena *a);
/* Gives every chunk back; the arena is empty (and usable) afterwards. */
void huge_arena_free(huge_arena *a);

/* n bytes (n <= HUGE_ARENA_CHUNK / 2), zeroed, until huge_arena_free. */
void *huge_arena_bump(huge_arena *a, size_t n);

/* The order of the smallest block holding n bytes (n <= HUGE_ARENA_MAX_BLOCK). */
static inline unsigned huge_arena_order(size_t n)
{
    unsigned k = 0;
    while (((size_t)1 << (HUGE_ARENA_MIN_SHIFT + k)) < n) k++;
    return k;
}

/* A zeroed block of 64 << order bytes, until released. */
void *huge_arena_block(huge_arena *a, unsigned order);
/* Gives back a block huge_arena_block made with the same order. */
void huge_arena_release(huge_arena *a, void *p, unsigned order);

/* One large array (n bytes, n > 0), zeroed, aligned to HUGE_ARENA_CHUNK, on
 * huge pages where the kernel gives them (from the start: it is for state
 * reached at random from the first access, such as a large cache's tags);
 * its pages are zeroed when first touched, as calloc's are. Give it back
 * with huge_unmap(p, n). Out of memory is fatal, as in the arena. */
void *huge_map(size_t n);
void huge_unmap(void *p, size_t n);

/* Bytes taken from the kernel (chunks), for tests and statistics. */
static inline uint64_t huge_arena_bytes(const huge_arena *a) { return a->bytes; }

#endif
