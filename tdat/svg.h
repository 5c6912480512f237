/* svg.h — tdat --svg: one self-contained SVG picture of a run (docs/tdat.md).
 *
 * Top: the rate (events per bin per processor, the unit of the frequency
 * file) over the clock, each series drawn as steps: a level over each bin's
 * whole width [start, end), so nothing suggests values between bins. A
 * series is a polyline of class "series" whose points come in pairs, (bin
 * start, rate) then (bin end, rate); with more than SVG_MAX_POINTS bins a
 * pair stands for a group of consecutive bins and carries the group's
 * largest rate. Several series (tdat --series) share the axes, each in its
 * own colour, named in a legend (group of class "legend"). Few bins (<= 200)
 * of one series get tooltips ("bin I: clock C: N events"). The y axis leaves
 * headroom above the largest rate; --log draws it on a log scale. Bottom:
 * the density of the bin rate as bars, each with a <title> "class K: rate
 * LO to HI: N bins (fraction F)" (N bin when 1) as in the frequency file.
 * Axes with ticks and labels (groups of class "x-ticks" and "y-ticks"; a
 * tick's label is the value at its x or y), a title and subtitle; no
 * scripts, styles, fonts or images from other files. */
#ifndef DSM_TDAT_SVG_H
#define DSM_TDAT_SVG_H

#include <stdbool.h>

#include "bins.h"
#include "distrib.h"
#include "../common/out_file.h"

enum { SVG_MAX_POINTS = 2000, SVG_MAX_SERIES = 10 };
enum { SVG_MIN_WIDTH = 400, SVG_MIN_HEIGHT = 400, SVG_MAX_SIZE = 20000 };

typedef struct svg_series {
    const char *name;
    const bins *b;              /* its events per bin (width as the run's) */
} svg_series;

typedef struct svg_input {
    const char *title;          /* the heading, e.g. "tdat: <input>" */
    const char *subtitle;       /* options in force (bin width, p, filters) */
    const char *xlabel, *ylabel;    /* of the top plot */
    int width, height;          /* pixels */
    bool log_y;                 /* the top plot's rate on a log scale */
    const bins *b;              /* all kept events */
    const svg_series *series;   /* nseries > 0: these are drawn instead of b */
    int nseries;
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
