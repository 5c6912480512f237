/* reader_sets.c — hash-consed, reference-counted thread sets. */
#include "reader_sets.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

void rs_init(reader_sets *rs, int nthreads)
{
    memset(rs, 0, sizeof *rs);
    rs->nthreads = nthreads;
    rs->words = (nthreads + 63) / 64;
    rs->keys = xmalloc((size_t)nthreads * sizeof *rs->keys);
    rs->scratch = xmalloc((size_t)rs->words * sizeof *rs->scratch);
    uint64_t x = 0x9E3779B97F4A7C15ull;     /* fixed seed: deterministic */
    for (int t = 0; t < nthreads; t++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        rs->keys[t] = x * 0xD6E8FEB86659FD93ull;
    }
    rs->nsets = 1;                          /* id 0 is "empty" */
    rs->cap = 64;
    rs->sets = xcalloc(rs->cap, sizeof *rs->sets);
    rs->bits = xcalloc((size_t)rs->cap * (size_t)rs->words, sizeof *rs->bits);
    rs->table_cap = 256;
    rs->table = xcalloc(rs->table_cap, sizeof *rs->table);
}

void rs_free(reader_sets *rs)
{
    free(rs->keys);
    free(rs->scratch);
    free(rs->sets);
    free(rs->bits);
    free(rs->table);
    memset(rs, 0, sizeof *rs);
}

static uint64_t *set_bits(const reader_sets *rs, uint32_t id)
{
    return rs->bits + (size_t)id * (size_t)rs->words;
}

/* The members of r (not interned: 0 or READER_ONE|t) as a bitset in out. */
static void small_bits(const reader_sets *rs, uint32_t r, uint64_t *out, uint64_t *hash, uint32_t *size)
{
    memset(out, 0, (size_t)rs->words * sizeof *out);
    *hash = 0;
    *size = 0;
    if (r & READER_ONE) {
        int t = (int)(r & ~READER_ONE);
        out[t >> 6] |= 1ull << (t & 63);
        *hash = rs->keys[t];
        *size = 1;
    }
}

static void table_insert(reader_sets *rs, uint32_t id);

static void table_grow(reader_sets *rs)
{
    uint32_t old_cap = rs->table_cap;
    uint32_t *old = rs->table;
    rs->table_cap *= 2;
    rs->table = xcalloc(rs->table_cap, sizeof *rs->table);
    rs->table_used = 0;
    for (uint32_t i = 0; i < old_cap; i++)
        if (old[i]) table_insert(rs, old[i]);
    free(old);
}

static void table_insert(reader_sets *rs, uint32_t id)
{
    if (2 * (rs->table_used + 1) > rs->table_cap) table_grow(rs);
    uint32_t i = (uint32_t)rs->sets[id].hash & (rs->table_cap - 1);
    while (rs->table[i]) i = (i + 1) & (rs->table_cap - 1);
    rs->table[i] = id;
    rs->table_used++;
}

/* Remove id from the open-addressing table (backward-shift deletion). */
static void table_remove(reader_sets *rs, uint32_t id)
{
    uint32_t mask = rs->table_cap - 1, i = (uint32_t)rs->sets[id].hash & mask;
    while (rs->table[i] != id) i = (i + 1) & mask;
    uint32_t j = i;
    for (;;) {
        rs->table[i] = 0;
        for (;;) {
            j = (j + 1) & mask;
            if (!rs->table[j]) {
                rs->table_used--;
                return;
            }
            uint32_t home = (uint32_t)rs->sets[rs->table[j]].hash & mask;
            /* move table[j] to i when its home is not cyclically in (i, j] */
            if (i <= j ? (home <= i || home > j) : (home <= i && home > j)) break;
        }
        rs->table[i] = rs->table[j];
        i = j;
    }
}

static uint32_t new_id(reader_sets *rs)
{
    if (rs->free_head) {
        uint32_t id = rs->free_head;
        rs->free_head = rs->sets[id].next_free;
        return id;
    }
    if (rs->nsets == rs->cap) {
        if (rs->cap >= 0x40000000u) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "too many reader sets");
        rs->cap *= 2;
        rs->sets = xrealloc(rs->sets, rs->cap * sizeof *rs->sets);
        rs->bits = xrealloc(rs->bits, (size_t)rs->cap * (size_t)rs->words * sizeof *rs->bits);
    }
    return rs->nsets++;
}

uint32_t rs_add(reader_sets *rs, uint32_t r, int t)
{
    if (r == 0) return READER_ONE | (uint32_t)t;
    uint64_t *want = rs->scratch;
    uint64_t hash;
    uint32_t size;
    if (r & READER_ONE) {
        small_bits(rs, r, want, &hash, &size);
    } else {
        memcpy(want, set_bits(rs, r), (size_t)rs->words * sizeof *want);
        hash = rs->sets[r].hash;
        size = rs->sets[r].size;
    }
    want[t >> 6] |= 1ull << (t & 63);
    hash ^= rs->keys[t];
    size++;
    /* Look for an existing set with these members. */
    uint32_t mask = rs->table_cap - 1, found = 0;
    for (uint32_t i = (uint32_t)hash & mask; rs->table[i]; i = (i + 1) & mask) {
        uint32_t id = rs->table[i];
        if (rs->sets[id].hash == hash && rs->sets[id].size == size &&
            memcmp(set_bits(rs, id), want, (size_t)rs->words * sizeof *want) == 0) {
            found = id;
            break;
        }
    }
    if (!found) {
        found = new_id(rs);
        rs->sets[found] = (set_entry){ hash, size, 0, 0 };
        memcpy(set_bits(rs, found), want, (size_t)rs->words * sizeof *want);
        table_insert(rs, found);
    }
    rs->sets[found].refs++;
    rs_release(rs, r);
    return found;
}

void rs_release(reader_sets *rs, uint32_t r)
{
    if (r == 0 || (r & READER_ONE)) return;
    if (--rs->sets[r].refs) return;
    table_remove(rs, r);
    rs->sets[r].size = 0;
    rs->sets[r].next_free = rs->free_head;
    rs->free_head = r;
}

uint32_t rs_live(const reader_sets *rs)
{
    return rs->table_used;
}
