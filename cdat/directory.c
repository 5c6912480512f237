/* directory.c — the directory's hash table: linear probing, doubled when 3/4
 * full. Entries are never removed (an idle line keeps its entry), so probing
 * needs no tombstones. The hash scatters groups of 16 neighbouring lines but
 * keeps each group's entries side by side: a program walking through memory
 * finds the next line's entry in the cache line it just used. */
#include "directory.h"
#include "../common/diag.h"

#include <stdlib.h>
#include <string.h>

static inline size_t slot_of(uint32_t line, size_t mask)
{
    uint32_t group = line >> 4;
    return (size_t)((((group * 0x9E3779B1u) >> 4) << 4) | (line & 15)) & mask;
}

void dir_init(directory *d)
{
    d->cap = 1024;
    d->used = 0;
    d->e = xcalloc(d->cap, sizeof *d->e);
}

void dir_free(directory *d)
{
    free(d->e);
    memset(d, 0, sizeof *d);
}

static void grow(directory *d)
{
    size_t ncap = d->cap * 2, mask = ncap - 1;
    dir_entry *ne = xcalloc(ncap, sizeof *ne);
    for (size_t i = 0; i < d->cap; i++) {
        if (!d->e[i].key) continue;
        size_t j = slot_of(d->e[i].key - 1, mask);
        while (ne[j].key) j = (j + 1) & mask;
        ne[j] = d->e[i];
    }
    free(d->e);
    d->e = ne;
    d->cap = ncap;
}

dir_entry *dir_get(directory *d, uint32_t line)
{
    size_t mask = d->cap - 1, i = slot_of(line, mask);
    uint32_t key = line + 1;
    while (d->e[i].key) {
        if (d->e[i].key == key) return &d->e[i];
        i = (i + 1) & mask;
    }
    if ((d->used + 1) * 4 > d->cap * 3) {
        grow(d);
        return dir_get(d, line);
    }
    d->used++;
    d->e[i] = (dir_entry){ .key = key, .state = DIR_IDLE };
    return &d->e[i];
}

const dir_entry *dir_find(const directory *d, uint32_t line)
{
    size_t mask = d->cap - 1, i = slot_of(line, mask);
    uint32_t key = line + 1;
    while (d->e[i].key) {
        if (d->e[i].key == key) return &d->e[i];
        i = (i + 1) & mask;
    }
    return NULL;
}
