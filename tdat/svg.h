/* svg.h — tdat --svg: one self-contained SVG picture of a run (docs/tdat.md).
 *
 * Top: events per bin over the clock, a polyline (class "series") with a
 * point per bin at (bin start, events); with more than SVG_MAX_POINTS bins,
 * each point stands for a group of consecutive bins and carries the group's
 * largest count. Few bins (<= 200) also get markers with the numbers as
 * tooltips. Bottom: the density function of the bin rate as bars, each
 * with a <title> "class K: rate LO to HI: N bins (fraction F)" (N bin when 1) as in the
 * frequency file. Axes with ticks and labels (groups of class "x-ticks" and
 * "y-ticks": a tick's label is the value at its x or y), a title naming the
 * input; no scripts, styles, fonts or images from other files. */
#ifndef DSM_TDAT_SVG_H
#define DSM_TDAT_SVG_H

#include "bins.h"
#include "distrib.h"
#include "../common/out_file.h"

enum { SVG_MAX_POINTS = 2000 };

typedef struct svg_input {
    const char *title;          /* e.g. the input file's name */
    const char *subtitle;       /* options in force (bin width, p, filters) */
    const bins *b;
    const distrib_summary *s;
    uint64_t nclasses;
    const uint64_t *hist;       /* bins per class */
} svg_input;

void svg_write(out_file *f, const svg_input *in);

/* Axis helpers, exposed for the unit tests: a "nice" tick step (1, 2 or 5
 * times a power of ten; at least 1 when integer) for about target ticks over
 * range, and a tick label for v on an axis with that step. */
double svg_tick_step(double range, int target, int integer);
void svg_tick_label(char *buf, size_t n, double v, double step);

#endif
