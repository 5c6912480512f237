/* directory.c — the directory's hash table, doubled when 3/4 full. Entries
 * are never removed (an idle line keeps its entry), so probing needs no
 * tombstones.
 *
 * The hash scatters groups of 16 neighbouring lines but keeps each group's
 * entries side by side in a block of 16 slots: a program walking through
 * memory finds the next line's entry in the cache line it just used. A line
 * whose slot is taken probes the next block, one position further along
 * (next_slot), so a group that finds its block taken moves to the next block
 * as a whole instead of shoving the lines of the block's own group along one
 * slot at a time, through whole blocks: stepping by one slot, two groups
 * hashed to one block cost dozens of probes a lookup. */
#include "directory.h"
#include "../common/diag.h"

#include <stdlib.h>
#include <string.h>

enum { DIR_BLOCK = 16 };

static void set_cap(directory *d, size_t cap)
{
    d->cap = cap;
    d->group_shift = 32u - (unsigned)__builtin_ctzll(cap / DIR_BLOCK);
}

void dir_init(directory *d)
{
    set_cap(d, 1024);
    d->used = 0;
    d->e = xcalloc(d->cap, sizeof *d->e);
}

void dir_free(directory *d)
{
    free(d->e);
    memset(d, 0, sizeof *d);
}

/* The next slot of a probe: the next position of the next block. The step is
 * odd, so a probe visits every slot: it ends even when the lines of one
 * position crowd their column (a walk with a stride of 16 lines). */
static inline size_t next_slot(const directory *d, size_t i) { return (i + DIR_BLOCK + 1) & (d->cap - 1); }

static void grow(directory *d)
{
    dir_entry *old = d->e;
    size_t ocap = d->cap;
    set_cap(d, ocap * 2);
    d->e = xcalloc(d->cap, sizeof *d->e);
    for (size_t i = 0; i < ocap; i++) {
        if (!old[i].key) continue;
        size_t j = dir_slot_of(d, old[i].key - 1);
        while (d->e[j].key) j = next_slot(d, j);
        d->e[j] = old[i];
    }
    free(old);
}

dir_entry *dir_get(directory *d, uint32_t line)
{
    size_t i = dir_slot_of(d, line);
    uint32_t key = line + 1;
    while (d->e[i].key) {
        if (d->e[i].key == key) return &d->e[i];
        i = next_slot(d, i);
    }
    if ((d->used + 1) * 4 > d->cap * 3) {
        grow(d);
        return dir_get(d, line);
    }
    d->used++;
    d->e[i] = (dir_entry){ .key = key, .state = DIR_IDLE, .home = DIR_HOME_UNSET };
    return &d->e[i];
}

const dir_entry *dir_find(const directory *d, uint32_t line)
{
    size_t i = dir_slot_of(d, line);
    uint32_t key = line + 1;
    while (d->e[i].key) {
        if (d->e[i].key == key) return &d->e[i];
        i = next_slot(d, i);
    }
    return NULL;
}
