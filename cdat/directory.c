/* directory.c — the line map's chunks and the table of views that do not fit
 * a byte (see directory.h). The table uses linear probing with backward-shift
 * deletion, so removing an entry leaves no tombstone; it doubles when 3/4
 * full and halves when under 1/16 full, so it follows the entries in use. */
#include "directory.h"
#include "../common/diag.h"

#include <stdlib.h>
#include <string.h>

enum { DIR_MIN_CAP = 64 };

static void set_cap(directory *d, size_t cap)
{
    d->cap = cap;
    d->shift = 32u - (unsigned)__builtin_ctzll(cap);
    d->e = xcalloc(cap, sizeof *d->e);
}

void dir_init(directory *d, unsigned nprocs, unsigned line_shift)
{
    memset(d, 0, sizeof *d);
    uint64_t lines = (1ull << 32) >> line_shift;
    d->nchunks = (size_t)((lines + (1u << DIR_CHUNK_BITS) - 1) >> DIR_CHUNK_BITS);
    d->chunk = xcalloc(d->nchunks, sizeof *d->chunk);
    /* Exclusive owners take codes 3 .. 3 + nprocs - 1; dirty ones the next
     * nprocs when they fit in a byte. */
    d->dirty_base = DIR_CODE_EXCL + 2 * nprocs <= 256 ? DIR_CODE_EXCL + nprocs : 0;
    set_cap(d, DIR_MIN_CAP);
}

void dir_free(directory *d)
{
    for (size_t i = 0; i < d->nchunks; i++) free(d->chunk[i]);
    free(d->chunk);
    free(d->e);
    memset(d, 0, sizeof *d);
}

uint8_t *dir_new_chunk(directory *d, uint32_t line)
{
    uint8_t **c = &d->chunk[line >> DIR_CHUNK_BITS];
    *c = xcalloc(1u << DIR_CHUNK_BITS, 1);
    d->chunks_used++;
    return *c;
}

static inline size_t home_of(const directory *d, uint32_t line)
{
    return (line * 0x9E3779B1u) >> d->shift;        /* Fibonacci hashing: spreads runs of lines */
}

/* The slot of line's entry, or of the free slot where it would go. */
static inline size_t find(const directory *d, uint32_t line)
{
    uint32_t key = line + 1;
    size_t i = home_of(d, line), mask = d->cap - 1;
    while (d->e[i].key && d->e[i].key != key) i = (i + 1) & mask;
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

void dir_load_table(const directory *d, uint32_t line, dir_view *v)
{
    const dir_entry *e = &d->e[find(d, line)];
    if (!e->key) diag_fatal(EXIT_INTERNAL, NULL, DIAG_NO_OFFSET, "internal error: directory entry missing");
    v->state = e->state;
    v->owner = e->owner;
    v->holders = e->holders;
}

/* Remove the entry at slot i; the entries after it in its run move back
 * toward their home slots, so every lookup still finds them. */
static void remove_at(directory *d, size_t i)
{
    size_t mask = d->cap - 1, j = i;
    for (;;) {
        j = (j + 1) & mask;
        if (!d->e[j].key) break;
        size_t k = home_of(d, d->e[j].key - 1);
        /* The entry at j may fill the hole at i unless its home lies cyclically in (i, j]. */
        bool stays = i <= j ? (i < k && k <= j) : (i < k || k <= j);
        if (stays) continue;
        d->e[i] = d->e[j];
        i = j;
    }
    d->e[i].key = 0;
}

void dir_store_slow(directory *d, uint32_t line, uint8_t *code, const dir_view *v, unsigned c)
{
    if (c != DIR_CODE_TABLE) {             /* it fits the map again: the entry goes */
        size_t i = find(d, line);
        if (d->e[i].key) {
            remove_at(d, i);
            d->used--;
            if (d->cap > DIR_MIN_CAP && d->used * 16 < d->cap) rehash(d, d->cap / 2);
        }
        *code = (uint8_t)c;
        return;
    }
    size_t i = find(d, line);
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
        dir_load_table(d, line, v);
        return true;
    }
    memset(v, 0, sizeof *v);
    if (code == DIR_CODE_IDLE) {
        v->state = DIR_IDLE;
        return true;
    }
    bool dirty = d->dirty_base && code >= d->dirty_base;
    v->state = dirty ? DIR_DIRTY : DIR_EXCLUSIVE;
    v->owner = (uint8_t)(code - (dirty ? d->dirty_base : DIR_CODE_EXCL));
    hs_add(&v->holders, v->owner);
    return true;
}
