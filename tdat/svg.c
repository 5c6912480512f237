/* svg.c — the --svg picture: events per bin over the clock, and the density
 * of the bin rate. Plain SVG 1.1 attributes only, so any browser shows it. */
#include "svg.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Page layout, in pixels. */
enum { WIDTH = 960, HEIGHT = 780 };
typedef struct box { double left, right, top, bottom; } box;
static const box TIME_BOX = { 100, 930, 100, 350 };
static const box DENS_BOX = { 100, 930, 480, 710 };

static const char LINE_COLOR[] = "#1f5fa8", BAR_COLOR[] = "#e0893a", MEAN_COLOR[] = "#c0392b";

/* ---- ticks ------------------------------------------------------------------ */

double svg_tick_step(double range, int target, int integer)
{
    if (!(range > 0)) return 1;
    double raw = range / target;
    double mag = pow(10, floor(log10(raw)));
    double norm = raw / mag;
    double step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * mag;
    if (integer && step < 1) step = 1;
    return step;
}

void svg_tick_label(char *buf, size_t n, double v, double step)
{
    if (fabs(v) < step * 1e-9) v = 0;       /* no "-0" from rounding */
    if (step >= 1 && fabs(v) < 1e7) {
        snprintf(buf, n, "%.0f", v);
    } else if (fabs(v) >= 1e7) {
        snprintf(buf, n, "%.4g", v);
    } else {
        int dec = (int)ceil(-log10(step) - 1e-9);
        if (dec < 0) dec = 0;
        if (dec > 10) dec = 10;
        snprintf(buf, n, "%.*f", dec, v);
    }
}

/* ---- text ------------------------------------------------------------------- */

/* Writes s with the XML special characters escaped. */
static void put_escaped(out_file *f, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&': out_file_write(f, "&amp;", 5); break;
        case '<': out_file_write(f, "&lt;", 4); break;
        case '>': out_file_write(f, "&gt;", 4); break;
        case '"': out_file_write(f, "&quot;", 6); break;
        default:
            /* Control characters are not allowed in XML 1.0. */
            if ((unsigned char)*s < 0x20 && *s != '\t') out_file_write(f, "?", 1);
            else out_file_write(f, s, 1);
        }
    }
}

static void text(out_file *f, double x, double y, const char *anchor, int size, const char *extra,
                 const char *s)
{
    out_file_printf(f, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" font-size=\"%d\"%s>", x, y,
                    anchor, size, extra);
    put_escaped(f, s);
    out_file_printf(f, "</text>\n");
}

/* ---- axes ------------------------------------------------------------------- */

typedef struct axis {
    double lo, hi;      /* data range shown */
    double step;        /* tick step */
    const char *label;
} axis;

static double map_x(const box *b, const axis *a, double v)
{
    return b->left + (v - a->lo) / (a->hi - a->lo) * (b->right - b->left);
}

static double map_y(const box *b, const axis *a, double v)
{
    return b->bottom - (v - a->lo) / (a->hi - a->lo) * (b->bottom - b->top);
}

/* Frame, grid lines, ticks, tick labels and axis labels of one plot. */
static void draw_axes(out_file *f, const box *b, const axis *x, const axis *y)
{
    char lab[64];
    out_file_printf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"none\""
                    " stroke=\"#444\"/>\n", b->left, b->top, b->right - b->left, b->bottom - b->top);
    out_file_printf(f, "<g class=\"x-ticks\" fill=\"#222\">\n");
    for (int64_t k = (int64_t)ceil(x->lo / x->step - 1e-9); ; k++) {
        double v = (double)k * x->step;
        if (v > x->hi + x->step * 1e-9) break;
        double px = map_x(b, x, v);
        out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#444\"/>\n",
                        px, b->bottom, px, b->bottom + 5);
        svg_tick_label(lab, sizeof lab, v, x->step);
        text(f, px, b->bottom + 19, "middle", 11, "", lab);
    }
    out_file_printf(f, "</g>\n<g class=\"y-ticks\" fill=\"#222\">\n");
    for (int64_t k = (int64_t)ceil(y->lo / y->step - 1e-9); ; k++) {
        double v = (double)k * y->step;
        if (v > y->hi + y->step * 1e-9) break;
        double py = map_y(b, y, v);
        out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n",
                        b->left, py, b->right, py);
        out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#444\"/>\n",
                        b->left - 5, py, b->left, py);
        svg_tick_label(lab, sizeof lab, v, y->step);
        text(f, b->left - 8, py + 4, "end", 11, "", lab);
    }
    out_file_printf(f, "</g>\n");
    text(f, (b->left + b->right) / 2, b->bottom + 42, "middle", 13, "", x->label);
    double cy = (b->top + b->bottom) / 2;
    char rot[64];
    snprintf(rot, sizeof rot, " transform=\"rotate(-90 %.2f %.2f)\"", b->left - 62, cy);
    text(f, b->left - 62, cy, "middle", 13, rot, y->label);
}

/* An axis over [0, top] with top rounded up to a whole tick. */
static axis zero_based(double top, int target, int integer, const char *label)
{
    if (!(top > 0)) top = 1;
    double step = svg_tick_step(top, target, integer);
    return (axis){ 0, ceil(top / step - 1e-9) * step, step, label };
}

/* ---- the two plots ---------------------------------------------------------- */

static void time_plot(out_file *f, const svg_input *in)
{
    const bins *b = in->b;
    uint64_t n = b->used, group = (n + SVG_MAX_POINTS - 1) / SVG_MAX_POINTS;
    const box *bx = &TIME_BOX;
    text(f, bx->left, bx->top - 12, "start", 14, " font-weight=\"bold\"", "Events per bin over the clock");
    if (group > 1) {
        char note[96];
        snprintf(note, sizeof note, "each point: the largest of %" PRIu64 " consecutive bins", group);
        text(f, (bx->left + bx->right) / 2, bx->bottom + 60, "middle", 11, " fill=\"#444\"", note);
    }

    axis x = { 0, (double)n * (double)b->width, 0, "clock (start of the bin)" };
    x.step = svg_tick_step(x.hi, 8, 1);
    axis y = zero_based((double)in->s->max_count, 5, 1, "events per bin");
    draw_axes(f, bx, &x, &y);

    /* The series: one point per bin (or per group of bins), at the bin's
     * start. Pixel coordinates; the tests map them back through the ticks. */
    out_file_printf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\""
                    " stroke-linejoin=\"round\" points=\"", LINE_COLOR);
    for (uint64_t i = 0; i < n; i += group) {
        uint64_t m = 0;
        for (uint64_t j = i; j < n && j < i + group; j++)
            if (b->count[j] > m) m = b->count[j];
        out_file_printf(f, "%s%.2f,%.2f", i ? " " : "", map_x(bx, &x, (double)(i * b->width)),
                        map_y(bx, &y, (double)m));
    }
    out_file_printf(f, "\"/>\n");

    /* Markers, with the numbers as tooltips, where there are few bins (a
     * single bin draws no line). */
    if (group == 1 && n <= 200) {
        out_file_printf(f, "<g fill=\"%s\">\n", LINE_COLOR);
        for (uint64_t i = 0; i < n; i++)
            out_file_printf(f, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3\"><title>bin %" PRIu64 ": clock %"
                            PRIu64 ": %" PRIu64 " event%s</title></circle>\n", map_x(bx, &x, (double)(i * b->width)),
                            map_y(bx, &y, (double)b->count[i]), i, i * b->width, b->count[i],
                            b->count[i] == 1 ? "" : "s");
        out_file_printf(f, "</g>\n");
    }

    /* The mean number of events per bin. */
    double mean = in->s->avg_rate * (double)in->s->processors, py = map_y(bx, &y, mean);
    out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\""
                    " stroke-dasharray=\"6 4\"/>\n", bx->left, py, bx->right, py, MEAN_COLOR);
    char lab[64];
    snprintf(lab, sizeof lab, "mean %.4f events per bin (dashed)", mean);
    text(f, bx->right, bx->top - 12, "end", 12, " fill=\"#c0392b\"", lab);
}

static void density_plot(out_file *f, const svg_input *in)
{
    const distrib_summary *s = in->s;
    const box *bx = &DENS_BOX;
    text(f, bx->left, bx->top - 12, "start", 14, " font-weight=\"bold\"",
         "Density of the bin rate (fraction of bins per class)");

    /* One class (min = max): an axis [0, 2 max] with one narrow bar at max. */
    bool one = in->nclasses == 1;
    axis x = { one ? 0 : s->min_rate, one ? 2 * s->max_rate : s->max_rate, 0,
               "rate (events per bin per processor)" };
    if (!(x.hi > x.lo)) x.hi = x.lo + 1;
    x.step = svg_tick_step(x.hi - x.lo, 8, 0);
    double top = 0;
    for (uint64_t k = 0; k < in->nclasses; k++)
        if ((double)in->hist[k] / (double)s->bins > top) top = (double)in->hist[k] / (double)s->bins;
    axis y = zero_based(top, 5, 0, "fraction of bins");
    draw_axes(f, bx, &x, &y);

    out_file_printf(f, "<g class=\"density\" fill=\"%s\" stroke=\"#fff\" stroke-width=\"0.5\">\n", BAR_COLOR);
    for (uint64_t k = 0; k < in->nclasses; k++) {
        double lo = distrib_class_bound(s, in->nclasses, k), hi = distrib_class_bound(s, in->nclasses, k + 1);
        double frac = (double)in->hist[k] / (double)s->bins;
        double x0 = map_x(bx, &x, lo), x1 = map_x(bx, &x, hi);
        if (one) {
            x0 -= 6;
            x1 += 6;
        }
        double y1 = map_y(bx, &y, frac);
        out_file_printf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"><title>class %" PRIu64
                        ": rate %.4f to %.4f: %" PRIu64 " bin%s (fraction %.4f)</title></rect>\n",
                        x0, y1, x1 - x0, bx->bottom - y1, k + 1, lo, hi, in->hist[k],
                        in->hist[k] == 1 ? "" : "s", frac);
    }
    out_file_printf(f, "</g>\n");
}

void svg_write(out_file *f, const svg_input *in)
{
    out_file_printf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out_file_printf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\""
                    " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", WIDTH, HEIGHT, WIDTH, HEIGHT);
    out_file_printf(f, "<title>tdat: ");
    put_escaped(f, in->title);
    out_file_printf(f, "</title>\n");
    out_file_printf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", WIDTH, HEIGHT);
    out_file_printf(f, "<text x=\"%d\" y=\"34\" text-anchor=\"middle\" font-size=\"18\""
                    " font-weight=\"bold\">tdat: ", WIDTH / 2);
    put_escaped(f, in->title);
    out_file_printf(f, "</text>\n");
    text(f, WIDTH / 2, 56, "middle", 12, " fill=\"#444\"", in->subtitle);
    time_plot(f, in);
    density_plot(f, in);
    out_file_printf(f, "</svg>\n");
}
