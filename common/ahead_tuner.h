/* ahead_tuner.h — whether a consumer's look-ahead hint pays, measured as the
 * replay goes (common/fanout.c).
 *
 * A hint costs the replay a few loads and prefetches, and pays only when the
 * state the access reads is not in the processor's caches already: that
 * depends on the footprint, not on the tool (ciat's hint took 0.82x the time
 * on the irregular mix of make bench, 1.02-1.08x on the FFT-like set with 64
 * threads). So the replay times its batches: most go with the setting whose
 * batches have been faster (the average time per event, each batch weighing
 * a quarter), every AHEAD_TRY_EVERY-th with the other, which keeps that
 * average current; the first two try each. A hint changes nothing the
 * consumer computes, so the outputs are the same whatever is chosen. */
#ifndef DSM_COMMON_AHEAD_TUNER_H
#define DSM_COMMON_AHEAD_TUNER_H

#include <stdbool.h>
#include <stdint.h>

enum { AHEAD_TRY_EVERY = 16 };

typedef struct ahead_tuner {
    uint64_t batches;           /* timed so far */
    double ns[2];               /* per event: batches without [0] and with [1] the hint */
} ahead_tuner;

/* Whether the next batch goes with the hint. */
static inline bool ahead_tuner_next(const ahead_tuner *u)
{
    uint64_t k = u->batches;
    if (k < 2) return k == 1;
    bool best = u->ns[1] < u->ns[0];
    return k % AHEAD_TRY_EVERY == 0 ? !best : best;
}

/* That batch took ns_per_event, with the hint (on) or without. */
static inline void ahead_tuner_took(ahead_tuner *u, bool on, double ns_per_event)
{
    u->ns[on] = u->batches < 2 ? ns_per_event : 0.75 * u->ns[on] + 0.25 * ns_per_event;
    u->batches++;
}

#endif
