/* bins.c — the growable per-bin event counts. */
#include "bins.h"
#include "../common/diag.h"

#include <stdlib.h>
#include <string.h>

void bins_init(bins *b, uint64_t width)
{
    *b = (bins){ .width = width };
}

void bins_free(bins *b)
{
    free(b->count);
    *b = (bins){ 0 };
}

uint64_t bins_width_for(uint64_t clock) { return clock / BINS_MAX + 1; }

bool bins_grow_add(bins *b, uint64_t clock)
{
    uint64_t i = clock / b->width;
    if (i >= BINS_MAX) return false;
    if (i >= b->cap) {
        uint64_t ncap = b->cap ? b->cap : 1024;
        while (ncap <= i) ncap *= 2;
        if (ncap > BINS_MAX) ncap = BINS_MAX;
        b->count = xrealloc(b->count, (size_t)ncap * sizeof *b->count);
        memset(b->count + b->cap, 0, (size_t)(ncap - b->cap) * sizeof *b->count);
        b->cap = ncap;
    }
    if (i >= b->used) b->used = i + 1;
    b->count[i]++;
    b->events++;
    return true;
}
