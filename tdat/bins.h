/* bins.h — events counted per clock bin, in one growable array (docs/tdat.md).
 *
 * Bin i covers clocks [i·w, (i+1)·w). Clocks come in any order; the array
 * grows (doubling, new bins zero) to the largest bin seen, so memory depends
 * on the largest clock / w, never on the number of events. A bin index at or
 * above the limit is refused (bins_add returns false) instead of allocating
 * gigabytes: the caller reports it and suggests a larger bin width or a
 * higher limit. */
#ifndef DSM_TDAT_BINS_H
#define DSM_TDAT_BINS_H

#include <stdbool.h>
#include <stdint.h>

/* The default limit, 2^24 bins: 128 MiB of counts and a time file of a few
 * hundred MB, which one stray clock must not exceed unasked. */
#define BINS_DEFAULT_MAX ((uint64_t)1 << 24)
/* The highest limit that may be asked for (tdat --max-bins): 32 GiB of counts. */
#define BINS_MAX_LIMIT ((uint64_t)1 << 32)

typedef struct bins {
    uint64_t width;         /* w >= 1 */
    uint64_t max;           /* bins 0 .. max-1 may exist (1 <= max <= BINS_MAX_LIMIT) */
    uint64_t *count;        /* count[0, cap), zero past used */
    uint64_t cap;
    uint64_t used;          /* bins 0 .. used-1: 1 + the largest bin seen (0: none) */
    uint64_t events;
} bins;

void bins_init(bins *b, uint64_t width, uint64_t max);
void bins_free(bins *b);

/* The bin of clock (clock / w). */
static inline uint64_t bins_index(const bins *b, uint64_t clock) { return clock / b->width; }

/* Smallest bin width that keeps clock below bin max; 0 when there is none
 * (max 1 and clock 2^64 - 1). */
uint64_t bins_width_for(uint64_t clock, uint64_t max);

/* Counts one event at clock. False (nothing counted) when its bin is
 * b->max or more. */
bool bins_grow_add(bins *b, uint64_t clock);
static inline bool bins_add(bins *b, uint64_t clock)
{
    uint64_t i = clock / b->width;
    if (i < b->used) {      /* the common case: a bin that exists */
        b->count[i]++;
        b->events++;
        return true;
    }
    return bins_grow_add(b, clock);
}

#endif
