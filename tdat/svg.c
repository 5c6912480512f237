/* svg.c — the --svg picture: events per bin over the clock, and the density
 * of the bin rate. Plain SVG 1.1 attributes only, so any browser shows it. */
#include "svg.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* Page layout, in pixels: margins around two plots, the time plot taller. */
typedef struct box { double left, right, top, bottom; } box;
enum { MARGIN_LEFT = 100, MARGIN_RIGHT = 30, PLOTS_TOP = 100, MARGIN_BOTTOM = 70, PLOTS_GAP = 130 };

static void layout(int width, int height, box *time, box *dens)
{
    double avail = height - PLOTS_TOP - MARGIN_BOTTOM - PLOTS_GAP;
    double th = floor(avail * 0.52);
    *time = (box){ MARGIN_LEFT, width - MARGIN_RIGHT, PLOTS_TOP, PLOTS_TOP + th };
    *dens = (box){ MARGIN_LEFT, width - MARGIN_RIGHT, PLOTS_TOP + th + PLOTS_GAP, height - MARGIN_BOTTOM };
}

static const char BAR_COLOR[] = "#e0893a", MEAN_COLOR[] = "#c0392b";
/* Series colours, told apart also in grey (a paper printed in black and
 * white): dark blue, orange, green, red, purple, brown, pink, grey, olive, cyan. */
static const char *const SERIES_COLOR[SVG_MAX_SERIES] = {
    "#1f5fa8", "#e67e22", "#2e8b57", "#c0392b", "#8e44ad", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22",
    "#17becf",
};
/* Dashes, so that series differ without colour too. */
static const char *const SERIES_DASH[SVG_MAX_SERIES] = {
    "", "6 3", "2 2", "8 3 2 3", "", "6 3", "2 2", "8 3 2 3", "", "6 3",
};

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
    double lo, hi;      /* data range shown (log: powers of ten, lo > 0) */
    double step;        /* tick step (log: ticks at every power of ten) */
    const char *label;
    bool log;
} axis;

static double map_x(const box *b, const axis *a, double v)
{
    return b->left + (v - a->lo) / (a->hi - a->lo) * (b->right - b->left);
}

/* On a log axis a value below the range (a rate of 0) sits on the bottom. */
static double map_y(const box *b, const axis *a, double v)
{
    if (a->log) {
        double t = v < a->lo ? 0 : (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo));
        return b->bottom - t * (b->bottom - b->top);
    }
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
    out_file_printf(f, "</g>\n<g class=\"y-ticks%s\" fill=\"#222\">\n", y->log ? " log" : "");
    for (int64_t k = y->log ? (int64_t)floor(log10(y->lo) + 0.5) : (int64_t)ceil(y->lo / y->step - 1e-9); ; k++) {
        double v = y->log ? pow(10, (double)k) : (double)k * y->step;
        if (v > y->hi * (1 + 1e-9) + (y->log ? 0 : y->step * 1e-9)) break;
        double py = map_y(b, y, v);
        out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#ddd\"/>\n",
                        b->left, py, b->right, py);
        out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"#444\"/>\n",
                        b->left - 5, py, b->left, py);
        if (y->log) snprintf(lab, sizeof lab, "%g", v);
        else svg_tick_label(lab, sizeof lab, v, y->step);
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
    return (axis){ 0, ceil(top / step - 1e-9) * step, step, label, false };
}

/* A log axis from the power of ten at or below the smallest positive value
 * to the one at or above top. */
static axis log_based(double least, double top, const char *label)
{
    if (!(least > 0)) least = 1;
    if (!(top > least)) top = least * 10;
    double lo = pow(10, floor(log10(least) + 1e-9)), hi = pow(10, ceil(log10(top) - 1e-9));
    if (!(hi > lo)) hi = lo * 10;
    return (axis){ lo, hi, 1, label, true };
}

/* ---- the two plots ---------------------------------------------------------- */

/* The largest count of bins [i, i + group) of b (0 past its last bin). */
static uint64_t group_max(const bins *b, uint64_t i, uint64_t group)
{
    uint64_t m = 0;
    for (uint64_t j = i; j < b->used && j < i + group; j++)
        if (b->count[j] > m) m = b->count[j];
    return m;
}

static void time_plot(out_file *f, const svg_input *in, const box *bx)
{
    const bins *b = in->b;
    double p = (double)in->s->processors;
    uint64_t n = b->used, group = (n + SVG_MAX_POINTS - 1) / SVG_MAX_POINTS;
    if (group == 0) group = 1;
    svg_series one = { "all events", b };
    const svg_series *ser = in->nseries ? in->series : &one;
    int nser = in->nseries ? in->nseries : 1;
    text(f, bx->left, bx->top - 12, "start", 14, " font-weight=\"bold\"", "Rate over the clock");
    if (group > 1) {
        char note[96];
        snprintf(note, sizeof note, "each step: the largest of %" PRIu64 " consecutive bins", group);
        text(f, (bx->left + bx->right) / 2, bx->bottom + 60, "middle", 11, " fill=\"#444\"", note);
    }

    /* The scale: the largest drawn rate with 10 % headroom above it. */
    double top = 0, least = 0;
    for (int k = 0; k < nser; k++)
        for (uint64_t i = 0; i < n; i += group) {
            double r = (double)group_max(ser[k].b, i, group) / p;
            if (r > top) top = r;
            if (r > 0 && (least == 0 || r < least)) least = r;
        }
    axis x = { 0, n ? (double)n * (double)b->width : (double)b->width, 0, in->xlabel, false };
    x.step = svg_tick_step(x.hi, 8, 1);
    axis y = in->log_y ? log_based(least, top * 1.1, in->ylabel) : zero_based(top * 1.1, 5, 0, in->ylabel);
    draw_axes(f, bx, &x, &y);
    if (n == 0) text(f, (bx->left + bx->right) / 2, (bx->top + bx->bottom) / 2, "middle", 14,
                     " fill=\"#444\"", "no events");

    /* Each series as steps: per bin (or group), its level from start to end.
     * Pixel coordinates; the tests map them back through the ticks. */
    for (int k = 0; k < nser && n; k++) {
        const char *dash = SERIES_DASH[k];
        out_file_printf(f, "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\"%s%s%s"
                        " points=\"", SERIES_COLOR[k], dash[0] ? " stroke-dasharray=\"" : "", dash,
                        dash[0] ? "\"" : "");
        for (uint64_t i = 0; i < n; i += group) {
            uint64_t end = i + group < n ? i + group : n;
            double py = map_y(bx, &y, (double)group_max(ser[k].b, i, group) / p);
            out_file_printf(f, "%s%.2f,%.2f %.2f,%.2f", i ? " " : "", map_x(bx, &x, (double)(i * b->width)), py,
                            map_x(bx, &x, (double)(end * b->width)), py);
        }
        out_file_printf(f, "\"><title>");
        put_escaped(f, ser[k].name);
        out_file_printf(f, "</title></polyline>\n");
    }

    /* Tooltips with the numbers where there are few bins of one series:
     * a transparent box over each bin. */
    if (nser == 1 && group == 1 && n <= 200) {
        out_file_printf(f, "<g class=\"tips\" fill=\"#000\" fill-opacity=\"0\">\n");
        for (uint64_t i = 0; i < n; i++) {
            double x0 = map_x(bx, &x, (double)(i * b->width)), x1 = map_x(bx, &x, (double)((i + 1) * b->width));
            out_file_printf(f, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\"><title>bin %" PRIu64
                            ": clock %" PRIu64 ": %" PRIu64 " event%s</title></rect>\n", x0, bx->top, x1 - x0,
                            bx->bottom - bx->top, i, i * b->width, b->count[i], b->count[i] == 1 ? "" : "s");
        }
        out_file_printf(f, "</g>\n");
    }

    /* The mean rate, as in the frequency file; with series it would be of
     * none of them. */
    if (n && !in->nseries) {
        double mean = in->s->avg_rate, py = map_y(bx, &y, mean);
        out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\""
                        " stroke-dasharray=\"6 4\"/>\n", bx->left, py, bx->right, py, MEAN_COLOR);
        char lab[80];
        snprintf(lab, sizeof lab, "mean rate %.4f (dashed)", mean);
        text(f, bx->right, bx->top - 12, "end", 12, " fill=\"#c0392b\"", lab);
    }

    /* The legend, top right inside the plot, when there are series. */
    if (in->nseries) {
        double w = 0;
        for (int k = 0; k < nser; k++) {
            double len = 7.0 * (double)(strlen(ser[k].name) + 16);
            if (len > w) w = len;
        }
        double lx = bx->right - w - 40, ly = bx->top + 10;
        out_file_printf(f, "<g class=\"legend\">\n<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\""
                        " fill=\"#fff\" fill-opacity=\"0.85\" stroke=\"#888\"/>\n", lx, ly, w + 34,
                        18.0 * nser + 8);
        for (int k = 0; k < nser; k++) {
            double yy = ly + 16 + 18.0 * k;
            const char *dash = SERIES_DASH[k];
            out_file_printf(f, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\""
                            " stroke-width=\"2\"%s%s%s/>\n", lx + 6, yy - 4, lx + 30, yy - 4, SERIES_COLOR[k],
                            dash[0] ? " stroke-dasharray=\"" : "", dash, dash[0] ? "\"" : "");
            char lab[160];
            snprintf(lab, sizeof lab, "%s (%" PRIu64 " event%s)", ser[k].name, ser[k].b->events,
                     ser[k].b->events == 1 ? "" : "s");
            text(f, lx + 36, yy, "start", 12, "", lab);
        }
        out_file_printf(f, "</g>\n");
    }
}

static void density_plot(out_file *f, const svg_input *in, const box *bx)
{
    const distrib_summary *s = in->s;
    text(f, bx->left, bx->top - 12, "start", 14, " font-weight=\"bold\"",
         in->nseries ? "Density of the bin rate of all series (fraction of bins per class)"
                     : "Density of the bin rate (fraction of bins per class)");

    /* One class (min = max): an axis [0, 2 max] with one narrow bar at max. */
    bool one = in->nclasses == 1;
    axis x = { one ? 0 : s->min_rate, one ? 2 * s->max_rate : s->max_rate, 0,
               "rate (events per bin per processor)", false };
    if (!(x.hi > x.lo)) x.hi = x.lo + 1;
    x.step = svg_tick_step(x.hi - x.lo, 8, 0);
    double top = 0;
    for (uint64_t k = 0; k < in->nclasses; k++)
        if ((double)in->hist[k] / (double)s->bins > top) top = (double)in->hist[k] / (double)s->bins;
    axis y = zero_based(top * 1.1, 5, 0, "fraction of bins");
    draw_axes(f, bx, &x, &y);
    if (s->bins == 0) return;   /* no events: empty axes (the time plot says so) */

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
    int W = in->width, H = in->height;
    box tb, db;
    layout(W, H, &tb, &db);
    out_file_printf(f, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out_file_printf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"%d\" height=\"%d\""
                    " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\">\n", W, H, W, H);
    out_file_printf(f, "<title>");
    put_escaped(f, in->title);
    out_file_printf(f, "</title>\n");
    out_file_printf(f, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>\n", W, H);
    out_file_printf(f, "<text x=\"%d\" y=\"34\" text-anchor=\"middle\" font-size=\"18\""
                    " font-weight=\"bold\">", W / 2);
    put_escaped(f, in->title);
    out_file_printf(f, "</text>\n");
    text(f, W / 2.0, 56, "middle", 12, " fill=\"#444\"", in->subtitle);
    time_plot(f, in, &tb);
    density_plot(f, in, &db);
    out_file_printf(f, "</svg>\n");
}
