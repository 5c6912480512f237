/* miss_class.h — why each cdat miss happened (--miss-classes; docs/cdat-report.md
 * L17, L18): cold, capacity, conflict, true sharing, false sharing.
 *
 * Per processor and cache (d, i) it keeps the lines ever referenced (cold),
 * a fully associative LRU shadow cache of the same lines and line size
 * (Hill's capacity/conflict rule), and, only for copies another processor's
 * write invalidated, the words written by other processors since. */
#ifndef DSM_CDAT_MISS_CLASS_H
#define DSM_CDAT_MISS_CLASS_H

#include <stdint.h>

#include "cache.h"

enum { MC_COLD, MC_CAPACITY, MC_CONFLICT, MC_TRUE, MC_FALSE, MC_CLASSES };
enum { MC_DATA = 0, MC_INSTR = 1 };

typedef struct miss_class miss_class;

/* nprocs processors; dgeom and igeom: any processor's d- and i-cache (all alike). */
miss_class *mc_new(unsigned nprocs, const cache *dgeom, const cache *igeom, unsigned line_shift);
void mc_free(miss_class *mc);

/* A reference of processor p to line by stream s, touching the words in
 * words (mc_words); outcome 1 when it missed. Returns the miss's class, or
 * -1 for a reference that did not miss. Every reference must come here, in
 * order (the shadow cache keeps the LRU order of all of them). */
int mc_ref(miss_class *mc, unsigned p, int s, uint32_t line, uint64_t words, int missed);

/* Processor p's copy of line in stream s was invalidated by another's request. */
void mc_invalidated(miss_class *mc, unsigned p, int s, uint32_t line);

/* Processor p wrote words of line (after its reference). */
void mc_write(miss_class *mc, unsigned p, uint32_t line, uint64_t words);

/* The word mask of bytes [lo, hi] of a line (offsets within it). */
uint64_t mc_words(const miss_class *mc, unsigned lo, unsigned hi);

#endif
