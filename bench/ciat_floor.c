/* ciat_floor.c — a bare model of ciat's communication analysis, to show what
 * that analysis alone costs on this machine: the yardstick beside ciat's
 * irregular-mix line in make bench (bench/run-bench.sh).
 *
 *   ciat_floor SET
 *
 * reads a little-endian trace set (SET = PREFIX.P, P <= 8; the threads in
 * turn a block at a time, bench/floor_in.h) and keeps, for every 4-byte word
 * a data access touches first, the last thread that wrote it and the
 * threads that read it since (a byte each), in dense per-4 KiB-page arrays
 * from one huge-page reservation: a load by another thread than the last
 * writer that had not read it since is a RAW, a store after others' loads a
 * WAR, after another's store a WAW, a load after others' loads a RAR. The
 * state of each access is prefetched in two steps, as ciat's look-ahead
 * does: its page's pointer 32 records ahead, its word 16 ahead (within the
 * block of records). Nothing else: no instruction stream, strings, usage,
 * sharing degrees, validation, grain or size handling, and no bound on
 * memory (2 bytes per word of every page touched, however little of it is
 * touched). It prints its counts and megabytes of state; they are not
 * ciat's (another order, one word per access).
 *
 * A benchmark helper, not a tool. */
#include "floor_in.h"

#include <inttypes.h>

enum { MAX_THREADS = 8, WORDS_PER_PAGE = 1024, RESERVE_BYTES = 1u << 30 };

typedef struct word_state { uint8_t writer, readers; } word_state;   /* writer: thread + 1, 0 none */

static word_state *page[1u << 20];     /* 4-byte word >> 10 → its page's words, or NULL */
static unsigned char *arena;
static size_t arena_used;

static word_state *new_page(void)
{
    if (arena_used + WORDS_PER_PAGE * sizeof(word_state) > RESERVE_BYTES) {
        fprintf(stderr, "ciat_floor: more than %u MiB of state\n", RESERVE_BYTES >> 20);
        exit(2);
    }
    word_state *p = (word_state *)(arena + arena_used);
    arena_used += WORDS_PER_PAGE * sizeof(word_state);
    return p;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: ciat_floor SET\n");
        return 1;
    }
    floor_in in;
    floor_open(&in, argv[1], MAX_THREADS);   /* a byte of readers per word */
    arena = floor_reserve(RESERVE_BYTES);
    uint64_t raw = 0, war = 0, waw = 0, rar = 0, records = 0;
    uint32_t rec[2 * FLOOR_BLOCK];
    int t;
    unsigned n;
    while ((n = floor_block(&in, &t, rec)) > 0) {
        records += n;
        uint8_t me = (uint8_t)(1u << t), id = (uint8_t)(t + 1);
        for (unsigned k = 0; k < n; k++) {
            if (k + 32 < n) __builtin_prefetch(&page[rec[2 * (k + 32) + 1] >> 12]);
            if (k + 16 < n) {
                uint32_t w = rec[2 * (k + 16) + 1] >> 2;
                const word_state *p = page[w >> 10];
                if (p) __builtin_prefetch(&p[w & (WORDS_PER_PAGE - 1)]);
            }
            uint32_t f1 = rec[2 * k];
            if (smait_classify(f1) != SMAIT_MEM) continue;
            uint32_t w = rec[2 * k + 1] >> 2;
            word_state **pp = &page[w >> 10];
            if (!*pp) *pp = new_page();
            word_state *s = &(*pp)[w & (WORDS_PER_PAGE - 1)];
            if (smait_mem_access(f1) != SMAIT_LOAD) {
                waw += s->writer && s->writer != id;
                war += (s->readers & ~me) != 0;
                s->writer = id;
                s->readers = 0;
            } else {
                raw += s->writer && s->writer != id && !(s->readers & me);
                rar += (s->readers & ~me) != 0;
                s->readers |= me;
            }
        }
    }
    printf("ciat_floor: %" PRIu64 " records, RAW %" PRIu64 ", WAR %" PRIu64 ", WAW %" PRIu64 ", RAR %" PRIu64
           ", %zu MiB of state\n", records, raw, war, waw, rar, arena_used >> 20);
    return 0;
}
