/* reader_sets.h — the reader sets R of the communication analysis (docs/ciat-report.md, L10–L15).
 *
 * A location stores its set in 32 bits: 0 = empty, READER_ONE|t = the single
 * reader t, otherwise the id of an interned set of two or more threads. Sets
 * are hash-consed and reference-counted: every location read by the same
 * threads shares one set (all 128 readers of a read-shared matrix cost one
 * entry, not 16 bytes per location), and a set is freed when no location
 * holds it. The per-access test (is p in R?) is a compare or one bit test;
 * adding a reader happens only on a RAW or RAR access. */
#ifndef DSM_CIAT_READER_SETS_H
#define DSM_CIAT_READER_SETS_H

#include <stdbool.h>
#include <stdint.h>

#define READER_ONE 0x80000000u

typedef struct set_entry {
    uint64_t hash;          /* XOR of the members' keys */
    uint32_t size;          /* members (>= 2); 0 = free slot */
    uint32_t refs;
    uint32_t next_free;
} set_entry;

typedef struct reader_sets {
    int nthreads, words;
    uint64_t *keys;         /* random key per thread, for hashing */
    uint64_t *scratch;      /* words: the set being built by rs_add */
    set_entry *sets;        /* index = id; id 0 unused */
    uint64_t *bits;         /* words per set, same index */
    uint32_t nsets, cap, free_head;
    uint32_t *table;        /* hash table of ids (0 = empty slot) */
    uint32_t table_cap, table_used;
} reader_sets;

void rs_init(reader_sets *rs, int nthreads);
void rs_free(reader_sets *rs);

static inline bool rs_contains(const reader_sets *rs, uint32_t r, int t)
{
    if (r == 0) return false;
    if (r & READER_ONE) return (int)(r & ~READER_ONE) == t;
    return (rs->bits[(uint64_t)r * (uint64_t)rs->words + (uint64_t)(t >> 6)] >> (t & 63)) & 1;
}

static inline uint32_t rs_size(const reader_sets *rs, uint32_t r)
{
    return r == 0 ? 0 : (r & READER_ONE) ? 1 : rs->sets[r].size;
}

/* r ∪ {t} for t not in r; the reference held on r moves to the result. */
uint32_t rs_add(reader_sets *rs, uint32_t r, int t);
/* Drop the reference a location held on r. */
void rs_release(reader_sets *rs, uint32_t r);
/* Live interned sets (for statistics). */
uint32_t rs_live(const reader_sets *rs);

#endif
