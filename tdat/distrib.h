/* distrib.h — the statistics of tdat's frequency file (docs/tdat.md).
 *
 * A bin's rate is its events / p (events per bin per processor). Over all
 * bins: average, minimum, maximum and the population standard deviation of
 * the rates; then the density and distribution functions of the rate over c
 * classes of equal width on [min, max]. A rate r falls in class
 * floor((r - min) / width), the maximum in the last one; this is computed on
 * the integer counts, floor((n - n_min) * c / (n_max - n_min)), so a rate on
 * a class boundary always lands in the upper class (no rounding of 0.3 / 0.1
 * to 2.9999). One class when min = max. */
#ifndef DSM_TDAT_DISTRIB_H
#define DSM_TDAT_DISTRIB_H

#include <stdint.h>

enum { DISTRIB_MAX_CLASSES = 1000000 };

typedef struct distrib_summary {
    uint64_t events, bins, processors;
    uint64_t min_count, max_count;      /* events in the emptiest / fullest bin */
    double avg_rate, min_rate, max_rate, stddev;
} distrib_summary;

/* count[0, nbins) with nbins >= 1, p >= 1. */
void distrib_summarize(const uint64_t *count, uint64_t nbins, uint64_t p, distrib_summary *s);

/* The default number of classes for nbins bins: Sturges' rule,
 * ceil(log2 nbins) + 1, at most 20 (so 3 bins get 3 classes, not 20 mostly
 * empty ones; 2^19 bins and more get 20). */
uint64_t distrib_default_classes(uint64_t nbins);

/* Number of classes actually used: c, or 1 when min = max. */
uint64_t distrib_class_count(const distrib_summary *s, uint64_t c);
/* The class of a bin holding n events (0 .. nclasses-1). */
uint64_t distrib_class_of(const distrib_summary *s, uint64_t nclasses, uint64_t n);
/* Lower bound of class k (k = nclasses gives the upper bound of the last
 * class, i.e. max_rate). */
double distrib_class_bound(const distrib_summary *s, uint64_t nclasses, uint64_t k);
/* Bins per class into hist[0, nclasses) (zeroed here). */
void distrib_classes(const distrib_summary *s, const uint64_t *count, uint64_t nclasses, uint64_t *hist);

#endif
