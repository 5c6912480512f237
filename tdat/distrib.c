/* distrib.c — summary, classes, density and distribution of the bin rates. */
#include "distrib.h"

#include <math.h>
#include <string.h>

void distrib_summarize(const uint64_t *count, uint64_t nbins, uint64_t p, distrib_summary *s)
{
    uint64_t events = 0, lo = UINT64_MAX, hi = 0;
    for (uint64_t i = 0; i < nbins; i++) {
        uint64_t n = count[i];
        events += n;
        if (n < lo) lo = n;
        if (n > hi) hi = n;
    }
    /* Population standard deviation, two passes (no cancellation). The mean
     * and deviations are taken in events per bin, then divided by p. */
    double mean = (double)events / (double)nbins, ss = 0;
    for (uint64_t i = 0; i < nbins; i++) {
        double d = (double)count[i] - mean;
        ss += d * d;
    }
    *s = (distrib_summary){
        .events = events, .bins = nbins, .processors = p,
        .min_count = lo, .max_count = hi,
        .avg_rate = mean / (double)p,
        .min_rate = (double)lo / (double)p,
        .max_rate = (double)hi / (double)p,
        .stddev = sqrt(ss / (double)nbins) / (double)p,
    };
}

uint64_t distrib_class_count(const distrib_summary *s, uint64_t c)
{
    return s->min_count == s->max_count ? 1 : c;
}

uint64_t distrib_class_of(const distrib_summary *s, uint64_t nclasses, uint64_t n)
{
    if (nclasses <= 1) return 0;
    uint64_t range = s->max_count - s->min_count, d = n - s->min_count, k;
    /* floor(d * c / range); the product can pass 2^64 (then in 128 bits). */
    if (d <= UINT64_MAX / nclasses)
        k = d * nclasses / range;
    else
        k = (uint64_t)((unsigned __int128)d * nclasses / range);
    return k >= nclasses ? nclasses - 1 : k;
}

double distrib_class_bound(const distrib_summary *s, uint64_t nclasses, uint64_t k)
{
    if (k == 0) return s->min_rate;
    if (k >= nclasses) return s->max_rate;
    double range = (double)(s->max_count - s->min_count);
    return ((double)s->min_count + range * (double)k / (double)nclasses) / (double)s->processors;
}

void distrib_classes(const distrib_summary *s, const uint64_t *count, uint64_t nclasses, uint64_t *hist)
{
    memset(hist, 0, (size_t)nclasses * sizeof *hist);
    for (uint64_t i = 0; i < s->bins; i++) hist[distrib_class_of(s, nclasses, count[i])]++;
}

uint64_t distrib_default_classes(uint64_t nbins)
{
    uint64_t c = 1;
    while (c < 20 && ((uint64_t)1 << (c - 1)) < nbins) c++;  /* 2^(c-2) < nbins <= 2^(c-1) */
    return c;
}
