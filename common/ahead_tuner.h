/* ahead_tuner.h — whether a consumer's look-ahead hint pays, measured as the
 * replay goes (common/fanout.c).
 *
 * A hint costs the replay a few loads and prefetches, and pays only when the
 * state the access reads is not in the processor's caches already: that
 * depends on the footprint, not on the tool (ciat's hint pays on the
 * irregular mix of make bench and costs on the FFT-like set with 64 threads:
 * bench/README.md E9). So the replay times its batches and runs most of them
 * with the setting it has chosen; a trial batch runs with the other and is
 * compared with the batch just before it. Two neighbouring batches see the
 * same phase of the run, so the comparison holds while the cost per event
 * drifts (a cold start, a new phase), which an average per setting, the
 * other setting's taken only now and then, did not: on the FFT-like set the
 * first, cold batches kept the hint's absence looking slow for hundreds of
 * batches. The choice follows an average of the trials' log ratios, each
 * weighing a quarter and none counting for more than a factor e (a batch the
 * system interrupted). Trials are every 4th batch of the first 64, then
 * every 16th. A hint changes nothing the consumer computes, so the outputs
 * are the same whatever is chosen. A consumer's far hint
 * (sched_hints.ahead_far) has a tuner of its own, fed only the batches that
 * run with the near hint. */
#ifndef DSM_COMMON_AHEAD_TUNER_H
#define DSM_COMMON_AHEAD_TUNER_H

#include <math.h>
#include <stdbool.h>
#include <stdint.h>

enum { AHEAD_TRY_EVERY = 16, AHEAD_EARLY_BATCHES = 64, AHEAD_EARLY_EVERY = 4 };

typedef struct ahead_tuner {
    uint64_t batches;           /* timed so far */
    double prev_ns;             /* the last batch run with the chosen setting: ns per event */
    double log_ratio;           /* average of log(ns with the hint / ns without) over the trials */
    bool on;                    /* the chosen setting: with the hint */
    bool tried;                 /* log_ratio holds a trial */
} ahead_tuner;

/* Whether batch k is a trial: never the first (cold) nor the second (the
 * first trial's reference). */
static inline bool ahead_tuner_trial(uint64_t k)
{
    if (k < 2) return false;
    uint64_t every = k < AHEAD_EARLY_BATCHES ? AHEAD_EARLY_EVERY : AHEAD_TRY_EVERY;
    return k % every == 2;
}

/* Whether the next batch goes with the hint. */
static inline bool ahead_tuner_next(const ahead_tuner *u)
{
    return ahead_tuner_trial(u->batches) ? !u->on : u->on;
}

/* That batch took ns_per_event, with the hint (on) or without. */
static inline void ahead_tuner_took(ahead_tuner *u, bool on, double ns_per_event)
{
    if (on != u->on) {
        if (u->prev_ns > 0 && ns_per_event > 0) {
            double r = log(on ? ns_per_event / u->prev_ns : u->prev_ns / ns_per_event);
            r = r > 1 ? 1 : r < -1 ? -1 : r;
            u->log_ratio = u->tried ? 0.75 * u->log_ratio + 0.25 * r : r;
            u->tried = true;
            u->on = u->log_ratio < 0;
        }
    } else {
        u->prev_ns = ns_per_event;
    }
    u->batches++;
}

#endif
