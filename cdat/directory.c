/* directory.c — the line map's chunks and the table of views that do not fit
 * a byte (see directory.h).
 *
 * The table's hash scatters groups of 16 neighbouring lines but keeps each
 * group's entries side by side in a block of 16 slots: a program walking
 * through shared data finds the next line's entry in the host cache line it
 * just used. A probe steps to the next position of the next block (17
 * slots): a group that finds its block taken moves to the next block as a
 * whole instead of shoving another group's lines along one slot at a time.
 * The step is odd, so slot * 17^-1 (mod cap) numbers the probe sequence
 * consecutively: in those numbers the table is plain linear probing, and an
 * entry is removed by backward-shift deletion (no tombstones). The table
 * doubles when 3/4 full and halves when under 1/16 full, so it follows the
 * entries in use. */
#include "directory.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

enum { DIR_MIN_CAP = 64, DIR_BLOCK = 16, DIR_STEP = DIR_BLOCK + 1 };

static void set_cap(directory *d, size_t cap)
{
    d->cap = cap;
    d->shift = 32u - (unsigned)__builtin_ctzll(cap / DIR_BLOCK);
    uint64_t inv = DIR_STEP;                        /* Newton's iteration: DIR_STEP^-1 mod 2^64 */
    for (int i = 0; i < 5; i++) inv *= 2 - DIR_STEP * inv;
    d->step_inverse = inv;
    d->e = xcalloc(cap, sizeof *d->e);
}

void dir_init(directory *d, unsigned nprocs, unsigned line_shift)
{
    memset(d, 0, sizeof *d);
    uint64_t lines = (1ull << 32) >> line_shift;
    d->nchunks = (size_t)((lines + (1u << DIR_CHUNK_BITS) - 1) >> DIR_CHUNK_BITS);
    d->chunk = xcalloc(d->nchunks, sizeof *d->chunk);
    huge_arena_init_eager(&d->arena);
    /* Exclusive owners take codes 3 .. 3 + nprocs - 1; dirty ones the next
     * nprocs when they fit in a byte. */
    d->dirty_base = DIR_CODE_EXCL + 2 * nprocs <= 256 ? DIR_CODE_EXCL + nprocs : 0;
    set_cap(d, DIR_MIN_CAP);
}

void dir_free(directory *d)
{
    huge_arena_free(&d->arena);
    free(d->chunk);
    free(d->e);
    memset(d, 0, sizeof *d);
}

uint8_t *dir_new_chunk(directory *d, uint32_t line)
{
    uint8_t **c = &d->chunk[line >> DIR_CHUNK_BITS];
    *c = huge_arena_bump(&d->arena, 1u << DIR_CHUNK_BITS);    /* zeroed: DIR_CODE_NEW */
    d->chunks_used++;
    return *c;
}

/* The slot where line's entry is looked for first: its group's block, chosen
 * by Fibonacci hashing of the group number (the product's high bits). */
static inline size_t home_of(const directory *d, uint32_t line)
{
    return (size_t)(((line >> 4) * 0x9E3779B1u) >> d->shift) << 4 | (line & (DIR_BLOCK - 1));
}

static inline size_t next_slot(const directory *d, size_t i) { return (i + DIR_STEP) & (d->cap - 1); }

/* A slot's place in the probe order: consecutive along every probe sequence. */
static inline size_t probe_pos(const directory *d, size_t i) { return (size_t)(i * d->step_inverse) & (d->cap - 1); }

/* The slot of line's entry, or of the free slot where it would go. */
static inline size_t find(const directory *d, uint32_t line)
{
    uint32_t key = line + 1;
    size_t i = home_of(d, line);
    while (d->e[i].key && d->e[i].key != key) i = next_slot(d, i);
    return i;
}

static void rehash(directory *d, size_t cap)
{
    dir_entry *old = d->e;
    size_t ocap = d->cap;
    set_cap(d, cap);
    for (size_t i = 0; i < ocap; i++)
        if (old[i].key) d->e[find(d, old[i].key - 1)] = old[i];
    free(old);
}

void dir_load_table(directory *d, uint32_t line, dir_view *v)
{
    d->last = find(d, line);
    const dir_entry *e = &d->e[d->last];
    if (!e->key) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "internal error: directory entry missing");
    v->state = e->state;
    v->owner = e->owner;
    v->holders = e->holders;
}

/* Remove the entry at slot i; the entries after it in its run move back
 * toward their home slots, so every lookup still finds them. */
static void remove_at(directory *d, size_t i)
{
    size_t j = i;
    for (;;) {
        j = next_slot(d, j);
        if (!d->e[j].key) break;
        /* The entry at j may fill the hole at i unless its home lies
         * cyclically in (i, j] in probe order. */
        size_t pi = probe_pos(d, i), pj = probe_pos(d, j), pk = probe_pos(d, home_of(d, d->e[j].key - 1));
        bool stays = pi <= pj ? (pi < pk && pk <= pj) : (pi < pk || pk <= pj);
        if (stays) continue;
        d->e[i] = d->e[j];
        i = j;
    }
    d->e[i].key = 0;
}

void dir_store_slow(directory *d, uint32_t line, uint8_t *code, const dir_view *v, unsigned c)
{
    /* The entry dir_load found, unless the table changed since. */
    size_t i = d->last < d->cap && d->e[d->last].key == line + 1 ? d->last : find(d, line);
    if (c != DIR_CODE_TABLE) {             /* it fits the map again: the entry goes */
        if (d->e[i].key) {
            remove_at(d, i);
            d->used--;
            if (d->cap > DIR_MIN_CAP && d->used * 16 < d->cap) rehash(d, d->cap / 2);
        }
        *code = (uint8_t)c;
        return;
    }
    if (!d->e[i].key) {
        if ((d->used + 1) * 4 > d->cap * 3) {
            rehash(d, d->cap * 2);
            i = find(d, line);
        }
        d->used++;
        d->e[i].key = line + 1;
    }
    d->e[i].state = v->state;
    d->e[i].owner = v->owner;
    d->e[i].holders = v->holders;
    *code = DIR_CODE_TABLE;
}

bool dir_peek(const directory *d, uint32_t line, dir_view *v)
{
    const uint8_t *c = d->chunk[line >> DIR_CHUNK_BITS];
    if (!c || c[line & ((1u << DIR_CHUNK_BITS) - 1)] == DIR_CODE_NEW) return false;
    unsigned code = c[line & ((1u << DIR_CHUNK_BITS) - 1)];
    if (code == DIR_CODE_TABLE) {
        const dir_entry *e = &d->e[find(d, line)];
        v->state = e->state;
        v->owner = e->owner;
        v->holders = e->holders;
        return true;
    }
    dir_view_of_code(d, code, v);
    return true;
}
