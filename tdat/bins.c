/* bins.c — the growable per-bin event counts. */
#include "bins.h"
#include "../base/diag.h"

#include <stdlib.h>
#include <string.h>

void bins_init(bins *b, uint64_t width, uint64_t max)
{
    *b = (bins){ .width = width, .max = max };
}

void bins_free(bins *b)
{
    free(b->count);
    *b = (bins){ 0 };
}

uint64_t bins_width_for(uint64_t clock, uint64_t max)
{
    uint64_t w = clock / max;
    return w == UINT64_MAX ? 0 : w + 1;     /* 0: one bin, and no width puts 2^64-1 in bin 0 */
}

bool bins_grow_add(bins *b, uint64_t clock)
{
    uint64_t i = clock / b->width;
    if (i >= b->max) return false;
    if (i >= b->cap) {
        uint64_t ncap = b->cap ? b->cap : 1024;
        while (ncap <= i) ncap *= 2;
        if (ncap > b->max) ncap = b->max;
        b->count = xrealloc(b->count, (size_t)ncap * sizeof *b->count);
        memset(b->count + b->cap, 0, (size_t)(ncap - b->cap) * sizeof *b->count);
        b->cap = ncap;
    }
    if (i >= b->used) b->used = i + 1;
    b->count[i]++;
    b->events++;
    return true;
}
